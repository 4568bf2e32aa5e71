/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * symbols.h - sampled addresses to function+offset, DSO and file:line.
 *
 * A session (struct symbols) knows the kernel's symbols (from kallsyms) and,
 * per process, which files are mapped where.  The tool feeds it mappings as
 * plain data -- from /proc/PID/maps or from MMAP2/COMM/FORK/EXIT records --
 * and asks for addresses.  Each ELF file is opened once through libdwfl and
 * shared by every process that maps it; every answer is cached per file.
 *
 * The library never prints, never exits, never runs a program.  Functions
 * that can fail return -1 (or NULL) with errno set; an address that cannot
 * be resolved is not an error of the call but an answer with a cause
 * (enum sym_cause) that symbols_cause_advice() turns into a fix.
 *
 * Lifetime: strings in a struct sym_result belong to the session and stay
 * valid until the next symbols_gc() or symbols_free().
 */
#ifndef SYMBOLS_SYMBOLS_H
#define SYMBOLS_SYMBOLS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct symbols;

/* Why an address has no function name (or a function but no file:line). */
enum sym_cause {
	SYM_OK = 0,
	SYM_NO_MAP,		/* address in no known mapping */
	SYM_NO_SYMBOL,		/* mapped file has symbols, none covers it */
	SYM_STRIPPED,		/* file has no .symtab and no covering .dynsym */
	SYM_NO_DEBUGINFO,	/* function known, no DWARF for file:line */
	SYM_BUILD_ID_MISMATCH,	/* debug file or recorded build-id differs */
	SYM_JIT_NO_MAP,		/* anonymous executable memory, no perf-PID.map */
	SYM_PERMISSION,		/* file not readable */
	SYM_NO_FILE,		/* file does not exist (any more) */
	SYM_DELETED,		/* file was deleted after it was mapped */
	SYM_REPLACED,		/* path now holds another file than was mapped */
	SYM_BAD_ELF,		/* not ELF, truncated or corrupt */
	SYM_KPTR_RESTRICT,	/* kernel addresses hidden by kptr_restrict */
	SYM_NO_KALLSYMS,	/* /proc/kallsyms unreadable */
	SYM_JIT_MAP_DIR,	/* perf-PID.map is a directory */
	SYM_JIT_MAP_NOT_FILE,	/* perf-PID.map a FIFO, device, link...: unread */
	SYM_JIT_MAP_UNTRUSTED,	/* perf-PID.map owned by another user */
	SYM_JIT_LINE_TOO_LONG,	/* perf-PID.map lines skipped for length */
	SYM_NO_FD,		/* no file descriptor left (ulimit -n): the
				   file is tried again at the next lookup */
	SYM_NO_MEMORY,		/* out of memory (ENOMEM) loading the file or
				   kallsyms: tried again at the next lookup;
				   a tool that cannot go on without it stops */
	SYM_PATH_TOO_LONG,	/* its path is longer than PATH_MAX
				   (ENAMETOOLONG): the file is not read */
	SYM_CAUSE_MAX
};

/* Short name of a cause ("stripped"); never NULL. */
const char *symbols_cause_name(enum sym_cause cause);
/* One line: what it means and how to fix it; never NULL. */
const char *symbols_cause_advice(enum sym_cause cause);

/* One frame of inlining: func was inlined, its code is at file:line. */
struct sym_inline {
	const char *func;	/* the inlined function (demangled) */
	const char *file;	/* where this frame is in its source, or NULL */
	int line;
};

struct sym_result {
	const char *sym;	/* function (demangled), NULL when unknown */
	uint64_t off;		/* address - start of sym */
	const char *dso;	/* path, "[kernel.kallsyms]", "[ext4]",
				   "[vdso]", "[jit]", "[unknown]" */
	uint64_t dso_off;	/* address within dso (ELF vaddr), 0 for kernel */
	const char *file;	/* innermost source file (absolute when DWARF
				   says so), NULL when unknown */
	int line;		/* its line, 0 when unknown */
	unsigned n_inline;	/* 0 without inlining, else the frames from
				   innermost out: inl[0] is the inlined
				   function at file:line, each next one its
				   caller at the call site, the last the
				   function that holds the code (sym) */
	const struct sym_inline *inl;
	enum sym_cause cause;	/* SYM_OK, or why sym (or file) is missing */
	bool kernel;
};

