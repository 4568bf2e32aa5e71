/*
 * test-units.c - the parts of lib/symbols that need no binary: interval
 * maps, kallsyms and perf-PID.map parsing, demangling, /proc/PID/maps
 * lines, the cause table and source lines' text.  Tables of
 * input and expected answer, as libpfm4 tests encodings.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include "symbols/demangle.h"
#include "symbols/files.h"
#include "symbols/jitmap.h"
#include "symbols/kallsyms.h"
#include "symbols/maps.h"
#include "symbols/proc.h"
#include "symbols/source.h"
#include "symbols/symbols.h"
#include "../check.h"

/* --- maps: insert a sequence, expect the resulting intervals --------- */

struct ival {
	uint64_t start, end, pgoff;
};

static const struct {
	const char *what;
	struct ival in[4];
	struct ival out[5];
} map_cases[] = {
	{ "disjoint, out of order",
	  { { 0x3000, 0x4000, 0 }, { 0x1000, 0x2000, 0 } },
	  { { 0x1000, 0x2000, 0 }, { 0x3000, 0x4000, 0 } } },
	{ "split in the middle",
	  { { 0x1000, 0x5000, 0 }, { 0x2000, 0x3000, 0x100000 } },
	  { { 0x1000, 0x2000, 0 }, { 0x2000, 0x3000, 0x100000 },
	    { 0x3000, 0x5000, 0x2000 } } },
	{ "split with mappings after it",
	  { { 0x1000, 0x5000, 0 }, { 0x6000, 0x7000, 0x300 },
	    { 0x8000, 0x9000, 0x400 }, { 0x2000, 0x3000, 0x100000 } },
	  { { 0x1000, 0x2000, 0 }, { 0x2000, 0x3000, 0x100000 },
	    { 0x3000, 0x5000, 0x2000 }, { 0x6000, 0x7000, 0x300 },
	    { 0x8000, 0x9000, 0x400 } } },
	{ "cover several, trim both ends",
	  { { 0x1000, 0x3000, 0 }, { 0x3000, 0x4000, 0 },
	    { 0x4000, 0x6000, 0 }, { 0x2000, 0x5000, 0x9000 } },
	  { { 0x1000, 0x2000, 0 }, { 0x2000, 0x5000, 0x9000 },
	    { 0x5000, 0x6000, 0x1000 } } },
	{ "exact replace",
	  { { 0x1000, 0x2000, 0 }, { 0x1000, 0x2000, 0x7000 } },
	  { { 0x1000, 0x2000, 0x7000 } } },
	{ "cover all",
	  { { 0x2000, 0x3000, 0 }, { 0x4000, 0x5000, 0 },
	    { 0x1000, 0x8000, 0 } },
	  { { 0x1000, 0x8000, 0 } } },
};

static void test_maps(void)
{
	size_t c, i, n;

	for (c = 0; c < sizeof(map_cases) / sizeof(map_cases[0]); c++) {
		struct maps ms = { 0 };

		for (i = 0; i < 4 && map_cases[c].in[i].end; i++) {
			struct map mp = { map_cases[c].in[i].start,
					  map_cases[c].in[i].end,
					  map_cases[c].in[i].pgoff, NULL,
					  MAPK_ANON };

			CHECK(maps_insert(&ms, &mp) == 0, "%s: insert",
			      map_cases[c].what);
		}
		for (n = 0; n < 5 && map_cases[c].out[n].end; n++)
			;
		CHECK(ms.n == n, "%s: %zu intervals, want %zu",
		      map_cases[c].what, ms.n, n);
		for (i = 0; i < n && i < ms.n; i++)
			CHECK(ms.m[i].start == map_cases[c].out[i].start &&
				      ms.m[i].end == map_cases[c].out[i].end &&
				      ms.m[i].pgoff == map_cases[c].out[i].pgoff,
			      "%s: [%zu] = %" PRIx64 "-%" PRIx64 "@%" PRIx64,
			      map_cases[c].what, i, ms.m[i].start,
			      ms.m[i].end, ms.m[i].pgoff);
		if (n) {
			const struct map *f = maps_find(&ms, ms.m[0].start);

			CHECK(f == &ms.m[0], "%s: find start",
			      map_cases[c].what);
			CHECK(!maps_find(&ms, ms.m[ms.n - 1].end),
			      "%s: end is exclusive", map_cases[c].what);
		}
		maps_release(&ms);
	}
}

/* --- /proc/PID/maps lines ------------------------------------------- */

static const struct {
	const char *line;
	int ret;
	uint64_t start, len, pgoff, ino;
	uint32_t prot;
	const char *path;
} maps_lines[] = {
	{ "55d798ee1000-55d798f05000 r-xp 00004000 fe:00 247476     "
	  "/usr/bin/grep\n", 0, 0x55d798ee1000, 0x24000, 0x4000, 247476,
	  PROT_READ | PROT_EXEC, "/usr/bin/grep" },
	{ "7ffc1f3e0000-7ffc1f3e2000 r-xp 00000000 00:00 0   [vdso]", 0,
	  0x7ffc1f3e0000, 0x2000, 0, 0, PROT_READ | PROT_EXEC, "[vdso]" },
	{ "7f0000000000-7f0000001000 rwxp 00000000 00:00 0 ", 0,
	  0x7f0000000000, 0x1000, 0, 0,
	  PROT_READ | PROT_WRITE | PROT_EXEC, "" },
	{ "7f00-7e00 r-xp 0 00:00 0 /x", -1, 0, 0, 0, 0, 0, NULL },
	{ "garbage", -1, 0, 0, 0, 0, 0, NULL },
	{ "", -1, 0, 0, 0, 0, 0, NULL },
	/* a permission field too short to hold r, w and x */
	{ "1000-2000 r 00000000 08:01 12 /x", -1, 0, 0, 0, 0, 0, NULL },
	{ "1000-2000 r-xp 00000000 08:01 12 /a path/with spaces (deleted)",
	  0, 0x1000, 0x1000, 0, 12, PROT_READ | PROT_EXEC,
	  "/a path/with spaces (deleted)" },
	/* the kernel's escape of a newline, and only of a newline */
	{ "1000-2000 r-xp 00000000 08:01 12 /tmp/a\\012b\\n\\012", 0,
	  0x1000, 0x1000, 0, 12, PROT_READ | PROT_EXEC, "/tmp/a\nb\\n\n" },
};

