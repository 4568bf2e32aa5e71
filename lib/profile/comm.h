/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * comm.h - thread id -> command name, learnt from COMM records and, for
 * threads that started before the feed, from /proc.
 *
 * Never prints or exits.  Names are the kernel's 16-byte comm, stored
 * unescaped: a tool shows them through esc_visible().  A returned name
 * stays valid until the next comm_set() or comm_gc() on the table.
 */
#ifndef PROFILE_COMM_H
#define PROFILE_COMM_H

#include <stdbool.h>
#include <sys/types.h>

#include "base/hashtab.h"

struct comm_table {
	struct hashtab tab;	/* of struct comm_entry (comm.c) */
	const char *proc;	/* "/proc" unless a test says otherwise */
	unsigned dead;		/* entries marked by comm_exit() */
};

#define COMM_TABLE_INIT { HASHTAB_INIT, "/proc", 0 }

/* Name tid (of process pid) comm.  0, or -1 with errno ENOMEM. */
int comm_set(struct comm_table *t, pid_t pid, pid_t tid, const char *comm);

/*
 * The name of tid (of process pid): from the table, else read once from
 * /proc/PID/task/TID/comm, else "<tid>" style "[unknown]".  Never NULL.
 */
const char *comm_get(struct comm_table *t, pid_t pid, pid_t tid);

/* tid has exited: its entry goes at the next comm_gc(). */
void comm_exit(struct comm_table *t, pid_t tid);

/* Drop the entries of exited threads. */
void comm_gc(struct comm_table *t);

/* Free every entry; the table is empty (and usable) again. */
void comm_release(struct comm_table *t);

#endif
