/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-kallsyms: /proc/kallsyms text through kallsyms_load() and
 * kallsyms_lookup() at the addresses it names (and either side of
 * them), then through a session's kernel lookups (symbols_resolve()).
 */
#include "config.h"

#include <string.h>

#include "symbols/kallsyms.h"
#include "symbols/symbols.h"
#include "fuzz.h"

#define MAX_LOOKUPS 96

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_dir("kallsyms");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t addr[MAX_LOOKUPS];
	size_t naddr = 0;
	char *text = fuzz_string(data, size), *line, *save = NULL;
	const char *path = fuzz_file("kallsyms", data, size);
	struct kallsyms *ks;
	struct symbols *s;

	/* the addresses the text names: where lookups are interesting */
	for (line = strtok_r(text, "\n", &save); line && naddr + 3 <= MAX_LOOKUPS;
	     line = strtok_r(NULL, "\n", &save)) {
		uint64_t a = strtoull(line, NULL, 16);

		addr[naddr++] = a;
		addr[naddr++] = a - 1;
		addr[naddr++] = a + 1;
	}
	free(text);

	ks = kallsyms_load(path);
	if (ks) {
		for (size_t i = 0; i < naddr; i++) {
			const char *module = NULL, *name;
			uint64_t off = ~0ull;

			name = kallsyms_lookup(ks, addr[i], &off, &module);
			if (!name)
				continue;
			FUZZ_CHECK(module != NULL);
			FUZZ_CHECK(off <= addr[i]);
			FUZZ_CHECK(!kallsyms_hidden(ks));
		}
		FUZZ_CHECK(kallsyms_count(ks) > 0);
		kallsyms_free(ks);
	}

	s = symbols_new(&SYMBOLS_OPTS(.flags = SYMBOLS_NO_PROC,
				      .kallsyms = path,
				      .jit_dir = "/nonexistent"));
	FUZZ_CHECK(s != NULL);
	for (size_t i = 0; i < naddr; i++) {
		struct sym_result r;

		if (symbols_resolve(s, 1, addr[i], true, &r) == 0)
			FUZZ_CHECK(r.sym != NULL && r.kernel);
		FUZZ_CHECK(r.dso != NULL);
		FUZZ_CHECK((unsigned)r.cause < SYM_CAUSE_MAX);
	}
	symbols_free(s);
	return 0;
}