static void test_maps_lines(void)
{
	size_t i;

	for (i = 0; i < sizeof(maps_lines) / sizeof(maps_lines[0]); i++) {
		char buf[256];
		struct sym_mapping m;
		int ret;

		snprintf(buf, sizeof(buf), "%s", maps_lines[i].line);
		ret = symbols_parse_maps_line(buf, &m);
		CHECK(ret == maps_lines[i].ret, "maps line %zu: ret %d", i,
		      ret);
		if (ret || maps_lines[i].ret)
			continue;
		CHECK(m.start == maps_lines[i].start &&
			      m.len == maps_lines[i].len &&
			      m.pgoff == maps_lines[i].pgoff &&
			      m.ino == maps_lines[i].ino &&
			      m.prot == maps_lines[i].prot,
		      "maps line %zu: fields", i);
		CHECK(strcmp(m.path, maps_lines[i].path) == 0,
		      "maps line %zu: path '%s'", i, m.path);
	}
}

/* --- kallsyms --------------------------------------------------------- */

static const char kallsyms_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t do_one\n"
	"ffffffff81002000 D some_data\n"
	"ffffffff81000200 T do_two\n"
	"ffffffffc0001000 t ext4_fn\t[ext4]\n"
	"ffffffffc0000000 t xfs_fn\t[xfs]\n"
	"bogus line\n";

static const struct {
	uint64_t addr;
	const char *name, *module;
	uint64_t off;
} ksym_cases[] = {
	{ 0xffffffff81000000, "_stext", "[kernel.kallsyms]", 0 },
	{ 0xffffffff81000104, "do_one", "[kernel.kallsyms]", 4 },
	{ 0xffffffff81000fff, "do_two", "[kernel.kallsyms]", 0xdff },
	{ 0xffffffffc0000010, "xfs_fn", "[xfs]", 0x10 },
	{ 0xffffffffc0001010, "ext4_fn", "[ext4]", 0x10 },
	{ 0xffffffffc0002000, NULL, NULL, 0 },	/* a page past the last */
	{ 0xffffffff80000000, NULL, NULL, 0 },	/* before the first */
};

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/symbols-test.XXXXXX");
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	close(fd);
	return path;
}

static void test_kallsyms(void)
{
	char *path = write_tmp(kallsyms_text);
	struct kallsyms *ks = kallsyms_load(path);
	size_t i;

	CHECK(ks != NULL, "kallsyms_load");
	if (!ks)
		goto out;
	CHECK(!kallsyms_hidden(ks), "not hidden");
	CHECK(kallsyms_count(ks) == 5, "5 text symbols, got %zu",
	      kallsyms_count(ks));
	for (i = 0; i < sizeof(ksym_cases) / sizeof(ksym_cases[0]); i++) {
		const char *mod = NULL, *name;
		uint64_t off = 0;

		name = kallsyms_lookup(ks, ksym_cases[i].addr, &off, &mod);
		if (!ksym_cases[i].name) {
			CHECK(!name, "%#" PRIx64 ": want nothing, got %s",
			      ksym_cases[i].addr, name);
			continue;
		}
		CHECK(name && strcmp(name, ksym_cases[i].name) == 0 &&
			      off == ksym_cases[i].off &&
			      strcmp(mod, ksym_cases[i].module) == 0,
		      "%#" PRIx64 ": got %s+%#" PRIx64 " %s",
		      ksym_cases[i].addr, name, off, mod);
	}
	kallsyms_free(ks);
out:
	unlink(path);
	free(path);

	/* kptr_restrict: every address zero */
	path = write_tmp("0000000000000000 T _stext\n"
			 "0000000000000000 t foo\n");
	ks = kallsyms_load(path);
	CHECK(ks && kallsyms_hidden(ks), "all-zero table is hidden");
	if (ks) {
		const char *mod;
		uint64_t off;

		CHECK(!kallsyms_lookup(ks, 0x1000, &off, &mod),
		      "hidden table resolves nothing");
	}
	kallsyms_free(ks);
	unlink(path);
	free(path);

	CHECK(!kallsyms_load("/nonexistent/kallsyms"), "missing file");
}

/* --- perf-PID.map ----------------------------------------------------- */

