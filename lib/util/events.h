/* SPDX-License-Identifier: GPL-2.0-or-later */
/* events.h - -e arguments for tools: parse, or say what is wrong and exit. */
#ifndef UTIL_EVENTS_H
#define UTIL_EVENTS_H

#include <sysapi/sysapi.h>

/*
 * Parse STR (perf's syntax: "a,b:u,{c,d}") and append to list; on bad
 * input print one line ("unknown event 'x' (did you mean 'y'? ...)") and
 * exit 2.
 */
void events_add(struct pc_event_list *list, const char *str);

#endif
