/*
 * test-scale: multiplexed counts through pcstat's own stat and print
 * modules, with synthetic values/times (software events never multiplex
 * here).  The expected lines are what perf 6.1 prints for the same counts:
 * perf_counts_values__scale() keeps value * enabled / running as an
 * integer; stat-display.c appends "  (%.2f%%)" (100.0 * run / ena) in the
 * std layout, and run and 100 * run / ena (integer division) in CSV and
 * JSON; running == 0 is "<not counted>".  The std lines are Debian perf
 * 6.1's byte for byte (its metric column is 35 wide: see formats.sh) with
 * that suffix.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "stat.h"
#include "ticks.h"
#include "../check.h"

/* task-clock runs the whole 200 ms; page-faults gets the case's counts. */
static const struct scale_case {
	const char *what;
	uint64_t value, enabled, running;
	double scaled;			/* stats' value for page-faults */
	const char *std, *csv, *json;	/* its line in each layout */
} cases[] = {
	{ "two thirds", 1000, 3000, 2000, 1500,
	  "              1500      page-faults                      #    7.500 K/sec                    (66.67%)",
	  "1500,,page-faults,2000,66.00,7.500,K/sec",
	  "{\"counter-value\" : \"1500.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", \"event-runtime\" : 2000, \"pcnt-running\" : 66.00, \"metric-value\" : 7.500000, \"metric-unit\" : \"K/sec\"}" },
	{ "truncated as perf", 1000, 3000, 1800, 1666,
	  "              1666      page-faults                      #    8.330 K/sec                    (60.00%)",
	  "1666,,page-faults,1800,60.00,8.330,K/sec",
	  "{\"counter-value\" : \"1666.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", \"event-runtime\" : 1800, \"pcnt-running\" : 60.00, \"metric-value\" : 8.330000, \"metric-unit\" : \"K/sec\"}" },
	{ "never ran", 0, 3000, 0, 0,
	  "     <not counted>      page-faults                                                   (0.00%)",
	  "<not counted>,,page-faults,0,0.00,,",
	  "{\"counter-value\" : \"<not counted>\", \"unit\" : \"\", \"event\" : \"page-faults\", \"event-runtime\" : 0, \"pcnt-running\" : 0.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}" },
	{ "ran all the time", 1500, 3000, 3000, 1500,
	  "              1500      page-faults                      #    7.500 K/sec                  ",
	  "1500,,page-faults,3000,100.00,7.500,K/sec",
	  "{\"counter-value\" : \"1500.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", \"event-runtime\" : 3000, \"pcnt-running\" : 100.00, \"metric-value\" : 7.500000, \"metric-unit\" : \"K/sec\"}" },
};

/* The line of out that names page-faults, without its newline. */
static char *pf_line(const char *out)
{
	const char *p = strstr(out, "page-faults"), *b, *e;
	char *line;

	if (p == NULL)
		return strdup("");
	for (b = p; b > out && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	if (e == NULL)
		e = p + strlen(p);
	line = malloc((size_t)(e - b) + 1);
	memcpy(line, b, (size_t)(e - b));
	line[e - b] = '\0';
	return line;
}

/* Print st in layout fmt; returns the page-faults line (caller frees). */
static char *print_in(struct config *cfg, const struct cset *cs,
		      const struct stats *st, enum out_format fmt)
{
	struct run_result res = { .wall_ns = 4e8 };
	char *buf = NULL, *line;
	size_t len = 0;

	cfg->fmt = fmt;
	cfg->sep = ",";
	cfg->out = open_memstream(&buf, &len);
	print_counts(cfg, cs, st, &res, false, 0);
	fclose(cfg->out);
	line = pf_line(buf);
	free(buf);
	return line;
}

static void run_case(const struct scale_case *c)
{
	static char *argv[] = { "cmd", NULL };
	struct config cfg = { .argv = argv, .run_count = 1 };
	struct unit unit = { .tid = 1, .cpu = -1 };
	struct pc_count cur[2] = {
		{ .value = 200000000, .enabled = 200000000, .running = 200000000 },
		{ .value = c->value, .enabled = c->enabled, .running = c->running },
	};
	bool supported[2] = { true, true };
	struct cset cs = {
		.nev = 2, .nunits = 1, .units = &unit, .supported = supported,
		.cur = cur,
	};
	static const enum out_format fmts[] = { FMT_STD, FMT_CSV, FMT_JSON };
	const char *want[] = { c->std, c->csv, c->json };
	struct stats st;
	size_t pos;

	CHECK(pc_event_list_parse(&cfg.events, "task-clock,page-faults",
				  &pos) == 0, "%s: events", c->what);
	stats_init(&st, 2, 1, 1);
	stats_add_run(&st, &cs, NULL, AGGR_GLOBAL, 4e8);
	CHECK(st.slot[1].val.mean == c->scaled, "%s: scaled %f, want %f",
	      c->what, st.slot[1].val.mean, c->scaled);
	CHECK(st.slot[1].run.mean == (double)c->running &&
	      st.slot[1].ena.mean == (double)c->enabled, "%s: times", c->what);
	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		char *got = print_in(&cfg, &cs, &st, fmts[f]);

		CHECK(strcmp(got, want[f]) == 0, "%s: layout %zu:\n got '%s'\nwant '%s'",
		      c->what, f, got, want[f]);
		free(got);
	}
	stats_release(&st);
	pc_event_list_release(&cfg.events);
}