static void test_jitmap(void)
{
	char *path = write_tmp("1000 100 jit_alpha\n"
			       "2000 10 LazyCompile:*beta file.js:3\n"
			       "not a line\n");
	struct jitmap *jm = jitmap_new(path, geteuid());
	const char *name;
	uint64_t off = 0;
	FILE *f;

	name = jitmap_lookup(jm, 0x1010, &off, NULL, NULL);
	CHECK(name && !strcmp(name, "jit_alpha") && off == 0x10, "alpha");
	name = jitmap_lookup(jm, 0x2004, &off, NULL, NULL);
	CHECK(name && !strcmp(name, "LazyCompile:*beta file.js:3"),
	      "name with spaces");
	CHECK(!jitmap_lookup(jm, 0x2010, &off, NULL, NULL), "past the end");
	/* the JIT appends: the map is read again */
	f = fopen(path, "a");
	fputs("3000 20 jit_gamma\n", f);
	fclose(f);
	name = jitmap_lookup(jm, 0x3001, &off, NULL, NULL);
	CHECK(name && !strcmp(name, "jit_gamma") && off == 1,
	      "appended entry found");
	jitmap_free(jm);
	unlink(path);
	free(path);
}

/* A JIT writing as we read, a huge line, a file rewritten smaller. */
static void test_jitmap_growth(void)
{
	char *path = write_tmp("1000 10 one\n4000 4");
	struct jitmap *jm = jitmap_new(path, geteuid());
	enum sym_cause cause = SYM_OK;
	const char *name;
	uint64_t off = 0;
	size_t i;
	FILE *f;

	CHECK(jitmap_lookup(jm, 0x1001, &off, NULL, NULL), "whole line read");
	/* "4000 4" is half of "4000 40 four\n": not a 4-byte "" */
	CHECK(!jitmap_lookup(jm, 0x4002, &off, NULL, NULL), "half-written line skipped");
	f = fopen(path, "a");
	fputs("0 four\n", f);
	/* 1 MiB without a newline, then a real line */
	for (i = 0; i < (1 << 20) / 16; i++)
		fputs("5000 10 xxxxxxxx", f);
	fputs("\n6000 10 six\n", f);
	fclose(f);
	name = jitmap_lookup(jm, 0x4030, &off, NULL, NULL);
	CHECK(name && !strcmp(name, "four") && off == 0x30,
	      "completed line found: %s", name ? name : "(null)");
	CHECK(!jitmap_lookup(jm, 0x5001, &off, &cause, NULL) &&
	      cause == SYM_JIT_LINE_TOO_LONG && jitmap_long_lines(jm) == 1,
	      "overlong line skipped, counted, and the cause says so");
	name = jitmap_lookup(jm, 0x6001, &off, NULL, NULL);
	CHECK(name && !strcmp(name, "six"), "line after an overlong one");
	/* rewritten smaller: read from the start */
	f = fopen(path, "w");
	fputs("7000 10 seven\n", f);
	fclose(f);
	name = jitmap_lookup(jm, 0x7001, &off, NULL, NULL);
	CHECK(name && !strcmp(name, "seven"), "rewritten file read again");
	CHECK(!jitmap_lookup(jm, 0x1001, &off, NULL, NULL), "old entries dropped");
	jitmap_free(jm);
	unlink(path);
	free(path);
}

/* jitmap_lookup() on what path now is: the cause of the miss. */
static enum sym_cause jit_refusal(const char *path, uid_t owner)
{
	struct jitmap *jm = jitmap_new(path, owner);
	enum sym_cause cause = SYM_OK;
	uint64_t off;

	if (jitmap_lookup(jm, 0x1001, &off, &cause, NULL))
		cause = SYM_OK;
	jitmap_free(jm);
	return cause;
}

/* What anyone can plant in /tmp: never read, never blocked on, and the
   cause names it. */
