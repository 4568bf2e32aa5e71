/*
 * symres.c - resolve addresses with lib/symbols, as addr2line would: the
 * test's window into the library, and the benchmark's batch symbolizer.
 *
 *   symres [options] FILE [ADDR...]     ELF vaddrs of FILE
 *   symres [options] -p PID [ADDR...]   run-time addresses in process PID
 *   symres [options] -k [ADDR...]       kernel addresses
 *
 * Addresses (hex) come from the arguments or, when there are none, from
 * stdin, one per line.  Each gives one line:
 *   ADDR SYM+0xOFF FILE:LINE CAUSE [inlined: f@file:line <- ...]
 * with "??" for what is unknown; with -D, then " in DSO" (the file's
 * name as the session gives it, escaped as esc_visible() does).
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "symbols/symbols.h"
#include "util/die.h"
#include "util/parse.h"

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void print(uint64_t addr, const struct sym_result *r, bool full,
		  bool dso)
{
	char vis[8192];
	unsigned i;

	printf("0x%" PRIx64 " ", addr);
	if (r->sym)
		printf("%s+0x%" PRIx64, r->sym, r->off);
	else
		printf("%s+0x%" PRIx64, base(r->dso ? r->dso : "??"),
		       r->dso_off);
	if (r->file)
		printf(" %s:%d", full ? r->file : base(r->file), r->line);
	else
		printf(" ??:0");
	printf(" %s", symbols_cause_name(r->cause));
	if (r->n_inline) {
		printf(" [inlined:");
		for (i = 0; i < r->n_inline; i++)
			printf("%s %s@%s:%d", i ? " <-" : "", r->inl[i].func,
			       r->inl[i].file ? base(r->inl[i].file) : "??",
			       r->inl[i].line);
		printf("]");
	}
	if (dso) {
		esc_visible(vis, sizeof(vis), r->dso ? r->dso : "??");
		printf(" in %s", vis);
	}
	putchar('\n');
}

static void usage(int status)
{
	printf("usage: symres [-L] [-I] [-M] [-s] [-f] [-D] "
	       "[-k | -p PID | [-d DEBUG] FILE] [ADDR...]\n"
	       "  -d read DEBUG for FILE's symbols  -f full source paths\n"
	       "  -D the file (DSO) of each address\n"
	       "  -L no file:line  -I no inlines  -M no demangling\n"
	       "  -s statistics and the unresolved report on stderr\n");
	exit(status);
}

int main(int argc, char **argv)
{
	unsigned flags = 0;
	bool kernel = false, stats = false, full = false, from_args;
	bool dso = false;
	int pid = 0, c;
	const char *file = NULL, *debug = NULL;
	struct symbols *s;
	struct sym_result r;
	static char obuf[1 << 16];

	set_progname(argv[0]);
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	while ((c = getopt(argc, argv, "LIMskfDd:p:h")) != -1) {
		switch (c) {
		case 'L': flags |= SYMBOLS_NO_LINES; break;
		case 'I': flags |= SYMBOLS_NO_INLINES; break;
		case 'M': flags |= SYMBOLS_NO_DEMANGLE; break;
		case 's': stats = true; break;
		case 'k': kernel = true; break;
		case 'f': full = true; break;
		case 'D': dso = true; break;
		case 'd': debug = optarg; break;
		case 'p':
			if (!parse_int(optarg, 1, 1 << 30, &pid))
				usage_error("bad pid '%s'", optarg);
			break;
		case 'h': usage(0); break;
		default: usage(2);
		}
	}
	if (!kernel && !pid) {
		if (optind >= argc)
			usage(2);
		file = argv[optind++];
	}
	s = symbols_new(&SYMBOLS_OPTS(.flags = flags));
	if (!s)
		die_errno("cannot create a symbols session");
	if (debug && file && symbols_set_debug_file(s, file, debug) != 0)
		die_errno("cannot use '%s' for '%s'", debug, file);
	if (pid && symbols_read_maps(s, pid) != 0)
		die_errno("cannot read the maps of %d", pid);

	from_args = optind < argc;
	for (;;) {
		char line[256], *end;
		uint64_t addr;

		if (from_args) {
			if (optind >= argc)
				break;
			snprintf(line, sizeof(line), "%s", argv[optind++]);
		} else if (!fgets(line, sizeof(line), stdin)) {
			break;
		}
		addr = strtoull(line, &end, 16);
		if (end == line)
			continue;
		if (file)
			symbols_resolve_file(s, file, addr, &r);
		else
			symbols_resolve(s, pid, addr, kernel, &r);
		print(addr, &r, full, dso);
	}
	fflush(stdout);
	if (stats) {
		struct symbols_stats st;
		struct sym_unresolved u[32];
		size_t n, i;

		symbols_stats(s, &st);
		fprintf(stderr,
			"lookups %" PRIu64 " cache hits %" PRIu64
			" files %u cache bytes %zu\n",
			st.lookups, st.cache_hits, st.files_open,
			st.cache_bytes);
		n = symbols_unresolved(s, u, 32);
		for (i = 0; i < n && i < 32; i++)
			fprintf(stderr, "unresolved %s %s %" PRIu64 "\n",
				u[i].dso, symbols_cause_name(u[i].cause),
				u[i].count);
	}
	symbols_free(s);
	return 0;
}
