/*
 * test-openmetrics: --openmetrics' text on synthetic counts, byte for
 * byte: totals summed over the units of a slot, raw (not scaled), times
 * as exact decimal seconds, labels per CPU and per thread, hostile thread
 * names escaped, unsupported events only in pcstat_event_supported; the
 * family table's names; the file replaced whole, with fopen(3)'s mode.
 *
 *	test-openmetrics [DIR]	also writes each case to DIR/NAME.prom
 *				(openmetrics.sh runs promtool on them)
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "openmetrics.h"
#include "../check.h"

static const char *outdir;

/* Two units (CPUs 0 and 1, or threads 7 and 8); three events, the last
   one not supported here; page-faults multiplexed on the second unit. */
static struct pc_count cur[3 * 2] = {
	/* task-clock */
	{ .value = 1500000000, .enabled = 1500000000, .running = 1500000000 },
	{ .value = 2000000001, .enabled = 2000000001, .running = 2000000001 },
	/* page-faults */
	{ .value = 100, .enabled = 1500000000, .running = 1500000000 },
	{ .value = 50, .enabled = 2000000000, .running = 500000000 },
	/* cycles: never opened */
	{ 0 }, { 0 },
};
static bool supported[3] = { true, true, false };

static const char head_events[] =
	"# TYPE pcstat_events_total counter\n"
	"# HELP pcstat_events_total Events counted since pcstat began, raw "
	"(perf stat's scaled count is this times enabled over running "
	"seconds).\n";
static const char head_clock[] =
	"# TYPE pcstat_clock_seconds_total counter\n"
	"# UNIT pcstat_clock_seconds_total seconds\n"
	"# HELP pcstat_clock_seconds_total Time counted by the clock events "
	"(task-clock, cpu-clock) since pcstat began.\n";
static const char head_enabled[] =
	"# TYPE pcstat_enabled_seconds_total counter\n"
	"# UNIT pcstat_enabled_seconds_total seconds\n"
	"# HELP pcstat_enabled_seconds_total Time each event's counter was "
	"enabled since pcstat began.\n";
static const char head_running[] =
	"# TYPE pcstat_running_seconds_total counter\n"
	"# UNIT pcstat_running_seconds_total seconds\n"
	"# HELP pcstat_running_seconds_total Time each event's counter was "
	"counting since pcstat began; less than enabled when the PMU was "
	"multiplexed.\n";
static const char head_supported[] =
	"# TYPE pcstat_event_supported gauge\n"
	"# HELP pcstat_event_supported 1 if this machine can count the "
	"event, 0 if not (perf's <not supported>).\n";
static const char tail_supported[] =
	"pcstat_event_supported{event=\"task-clock\"} 1\n"
	"pcstat_event_supported{event=\"page-faults\"} 1\n"
	"pcstat_event_supported{event=\"cycles\"} 0\n"
	"# EOF\n";

static char *expect(const char *const parts[])
{
	size_t n = 1;
	char *s;

	for (size_t i = 0; parts[i]; i++)
		n += strlen(parts[i]);
	s = calloc(1, n);
	for (size_t i = 0; parts[i]; i++)
		strcat(s, parts[i]);
	return s;
}

static void run_case(const char *name, enum aggr_mode aggr,
		     struct unit units[2], const char *want)
{
	struct config cfg = { .aggr = aggr };
	struct cset cs = {
		.nev = 3, .nunits = 2, .units = units, .supported = supported,
		.cur = cur,
	};
	char *got = NULL;
	size_t len = 0, pos;
	FILE *f;

	CHECK(pc_event_list_parse(&cfg.events, "task-clock,page-faults,cycles",
				  &pos) == 0, "%s: events", name);
	f = open_memstream(&got, &len);
	om_print(f, &cfg, &cs);
	fclose(f);
	CHECK(strcmp(got, want) == 0, "%s:\n--- got\n%s--- want\n%s", name,
	      got, want);
	if (outdir) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s.prom", outdir, name);
		f = fopen(path, "w");
		CHECK(f && fputs(got, f) >= 0 && fclose(f) == 0, "%s: %s", path,
		      strerror(errno));
	}
	free(got);
	pc_event_list_release(&cfg.events);
}