static void test_jitmap_untrusted(void)
{
	char dir[] = "/tmp/jitmap-test.XXXXXX", path[64];
	uint64_t off;
	struct jitmap *jm;
	double budget;
	unsigned slices;
	bool spent = true;
	FILE *f;
	int fd;

	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/perf-1.map", dir);
	CHECK(jit_refusal(path, geteuid()) == SYM_JIT_NO_MAP, "no file");

	CHECK(mkdir(path, 0755) == 0, "mkdir");
	CHECK(jit_refusal(path, geteuid()) == SYM_JIT_MAP_DIR, "directory");
	rmdir(path);

	/* a FIFO without a writer: a blocking open would wait forever */
	CHECK(mkfifo(path, 0644) == 0, "mkfifo");
	CHECK(jit_refusal(path, geteuid()) == SYM_JIT_MAP_NOT_FILE, "FIFO");
	unlink(path);

	/* a link to /dev/zero: endless bytes without a newline */
	CHECK(symlink("/dev/zero", path) == 0, "symlink");
	CHECK(jit_refusal(path, geteuid()) == SYM_JIT_MAP_NOT_FILE,
	      "symbolic link");
	unlink(path);

	/* another user's file (ours, seen from a map that trusts uid 12345
	   only when we are not root: root's files are always trusted) */
	f = fopen(path, "w");
	fputs("1000 10 planted\n", f);
	fclose(f);
	CHECK(jit_refusal(path, geteuid()) == SYM_OK, "own file read");
	if (geteuid() != 0)
		CHECK(jit_refusal(path, 12345) == SYM_JIT_MAP_UNTRUSTED,
		      "another user's file ignored");
	else if (chown(path, 12345, 12345) == 0)
		CHECK(jit_refusal(path, 0) == SYM_JIT_MAP_UNTRUSTED &&
		      jit_refusal(path, 12345) == SYM_OK,
		      "uid 12345's file: ignored by root's map, read by its own");

	/* a map that a plant replaces is forgotten */
	jm = jitmap_new(path, 12345);
	CHECK(jitmap_lookup(jm, 0x1001, &off, NULL, NULL), "read before the plant");
	unlink(path);
	CHECK(symlink("/dev/zero", path) == 0, "symlink");
	CHECK(!jitmap_lookup(jm, 0x2001, &off, NULL, NULL) &&
	      !jitmap_lookup(jm, 0x1001, &off, NULL, NULL),
	      "replaced by a link: entries dropped");
	jitmap_free(jm);
	unlink(path);

	/* nothing but an overlong line: no symbol at all (UBSan watched
	   the empty table being sorted) */
	f = fopen(path, "w");
	fputs("1000 10 ", f);
	for (int i = 0; i < 5000; i++)
		fputc('x', f);
	fputc('\n', f);
	fclose(f);
	{
		enum sym_cause cause = SYM_OK;

		jm = jitmap_new(path, geteuid());
		CHECK(!jitmap_lookup(jm, 0x1001, &off, &cause, NULL) &&
		      cause == SYM_JIT_LINE_TOO_LONG,
		      "a map of one overlong line: no symbol, cause named");
		jitmap_free(jm);
	}
	unlink(path);

	/* 6 MiB of lines before the one wanted: each refresh reads 4 MiB at
	   most, so the second miss finds it */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	f = fdopen(fd, "w");
	for (int i = 0; i < 6 << 10; i++)
		fprintf(f, "100 1 %01017d\n", i);
	fputs("9000 10 last\n", f);
	fclose(f);
	jm = jitmap_new(path, geteuid());
	CHECK(!jitmap_lookup(jm, 0x9001, &off, NULL, NULL), "first refresh bounded");
	CHECK(jitmap_lookup(jm, 0x9001, &off, NULL, NULL), "rest read at the next");
	jitmap_free(jm);

	/* within a budget of CPU: none left reads nothing; a small one
	   reads on, slice after slice, to the end */
	jm = jitmap_new(path, geteuid());
	budget = 0;
	CHECK(!jitmap_lookup(jm, 0x100, &off, NULL, &budget),
	      "no budget: nothing read");
	for (slices = 0; slices < 100000; slices++) {
		budget = 0.05;
		if (jitmap_lookup(jm, 0x9001, &off, NULL, &budget))
			break;
		spent &= budget < 0.05;
	}
	CHECK(spent, "each slice spends its budget");
	CHECK(slices > 2 && slices < 100000,
	      "6 MiB read in slices of 0.05 ms: found after %u", slices);
	CHECK(jitmap_lookup(jm, 0x100, &off, NULL, &budget), "first line too");
	jitmap_free(jm);
	unlink(path);
	rmdir(dir);
}

/* The unresolved table keeps one row per file name, however often the
   file is freed by gc and opened again. */
static void test_unresolved_bounded(void)
{
	struct symbols *s = symbols_new(&SYMBOLS_OPTS(.flags =
						      SYMBOLS_NO_PROC));
	struct sym_mapping m = { .start = 0x400000, .len = 0x1000,
				 .prot = PROT_EXEC,
				 .path = "/nonexistent/libgone.so" };
	struct sym_unresolved u[4];
	struct sym_result r;
	int i;

	for (i = 0; i < 100; i++) {
		pid_t pid = 1000 + i;

		CHECK(symbols_mmap(s, pid, &m) == 0, "mmap");
		CHECK(symbols_resolve(s, pid, 0x400010, false, &r) != 0 &&
		      r.cause == SYM_NO_FILE, "missing file");
		symbols_exit(s, pid);
		symbols_gc(s);
	}
	CHECK(symbols_unresolved(s, u, 4) == 1 && u[0].count == 100 &&
	      !strcmp(u[0].dso, "/nonexistent/libgone.so"),
	      "one row of 100, not 100 rows");
	symbols_free(s);
}

/* --- binaries replaced under their path ------------------------------- */

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY), out;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	close(in);
	close(out);
	return n < 0 ? -1 : 0;
}

static uint64_t inode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/*
 * A file replaced at its path after it was mapped is never read in its
 * place: not when the first lookup comes after the replacement, and not
 * for another process that maps the new file at the same path.
 */
static void test_replaced_path(void)
{
	struct symbols *s = symbols_new(&SYMBOLS_OPTS(.flags =
						      SYMBOLS_NO_PROC));
	char dir[] = "/tmp/pct-replace.XXXXXX", a[64], b[64], tmp[64];
	struct sym_mapping m = { .start = 0x400000, .len = 0x100000,
				 .prot = PROT_EXEC };
	struct sym_result r;

	CHECK(s && mkdtemp(dir), "setup");
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(tmp, sizeof(tmp), "%s/tmp", dir);

	/* mapped, then replaced before the first lookup */
	CHECK(copy_file("/proc/self/exe", a) == 0, "copy");
	m.path = a;
	m.ino = inode_of(a);
	CHECK(symbols_mmap(s, 4242, &m) == 0, "mmap a");
	CHECK(copy_file("/proc/self/exe", tmp) == 0 && rename(tmp, a) == 0,
	      "replace a");
	symbols_resolve(s, 4242, 0x401000, false, &r);
	CHECK(r.cause == SYM_REPLACED, "a replaced after mapping: cause %s",
	      symbols_cause_name(r.cause));

	/* loaded, then replaced: a new process at the path gets the new file */
	CHECK(copy_file("/proc/self/exe", b) == 0, "copy b");
	m.path = b;
	m.ino = inode_of(b);
	CHECK(symbols_mmap(s, 5000, &m) == 0, "mmap b");
	symbols_resolve(s, 5000, 0x401000, false, &r);
	CHECK(r.cause != SYM_REPLACED && r.cause != SYM_BAD_ELF,
	      "b as mapped: cause %s", symbols_cause_name(r.cause));
	CHECK(copy_file("/etc/hostname", tmp) == 0 && rename(tmp, b) == 0,
	      "replace b with a non-ELF file");
	m.ino = inode_of(b);
	CHECK(symbols_mmap(s, 5001, &m) == 0, "mmap new b");
	symbols_resolve(s, 5001, 0x401000, false, &r);
	CHECK(r.cause == SYM_BAD_ELF,
	      "the new b is read, not the old one shared: cause %s",
	      symbols_cause_name(r.cause));
	unlink(a);
	unlink(b);
	rmdir(dir);
	symbols_free(s);
}

