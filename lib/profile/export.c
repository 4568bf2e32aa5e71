/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * export.c - the table of export formats and the atomic file each is
 * written to (see export.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/atomic-file.h"
#include "base/optsz.h"
#include "profile/export-internal.h"

static const struct {
	export_writer write;	/* NULL: not in this build */
} formats[EXPORT_FORMAT_MAX] = {
	[EXPORT_FOLDED] = { export_folded },
	[EXPORT_SVG] = { export_svg },
#ifdef HAVE_PPROF
	[EXPORT_PPROF] = { export_pprof },
#else
	[EXPORT_PPROF] = { NULL },
#endif
	[EXPORT_SPEEDSCOPE] = { export_speedscope },
};

bool export_available(enum export_format f)
{
	return (unsigned)f < EXPORT_FORMAT_MAX && formats[f].write;
}

/* --- the file --------------------------------------------------------------- */

int export_check_path(const char *path)
{
	return atomic_file_check(path, ATOMIC_FILE_DEVICES);
}

int export_write(struct stacks *s, enum export_format fmt, const char *path,
		 const struct export_meta *m)
{
	struct export_meta meta = { .sz = sizeof(meta) };
	struct atomic_file af;
	FILE *f;
	int err;

	if (!export_available(fmt)) {
		errno = (unsigned)fmt < EXPORT_FORMAT_MAX ? ENOTSUP : EINVAL;
		return -1;
	}
	/* lib/base/optsz.h's rule; what an older caller lacks is NULL/0 */
	if (!m) {
		errno = EINVAL;
		return -1;
	}
	if (optsz_copy(&meta, sizeof(meta), m) != 0)
		return -1;
	m = &meta;
	f = atomic_file_start(&af, path, ATOMIC_FILE_SYNC |
				       ATOMIC_FILE_DEVICES);
	if (!f)
		return -1;
	if (formats[fmt].write(f, s, m) != 0) {
		err = errno;
		atomic_file_abort(&af);
		errno = err;
		return -1;
	}
	return atomic_file_commit(&af);
}
