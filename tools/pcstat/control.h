/* SPDX-License-Identifier: GPL-2.0-or-later */
/* control.h - perf's --control: enable/disable/ping through a fifo or fd. */
#ifndef PCSTAT_CONTROL_H
#define PCSTAT_CONTROL_H

#include "pcstat.h"

/* The control channel; fds are -1 when there is none. */
struct control {
	int ctl, ack;
	char buf[64];		/* a command not yet ended by '\n' */
	size_t len;
	bool own;		/* fifos we opened, closed by control_close() */
	bool enabled;		/* what the last command left */
};

/*
 * Open perf's "fifo:CTL[,ACK]" or "fd:CTL[,ACK]"; exits 2 with a message
 * when spec is malformed or a fifo cannot be opened.  spec NULL: no channel.
 */
void control_open(struct control *c, const char *spec);

/*
 * Read what the channel holds and act on each whole line: "enable",
 * "disable" (cset_enable/disable, with perf's "Events enabled/disabled"
 * on stderr unless quiet), "ping"; each is acknowledged with perf's
 * "ack\n".
 */
void control_process(struct control *c, struct cset *cs,
		     const struct config *cfg);

void control_close(struct control *c);

#endif
