/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * regular-file.h - open a file that anyone may have put in our way.
 *
 * Paths the tools read come from outside: /tmp/perf-PID.map, the files
 * a target has mapped (by now perhaps replaced), the source files its
 * DWARF names, a debug file given with -d.  Any of them may be a FIFO
 * (open(2) for reading blocks until a writer comes: a hang), a device
 * (/dev/zero: endless) or a directory.  regular_file_open() opens
 * without blocking and keeps the descriptor only for a regular file, so
 * that what is read is the file that was checked (no second open by
 * name in between).
 *
 * Never prints, never exits.
 */
#ifndef BASE_REGULAR_FILE_H
#define BASE_REGULAR_FILE_H

#include <sys/stat.h>

/*
 * Open path read-only, close-on-exec and without blocking; flags adds
 * open(2) flags (O_NOFOLLOW: a symbolic link fails with ELOOP).  Fills
 * *st when st is not NULL.  Returns the descriptor, or -1 with errno:
 * open(2)'s, EISDIR for a directory, EINVAL for anything else that is
 * not a regular file (a FIFO, a device, a socket).
 */
int regular_file_open(const char *path, int flags, struct stat *st);

#endif