/*
 * Out of descriptors (ulimit -n, counters took them): the cause says so,
 * not "bad ELF", and the file is read once descriptors are free again.
 */
static void test_no_fd(void)
{
	struct symbols *s = symbols_new(&SYMBOLS_OPTS(.flags =
						      SYMBOLS_NO_PROC));
	struct sym_mapping m = { .start = 0x400000, .len = 0x100000,
				 .prot = PROT_EXEC };
	struct rlimit old, low;
	struct sym_result r;
	char *exe = realpath("/proc/self/exe", NULL);
	int fds[256], n = 0;

	CHECK(s && exe && getrlimit(RLIMIT_NOFILE, &old) == 0, "setup");
	m.path = exe;
	m.ino = inode_of(exe);
	CHECK(symbols_mmap(s, 4343, &m) == 0, "mmap");
	low = old;
	low.rlim_cur = 64;
	CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0, "ulimit -n 64");
	while (n < 256 && (fds[n] = dup(0)) >= 0)
		n++;
	CHECK(n < 256 && errno == EMFILE, "descriptors used up");
	symbols_resolve(s, 4343, 0x401000, false, &r);
	CHECK(r.cause == SYM_NO_FD, "no descriptor: cause %s",
	      symbols_cause_name(r.cause));
	while (n > 0)
		close(fds[--n]);
	setrlimit(RLIMIT_NOFILE, &old);
	symbols_resolve(s, 4343, 0x401000, false, &r);
	CHECK(r.cause != SYM_NO_FD && r.cause != SYM_BAD_ELF,
	      "descriptors free again: read, cause %s",
	      symbols_cause_name(r.cause));
	free(exe);
	symbols_free(s);
}

#ifndef __SANITIZE_ADDRESS__	/* ASan reserves terabytes of addresses */
/* The address space in use now, in bytes (VmSize); 0 if unknown. */
static unsigned long long vm_size(void)
{
	unsigned long long kb = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}

/*
 * Out of memory ('ulimit -v' at what is in use, the heap's free room used
 * up): the cause says so, not "bad ELF" (the tools stop on it rather than
 * show [unknown] for every sample), and the file is read once memory is
 * there again.
 */
static void test_no_memory(void)
{
	struct symbols *s = symbols_new(&SYMBOLS_OPTS(.flags =
						      SYMBOLS_NO_PROC));
	struct sym_mapping m = { .start = 0x400000, .len = 0x100000,
				 .prot = PROT_EXEC };
	struct rlimit old, low;
	struct sym_result r;
	char *exe = realpath("/proc/self/exe", NULL);
	void **used = NULL, **p;
	unsigned n = 0;

	CHECK(s && exe && getrlimit(RLIMIT_AS, &old) == 0, "setup");
	m.path = exe;
	m.ino = inode_of(exe);
	CHECK(symbols_mmap(s, 4344, &m) == 0, "mmap");
	low = old;
	low.rlim_cur = vm_size();
	CHECK(low.rlim_cur > 0 && setrlimit(RLIMIT_AS, &low) == 0,
	      "ulimit -v at the use");
	/* what the heap holds free would serve a small file */
	while (n < 1u << 20 && (p = malloc(1024)) != NULL) {
		*p = used;
		used = p;
		n++;
	}
	symbols_resolve(s, 4344, 0x401000, false, &r);
	while (used) {
		p = *used;
		free(used);
		used = p;
	}
	setrlimit(RLIMIT_AS, &old);
	CHECK(n < 1u << 20, "memory used up (%u KiB)", n);
	CHECK(r.cause == SYM_NO_MEMORY, "no memory: cause %s",
	      symbols_cause_name(r.cause));
	symbols_resolve(s, 4344, 0x401000, false, &r);
	CHECK(r.cause != SYM_NO_MEMORY && r.cause != SYM_BAD_ELF,
	      "memory there again: read, cause %s",
	      symbols_cause_name(r.cause));
	free(exe);
	symbols_free(s);
}
#endif

/* --- demangling ---------------------------------------------------- */

static const struct {
	const char *in, *out;
} dem_cases[] = {
	{ "_ZN2fx6Widget4spinEi", "fx::Widget::spin(int)" },
	{ "_ZN2fx5twiceIlEET_S1_", "long fx::twice<long>(long)" },
	{ "_ZNSt6vectorIiSaIiEE9push_backERKi",
	  "std::vector<int, std::allocator<int> >::push_back(int const&)" },
	/* Rust legacy: the hash goes */
	{ "_ZN4core3fmt5write17h0123456789abcdefE", "core::fmt::write" },
	{ "main", NULL },
	{ "_Z", NULL },
	{ "_Zgarbage!", NULL },
};

/* --- the process table: lookup, walk, gc, free all ------------------ */

static void count_proc(struct sym_proc *p, void *arg)
{
	int *n = arg;

	n[0]++;
	n[1] += p->pid % 2 == 0;
}

