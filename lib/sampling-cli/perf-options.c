/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf-options.c - perf record's and perf top's options that mean
 * nothing to monitor and kerneltop: one table, one reason a row.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sampling-cli/perf-options.h"
#include "util/die.h"
#include "util/parse.h"
#include "util/usage.h"

/* What an option's argument must be: perf refuses it otherwise. */
enum arg_check {
	ANY,		/* taken as given */
	NUMBER,		/* a number (perf's parse of an integer) */
	READABLE,	/* a file that can be read (perf checks a vmlinux) */
};

#define REC PERF_RECORD
#define TOP PERF_TOP

/* reasons several rows give */
#define NO_LBR "no branch stacks (LBR) are sampled: no PMU branch records"
#define NO_ASM "annotation disassembles with LLVM (AT&T syntax on x86-64), never through objdump"
#define NO_SWITCH "every sample counts from the start: no on/off events"
#define MAPS "the maps of the processes already running are read from /proc by the sampler itself, none given up on"

static const struct perf_option {
	const char *name;	/* perf's long name */
	const char *arg;	/* its metavar; NULL: none; "[=X]": optional */
	int record_letter;	/* monitor's letter for it, 0: none (or
				   one monitor gives another meaning) */
	int top_letter;		/* kerneltop's */
	unsigned commands;	/* enum perf_command: whose option it is */
	enum arg_check check;
	const char *why;	/* the one reason, for --help and the notice */
} perf_options[] = {
	{ "output", "FILE", 'o', 0, REC, ANY, "monitor writes no perf.data: the samples go to standard output (redirect it to FILE)" },
	{ "verbose", NULL, 'v', 0, REC, ANY, "monitor's messages already say what failed, why and the fix" },
	{ "branch-any", NULL, 'b', 0, REC | TOP, ANY, NO_LBR },
	{ "branch-filter", "MASK", 'j', 'j', REC | TOP, ANY, NO_LBR },
	{ "no-buildid", NULL, 'B', 0, REC, ANY, "monitor writes no perf.data to collect build-ids into" },
	{ "no-buildid-cache", NULL, 'N', 0, REC, ANY, "monitor keeps no build-id cache" },
	{ "delay", "MS", 'D', 0, REC, ANY, "monitor samples from the command's exec, every sample printed" },
	{ "cgroup", "NAME", 'G', 0, REC, ANY, "monitor samples a thread, a process or CPUs, not a cgroup" },
	{ "intr-regs", "[=REGS]", 'I', 0, REC, ANY, "registers are not sampled here (only the user stack with --call-graph dwarf)" },
	{ "period", NULL, 'P', 0, REC, ANY, "always: every sample has its period (--script, --json)" },
	{ "raw-samples", NULL, 'R', 0, REC, ANY, "a tracepoint's record is read whenever --script prints it (its text, as perf script)" },
	{ "snapshot", "[=OPTS]", 'S', 0, REC, ANY, "no AUX area tracing here" },
	{ "stat", NULL, 's', 0, REC, ANY, "per-thread counts are pcstat's (pcstat --per-thread)" },
	{ "timestamp", NULL, 'T', 0, REC, ANY, "always: every sample has its time" },
	{ "weight", NULL, 'W', 0, REC, ANY, "sample weights need PMU events (none here)" },
	{ "compression-level", "[=N]", 'z', 0, REC, ANY, "monitor writes no perf.data to compress" },
	{ "clockid", "CLOCKID", 0, 0, REC, ANY, "the times are the perf clock (CLOCK_MONOTONIC), as perf script prints by default" },
	{ "uid", "USER", 0, 0, REC, ANY, "monitor samples a thread, a process (-p) or CPUs (-a), not a user" },
	{ "no-samples", NULL, 0, 0, REC, ANY, "monitor samples; to count, use pcstat" },
	{ "data", NULL, 0, 0, REC, ANY, "sampled data addresses are not printed here" },
	{ "affinity", "MODE", 0, 0, REC, ANY, "monitor reads its rings in one thread" },
	{ "aio", "[=N]", 0, 0, REC, ANY, "monitor writes no perf.data: no trace writing" },
	{ "all-cgroups", NULL, 0, 0, REC | TOP, ANY, "the samples carry no cgroup: no column or sort key would show it" },
	{ "aux-sample", "[=OPTS]", 0, 0, REC, ANY, "no AUX area tracing here" },
	{ "buildid-all", NULL, 0, 0, REC, ANY, "monitor writes no perf.data to collect build-ids into" },
	{ "buildid-mmap", NULL, 0, 0, REC, ANY, "monitor writes no perf.data to collect build-ids into" },
	{ "clang-opt", "OPTS", 0, 0, REC, ANY, "no BPF scriptlets here" },
	{ "clang-path", "PATH", 0, 0, REC, ANY, "no BPF scriptlets here" },
	{ "code-page-size", NULL, 0, 0, REC, ANY, "page sizes are not sampled here" },
	{ "control", "FD", 0, 0, REC, ANY, "monitor takes no control commands: it samples until the command ends or a signal" },
	{ "data-page-size", NULL, 0, 0, REC, ANY, "page sizes are not sampled here" },
	{ "debuginfod", "[=URLS]", 0, 0, REC, ANY, "monitor asks debuginfod when DEBUGINFOD_URLS is set" },
	{ "exclude-perf", NULL, 0, 0, REC, ANY, "monitor's own samples are never taken (it samples its target)" },
	{ "filter", "FILTER", 0, 0, REC, ANY, "event filters are not set here" },
	{ "group", NULL, 0, 0, REC, ANY, "each event is sampled on its own here" },
	{ "kcore", NULL, 0, 0, REC, ANY, "monitor writes no perf.data to copy /proc/kcore into" },
	{ "kernel-callchains", NULL, 0, 0, REC, ANY, "a call graph has the kernel's frames already" },
	{ "max-size", "SIZE", 0, 0, REC, ANY, "monitor writes no perf.data; bound the run with -n N samples" },
	{ "mmap-flush", "BYTES", 0, 0, REC, ANY, "monitor reads its rings as samples come" },
	{ "namespaces", NULL, 0, 0, REC | TOP, ANY, "namespace events are not recorded: no column or sort key would show them" },
	{ "no-bpf-event", NULL, 0, 0, REC | TOP, ANY, "BPF events are not recorded: kallsyms names BPF programs" },
	{ "no-buffering", NULL, 0, 0, REC, ANY, "monitor prints each sample as it is read" },
	{ "num-thread-synthesize", "N", 0, 0, REC | TOP, NUMBER, MAPS },
	{ "overwrite", NULL, 0, 0, REC | TOP, ANY, "the rings are read forward as samples come, never as a flight recorder; what a full ring drops is counted as lost" },
	{ "per-thread", NULL, 0, 0, REC, ANY, "monitor's counters are per thread already (or per CPU with -a)" },
	{ "phys-data", NULL, 0, 0, REC, ANY, "physical addresses are not sampled here" },
	{ "proc-map-timeout", "MS", 0, 0, REC | TOP, NUMBER, MAPS },
	{ "running-time", NULL, 0, 0, REC, ANY, "read events are not sampled here" },
	{ "sample-cpu", NULL, 0, 0, REC, ANY, "always: every sample has its CPU (--json)" },
	{ "sample-identifier", NULL, 0, 0, REC, ANY, "always with several events: each sample names its event" },
	{ "switch-events", NULL, 0, 0, REC, ANY, "context switch events are not recorded here" },
	{ "switch-max-files", "N", 0, 0, REC, ANY, "monitor writes no perf.data files" },
	{ "switch-output", "[=WHEN]", 0, 0, REC, ANY, "monitor writes no perf.data to switch" },
	{ "switch-output-event", "EVENT", 0, 0, REC, ANY, "monitor writes no perf.data to switch" },
	{ "synth", "WHAT", 0, 0, REC, ANY, "monitor reads the target's maps from /proc itself" },
	{ "tail-synthesize", NULL, 0, 0, REC, ANY, "monitor reads the target's maps from /proc itself" },
	{ "threads", "[=SPEC]", 0, 0, REC, ANY, "monitor writes no perf.data files" },
	{ "timestamp-boundary", NULL, 0, 0, REC, ANY, "monitor writes no perf.data to record it in" },
	{ "timestamp-filename", NULL, 0, 0, REC, ANY, "monitor writes no perf.data file" },
	{ "transaction", NULL, 0, 0, REC, ANY, "transaction flags need PMU events (none here)" },
	{ "user-callchains", NULL, 0, 0, REC, ANY, "a call graph has the user's frames already" },
	{ "user-regs", "[=REGS]", 0, 0, REC, ANY, "registers are not printed here (--call-graph dwarf samples them to unwind)" },
	{ "vmlinux", "FILE", 0, 'k', REC | TOP, READABLE, "kernel functions are named from kallsyms, never from a vmlinux" },
	{ "force", NULL, 0, 0, TOP, ANY, "kerneltop reads no perf.data whose owner perf checks" },
	{ "ignore-vmlinux", NULL, 0, 0, TOP, ANY, "a vmlinux is never read: kernel symbols come from kallsyms" },
	{ "demangle-kernel", NULL, 0, 0, TOP, ANY, "kernel symbols are shown as kallsyms names them" },
	{ "dump-symtab", NULL, 0, 'D', TOP, ANY, "perf's debugging dump; press H for what is unresolved" },
	{ "stitch-lbr", NULL, 0, 0, TOP, ANY, NO_LBR },
	{ "disassembler-style", "STYLE", 0, 'M', TOP, ANY, NO_ASM },
	{ "asm-raw", NULL, 0, 0, TOP, ANY, NO_ASM },
	{ "objdump", "PATH", 0, 0, TOP, ANY, NO_ASM },
	{ "source", NULL, 0, 0, TOP, ANY, "annotation opens on the source lines (s in it: the instructions)" },
	{ "prefix", "PREFIX", 0, 0, TOP, ANY, "source files are read where their DWARF says" },
	{ "prefix-strip", "N", 0, 0, TOP, NUMBER, "source files are read where their DWARF says" },
	{ "column-widths", "W,..", 0, 'w', TOP, ANY, "columns are sized to the terminal and the names shown" },
	{ "ignore-callees", "REGEX", 0, 0, TOP, ANY, "call graphs are shown whole" },
	{ "switch-on", "EVENT", 0, 0, TOP, ANY, NO_SWITCH },
	{ "switch-off", "EVENT", 0, 0, TOP, ANY, NO_SWITCH },
	{ "show-on-off-events", NULL, 0, 0, TOP, ANY, NO_SWITCH },
};
#define NPERF_OPTIONS (sizeof(perf_options) / sizeof(perf_options[0]))

