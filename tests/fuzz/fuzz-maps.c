/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-maps: /proc/PID/maps text, line by line through
 * symbols_parse_maps_line(), then whole as a fake /proc/PID/maps read
 * by symbols_read_maps() and looked up at the addresses it names.
 */
#include "config.h"

#include <string.h>

#include "symbols/symbols.h"
#include "fuzz.h"

#define FUZZ_PID 4242
#define MAX_LOOKUPS 64

static char proc[256], maps_rel[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(proc, sizeof(proc), "%s/proc", fuzz_dir("maps"));
	snprintf(maps_rel, sizeof(maps_rel), "proc/%d/maps", FUZZ_PID);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t addr[MAX_LOOKUPS];
	size_t naddr = 0;
	struct symbols *s;
	char *text = fuzz_string(data, size), *line, *save = NULL;

	/* each line alone, as the parser's own contract says */
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct sym_mapping m;
		size_t n = strlen(line);

		if (symbols_parse_maps_line(line, &m) != 0)
			continue;
		FUZZ_CHECK(m.path >= line && m.path <= line + n);
		FUZZ_CHECK(memchr(m.path, '\0', n + 1 - (size_t)(m.path - line)));
		FUZZ_CHECK(m.start + m.len >= m.start);
		if (naddr + 3 <= MAX_LOOKUPS) {
			addr[naddr++] = m.start;
			addr[naddr++] = m.start + m.len / 2;
			addr[naddr++] = m.start + m.len;	/* just past */
		}
	}
	free(text);

	/* the file, as a process's maps read on a miss */
	fuzz_file(maps_rel, data, size);
	s = symbols_new(&SYMBOLS_OPTS(.proc = proc, .jit_dir = proc,
				      .kallsyms = "/nonexistent"));
	FUZZ_CHECK(s != NULL);
	FUZZ_CHECK(symbols_read_maps(s, FUZZ_PID) == 0);
	for (size_t i = 0; i < naddr; i++) {
		struct sym_result r;
		struct sym_map mp;

		if (symbols_resolve(s, FUZZ_PID, addr[i], false, &r) == 0)
			FUZZ_CHECK(r.sym != NULL);
		FUZZ_CHECK(r.dso != NULL);
		FUZZ_CHECK((unsigned)r.cause < SYM_CAUSE_MAX);
		if (symbols_map_lookup(s, FUZZ_PID, addr[i], &mp) == 0)
			FUZZ_CHECK(mp.start <= addr[i] && addr[i] < mp.end);
	}
	symbols_free(s);
	return 0;
}
