/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.h - the session's life (session.c): opened, drained,
 * refreshed, aged, closed.
 */
#ifndef KERNELTOP_SESSION_H
#define KERNELTOP_SESSION_H

#include <stdbool.h>

struct kt;

/* session.c: open the feed for the options (dies with a message). */
void session_open(struct kt *kt);
void session_close(struct kt *kt);
/* Drain the rings into the model, within a bound of time and records
   (keys and signals are looked at between drains); true when records
   were left: drain again without waiting. */
bool session_drain(struct kt *kt);
/* Between drains: the maps of processes that ran before kerneltop, read
   a little at a time; true when samples wait for them (do not wait). */
bool session_background(struct kt *kt);
/* A refresh: header figures for the interval that ends now. */
void session_tick(struct kt *kt, double interval_s);
/* At the end: how many samples were lost and the fix, on stderr. */
void session_lost_say(const struct kt *kt);
/* After a frame was shown: decay or zero. */
void session_age(struct kt *kt);

#endif
