/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tasks-table.h - the task table (tasks-table.c).  tasks_table_start() makes the model and
 * the counters (at --tasks, or the `T' screen's first opening); from then
 * on the samples feed it (tasks_table_sample()), the feed tells of
 * exits (tasks_table_task()), and each refresh reads the counters and
 * closes a frame (tasks_table_tick(), from session_tick()).  The text
 * functions format the last frame as batch and the screen show it.
 */
#ifndef KERNELTOP_TASKS_TABLE_H
#define KERNELTOP_TASKS_TABLE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "profile/feed.h"
#include "profile/tasks.h"

struct kt;

void tasks_table_start(struct kt *kt);
void tasks_table_stop(struct kt *kt);
/* Whether column c is shown (the hardware ones only where counted). */
bool tasks_table_shown(const struct kt *kt, enum tasks_col c);
/* --tasks-sort by a column not shown here: a usage error (exit 2). */
void tasks_table_check_sort(struct kt *kt);
void tasks_table_sample(struct kt *kt, const struct feed_sample *s);
void tasks_table_task(void *arg, pid_t pid, pid_t tid, pid_t ptid,
		      bool exited);
void tasks_table_tick(struct kt *kt, double interval_s);
/* line 0: the summary; line 1: the notices ("" when none) */
void tasks_table_header(const struct kt *kt, const struct tasks_view *v,
			unsigned line, char *buf, size_t size);
void tasks_table_columns(const struct kt *kt, const struct tasks_view *v,
			 char *buf, size_t size);
void tasks_table_row(const struct kt *kt, const struct tasks_view *v,
		     const struct tasks_row *r, char *buf, size_t size);
/* A whole frame, as batch prints it (raw: each event's count in the
   interval, --tasks-raw, rather than the rates); 0, or -1 with errno. */
int tasks_table_print(const struct kt *kt, const struct tasks_view *v,
		      FILE *out, size_t max_rows, bool raw);
/* The task screen's `s' cycle. */
extern const enum tasks_col kt_tasks_orders[];
extern const size_t kt_tasks_norders;

#endif
