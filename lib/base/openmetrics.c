/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* openmetrics.c - the OpenMetrics text format written (see openmetrics.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "base/atomic-file.h"
#include "base/escape.h"
#include "base/openmetrics.h"

void openmetrics_family(FILE *f, const char *name, const char *type,
			const char *unit, const char *help)
{
	fprintf(f, "# TYPE %s %s\n", name, type);
	if (unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
	fprintf(f, "# HELP %s %s.\n", name, help);
}

/*
 * A label value.  OpenMetrics escapes \, " and newline and wants valid
 * UTF-8: esc_visible() leaves no control byte and no invalid UTF-8, and
 * esc_json() then escapes \ and " as OpenMetrics does (it finds nothing
 * else to escape in what esc_visible() left).
 */
static int put_value(FILE *f, const char *s)
{
	size_t n = esc_visible(NULL, 0, s), m;
	char *v = malloc(n + 1), *j;

	if (!v)
		return -1;
	esc_visible(v, n + 1, s);
	m = esc_json(NULL, 0, v);
	j = malloc(m + 1);
	if (!j) {
		free(v);
		return -1;
	}
	esc_json(j, m + 1, v);
	fputs(j, f);
	free(j);
	free(v);
	return 0;
}

int openmetrics_sample(FILE *f, const char *name,
		       const struct om_label *labels, size_t nlabels,
		       const char *value)
{
	size_t i;

	fputs(name, f);
	for (i = 0; i < nlabels; i++) {
		fprintf(f, "%c%s=\"", i ? ',' : '{', labels[i].name);
		if (put_value(f, labels[i].value) != 0)
			return -1;
		fputc('"', f);
	}
	fprintf(f, "%s %s\n", nlabels ? "}" : "", value);
	return 0;
}

void openmetrics_eof(FILE *f)
{
	fputs("# EOF\n", f);
}

int openmetrics_write(const char *path, int (*fill)(FILE *f, void *arg),
		      void *arg)
{
	struct atomic_file af;
	FILE *f = atomic_file_start(&af, path, ATOMIC_FILE_DEVICES);
	int err;

	if (!f)
		return -1;
	if (fill(f, arg) != 0) {
		err = errno;
		atomic_file_abort(&af);
		errno = err;
		return -1;
	}
	openmetrics_eof(f);
	return atomic_file_commit(&af);
}

int openmetrics_check_path(const char *path)
{
	return atomic_file_check(path, ATOMIC_FILE_DEVICES);
}