static int letter_of(const struct perf_option *p, enum perf_command cmd)
{
	return cmd == PERF_RECORD ? p->record_letter : p->top_letter;
}

size_t perf_options_table(enum perf_command cmd, const struct opt_def *own,
			  size_t nown, struct opt_def *all, size_t room,
			  size_t *first_perf)
{
	size_t n = nown, i;

	if (nown > room)
		die("option table too small");
	memcpy(all, own, nown * sizeof(*own));
	for (i = 0; i < NPERF_OPTIONS; i++) {
		const struct perf_option *p = &perf_options[i];
		int letter = letter_of(p, cmd);

		if (!(p->commands & cmd))
			continue;
		if (n == room)
			die("option table too small");
		all[n++] = (struct opt_def){
			.name = p->name, .letter = letter,
			.id = letter ? letter : PERF_OPTIONS_ID + (int)i,
			.arg = p->arg, .help = p->why };
	}
	*first_perf = nown;
	return n;
}

/* The row of id for cmd, or NULL. */
static const struct perf_option *find(enum perf_command cmd, int id)
{
	size_t i;

	if (id >= PERF_OPTIONS_ID &&
	    (size_t)(id - PERF_OPTIONS_ID) < NPERF_OPTIONS) {
		i = (size_t)(id - PERF_OPTIONS_ID);
		return perf_options[i].commands & cmd &&
		       !letter_of(&perf_options[i], cmd) ?
		       &perf_options[i] : NULL;
	}
	for (i = 0; id > 0 && i < NPERF_OPTIONS; i++)
		if (perf_options[i].commands & cmd &&
		    letter_of(&perf_options[i], cmd) == id)
			return &perf_options[i];
	return NULL;
}

bool perf_option_taken(enum perf_command cmd, const struct opt_def *all,
		       size_t n, int id, const char *arg, bool quiet)
{
	const struct perf_option *p = find(cmd, id);
	const struct opt_def *d = opts_find(all, n, id);
	char opt[48];
	uint64_t v;

	if (!p || !d)
		return false;
	if (d->letter)
		snprintf(opt, sizeof(opt), "-%c/--%s", d->letter, d->name);
	else
		snprintf(opt, sizeof(opt), "--%s", d->name);
	if (arg && p->check == NUMBER && !parse_u64(arg, 0, UINT32_MAX, &v))
		usage_error("%s wants a number, not '%s'", opt, arg);
	if (arg && p->check == READABLE && access(arg, R_OK) != 0)
		usage_error("%s: cannot read '%s': %s", opt, arg,
			    strerror(errno));
	if (!quiet)
		usage_no_effect(d, NULL);
	return true;
}
