/* openmetrics.c - pcstat's totals as OpenMetrics families (see pcstat(1)). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/openmetrics.h"
#include "util/xmalloc.h"
#include "metric.h"
#include "openmetrics.h"

/* Nanoseconds as exact decimal seconds: no rounding, no locale's comma. */
static void seconds(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u,
		 ns % 1000000000u);
}

static bool v_events(const struct om_point *p, char *buf, size_t size)
{
	if (!p->supported || p->clock)
		return false;
	snprintf(buf, size, "%" PRIu64, p->sum.value);
	return true;
}

static bool v_clock(const struct om_point *p, char *buf, size_t size)
{
	if (!p->supported || !p->clock)
		return false;
	seconds(buf, size, p->sum.value);
	return true;
}

static bool v_enabled(const struct om_point *p, char *buf, size_t size)
{
	if (!p->supported)
		return false;
	seconds(buf, size, p->sum.enabled);
	return true;
}

static bool v_running(const struct om_point *p, char *buf, size_t size)
{
	if (!p->supported)
		return false;
	seconds(buf, size, p->sum.running);
	return true;
}

static bool v_supported(const struct om_point *p, char *buf, size_t size)
{
	snprintf(buf, size, "%d", p->supported ? 1 : 0);
	return true;
}

const struct om_family om_families[] = {
	{ "pcstat_events_total", "counter", NULL,
	  "Events counted since pcstat began, raw (perf stat's scaled "
	  "count is this times enabled over running seconds)",
	  false, v_events },
	{ "pcstat_clock_seconds_total", "counter", "seconds",
	  "Time counted by the clock events (task-clock, cpu-clock) since "
	  "pcstat began", false, v_clock },
	{ "pcstat_enabled_seconds_total", "counter", "seconds",
	  "Time each event's counter was enabled since pcstat began",
	  false, v_enabled },
	{ "pcstat_running_seconds_total", "counter", "seconds",
	  "Time each event's counter was counting since pcstat began; less "
	  "than enabled when the PMU was multiplexed", false, v_running },
	{ "pcstat_event_supported", "gauge", NULL,
	  "1 if this machine can count the event, 0 if not (perf's "
	  "<not supported>)", true, v_supported },
};

const size_t om_nfamilies = sizeof(om_families) / sizeof(om_families[0]);

/* p's sample of fam: labelled event= and, with -A, cpu= or, with
   --per-thread, thread="comm-tid". */
static void print_sample(FILE *f, const struct om_family *fam,
			 const struct om_point *p, const char *val)
{
	struct om_label l[2] = { { "event", p->ev->name } };
	char where[64];
	size_t n = 1;

	if (!fam->per_event && p->where && p->where->cpu >= 0) {
		snprintf(where, sizeof(where), "%d", p->where->cpu);
		l[n++] = (struct om_label){ "cpu", where };
	} else if (!fam->per_event && p->where) {
		snprintf(where, sizeof(where), "%s-%d", p->where->comm,
			 (int)p->where->tid);
		l[n++] = (struct om_label){ "thread", where };
	}
	if (openmetrics_sample(f, fam->name, l, n, val) != 0)
		die_nomem();
}

static void om_families_print(FILE *f, const struct config *cfg,
			      const struct cset *cs)
{
	size_t nslots = cfg->aggr == AGGR_GLOBAL ? 1 : cs->nunits;
	size_t npts = cs->nev * nslots;
	struct om_point *pts = xcalloc(npts, sizeof(*pts));
	char val[64];

	for (size_t e = 0; e < cs->nev; e++) {
		for (size_t s = 0; s < nslots; s++) {
			struct om_point *p = &pts[e * nslots + s];
			size_t u0 = nslots == 1 ? 0 : s;
			size_t u1 = nslots == 1 ? cs->nunits : s + 1;

			p->ev = &cfg->events.ev[e];
			p->where = cfg->aggr == AGGR_GLOBAL ? NULL : &cs->units[s];
			p->supported = cs->supported[e];
			p->clock = metric_is_clock(&p->ev->attr);
			for (size_t u = u0; u < u1; u++) {
				const struct pc_count *c =
					&cs->cur[e * cs->nunits + u];

				p->sum.value += c->value;
				p->sum.enabled += c->enabled;
				p->sum.running += c->running;
			}
		}
	}
	for (size_t i = 0; i < om_nfamilies; i++) {
		const struct om_family *fam = &om_families[i];
		bool any = false;

		for (size_t j = 0; j < npts; j++) {
			if (fam->per_event && j % nslots)
				continue;
			if (!fam->value(&pts[j], val, sizeof(val)))
				continue;
			if (!any)
				openmetrics_family(f, fam->name, fam->type,
						   fam->unit, fam->help);
			any = true;
			print_sample(f, fam, &pts[j], val);
		}
	}
	free(pts);
}

void om_print(FILE *f, const struct config *cfg, const struct cset *cs)
{
	om_families_print(f, cfg, cs);
	openmetrics_eof(f);
}

struct om_arg {
	const struct config *cfg;
	const struct cset *cs;
};

/* om_print() but the "# EOF" that openmetrics_write() adds. */
static int fill(FILE *f, void *arg)
{
	const struct om_arg *a = arg;

	om_families_print(f, a->cfg, a->cs);
	return 0;
}

int om_write(const struct config *cfg, const struct cset *cs)
{
	struct om_arg a = { cfg, cs };

	return openmetrics_write(cfg->openmetrics, fill, &a);
}

int om_check_path(const char *path)
{
	return openmetrics_check_path(path);
}