/* -a: the CPUs' counts are summed, then scaled (perf's AGGR_GLOBAL). */
static void sum_then_scale(void)
{
	struct unit units[2] = { { .tid = -1, .cpu = 0 }, { .tid = -1, .cpu = 1 } };
	struct pc_count cur[2] = {
		{ .value = 1000, .enabled = 3000, .running = 1500 },
		{ .value = 1000, .enabled = 3000, .running = 3000 },
	};
	bool supported[1] = { true };
	struct cset cs = {
		.nev = 1, .nunits = 2, .units = units, .supported = supported,
		.cur = cur,
	};
	struct stats st;

	stats_init(&st, 1, 1, 1);
	stats_add_run(&st, &cs, NULL, AGGR_GLOBAL, 1e9);
	/* 2000 * 6000 / 4500 = 2666.67 -> 2666 */
	CHECK(st.slot[0].val.mean == 2666, "sum then scale: %f",
	      st.slot[0].val.mean);
	stats_release(&st);
	stats_init(&st, 1, 2, 1);
	stats_add_run(&st, &cs, NULL, AGGR_CPU, 1e9);
	CHECK(st.slot[0].val.mean == 2000 && st.slot[1].val.mean == 1000,
	      "-A scales each CPU: %f %f", st.slot[0].val.mean,
	      st.slot[1].val.mean);
	stats_release(&st);
}

/* The whole output of st in layout fmt (caller frees). */
static char *print_all(struct config *cfg, const struct cset *cs,
		       const struct stats *st, enum out_format fmt)
{
	struct run_result res = { .wall_ns = 4e8 };
	char *buf = NULL;
	size_t len = 0;

	cfg->fmt = fmt;
	cfg->sep = ",";
	cfg->out = open_memstream(&buf, &len);
	print_counts(cfg, cs, st, &res, false, 0);
	fclose(cfg->out);
	return buf;
}

/* -x, -I's lines of st, at 1 s (caller frees). */
static char *print_interval(struct config *cfg, const struct cset *cs,
			    const struct stats *st)
{
	char *buf = NULL;
	size_t len = 0;

	cfg->out = open_memstream(&buf, &len);
	print_counts(cfg, cs, st, NULL, true, 1000000000);
	fclose(cfg->out);
	return buf;
}

/*
 * A multiplexed page-faults read at two ticks: (500 of 800 ns running,
 * 1500 enabled), then (500, 1200, 1500).  R = 0.5, residuals +-100,
 * s^2 = 20000, f = 2/3, cbar = 500: relative variance
 * (1/3) 20000 / (2 * 500^2) = 1/75; the 1500 scaled +- 1.96 * 1500 /
 * sqrt(75) = 339, its 7.500 K/sec (over task-clock, never multiplexed)
 * +- 1.697.  perf's line and task-clock's stay as they were.
 */