static void test_proc_table(void)
{
	struct files files;
	struct proc_table t;
	int n[2] = { 0, 0 };
	pid_t pid;

	files_init(&files, SYMBOLS_NO_PROC, 0);
	proc_init(&t, &files, "/nonexistent", SYMBOLS_NO_PROC);
	for (pid = 1; pid <= 1000; pid++)
		CHECK(proc_get(&t, pid) && proc_get(&t, pid)->pid == pid,
		      "proc_get %d", (int)pid);
	CHECK(proc_count(&t) == 1000, "1000 processes: %zu", proc_count(&t));
	CHECK(proc_find(&t, 1001) == NULL, "no process 1001");
	for (pid = 2; pid <= 1000; pid += 2)
		proc_exit(proc_find(&t, pid));
	proc_walk(&t, count_proc, n);
	CHECK(n[0] == 1000 && n[1] == 500, "walk: %d, %d even", n[0], n[1]);
	proc_gc(&t);
	CHECK(proc_count(&t) == 500, "gc kept the living: %zu", proc_count(&t));
	CHECK(!proc_find(&t, 2) && proc_find(&t, 3), "gc freed the exited");
	n[0] = n[1] = 0;
	proc_walk(&t, count_proc, n);
	CHECK(n[0] == 500 && n[1] == 0, "walk after gc: %d, %d even", n[0],
	      n[1]);
	CHECK(proc_fork(&t, 2000, 3) == 0 && proc_find(&t, 2000),
	      "fork makes the child");
	proc_free_all(&t);
	CHECK(proc_count(&t) == 0 && !proc_find(&t, 3), "free all");
	files_release(&files);
}

static void test_demangle(void)
{
	size_t i;

	for (i = 0; i < sizeof(dem_cases) / sizeof(dem_cases[0]); i++) {
		char *d = demangle(dem_cases[i].in);

		if (!dem_cases[i].out)
			CHECK(!d, "%s: want as is, got %s", dem_cases[i].in,
			      d);
		else
			CHECK(d && !strcmp(d, dem_cases[i].out),
			      "%s: got %s", dem_cases[i].in, d);
		free(d);
	}
}

/* --- causes ---------------------------------------------------------- */

static void test_causes(void)
{
	int c;

	for (c = 0; c < SYM_CAUSE_MAX; c++) {
		CHECK(symbols_cause_name(c) && *symbols_cause_name(c) &&
			      strcmp(symbols_cause_name(c), "?") != 0,
		      "cause %d has a name", c);
		CHECK(symbols_cause_advice(c) && *symbols_cause_advice(c),
		      "cause %d has advice", c);
	}
	CHECK(!strcmp(symbols_cause_name(SYM_CAUSE_MAX), "?"), "out of range");
}

/* --- symbols_map_lookup: our own mappings, whose bias we know --------- */

static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uint64_t *)arg = info->dlpi_addr;
	return 1;		/* the main program comes first */
}

static void test_map_lookup(void)
{
	struct symbols *s = symbols_new(NULL);
	uint64_t here = (uint64_t)(uintptr_t)&test_map_lookup, bias = 0;
	uint64_t vdso = getauxval(AT_SYSINFO_EHDR);
	char *exe = realpath("/proc/self/exe", NULL);
	struct sym_map m;

	dl_iterate_phdr(first_object, &bias);
	CHECK(s && symbols_read_maps(s, getpid()) == 0, "read our maps");
	CHECK(symbols_map_lookup(s, getpid(), here, &m) == 0, "our code");
	CHECK(m.start <= here && here < m.end, "mapping holds the address");
	CHECK(m.cause == SYM_OK && m.elf_path && exe &&
	      strcmp(m.elf_path, exe) == 0, "the executable: %s",
	      m.elf_path ? m.elf_path : "(null)");
	CHECK(m.bias == bias, "bias %#" PRIx64 ", dl_iterate_phdr says %#"
	      PRIx64, m.bias, bias);
	CHECK(symbols_map_lookup(s, getpid(), 0x1000, &m) == -1 &&
	      errno == ENOENT, "no mapping at 0x1000");
	if (vdso) {
		CHECK(symbols_map_lookup(s, getpid(), vdso + 0x800, &m) == 0 &&
		      m.image && m.image_size && !m.elf_path &&
		      !strcmp(m.name, "[vdso]") && m.bias == vdso,
		      "the vDSO: an image in memory at its base");
	}
	free(exe);
	symbols_free(s);
}

/* A program (PIE) is told from a library, as pprof's first mapping. */
static void test_is_program(void)
{
	struct symbols *s = symbols_new(NULL);
	uint64_t libc = (uint64_t)(uintptr_t)&printf;
	char *exe = realpath("/proc/self/exe", NULL);
	struct sym_map m;

	CHECK(s && exe && symbols_is_program(s, exe) == 1,
	      "our PIE is a program");
	CHECK(s && symbols_read_maps(s, getpid()) == 0 &&
	      symbols_map_lookup(s, getpid(), libc, &m) == 0 && m.elf_path &&
	      symbols_is_program(s, m.elf_path) == 0,
	      "libc is not (though it has PT_INTERP): %s",
	      m.elf_path ? m.elf_path : "(null)");
	CHECK(symbols_is_program(s, "[vdso]") == 0, "[vdso] is not");
	CHECK(symbols_is_program(NULL, "/proc/self/status") == -1,
	      "not ELF: -1");
	free(exe);
	symbols_free(s);
}