enum {
	SYMBOLS_NO_LINES = 1 << 0,	/* no file:line (and no inlines) */
	SYMBOLS_NO_INLINES = 1 << 1,	/* file:line, but skip inline frames */
	SYMBOLS_NO_DEMANGLE = 1 << 2,	/* keep C++/Rust names mangled */
	SYMBOLS_NO_PROC = 1 << 3,	/* never read /proc on a miss */
};

struct symbols_opts {
	size_t sz;		/* sizeof(struct symbols_opts) */
	unsigned flags;		/* SYMBOLS_* */
	const char *kallsyms;	/* NULL: /proc/kallsyms */
	const char *proc;	/* NULL: /proc (tests may point elsewhere) */
	const char *jit_dir;	/* NULL: /tmp (for perf-PID.map) */
	size_t cache_entries;	/* per-file address cache; 0: 65536 */
	/* a flag a signal handler sets, living as long as the session:
	   once set, a long read (kallsyms) gives up; NULL: none */
	const volatile sig_atomic_t *stop;
};

#define SYMBOLS_OPTS(...) \
	((struct symbols_opts){ .sz = sizeof(struct symbols_opts), __VA_ARGS__ })

/*
 * A new session (opts may be NULL), or NULL with errno: ENOMEM; EINVAL or
 * E2BIG for an opts.sz that breaks libbpf's rule (an older, smaller
 * struct is fine; a larger one must be zero past what we know).
 */
struct symbols *symbols_new(const struct symbols_opts *opts);

/* Free the session, its files, processes and caches.  NULL is a no-op. */
void symbols_free(struct symbols *s);

/*
 * Use debug_file for symbols and lines of binary (the 2008 demo's -d):
 * whenever a mapping's file is binary (same device and inode), debug_file
 * is read instead.  When both carry a build-id they must match, otherwise
 * lookups in it answer SYM_BUILD_ID_MISMATCH.  debug_file is opened as a
 * plain path (no shell, no expansion).  Returns 0, or -1 with errno
 * (ENOENT/EACCES for either path).
 */
int symbols_set_debug_file(struct symbols *s, const char *binary,
			   const char *debug_file);

/*
 * Whether debug_file can stand for binary (a tool checks its -d before
 * sampling): SYM_OK; SYM_NO_FILE (none, or a directory); SYM_PERMISSION;
 * SYM_BAD_ELF (not ELF, truncated or corrupt, as a lookup would find
 * it); SYM_BUILD_ID_MISMATCH (both carry a build-id and they differ).
 * A stripped file is fine here: lookups will say so.
 */
enum sym_cause symbols_check_debug_file(struct symbols *s, const char *binary,
				       const char *debug_file);

/* A mapping, as an MMAP2 record or a /proc/PID/maps line describes it. */
struct sym_mapping {
	uint64_t start, len, pgoff;
	uint32_t maj, min;	/* device of the file, 0:0 when unknown */
	uint64_t ino;		/* inode, 0 when unknown */
	uint32_t prot;		/* PROT_*; only PROT_EXEC mappings matter */
	const uint8_t *build_id;/* from an MMAP2 with build-id, else NULL */
	size_t build_id_size;
	const char *path;	/* file, "[vdso]", "//anon", "" ... */
};

/*
 * Parse one /proc/PID/maps line into *m (m->path points into line, whose
 * trailing newline is cut).  Returns 0, or -1 with errno EINVAL.
 */
int symbols_parse_maps_line(char *line, struct sym_mapping *m);

/*
 * Tell the session about process pid's mappings.  symbols_mmap() adds one
 * (replacing what it overlaps); symbols_read_maps() reads all of
 * /proc/PID/maps (replacing what the session knew of pid; an empty file,
 * a process exited and not yet reaped, replaces nothing).  Both return 0,
 * or -1 with errno (ESRCH: no such process, ENOMEM).
 */