static void mux_intervals(void)
{
	static char *argv[] = { "cmd", NULL };
	struct config cfg = { .argv = argv, .run_count = 1 };
	struct unit unit = { .tid = 1, .cpu = -1 };
	struct pc_count cur[2] = {
		{ .value = 100000000, .enabled = 100000000, .running = 100000000 },
		{ .value = 500, .enabled = 1500, .running = 800 },
	};
	bool supported[2] = { true, true };
	struct cset cs = {
		.nev = 2, .nunits = 1, .units = &unit, .supported = supported,
		.cur = cur,
	};
	struct ticks tk;
	struct stats st;
	size_t pos;
	char *out;

	CHECK(pc_event_list_parse(&cfg.events, "task-clock,page-faults",
				  &pos) == 0, "mux: events");
	ticks_init(&tk, 2, 1, AGGR_GLOBAL, NULL);
	ticks_run_start(&tk, &cs, true);
	ticks_add(&tk, &cs);
	cur[0] = (struct pc_count){ 200000000, 200000000, 200000000, 0 };
	cur[1] = (struct pc_count){ 1000, 3000, 2000, 0 };
	ticks_add(&tk, &cs);
	stats_init(&st, 2, 1, 1);
	st.ticks = &tk;
	stats_add_run(&st, &cs, NULL, AGGR_GLOBAL, 4e8);

	out = print_all(&cfg, &cs, &st, FMT_STD);
	CHECK(strstr(out, cases[0].std) && strstr(out, "\n" "\n" "    "
	      "        200.00 msec task-clock                       #    "
	      "0.500 CPUs utilized          \n"),
	      "mux: perf's lines changed:\n%s", out);
	CHECK(strstr(out, cases[0].std) && strstr(out, "\n#             "
	      "\u00b1339      page-faults                      # 7.500 "
	      "\u00b11.697 K/sec (67% measured)\n"), "mux: std:\n%s", out);
	free(out);
	out = print_all(&cfg, &cs, &st, FMT_CSV);
	CHECK(strstr(out, "200.00,msec,task-clock,200000000,100.00,0.500,"
		      "CPUs utilized\n") &&
	      strstr(out, "\n1500,,page-faults,2000,66.00,7.500,K/sec,339,"
		     "1.697\n"), "mux: CSV:\n%s", out);
	free(out);
	out = print_all(&cfg, &cs, &st, FMT_JSON);
	CHECK(strstr(out, "\"metric-unit\" : \"CPUs utilized\"}\n") &&
	      strstr(out, "\"metric-unit\" : \"K/sec\", \"counter-ci95\" : "
		     "339.4") &&
	      strstr(out, "\"metric-ci95\" : 1.697"), "mux: JSON:\n%s", out);
	free(out);

	/* -I: the interval's own ticks, none once it was printed */
	cfg.fmt = FMT_CSV;
	cfg.interval_ms = 1000;
	out = print_interval(&cfg, &cs, &st);
	CHECK(strstr(out, "     1.000000000,1500,,page-faults,2000,66.00,"
		      "7.500,K/sec,339,1.697\n"), "mux: -I:\n%s", out);
	free(out);
	ticks_interval_done(&tk);
	out = print_interval(&cfg, &cs, &st);
	CHECK(strstr(out, ",page-faults,2000,66.00,7.500,K/sec,,\n"),
	      "mux: -I, the next interval:\n%s", out);
	free(out);
	CHECK(tk.all[0].n == 2, "mux: the whole run keeps its %lu ticks",
	      tk.all[0].n);
	cfg.interval_ms = 0;

	/* one tick: no variance, the width unknown */
	ticks_run_start(&tk, &cs, true);
	muxci_reset(&tk.all[0]);
	ticks_add(&tk, &cs);
	out = print_all(&cfg, &cs, &st, FMT_STD);
	CHECK(strstr(out, "#               \u00b1-      page-faults       "
		      "               # 7.500 \u00b1- K/sec (67% measured)\n"),
	      "mux: one tick:\n%s", out);
	free(out);
	out = print_all(&cfg, &cs, &st, FMT_CSV);
	CHECK(strstr(out, "K/sec,,\n"), "mux: CSV, one tick:\n%s", out);
	free(out);
	stats_release(&st);
	ticks_release(&tk);
	pc_event_list_release(&cfg.events);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	sum_then_scale();
	mux_intervals();
	return check_done();
}