/*
 * The program of a process: the first code mapping of a file after its
 * exec (ld.so and libraries come after it), copied by a fork, kept a
 * while after the process is freed.
 */
static void test_program(void)
{
	struct symbols *s = symbols_new(&SYMBOLS_OPTS(.flags =
						      SYMBOLS_NO_PROC));
	struct sym_mapping m = { .len = 0x1000, .prot = PROT_READ | PROT_EXEC };
	pid_t pid;

	CHECK(s && !symbols_program(s, 7000), "nothing known");
	CHECK(symbols_exec(s, 7000) == 0, "exec");
	m.start = 0x7f0000000000;	/* a JIT's code first: no file */
	m.path = "//anon";
	symbols_mmap(s, 7000, &m);
	m.start = 0x400000;
	m.path = "/usr/bin/prog";
	symbols_mmap(s, 7000, &m);
	m.start = 0x7f1000000000;
	m.path = "/lib64/ld-linux-x86-64.so.2";
	symbols_mmap(s, 7000, &m);
	CHECK(symbols_program(s, 7000) &&
	      !strcmp(symbols_program(s, 7000), "/usr/bin/prog"),
	      "after exec: %s", symbols_program(s, 7000));
	CHECK(symbols_fork(s, 7001, 7000) == 0 && symbols_program(s, 7001) &&
	      !strcmp(symbols_program(s, 7001), "/usr/bin/prog"), "forked");
	/* exited and freed: still known, for the export at the end */
	symbols_exit(s, 7000);
	symbols_gc(s);
	CHECK(symbols_program(s, 7000) &&
	      !strcmp(symbols_program(s, 7000), "/usr/bin/prog"),
	      "after exit and gc: %s", symbols_program(s, 7000));
	/* the last 16 only */
	for (pid = 8000; pid < 8020; pid++) {
		symbols_exec(s, pid);
		symbols_mmap(s, pid, &m);
		symbols_exit(s, pid);
		symbols_gc(s);
	}
	CHECK(!symbols_program(s, 7000), "forgotten after 20 more");
	CHECK(symbols_program(s, 8019) &&
	      !strcmp(symbols_program(s, 8019), "/lib64/ld-linux-x86-64.so.2"),
	      "the newest kept");
	symbols_free(s);
}

/*
 * Files no process maps any more: the FILES_KEEP that went idle last are
 * kept (a program run again finds its tables read), the older ones go.
 */
static void test_files_keep(void)
{
	struct symbols *s = symbols_new(&SYMBOLS_OPTS(.flags =
						      SYMBOLS_NO_PROC));
	char dir[] = "/tmp/pct-keep.XXXXXX", path[FILES_KEEP + 8][64];
	struct sym_mapping m = { .start = 0x400000, .len = 0x100000,
				 .prot = PROT_EXEC };
	struct symbols_stats st0, st;
	struct sym_result r;
	int i, n = FILES_KEEP + 6;

	CHECK(s && mkdtemp(dir), "setup");
	for (i = 0; i < n; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/f%d", dir, i);
		CHECK(copy_file("/bin/true", path[i]) == 0, "copy %d", i);
		m.path = path[i];
		m.ino = inode_of(path[i]);
		CHECK(symbols_mmap(s, 1000 + i, &m) == 0, "mmap %d", i);
		symbols_resolve(s, 1000 + i, 0x401000, false, &r);
		symbols_exit(s, 1000 + i);
		symbols_gc(s);
	}
	memset(&st, 0, sizeof(st));
	symbols_stats(s, &st);
	CHECK(st.files_open == FILES_KEEP, "%u files kept, want %d",
	      st.files_open, FILES_KEEP);
	/* the newest idle file serves a new process as it is */
	m.path = path[n - 1];
	m.ino = inode_of(path[n - 1]);
	memset(&st0, 0, sizeof(st0));
	symbols_stats(s, &st0);
	CHECK(symbols_mmap(s, 5000, &m) == 0, "mmap newest again");
	symbols_resolve(s, 5000, 0x401000, false, &r);
	memset(&st, 0, sizeof(st));
	symbols_stats(s, &st);
	CHECK(st.files_open == st0.files_open, "newest kept: %u -> %u files",
	      st0.files_open, st.files_open);
	/* the oldest went: a new file */
	m.path = path[0];
	m.ino = inode_of(path[0]);
	CHECK(symbols_mmap(s, 5001, &m) == 0, "mmap oldest again");
	memset(&st, 0, sizeof(st));
	symbols_stats(s, &st);
	CHECK(st.files_open == st0.files_open + 1, "oldest read anew: %u -> "
	      "%u files", st0.files_open, st.files_open);
	for (i = 0; i < n; i++)
		unlink(path[i]);
	rmdir(dir);
	symbols_free(s);
}

/*
 * Whether process pid came to sleep in nanosleep within 20 s.  Its
 * exec is done when the pipe closes, but ld.so maps the libraries after
 * that: one sleeper read then had 3 files where its twin, read a moment
 * later, had 4 (libc), under load.  -1 where /proc/PID/syscall cannot
 * be read (a kernel without it).
 */
static int wait_asleep(pid_t pid)
{
	char path[64];
	int i;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	for (i = 0; i < 2000; i++) {
		FILE *f = fopen(path, "r");
		long nr = -1;

		if (!f)
			return -1;
		if (fscanf(f, "%ld", &nr) != 1)
			nr = -1;
		fclose(f);
		if (nr == SYS_clock_nanosleep)
			return 1;
#ifdef SYS_nanosleep
		if (nr == SYS_nanosleep)
			return 1;
#endif
		usleep(10000);
	}
	return 0;
}

