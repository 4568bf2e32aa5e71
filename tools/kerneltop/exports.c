/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exports.c - kerneltop's call chains written out: the exports of the
 * command line at exit (every sample since the start), the snapshots of
 * --export-every, and `S', the chains the table shows now as a flame
 * graph.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "exports.h"
#include "frame.h"
#include "kt.h"
#include "options.h"
#include "util/die.h"
#include "util/output.h"

/* What an export of measure m's profile says besides its stacks. */
static struct export_meta meta(struct kt *kt, enum kt_measure m,
			       char *target, size_t size)
{
	frame_target(kt, target, size);
	/* -p: the (first) process's program is the profile's */
	return EXPORT_META(.tool = "kerneltop", .target = target,
			   .program = kt->scope == FEED_PROCESSES &&
				      kt->opt.nids ?
				      symbols_program(kt->sym, kt->opt.ids[0]) :
				      NULL,
			   .event = kt->names[0], .attr = feed_attr(kt->feed, 0),
			   .time_ns = kt->start_ns,
			   .duration_ns = clock_ns(CLOCK_REALTIME) -
					  kt->start_ns,
			   .sym = kt->sym,
			   .ns_weights = m != KT_ON_CPU,
			   .values = kt->members);
}

int kt_exports_tick(struct kt *kt, bool last, char *msg, size_t size)
{
	char target[KT_LINE];
	struct export_meta m;

	if (!exports_every(&kt->opt.exports))
		return 0;
	m = meta(kt, kt->measure, target, sizeof(target));
	return exports_every_tick(&kt->opt.exports, &m, last, msg, size);
}

int kt_exports_write(struct kt *kt)
{
	/* the command line's measure: the view's may have moved (`o') */
	struct stacks *all = profile_chains_all(kt->prof[kt->measure]);
	char target[KT_LINE], msg[KT_LINE];
	struct export_meta m;
	int rc = 0;

	/* the last interval, partial: the snapshots add up to the run */
	if (kt_exports_tick(kt, true, msg, sizeof(msg)) != 0) {
		warn_msg("%s", msg);
		rc = -1;
	}
	/* one lost on the way fails the run, whatever the last did */
	if (exports_every_failed(&kt->opt.exports))
		rc = -1;
	if (!all)
		return rc;
	m = meta(kt, kt->measure, target, sizeof(target));
	return exports_write(&kt->opt.exports, all, &m) | rc;
}

void kt_snapshot(struct kt *kt, enum kt_measure measure, char *msg,
		 size_t size)
{
	char name[64], cwd[PATH_MAX], target[KT_LINE];
	struct profile *p = kt->prof[measure];
	struct stacks *s = profile_chains(p) ? profile_chains(p)
					    : profile_chains_all(p);
	time_t now = time(NULL);
	struct export_meta m;
	struct tm tm;

	if (!s) {
		snprintf(msg, size, "no call chains to save: start kerneltop "
			 "with -g");
		return;
	}
	localtime_r(&now, &tm);
	strftime(name, sizeof(name), "kerneltop-%Y%m%d-%H%M%S.svg", &tm);
	m = meta(kt, measure, target, sizeof(target));
	if (export_write(s, EXPORT_SVG, name, &m) != 0) {
		snprintf(msg, size, "cannot save %s: %s%s", name,
			 output_strerror(errno), exports_fix(errno));
		return;
	}
	snprintf(msg, size, "flame graph saved to %s/%s",
		 getcwd(cwd, sizeof(cwd)) ? cwd : ".", name);
}