static void aggregated(void)
{
	struct unit units[2] = { { .tid = -1, .cpu = 0 }, { .tid = -1, .cpu = 1 } };
	char *want = expect((const char *const[]){
		head_events,
		"pcstat_events_total{event=\"page-faults\"} 150\n",
		head_clock,
		"pcstat_clock_seconds_total{event=\"task-clock\"} 3.500000001\n",
		head_enabled,
		"pcstat_enabled_seconds_total{event=\"task-clock\"} 3.500000001\n"
		"pcstat_enabled_seconds_total{event=\"page-faults\"} 3.500000000\n",
		head_running,
		"pcstat_running_seconds_total{event=\"task-clock\"} 3.500000001\n"
		"pcstat_running_seconds_total{event=\"page-faults\"} 2.000000000\n",
		head_supported, tail_supported, NULL });

	run_case("aggregated", AGGR_GLOBAL, units, want);
	free(want);
}

static void per_cpu(void)
{
	struct unit units[2] = { { .tid = -1, .cpu = 0 }, { .tid = -1, .cpu = 3 } };
	char *want = expect((const char *const[]){
		head_events,
		"pcstat_events_total{event=\"page-faults\",cpu=\"0\"} 100\n"
		"pcstat_events_total{event=\"page-faults\",cpu=\"3\"} 50\n",
		head_clock,
		"pcstat_clock_seconds_total{event=\"task-clock\",cpu=\"0\"} 1.500000000\n"
		"pcstat_clock_seconds_total{event=\"task-clock\",cpu=\"3\"} 2.000000001\n",
		head_enabled,
		"pcstat_enabled_seconds_total{event=\"task-clock\",cpu=\"0\"} 1.500000000\n"
		"pcstat_enabled_seconds_total{event=\"task-clock\",cpu=\"3\"} 2.000000001\n"
		"pcstat_enabled_seconds_total{event=\"page-faults\",cpu=\"0\"} 1.500000000\n"
		"pcstat_enabled_seconds_total{event=\"page-faults\",cpu=\"3\"} 2.000000000\n",
		head_running,
		"pcstat_running_seconds_total{event=\"task-clock\",cpu=\"0\"} 1.500000000\n"
		"pcstat_running_seconds_total{event=\"task-clock\",cpu=\"3\"} 2.000000001\n"
		"pcstat_running_seconds_total{event=\"page-faults\",cpu=\"0\"} 1.500000000\n"
		"pcstat_running_seconds_total{event=\"page-faults\",cpu=\"3\"} 0.500000000\n",
		head_supported, tail_supported, NULL });

	run_case("per-cpu", AGGR_CPU, units, want);
	free(want);
}

/* Thread names come from the target: quotes, backslashes, terminal
   escapes and invalid UTF-8 must leave a file every parser takes. */
