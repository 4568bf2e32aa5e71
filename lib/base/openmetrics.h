/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * openmetrics.h - the OpenMetrics text format written, for Prometheus
 * and node_exporter's textfile collector: a family's metadata, samples
 * whose label values are escaped, the closing "# EOF", and the file
 * replaced whole each time (base/atomic-file.h, links planted in /tmp
 * refused), so that a collector never reads half of it.  What pcstat
 * --openmetrics and kerneltop --openmetrics write.
 *
 * A family's name is also its samples' name ("# TYPE x_total counter"
 * over "x_total{...}"), as Prometheus' text format names them: promtool
 * and node_exporter keep the type and help only so.
 *
 * Never exits, never prints but to the stream it is given; failures
 * return -1 with errno (ENOMEM, or the file's: base/atomic-file.h).
 */
#ifndef BASE_OPENMETRICS_H
#define BASE_OPENMETRICS_H

#include <stddef.h>
#include <stdio.h>

/* A label of a sample; the value is any bytes (a thread's name). */
struct om_label {
	const char *name;	/* [a-zA-Z_][a-zA-Z0-9_]*, the caller's */
	const char *value;
};

/* "# TYPE name type", "# UNIT name unit" when unit is not NULL, "# HELP
   name help." (help without its full stop). */
void openmetrics_family(FILE *f, const char *name, const char *type,
			const char *unit, const char *help);

/*
 * "name{label="value",...} value" (no braces without labels).  A label
 * value is made valid UTF-8 without controls (esc_visible()), then \ and
 * " escaped as OpenMetrics wants.  Returns 0, or -1 with errno ENOMEM.
 */
int openmetrics_sample(FILE *f, const char *name,
		       const struct om_label *labels, size_t nlabels,
		       const char *value);

/* The last line: "# EOF". */
void openmetrics_eof(FILE *f);

/*
 * Replace path whole (a device, or what /dev/stdout names, is written in
 * place) with what fill writes to f, then "# EOF".  fill returns 0, or
 * -1 with errno: the file then keeps its old content.  Returns 0, or -1
 * with errno.
 */
int openmetrics_write(const char *path, int (*fill)(FILE *f, void *arg),
		      void *arg);

/* Whether path can be written so (nothing left behind): 0, or -1 with
   errno. */
int openmetrics_check_path(const char *path);

#endif