int symbols_mmap(struct symbols *s, pid_t pid, const struct sym_mapping *m);
int symbols_read_maps(struct symbols *s, pid_t pid);

/*
 * The program process pid runs, as its mappings name the file (the
 * name symbols_resolve() gives its code as dso): the mapping of
 * /proc/PID/exe when its maps were read, else the first file mapping of
 * code after its exec (the kernel maps the program before ld.so).
 * Known for live processes and the last 16 freed by symbols_gc().  NULL
 * when unknown.  The string lives until symbols_gc() or symbols_free().
 */
const char *symbols_program(struct symbols *s, pid_t pid);

/*
 * Read the kernel's symbols now instead of at the first kernel address
 * (which is what happens otherwise): a tool that knows kernel samples
 * will come can do it while it waits for them.  Returns 0, or -1 when
 * they cannot be had (the cause is what kernel lookups will answer),
 * with errno as kallsyms_load_until() left it where it failed (EINTR
 * when opts.stop was set: the next call reads again).
 */
int symbols_load_kernel(struct symbols *s);

/* Process pid was created from ppid (a FORK record with pid != ppid). */
int symbols_fork(struct symbols *s, pid_t pid, pid_t ppid);

/* Process pid called exec (COMM with PERF_RECORD_MISC_COMM_EXEC): its old
   mappings are gone; the new ones follow as MMAP2 records. */
int symbols_exec(struct symbols *s, pid_t pid);

/*
 * Process pid exited.  Its mappings stay until symbols_gc(), so samples it
 * left in the ring still resolve.
 */
void symbols_exit(struct symbols *s, pid_t pid);

/*
 * Release exited processes and the files no process maps any more.
 * Every string handed out before becomes invalid.
 */
void symbols_gc(struct symbols *s);

/*
 * Bound the reading of JITs' perf-PID.map files (one of millions of lines
 * takes a second of CPU) to ms of the calling thread's CPU time, from now
 * until the next call; a negative ms lifts the bound (the default: each
 * miss reads up to 4 MiB of the map).  A lookup past the bound resolves
 * from the lines read so far; the read goes on at the next budget.  A
 * live tool grants a slice at each drain, and keeps its frames' pace.
 */
void symbols_jit_budget(struct symbols *s, double ms);

/*
 * Resolve ip, sampled in process pid (kernel true for a kernel-mode
 * sample).  Fills *out.  Returns 0 when a function name was found, or -1
 * with out->cause saying why (out->dso and dso_off are still set when the
 * address lies in a known mapping).  Unresolved answers are counted for
 * symbols_unresolved().
 */
int symbols_resolve(struct symbols *s, pid_t pid, uint64_t ip, bool kernel,
		    struct sym_result *out);

/*
 * Resolve addr, an ELF virtual address of file path (as nm and addr2line
 * print them), without any process.  The file is the one a sampled
 * process mapped under that name (read through /proc/PID/root or
 * map_files: a process of another mount namespace), else the one at
 * path here.  Returns as symbols_resolve().
 */
int symbols_resolve_file(struct symbols *s, const char *path, uint64_t addr,
			 struct sym_result *out);

/*
 * The machine code of the function of file path that covers addr (an
 * ELF vaddr, as symbols_resolve_file() takes it), for a disassembler.
 * The file is untrusted: the bytes are copied from the executable
 * section that holds the function, within its bounds, and at most
 * SYMBOLS_CODE_MAX of them (truncated says so).
 *
 * Returns 0 and fills *out, whose bytes the caller owns (release them
 * with sym_code_release()); or -1 with out->cause saying why (a stripped
 * file, no symbol there, SYM_BAD_ELF for a section without the bytes)
 * and errno ENOENT; errno ENOEXEC (cause SYM_OK) when the function is in
 * no executable section of the file (code in .data, run from memory
 * made executable); or ENOMEM.
 */