/*
 * Processes that run one deleted program each read it through their
 * own /proc/PID/map_files: one file for all of them, not one each.
 */
static void test_deleted_shared(void)
{
	char dir[] = "/tmp/pct-del.XXXXXX", prog[64];
	struct symbols *s = symbols_new(NULL);
	struct symbols_stats a, b;
	pid_t pid[2] = { -1, -1 };
	int i, fds[2];

	CHECK(s && mkdtemp(dir), "setup");
	snprintf(prog, sizeof(prog), "%s/sleeper", dir);
	CHECK(copy_file("/bin/sleep", prog) == 0 && chmod(prog, 0755) == 0,
	      "copy sleep");
	for (i = 0; i < 2; i++) {
		char buf;

		CHECK(pipe(fds) == 0, "pipe");
		pid[i] = fork();
		if (pid[i] == 0) {
			/* the pipe closes at exec: the parent then knows */
			fcntl(fds[1], F_SETFD, FD_CLOEXEC);
			close(fds[0]);
			execl(prog, "sleeper", "30", (char *)NULL);
			_exit(127);
		}
		close(fds[1]);
		CHECK(read(fds[0], &buf, 1) == 0, "exec %d", i);
		close(fds[0]);
	}
	unlink(prog);
	for (i = 0; i < 2; i++)
		CHECK(wait_asleep(pid[i]) != 0, "sleeper %d never slept", i);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (symbols_read_maps(s, pid[0]) == 0) {
		symbols_stats(s, &a);
		CHECK(symbols_read_maps(s, pid[1]) == 0, "maps of the second");
		symbols_stats(s, &b);
		CHECK(b.files_open == a.files_open, "a second process of the "
		      "deleted program: %u -> %u files", a.files_open,
		      b.files_open);
	}
	for (i = 0; i < 2; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	rmdir(dir);
	symbols_free(s);
}

/* --- source: the text of the lines DWARF names ------------------------- */

static void test_source(void)
{
	char *path = write_tmp("int a;\n\tx = 1;\t/* c */\n\nlast");
	static const int want[] = { 2, 1, 4, 3, 9, 2 };
	char *text[6], dir[] = "/tmp/source-test.XXXXXX", fifo[64];
	char *big;
	FILE *f;

	CHECK(source_lines(path, want, 6, text) == 0, "source_lines: %s",
	      strerror(errno));
	CHECK(text[0] && !strcmp(text[0], "        x = 1;  /* c */"),
	      "tabs to 8 columns: '%s'", text[0] ? text[0] : "(null)");
	CHECK(text[1] && !strcmp(text[1], "int a;"), "line 1: '%s'",
	      text[1] ? text[1] : "(null)");
	CHECK(text[2] && !strcmp(text[2], "last"),
	      "a last line without a newline: '%s'",
	      text[2] ? text[2] : "(null)");
	CHECK(text[3] && !text[3][0], "an empty line: '%s'",
	      text[3] ? text[3] : "(null)");
	CHECK(!text[4], "line 9 of 4: none");
	CHECK(text[5] && !strcmp(text[5], text[0]), "a line asked twice");
	for (int i = 0; i < 6; i++)
		free(text[i]);
	unlink(path);
	free(path);

	/* not a regular file: refused before any read */
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(fifo, sizeof(fifo), "%s/f", dir);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
	text[0] = (char *)1;
	CHECK(source_lines(fifo, want, 1, text) == -1 && errno == EINVAL &&
	      !text[0], "a FIFO: EINVAL, no text");
	CHECK(source_lines(dir, want, 1, text) == -1 && errno == EISDIR,
	      "a directory: EISDIR");
	unlink(fifo);
	/* over SOURCE_MAX_BYTES: not read */
	snprintf(fifo, sizeof(fifo), "%s/big", dir);
	f = fopen(fifo, "w");
	CHECK(f && fputs("x\n", f) >= 0 &&
	      ftruncate(fileno(f), SOURCE_MAX_BYTES + 1) == 0, "a big file");
	if (f)
		fclose(f);
	CHECK(source_lines(fifo, want, 1, text) == -1 && errno == EFBIG,
	      "a file over %d bytes: EFBIG", SOURCE_MAX_BYTES);
	/* a very long line: cut */
	big = malloc(5000);
	memset(big, 'y', 4999);
	big[4999] = '\0';
	path = write_tmp(big);
	CHECK(source_lines(path, want + 1, 1, text) == 0 && text[0] &&
	      strlen(text[0]) < SOURCE_LINE_MAX, "a 4999-byte line: cut to %zu",
	      text[0] ? strlen(text[0]) : 0);
	free(text[0]);
	unlink(path);
	free(path);
	free(big);
	unlink(fifo);
	rmdir(dir);
}

int main(void)
{
	test_maps();
	test_maps_lines();
	test_kallsyms();
	test_jitmap();
	test_jitmap_growth();
	test_jitmap_untrusted();
	test_unresolved_bounded();
	test_replaced_path();
	test_no_fd();
	/* ASan reserves terabytes of addresses, valgrind more than the
	   client's limit: no 'ulimit -v' under them */
#ifndef __SANITIZE_ADDRESS__
	if (!strstr(getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "",
		    "vgpreload"))
		test_no_memory();
#endif
	test_proc_table();
	test_demangle();
	test_causes();
	test_map_lookup();
	test_is_program();
	test_program();
	test_files_keep();
	test_deleted_shared();
	test_source();
	return check_done();
}
