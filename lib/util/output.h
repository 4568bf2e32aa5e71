/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.h - output that cannot be written is an error: the standard
 * descriptors guarded at start-up, every stream checked before the tool
 * says it succeeded.  For tools: on failure these print one line (where
 * stderr still works) and exit 1.
 */
#ifndef UTIL_OUTPUT_H
#define UTIL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Call first in main(), before anything opens a descriptor.  Each of 0, 1
 * and 2 that is closed gets /dev/null, so that no counter, ring or file
 * the tool opens later lands there and output meant for the terminal
 * never goes into it.  Remembers which were closed: see
 * std_fd_require().  /dev/null unopenable: exit 1.
 */
void std_fds_guard(void);

/*
 * The tool's results go to fd (STDOUT_FILENO or STDERR_FILENO): if it was
 * closed at start, they would be lost, so exit 1 with "WHAT is closed
 * (fix)" now, before any work is done.
 */
void std_fd_require(int fd, const char *fix);

/*
 * Flush f and check that every byte written to it so far went out (the
 * stream's error flag, a full disk, a closed pipe's EPIPE).  On failure:
 * "cannot write NAME: strerror" and exit 1.  name: "standard output", a
 * path...
 */
void output_check(FILE *f, const char *name);

/*
 * output_check(), except that a pipe whose reader is gone (EPIPE, where
 * SIGPIPE is ignored) returns true, for a tool that then ends quietly
 * as head(1)'s writers do.
 */
bool output_reader_gone(FILE *f, const char *name);

/*
 * Call right after writing to f where a write may fail inside printf (a
 * full buffer flushed there): glibc then drops the data and ferror()
 * keeps no errno, so the first failure's errno is remembered here, for
 * output_check() to say ("No space left on device").  Cheap: one test
 * of the error flag.
 */
void output_note(FILE *f);

/* output_check(), then fclose(f), checked too. */
void output_close(FILE *f, const char *name);

/*
 * Why a file the user named for output cannot be made there, as advice
 * to append to strerror(err): " (the directory does not exist: create
 * it, or name another)" for ENOENT, and so on; "" when there is none.
 */
const char *output_path_fix(int err);

/*
 * What is wrong with a path named for output, before output_path_fix():
 * strerror(err), or the words for what base/atomic-file.h refuses (a
 * link another user planted in /tmp, a FIFO).
 */
const char *output_strerror(int err);

/*
 * Before any work: the n outputs, path[i] given with option opt[i]
 * ("-o", "--folded"; a NULL path is not asked), must write n files.  Two
 * that write one (the same name however spelt, ./F and F, a link or a
 * hard link to it) would keep only the last: exit 2 with "OPT and OPT
 * write the same file (PATH): ...".  Devices and pipes are written in
 * place, one after the other, and may be shared.
 */
void output_paths_distinct(const char *const opt[], const char *const path[],
			   size_t n);

#endif
