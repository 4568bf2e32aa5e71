/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-export-svg.c - the SVG flame graph's colours and search data.
 *
 * Without arguments: a profile of 400 functions in each class (user,
 * kernel, JIT, unresolved) is written as an SVG, and the hue of every
 * box's fill, by its class (data-c), must fall in bands that no two
 * classes share; every box carries its samples (data-s) and depth
 * (data-d), and the depths run depth first.
 *
 * With a path: write there a profile where the searched function "rec"
 * calls itself -- main -> a 202 samples, main -> rec -> b 1, main -> rec
 * -> rec 21, of 224 -- whose boxes' rounded positions put the inner rec
 * past the outer one's end (1079.38 + 110.63 > 1074.11 + 115.89), and
 * print the true share of rec, 22 of 224, for export-svg.sh to compare
 * with what the SVG's own search says in a browser.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/export.h"
#include "../check.h"

/* Add n samples of the chain names[0..depth) (root first). */
static void add(struct stacks *s, const char *const *names, unsigned depth,
		char mode, const char *dso, unsigned n)
{
	struct stk_sample_frame fr[8];
	unsigned i;

	for (i = 0; i < depth; i++) {
		const char *name = names[depth - 1 - i];

		fr[i] = (struct stk_sample_frame){
			.ip = 0x1000 + i, .sym = name[0] == '?' ? NULL : name,
			.dso = dso, .dso_off = 0x100 * (i + 1), .mode = mode };
	}
	while (n--)
		CHECK(stacks_add(s, fr, depth, 1) == 0, "add");
}

static int write_recursion(const char *path)
{
	static const char *const a[] = { "main", "a" };
	static const char *const b[] = { "main", "rec", "b" };
	static const char *const rr[] = { "main", "rec", "rec" };
	struct stacks *s = stacks_new();
	int rc;

	add(s, a, 2, '.', "/bin/prog", 202);
	add(s, b, 3, '.', "/bin/prog", 1);
	add(s, rr, 3, '.', "/bin/prog", 21);
	rc = export_write(s, EXPORT_SVG, path, &EXPORT_META(.tool = "test"));
	if (rc == 0)
		printf("%.2f\n", 100.0 * 22 / 224);
	else
		perror(path);
	stacks_free(s);
	return rc ? 1 : 0;
}

/* The hue in degrees (-180..180, so that reds stay together) of
   "rgb(r,g,b)"; 1000 for a grey. */
static double hue_of(const char *fill)
{
	int r, g, b, max, min;
	double h;

	if (sscanf(fill, "rgb(%d,%d,%d)", &r, &g, &b) != 3)
		return -1000;
	max = r > g ? (r > b ? r : b) : (g > b ? g : b);
	min = r < g ? (r < b ? r : b) : (g < b ? g : b);
	if (max == min)
		return 1000;
	if (max == r)
		h = 60.0 * (g - b) / (max - min);
	else if (max == g)
		h = 60.0 * (b - r) / (max - min) + 120;
	else
		h = 60.0 * (r - g) / (max - min) + 240;
	return h > 180 ? h - 360 : h;
}

static void test_hues(void)
{
	static const char *const classes[] = { "user", "kernel", "jit",
					       "unresolved" };
	double lo[4] = { 1e9, 1e9, 1e9, 1e9 }, hi[4] = { -1e9, -1e9, -1e9,
							 -1e9 };
	char path[] = "/tmp/pct-svg.XXXXXX", line[4096], name[32];
	struct stacks *s = stacks_new();
	int fd = mkstemp(path), c, k, boxes = 0, last_d = 0, order_ok = 1;
	unsigned i;
	FILE *f;

	CHECK(fd >= 0, "temporary file");
	close(fd);
	for (i = 0; i < 400; i++) {
		const char *chain[2] = { "main", name };

		snprintf(name, sizeof(name), "user_fn_%u", i);
		add(s, chain, 2, '.', "/bin/prog", 1 + i % 7);
		snprintf(name, sizeof(name), "kernel_fn_%u", i);
		add(s, chain, 2, 'k', "[kernel.kallsyms]", 1 + i % 5);
		snprintf(name, sizeof(name), "jit_fn_%u", i);
		add(s, chain, 2, '.', "[jit]", 1 + i % 3);
		snprintf(name, sizeof(name), "?%u", i);
		add(s, chain, 2, '.', "/lib/libx.so", 1 + i % 4);
	}
	CHECK(export_write(s, EXPORT_SVG, path, &EXPORT_META(.tool = "t")) == 0,
	      "write: %s", strerror(errno));
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *cls = strstr(line, " data-c=\""), *fill, *dep;
		int d;

		if (!cls || !(fill = strstr(line, " fill=\"rgb(")) ||
		    !(dep = strstr(line, " data-d=\"")) ||
		    !strstr(line, " data-s=\""))
			continue;
		boxes++;
		d = atoi(dep + 9);
		/* depth first: a box is at most one deeper than the last */
		if (d > last_d + 1)
			order_ok = 0;
		last_d = d;
		for (k = 0; k < 4; k++) {
			size_t n = strlen(classes[k]);
			double h = hue_of(fill + 7);

			if (strncmp(cls + 9, classes[k], n) || cls[9 + n] != '"')
				continue;
			if (h < lo[k])
				lo[k] = h;
			if (h > hi[k])
				hi[k] = h;
		}
	}
	if (f)
		fclose(f);
	unlink(path);
	CHECK(boxes >= 1000, "%d boxes", boxes);
	CHECK(order_ok, "boxes depth first");
	CHECK(lo[3] == 1000 && hi[3] == 1000, "unresolved: grey");
	for (c = 0; c < 3; c++) {
		CHECK(lo[c] > -1000 && hi[c] < 1000, "%s: hues %.1f..%.1f",
		      classes[c], lo[c], hi[c]);
		for (k = c + 1; k < 3; k++)
			CHECK(hi[c] < lo[k] || hi[k] < lo[c],
			      "%s hues %.1f..%.1f overlap %s hues %.1f..%.1f",
			      classes[c], lo[c], hi[c], classes[k], lo[k],
			      hi[k]);
		printf("%s: hues %.1f..%.1f\n", classes[c], lo[c], hi[c]);
	}
	stacks_free(s);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return write_recursion(argv[1]);
	test_hues();
	return check_done();
}
