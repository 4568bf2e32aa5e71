/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - what the fuzz targets share.  Each fuzz-*.c defines the two
 * libFuzzer entry points; linked with -fsanitize=fuzzer it is a fuzzer
 * (make fuzz), linked with replay.c it is a plain program that feeds it
 * the corpus and the crash reproducers (make check).
 *
 * A target aborts (FUZZ_CHECK) when the library breaks a promise its
 * header makes, so that a wrong answer is a finding as much as a crash.
 */
#ifndef TESTS_FUZZ_H
#define TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: broken promise: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/*
 * A private directory for the target's files (/tmp/pcfuzz-NAME.XXXXXX),
 * made once and removed at exit.  Aborts when it cannot be made.
 */
const char *fuzz_dir(const char *name);

/* DIR/REL (directories on the way made) holding exactly size bytes of
   data, replaced whole; aborts on failure.  Returns the path (static
   storage, valid until the next call). */
const char *fuzz_file(const char *rel, const void *data, size_t size);

/* Append size bytes to the file at path; aborts on failure. */
void fuzz_append(const char *path, const void *data, size_t size);

/* data as a NUL-terminated string, cut at its first NUL; free(3) it. */
char *fuzz_string(const uint8_t *data, size_t size);

#endif