static void per_thread(void)
{
	struct unit units[2] = {
		{ .tid = 7, .cpu = -1, .comm = "a\"b\\c\x1b[2J\xff" },
		{ .tid = 8, .cpu = -1, .comm = "w\xc3\xa9rker" },
	};
	char *want = expect((const char *const[]){
		head_events,
		"pcstat_events_total{event=\"page-faults\",thread=\"a\\\"b\\\\c\\\\x1b[2J\\\\xff-7\"} 100\n"
		"pcstat_events_total{event=\"page-faults\",thread=\"w\xc3\xa9rker-8\"} 50\n",
		head_clock,
		"pcstat_clock_seconds_total{event=\"task-clock\",thread=\"a\\\"b\\\\c\\\\x1b[2J\\\\xff-7\"} 1.500000000\n"
		"pcstat_clock_seconds_total{event=\"task-clock\",thread=\"w\xc3\xa9rker-8\"} 2.000000001\n",
		head_enabled,
		"pcstat_enabled_seconds_total{event=\"task-clock\",thread=\"a\\\"b\\\\c\\\\x1b[2J\\\\xff-7\"} 1.500000000\n"
		"pcstat_enabled_seconds_total{event=\"task-clock\",thread=\"w\xc3\xa9rker-8\"} 2.000000001\n"
		"pcstat_enabled_seconds_total{event=\"page-faults\",thread=\"a\\\"b\\\\c\\\\x1b[2J\\\\xff-7\"} 1.500000000\n"
		"pcstat_enabled_seconds_total{event=\"page-faults\",thread=\"w\xc3\xa9rker-8\"} 2.000000000\n",
		head_running,
		"pcstat_running_seconds_total{event=\"task-clock\",thread=\"a\\\"b\\\\c\\\\x1b[2J\\\\xff-7\"} 1.500000000\n"
		"pcstat_running_seconds_total{event=\"task-clock\",thread=\"w\xc3\xa9rker-8\"} 2.000000001\n"
		"pcstat_running_seconds_total{event=\"page-faults\",thread=\"a\\\"b\\\\c\\\\x1b[2J\\\\xff-7\"} 1.500000000\n"
		"pcstat_running_seconds_total{event=\"page-faults\",thread=\"w\xc3\xa9rker-8\"} 0.500000000\n",
		head_supported, tail_supported, NULL });

	run_case("per-thread", AGGR_THREAD, units, want);
	free(want);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The table pcstat(1) documents: names a Prometheus user can trust. */
static void families(void)
{
	for (size_t i = 0; i < om_nfamilies; i++) {
		const struct om_family *f = &om_families[i];
		char unit[64];

		CHECK(strncmp(f->name, "pcstat_", 7) == 0, "%s: prefix", f->name);
		CHECK(strspn(f->name, "abcdefghijklmnopqrstuvwxyz_") ==
		      strlen(f->name), "%s: snake_case", f->name);
		if (strcmp(f->type, "counter") == 0)
			CHECK(ends_with(f->name, "_total"), "%s: counter without _total",
			      f->name);
		else
			CHECK(strcmp(f->type, "gauge") == 0 &&
			      !ends_with(f->name, "_total"), "%s: type %s", f->name,
			      f->type);
		if (f->unit) {
			snprintf(unit, sizeof(unit), "_%s%s", f->unit,
				 ends_with(f->name, "_total") ? "_total" : "");
			CHECK(ends_with(f->name, unit), "%s: unit %s not its suffix",
			      f->name, f->unit);
		}
		CHECK(f->help[0] && !strpbrk(f->help, "\\\n"), "%s: help", f->name);
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(f->name, om_families[j].name) != 0,
			      "%s twice", f->name);
	}
}

/* Entries of dir other than . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static void file(void)
{
	char dir[] = "/tmp/test-openmetrics.XXXXXX", path[64], *text = NULL;
	struct unit units[2] = { { .tid = -1, .cpu = 0 }, { .tid = -1, .cpu = 1 } };
	struct config cfg = { .aggr = AGGR_GLOBAL, .openmetrics = path };
	struct cset cs = {
		.nev = 3, .nunits = 2, .units = units, .supported = supported,
		.cur = cur,
	};
	struct stat sb;
	size_t len = 0, pos;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
	pc_event_list_parse(&cfg.events, "task-clock,page-faults,cycles", &pos);
	snprintf(path, sizeof(path), "%s/pcstat.prom", dir);
	CHECK(om_check_path(path) == 0 && entries(dir) == 0,
	      "om_check_path leaves nothing behind");
	umask(027);
	CHECK(om_write(&cfg, &cs) == 0, "om_write: %s", strerror(errno));
	CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0640,
	      "mode %o, want what fopen gives under umask 027",
	      (unsigned)sb.st_mode & 0777);
	umask(022);
	CHECK(om_write(&cfg, &cs) == 0 && stat(path, &sb) == 0 &&
	      (sb.st_mode & 0777) == 0644, "rewritten, mode %o",
	      (unsigned)sb.st_mode & 0777);
	CHECK(entries(dir) == 1, "no temporary left beside the file");
	f = open_memstream(&text, &len);
	om_print(f, &cfg, &cs);
	fclose(f);
	f = fopen(path, "r");
	if (f) {
		char *back = calloc(1, len + 2);
		size_t got = fread(back, 1, len + 1, f);

		CHECK(got == len && memcmp(back, text, len) == 0,
		      "the file holds om_print()'s text");
		fclose(f);
		free(back);
	}
	unlink(path);
	rmdir(dir);
	errno = 0;
	CHECK(om_write(&cfg, &cs) == -1 && errno == ENOENT,
	      "a missing directory is an error (%s)", strerror(errno));
	CHECK(om_check_path(path) == -1 && errno == ENOENT,
	      "om_check_path sees it too");
	free(text);
	pc_event_list_release(&cfg.events);
}

int main(int argc, char **argv)
{
	outdir = argc > 1 ? argv[1] : NULL;
	aggregated();
	per_cpu();
	per_thread();
	families();
	file();
	return check_done();
}
