/* openmetrics.c - pcstat's totals as OpenMetrics families (see pcstat(1)). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/escape.h"
#include "base/atomic-file.h"
#include "util/esc-print.h"
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

/*
 * A label value.  OpenMetrics escapes \, " and newline and wants valid
 * UTF-8: esc_visible() leaves no control byte and no invalid UTF-8, and
 * esc_json() then escapes \ and " as OpenMetrics does (it finds nothing
 * else to escape in what esc_visible() left).
 */
static void print_label_value(FILE *f, const char *s)
{
	size_t n = esc_visible(NULL, 0, s);
	char *v = xmalloc(n + 1);

	esc_visible(v, n + 1, s);
	esc_print_json(f, v);
	free(v);
}

static void print_sample(FILE *f, const struct om_family *fam,
			 const struct om_point *p, const char *val)
{
	fprintf(f, "%s{event=\"", fam->name);
	print_label_value(f, p->ev->name);
	fputc('"', f);
	if (!fam->per_event && p->where && p->where->cpu >= 0) {
		fprintf(f, ",cpu=\"%d\"", p->where->cpu);
	} else if (!fam->per_event && p->where) {
		fprintf(f, ",thread=\"");
		print_label_value(f, p->where->comm);
		fprintf(f, "-%d\"", (int)p->where->tid);
	}
	fprintf(f, "} %s\n", val);
}

void om_print(FILE *f, const struct config *cfg, const struct cset *cs)
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
			if (!any) {
				fprintf(f, "# TYPE %s %s\n", fam->name,
					fam->type);
				if (fam->unit)
					fprintf(f, "# UNIT %s %s\n", fam->name,
						fam->unit);
				fprintf(f, "# HELP %s %s.\n", fam->name,
					fam->help);
				any = true;
			}
			print_sample(f, fam, &pts[j], val);
		}
	}
	fputs("# EOF\n", f);
	free(pts);
}

int om_write(const struct config *cfg, const struct cset *cs)
{
	struct atomic_file af;
	FILE *f = atomic_file_start(&af, cfg->openmetrics,
				   ATOMIC_FILE_DEVICES);

	if (f == NULL)
		return -1;
	om_print(f, cfg, cs);
	return atomic_file_commit(&af);
}

int om_check_path(const char *path)
{
	return atomic_file_check(path, ATOMIC_FILE_DEVICES);
}
