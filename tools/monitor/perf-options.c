/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf-options.c - perf record's options that mean nothing to monitor:
 * accepted, so that a perf user's command line runs, and each says why
 * in one line on standard error.  One row per option; its help is the
 * reason, shown by --help and by the notice.
 */
#include "config.h"

#include <stdio.h>

#include "monitor.h"
#include "util/usage.h"

/* Long-only rows share one id: getopt_long's index tells them apart. */
const struct opt_def perf_options[] = {
	{ "output", 'o', 'o', "FILE", "monitor writes no perf.data: the samples go to standard output (redirect it to FILE)" },
	{ "verbose", 'v', 'v', NULL, "monitor's messages already say what failed, why and the fix" },
	{ "branch-any", 'b', 'b', NULL, "no branch stack here (no hardware PMU sampling)" },
	{ "branch-filter", 'j', 'j', "FILTER", "no branch stack here (no hardware PMU sampling)" },
	{ "no-buildid", 'B', 'B', NULL, "monitor writes no perf.data to collect build-ids into" },
	{ "no-buildid-cache", 'N', 'N', NULL, "monitor keeps no build-id cache" },
	{ "delay", 'D', 'D', "MS", "monitor samples from the command's exec, every sample printed" },
	{ "cgroup", 'G', 'G', "NAME", "monitor samples a thread, a process or CPUs, not a cgroup" },
	{ "intr-regs", 'I', 'I', "[=REGS]", "registers are not sampled here (only the user stack with --call-graph dwarf)" },
	{ "period", 'P', 'P', NULL, "always: every sample has its period (--script, --json)" },
	{ "raw-samples", 'R', 'R', NULL, "a tracepoint's record is read whenever --script prints it (its text, as perf script)" },
	{ "snapshot", 'S', 'S', "[=OPTS]", "no AUX area tracing here" },
	{ "stat", 's', 's', NULL, "per-thread counts are pcstat's (pcstat --per-thread)" },
	{ "timestamp", 'T', 'T', NULL, "always: every sample has its time" },
	{ "weight", 'W', 'W', NULL, "sample weights need PMU events (none here)" },
	{ "compression-level", 'z', 'z', "[=N]", "monitor writes no perf.data to compress" },
	{ "clockid", 0, OPT_PERF_ONLY, "CLOCKID", "the times are the perf clock (CLOCK_MONOTONIC), as perf script prints by default" },
	{ "uid", 0, OPT_PERF_ONLY, "USER", "monitor samples a thread, a process (-p) or CPUs (-a), not a user" },
	{ "no-samples", 0, OPT_PERF_ONLY, NULL, "monitor samples; to count, use pcstat" },
	{ "data", 0, OPT_PERF_ONLY, NULL, "sampled data addresses are not printed here" },
	{ "affinity", 0, OPT_PERF_ONLY, "MODE", "monitor reads its rings in one thread" },
	{ "aio", 0, OPT_PERF_ONLY, "[=N]", "monitor writes no perf.data: no trace writing" },
	{ "all-cgroups", 0, OPT_PERF_ONLY, NULL, "cgroups are not recorded here" },
	{ "aux-sample", 0, OPT_PERF_ONLY, "[=OPTS]", "no AUX area tracing here" },
	{ "buildid-all", 0, OPT_PERF_ONLY, NULL, "monitor writes no perf.data to collect build-ids into" },
	{ "buildid-mmap", 0, OPT_PERF_ONLY, NULL, "monitor writes no perf.data to collect build-ids into" },
	{ "clang-opt", 0, OPT_PERF_ONLY, "OPTS", "no BPF scriptlets here" },
	{ "clang-path", 0, OPT_PERF_ONLY, "PATH", "no BPF scriptlets here" },
	{ "code-page-size", 0, OPT_PERF_ONLY, NULL, "page sizes are not sampled here" },
	{ "control", 0, OPT_PERF_ONLY, "FD", "monitor takes no control commands: it samples until the command ends or a signal" },
	{ "data-page-size", 0, OPT_PERF_ONLY, NULL, "page sizes are not sampled here" },
	{ "debuginfod", 0, OPT_PERF_ONLY, "[=URLS]", "monitor asks debuginfod when DEBUGINFOD_URLS is set" },
	{ "exclude-perf", 0, OPT_PERF_ONLY, NULL, "monitor's own samples are never taken (it samples its target)" },
	{ "filter", 0, OPT_PERF_ONLY, "FILTER", "event filters are not set here" },
	{ "group", 0, OPT_PERF_ONLY, NULL, "each event is sampled on its own here" },
	{ "kcore", 0, OPT_PERF_ONLY, NULL, "monitor writes no perf.data to copy /proc/kcore into" },
	{ "kernel-callchains", 0, OPT_PERF_ONLY, NULL, "a call graph has the kernel's frames already" },
	{ "max-size", 0, OPT_PERF_ONLY, "SIZE", "monitor writes no perf.data; bound the run with -n N samples" },
	{ "mmap-flush", 0, OPT_PERF_ONLY, "BYTES", "monitor reads its rings as samples come" },
	{ "namespaces", 0, OPT_PERF_ONLY, NULL, "namespace events are not recorded here" },
	{ "no-bpf-event", 0, OPT_PERF_ONLY, NULL, "BPF events are not recorded here" },
	{ "no-buffering", 0, OPT_PERF_ONLY, NULL, "monitor prints each sample as it is read" },
	{ "num-thread-synthesize", 0, OPT_PERF_ONLY, "N", "monitor reads the target's maps from /proc itself" },
	{ "overwrite", 0, OPT_PERF_ONLY, NULL, "monitor reads every sample as it comes, never a flight recorder" },
	{ "per-thread", 0, OPT_PERF_ONLY, NULL, "monitor's counters are per thread already (or per CPU with -a)" },
	{ "phys-data", 0, OPT_PERF_ONLY, NULL, "physical addresses are not sampled here" },
	{ "proc-map-timeout", 0, OPT_PERF_ONLY, "MS", "monitor reads the target's maps from /proc without a time-out" },
	{ "running-time", 0, OPT_PERF_ONLY, NULL, "read events are not sampled here" },
	{ "sample-cpu", 0, OPT_PERF_ONLY, NULL, "always: every sample has its CPU (--json)" },
	{ "sample-identifier", 0, OPT_PERF_ONLY, NULL, "always with several events: each sample names its event" },
	{ "switch-events", 0, OPT_PERF_ONLY, NULL, "context switch events are not recorded here" },
	{ "switch-max-files", 0, OPT_PERF_ONLY, "N", "monitor writes no perf.data files" },
	{ "switch-output", 0, OPT_PERF_ONLY, "[=WHEN]", "monitor writes no perf.data to switch" },
	{ "switch-output-event", 0, OPT_PERF_ONLY, "EVENT", "monitor writes no perf.data to switch" },
	{ "synth", 0, OPT_PERF_ONLY, "WHAT", "monitor reads the target's maps from /proc itself" },
	{ "tail-synthesize", 0, OPT_PERF_ONLY, NULL, "monitor reads the target's maps from /proc itself" },
	{ "threads", 0, OPT_PERF_ONLY, "[=SPEC]", "monitor writes no perf.data files" },
	{ "timestamp-boundary", 0, OPT_PERF_ONLY, NULL, "monitor writes no perf.data to record it in" },
	{ "timestamp-filename", 0, OPT_PERF_ONLY, NULL, "monitor writes no perf.data file" },
	{ "transaction", 0, OPT_PERF_ONLY, NULL, "transaction flags need PMU events (none here)" },
	{ "user-callchains", 0, OPT_PERF_ONLY, NULL, "a call graph has the user's frames already" },
	{ "user-regs", 0, OPT_PERF_ONLY, "[=REGS]", "registers are not printed here (--call-graph dwarf samples them to unwind)" },
	{ "vmlinux", 0, OPT_PERF_ONLY, "FILE", "monitor names kernel functions from /proc/kallsyms" },
};
const size_t nperf_options = sizeof(perf_options) / sizeof(perf_options[0]);

const struct opt_def *perf_option_find(int id, const struct opt_def *all,
				       int longindex)
{
	size_t i;

	if (id == OPT_PERF_ONLY)
		return longindex >= 0 ? &all[longindex] : NULL;
	for (i = 0; i < nperf_options; i++)
		if (perf_options[i].letter && perf_options[i].id == id)
			return &perf_options[i];
	return NULL;
}

void perf_option_note(const struct opt_def *d, bool quiet)
{
	if (!quiet)
		usage_no_effect(d, NULL);
}
