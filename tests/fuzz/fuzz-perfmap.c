/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-perfmap: /tmp/perf-PID.map files as JITs write them ("START SIZE
 * name" in hex), through a session's lookups in anonymous executable
 * memory.  The file grows between two rounds of lookups, as a JIT
 * appends to it; what the session then answers for the addresses it
 * had missed must be what a session reading the whole file at once
 * answers.
 *
 * Input: one byte saying where the file is cut for the first round
 * (its share of 256), then the file.
 */
#include "config.h"

#include <string.h>
#include <sys/mman.h>

#include "symbols/symbols.h"
#include "fuzz.h"

#define FUZZ_PID 4242
#define MAX_LOOKUPS 96

static char dir[256], rel[64];

static struct symbols *session(void);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char map[] = "7f0000001000 100 jitted\n";
	struct symbols *s;
	struct sym_result r;

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/jit", fuzz_dir("perfmap"));
	snprintf(rel, sizeof(rel), "jit/perf-%d.map", FUZZ_PID);
	/* A map the session must read, or every input would test nothing:
	   say so loudly if a change of how maps are found or trusted
	   leaves this target out. */
	fuzz_file(rel, map, sizeof(map) - 1);
	s = session();
	FUZZ_CHECK(symbols_resolve(s, FUZZ_PID, 0x7f0000001010, false, &r) == 0);
	symbols_free(s);
	return 0;
}

/* A session that knows one anonymous executable mapping of the pid,
   covering every address but the first page, as a JIT's heap. */
static struct symbols *session(void)
{
	struct symbols *s = symbols_new(&SYMBOLS_OPTS(.flags = SYMBOLS_NO_PROC,
						      .jit_dir = dir,
						      .kallsyms = "/nonexistent"));
	struct sym_mapping anon = { .start = 0x1000, .len = -0x2000ull,
				    .prot = PROT_READ | PROT_EXEC,
				    .path = "//anon" };

	FUZZ_CHECK(s != NULL);
	FUZZ_CHECK(symbols_mmap(s, FUZZ_PID, &anon) == 0);
	return s;
}

static void check(const struct sym_result *r, int ret, uint64_t addr)
{
	FUZZ_CHECK(r->dso != NULL);
	FUZZ_CHECK((unsigned)r->cause < SYM_CAUSE_MAX);
	if (ret == 0)
		FUZZ_CHECK(r->sym && r->off <= addr && r->cause == SYM_OK);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t addr[MAX_LOOKUPS];
	bool missed[MAX_LOOKUPS];
	struct sym_result r, whole;
	size_t naddr = 0, cut;
	struct symbols *grown, *once;
	const char *path;
	char *text, *line, *save = NULL;

	if (size < 1)
		return 0;
	cut = (size - 1) * data[0] / 256;
	data++;
	size--;

	text = fuzz_string(data, size);
	for (line = strtok_r(text, "\n", &save); line && naddr + 3 <= MAX_LOOKUPS;
	     line = strtok_r(NULL, "\n", &save)) {
		char *end;
		uint64_t a = strtoull(line, &end, 16);
		uint64_t len = strtoull(end, NULL, 16);

		addr[naddr++] = a;
		addr[naddr++] = a + len / 2;
		addr[naddr++] = a + len;
	}
	free(text);

	/* first round on the part written so far */
	path = fuzz_file(rel, data, cut);
	grown = session();
	for (size_t i = 0; i < naddr; i++) {
		int ret = symbols_resolve(grown, FUZZ_PID, addr[i], false, &r);

		check(&r, ret, addr[i]);
		missed[i] = ret != 0;
	}
	/* the JIT appends the rest */
	fuzz_append(path, data + cut, size - cut);
	once = session();
	for (size_t i = 0; i < naddr; i++) {
		int ret = symbols_resolve(grown, FUZZ_PID, addr[i], false, &r);
		int ret1 = symbols_resolve(once, FUZZ_PID, addr[i], false, &whole);

		check(&r, ret, addr[i]);
		check(&whole, ret1, addr[i]);
		if (!missed[i])
			continue;
		FUZZ_CHECK(ret == ret1);
		FUZZ_CHECK(ret != 0 || (strcmp(r.sym, whole.sym) == 0 &&
					r.off == whole.off));
	}
	symbols_free(grown);
	symbols_free(once);
	return 0;
}
