/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-export-pprof.c - pprof's first mapping, which go tool pprof
 * prints as "File:", is the program the tool names in its export_meta,
 * even when no sample has a frame in it (a chain that stops in a library
 * built without frame pointers, where the guess from the stacks can only
 * name the library).
 * The file written is read back through zlib and protobuf-c.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/profile/profile.pb-c.h"
#include "profile/export.h"
#include "../check.h"

/* The first mapping's file name in the profile at path, or "". */
static const char *first_mapping(const char *path, char *buf, size_t size)
{
	static uint8_t data[1 << 20];
	Perftools__Profiles__Profile *p;
	gzFile gz = gzopen(path, "rb");
	int n = gz ? gzread(gz, data, sizeof(data)) : -1;

	buf[0] = '\0';
	if (gz)
		gzclose(gz);
	if (n <= 0)
		return buf;
	p = perftools__profiles__profile__unpack(NULL, (size_t)n, data);
	if (p && p->n_mapping && p->mapping[0]->filename >= 0 &&
	    (size_t)p->mapping[0]->filename < p->n_string_table)
		snprintf(buf, size, "%s",
			 p->string_table[p->mapping[0]->filename]);
	perftools__profiles__profile__free_unpacked(p, NULL);
	return buf;
}

int main(void)
{
	/* every chain stops in liblzma: no frame of the program at all */
	struct stk_sample_frame fr[2] = {
		{ .ip = 0x7000, .sym = "lz_encode", .dso = "/lib/liblzma.so.5",
		  .mode = '.' },
		{ .ip = 0x7100, .sym = "lzma_code", .dso = "/lib/liblzma.so.5",
		  .mode = '.' },
	};
	struct stk_sample_frame own[1] = {
		{ .ip = 0x1000, .sym = "main", .dso = "/usr/bin/xz", .mode = '.' },
	};
	char path[] = "/tmp/pct-pprof.XXXXXX", got[256];
	struct stacks *s = stacks_new();
	int fd = mkstemp(path), i;

	CHECK(fd >= 0 && s, "setup");
	close(fd);
	for (i = 0; i < 10; i++)
		CHECK(stacks_add(s, fr, 2, 1000) == 0, "add");
	/* no program named: the guess from the stacks can only be wrong */
	CHECK(export_write(s, EXPORT_PPROF, path, &EXPORT_META(.tool = "t"))
	      == 0, "write");
	CHECK(!strcmp(first_mapping(path, got, sizeof(got)),
		      "/lib/liblzma.so.5"), "the stacks' guess: '%s'", got);
	CHECK(export_write(s, EXPORT_PPROF, path,
			   &EXPORT_META(.tool = "t", .program = "/usr/bin/xz"))
	      == 0, "write");
	CHECK(!strcmp(first_mapping(path, got, sizeof(got)), "/usr/bin/xz"),
	      "the named program first, without a frame: '%s'", got);

	/* the program has frames too: one mapping for them, first */
	CHECK(stacks_add(s, own, 1, 1000) == 0, "add");
	CHECK(export_write(s, EXPORT_PPROF, path,
			   &EXPORT_META(.tool = "t", .program = "/usr/bin/xz"))
	      == 0, "write");
	CHECK(!strcmp(first_mapping(path, got, sizeof(got)), "/usr/bin/xz"),
	      "the named program first, with frames: '%s'", got);

	unlink(path);
	stacks_free(s);
	return check_done();
}