#define SYMBOLS_CODE_MAX (256 << 10)
struct sym_code {
	uint64_t start;		/* ELF vaddr of the function's first byte */
	uint8_t *bytes;		/* size bytes, owned by the caller */
	size_t size;
	unsigned machine;	/* the file's e_machine (EM_X86_64...) */
	bool truncated;		/* the function is longer than size */
	enum sym_cause cause;
};
int symbols_code_file(struct symbols *s, const char *path, uint64_t addr,
		      struct sym_code *out);
/* Free c's bytes and zero it.  A zeroed struct is fine. */
void sym_code_release(struct sym_code *c);

/*
 * Make s read path as session from saw it: where from resolved samples
 * in a file of that name through a process (/proc/PID/root, map_files:
 * a process in another mount namespace), symbols_resolve_file() and
 * symbols_code_file() of s read that file too, not the one at path
 * here.  0 (also when from saw no such file), or -1 with errno ENOMEM.
 */
int symbols_see_as(struct symbols *s, struct symbols *from,
		   const char *path);

/*
 * source_lines() of file, a source file that the debug information of
 * dso names: read through the root of the process whose mapping s read
 * dso from (/proc/PID/root: a process in another mount namespace sees
 * its own source tree), else, or where it is not there, at file here.
 * Returns as source_lines().
 */
int symbols_source_lines(struct symbols *s, const char *dso,
			 const char *file, const int *want, size_t n,
			 char **text);

/*
 * The mapping of process pid that holds addr, for an unwinder that must
 * read the file's unwinding tables (lib/unwind).  Pointers stay valid
 * until the next symbols_gc() or symbols_free().
 */
struct sym_map {
	uint64_t start, end;	/* the mapping: [start, end) */
	uint64_t pgoff;		/* file offset of start */
	uint64_t bias;		/* load bias: address - ELF vaddr (0 when
				   the file could not be read) */
	const char *name;	/* shown path, "[vdso]", "[jit]" */
	const char *elf_path;	/* the file to read (the path, or
				   /proc/PID/map_files/... for a deleted
				   one); NULL when image is set or the
				   file is unusable */
	const void *image;	/* the ELF image in memory (the vDSO) */
	size_t image_size;
	uint64_t ino;		/* the mapped inode, 0 when unknown */
	enum sym_cause cause;	/* SYM_OK, or why the file is unusable:
				   SYM_JIT_NO_MAP for anonymous code */
};

/*
 * Fill *out with the executable mapping of pid that holds addr, reading
 * /proc/PID/maps on a miss as symbols_resolve() does.  Returns 0 (also
 * for an unusable file: out->cause says why), or -1 with errno ENOENT
 * (no mapping holds addr) or ENOMEM.  Not counted as a lookup.
 */
int symbols_map_lookup(struct symbols *s, pid_t pid, uint64_t addr,
		       struct sym_map *out);

/*
 * The GNU build-id of dso, a name as struct sym_result gives it: the
 * session's file of that name when it has one, else the file at that
 * path.  Writes at most size bytes to id and returns the build-id's
 * length, 0 when the file has none (or is not a file: "[kernel.kallsyms]"),
 * or -1 with errno.
 */
int symbols_build_id(struct symbols *s, const char *dso, uint8_t *id,
		     size_t size);

/*
 * Whether dso (named as symbols_build_id() takes it) is a program -- an
 * executable or a PIE -- rather than a shared library: 1, 0 (a library,
 * or not a file: "[vdso]"), or -1 with errno when the file cannot be
 * read.
 */
int symbols_is_program(struct symbols *s, const char *dso);

/* What could not be resolved, per file and cause. */
struct sym_unresolved {
	const char *dso;
	enum sym_cause cause;
	uint64_t count;		/* samples (lookups) with this cause */
};

/*
 * Copy up to n entries, largest count first, into out.  Returns the number
 * of entries there are (which may exceed n).
 */
size_t symbols_unresolved(const struct symbols *s, struct sym_unresolved *out,
			  size_t n);

/* Counters, for tests and benchmarks. */
struct symbols_stats {
	uint64_t lookups, cache_hits;
	unsigned files_open, files_loaded, processes;
	size_t cache_bytes;
};
void symbols_stats(const struct symbols *s, struct symbols_stats *st);

#endif /* SYMBOLS_SYMBOLS_H */
