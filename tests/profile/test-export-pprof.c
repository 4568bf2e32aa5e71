/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-export-pprof.c - pprof's first mapping, which go tool pprof
 * prints as "File:", is the program the tool names in its export_meta,
 * even when no sample has a frame in it (a chain that stops in a library
 * built without frame pointers, where the guess from the stacks can only
 * name the library).
 * Off-CPU stacks (an OFFCPU_LEAF leaf) get a third sample type,
 * off-cpu in nanoseconds, beside the event's: each stack's time in one
 * of the two.
 * A group read's members are a sample type each.
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
#include "profile/offcpu.h"
#include "profile/stacks.h"
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

/* The profile at path, unpacked (free it), or NULL. */
static Perftools__Profiles__Profile *unpack(const char *path)
{
	static uint8_t data[1 << 20];
	gzFile gz = gzopen(path, "rb");
	int n = gz ? gzread(gz, data, sizeof(data)) : -1;

	if (gz)
		gzclose(gz);
	return n > 0 ? perftools__profiles__profile__unpack(NULL, (size_t)n,
							     data) : NULL;
}

/* A wall-clock profile: 3 ms on-CPU in spin, 7 ms off-CPU in wait. */
static void test_offcpu(const char *path)
{
	struct stk_sample_frame on[1] = {
		{ .ip = 0x1000, .sym = "spin", .dso = "/bin/a", .mode = '.' },
	};
	struct stk_sample_frame off[2] = {
		offcpu_leaf,
		{ .ip = 0x2000, .sym = "wait", .dso = "/bin/a", .mode = '.' },
	};
	struct stacks *s = stacks_new();
	Perftools__Profiles__Profile *p;
	int64_t cpu = 0, offns = 0;
	const char *type = "";
	size_t i;

	CHECK(s && stacks_add_weight(s, on, 1, 3000000, 3000000, 1) == 0 &&
	      stacks_add_weight(s, off, 2, 7000000, 7000000, 2) == 0, "add");
	CHECK(export_write(s, EXPORT_PPROF, path, &EXPORT_META(.tool = "t",
			   .event = "cpu-clock", .ns_weights = true)) == 0,
	      "write");
	p = unpack(path);
	CHECK(p && p->n_sample_type == 3, "off-CPU: %zu sample types",
	      p ? p->n_sample_type : 0);
	if (p && p->n_sample_type == 3) {
		type = p->string_table[p->sample_type[2]->type];
		for (i = 0; i < p->n_sample; i++) {
			cpu += p->sample[i]->value[1];
			offns += p->sample[i]->value[2];
		}
	}
	CHECK(!strcmp(type, "off-cpu") && cpu == 3000000 && offns == 7000000,
	      "off-CPU type '%s': cpu %lld off %lld", type, (long long)cpu,
	      (long long)offns);
	perftools__profiles__profile__free_unpacked(p, NULL);
	stacks_free(s);
}

/*
 * A group read's members (stacks_values_set()): one sample type each,
 * named as the tool names them, whose values sum what was added.
 */
static void members(const char *path)
{
	static const char *const names[] = { "page-faults", "minor-faults" };
	struct stk_sample_frame a = { .ip = 0x1000, .sym = "toucher",
				      .dso = "/bin/w", .mode = '.' };
	struct stk_sample_frame b = { .ip = 0x2000, .sym = "spinner",
				      .dso = "/bin/w", .mode = '.' };
	static uint8_t data[1 << 20];
	Perftools__Profiles__Profile *p = NULL;
	struct stacks *s = stacks_new();
	uint64_t sum[2] = { 0, 0 };
	gzFile gz;
	int n = -1;

	CHECK(s && stacks_values_set(s, 2) == 0, "values_set");
	for (uint64_t i = 0; s && i < 20; i++) {
		uint64_t v[2] = { i % 3, 1 };

		CHECK(stacks_add_values(s, i % 2 ? &a : &b, 1, 1000000,
					1000 + i, v) == 0, "add");
	}
	CHECK(stacks_values_set(s, 1) == -1, "values set after samples");
	CHECK(export_write(s, EXPORT_PPROF, path,
			   &EXPORT_META(.tool = "t", .values = names)) == 0,
	      "write");
	gz = gzopen(path, "rb");
	if (gz) {
		n = gzread(gz, data, sizeof(data));
		gzclose(gz);
	}
	if (n > 0)
		p = perftools__profiles__profile__unpack(NULL, (size_t)n, data);
	CHECK(p && p->n_sample_type == 4, "sample types: %zu",
	      p ? p->n_sample_type : 0);
	for (size_t t = 2; p && t < p->n_sample_type && t < 4; t++)
		CHECK(!strcmp(p->string_table[p->sample_type[t]->type],
			      names[t - 2]), "type %zu: %s", t,
		      p->string_table[p->sample_type[t]->type]);
	for (size_t i = 0; p && i < p->n_sample; i++) {
		CHECK(p->sample[i]->n_value == 4, "values %zu",
		      p->sample[i]->n_value);
		for (size_t v = 0; v < 2 && p->sample[i]->n_value == 4; v++)
			sum[v] += (uint64_t)p->sample[i]->value[2 + v];
	}
	/* i % 3 over 0..19: 19; one per sample: 20 */
	CHECK(sum[0] == 19 && sum[1] == 20, "member sums %llu %llu",
	      (unsigned long long)sum[0], (unsigned long long)sum[1]);
	perftools__profiles__profile__free_unpacked(p, NULL);
	stacks_free(s);
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

	test_offcpu(path);
	members(path);
	unlink(path);
	stacks_free(s);
	return check_done();
}
