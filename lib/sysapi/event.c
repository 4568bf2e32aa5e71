/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* event.c - perf's event names and modifiers to perf_event_attr. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sysapi/event.h>
#include "sysapi-internal.h"

#define HW(n, a, c, h) { n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, h }
#define SW(n, a, c, h) { n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, h }

static const struct pc_event_desc event_table[] = {
	HW("cycles", "cpu-cycles", CPU_CYCLES, "CPU cycles"),
	HW("instructions", NULL, INSTRUCTIONS, "instructions retired"),
	HW("cache-references", NULL, CACHE_REFERENCES, "cache accesses (usually LLC)"),
	HW("cache-misses", NULL, CACHE_MISSES, "cache misses (usually LLC)"),
	HW("branches", "branch-instructions", BRANCH_INSTRUCTIONS, "branch instructions retired"),
	HW("branch-misses", NULL, BRANCH_MISSES, "mispredicted branches"),
	HW("bus-cycles", NULL, BUS_CYCLES, "bus cycles"),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND, "cycles stalled in the front end"),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND, "cycles stalled in the back end"),
	HW("ref-cycles", NULL, REF_CPU_CYCLES, "reference cycles, unaffected by frequency scaling"),
	SW("cpu-clock", NULL, CPU_CLOCK, "per-CPU high-resolution timer (ns)"),
	SW("task-clock", NULL, TASK_CLOCK, "time the task ran on a CPU (ns)"),
	SW("page-faults", "faults", PAGE_FAULTS, "page faults"),
	SW("context-switches", "cs", CONTEXT_SWITCHES, "context switches"),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS, "moves of the task to another CPU"),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN, "page faults served without I/O"),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ, "page faults that needed I/O"),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS, "unaligned accesses fixed up by the kernel"),
	SW("emulation-faults", NULL, EMULATION_FAULTS, "instructions emulated by the kernel"),
	SW("dummy", NULL, DUMMY, "counts nothing; carries side-band records"),
	SW("bpf-output", NULL, BPF_OUTPUT, "records a BPF program writes (counts none by itself)"),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES, "switches between tasks of different cgroups"),
	{ "duration_time", NULL, PC_TYPE_TOOL, PC_TOOL_DURATION_TIME, "wall-clock time counted (ns), measured by the tool" },
	{ "user_time", NULL, PC_TYPE_TOOL, PC_TOOL_USER_TIME, "the command's user CPU time (ns), from its rusage" },
	{ "system_time", NULL, PC_TYPE_TOOL, PC_TOOL_SYSTEM_TIME, "the command's system CPU time (ns), from its rusage" },
	{ NULL, NULL, 0, 0, NULL },
};

const struct pc_event_desc *pc_event_table(void)
{
	return event_table;
}

/*
 * Hardware cache events: perf's names are CACHE-OP(s) for accesses and
 * CACHE-OP-misses for misses; the table lists the ops perf offers for
 * each cache.
 */
#define OPS_ALL ((1u << PERF_COUNT_HW_CACHE_OP_READ) | \
		 (1u << PERF_COUNT_HW_CACHE_OP_WRITE) | \
		 (1u << PERF_COUNT_HW_CACHE_OP_PREFETCH))
#define OPS_LOAD (1u << PERF_COUNT_HW_CACHE_OP_READ)
#define OPS_LOAD_PREFETCH (OPS_LOAD | (1u << PERF_COUNT_HW_CACHE_OP_PREFETCH))

static const struct {
	const char *name;
	unsigned int ops;
} cache_table[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "L1-dcache", OPS_ALL },
	[PERF_COUNT_HW_CACHE_L1I] = { "L1-icache", OPS_LOAD_PREFETCH },
	[PERF_COUNT_HW_CACHE_LL] = { "LLC", OPS_ALL },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", OPS_ALL },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", OPS_LOAD },
	[PERF_COUNT_HW_CACHE_BPU] = { "branch", OPS_LOAD },
	[PERF_COUNT_HW_CACHE_NODE] = { "node", OPS_ALL },
};

static const struct {
	const char *access;	/* result ACCESS */
	const char *miss;	/* result MISS */
} cache_op_table[PERF_COUNT_HW_CACHE_OP_MAX] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "loads", "load-misses" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "stores", "store-misses" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetches", "prefetch-misses" },
};

#define CACHE_NAMES_MAX (PERF_COUNT_HW_CACHE_MAX * PERF_COUNT_HW_CACHE_OP_MAX * 2)
static char cache_name_buf[CACHE_NAMES_MAX][40];
static const char *cache_names[CACHE_NAMES_MAX + 1];
static uint64_t cache_configs[CACHE_NAMES_MAX];
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_names_init(void)
{
	size_t n = 0;

	for (unsigned int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!(cache_table[c].ops & (1u << op)))
				continue;
			for (unsigned int res = 0; res < 2; res++) {
				snprintf(cache_name_buf[n], sizeof(cache_name_buf[n]),
					 "%s-%s", cache_table[c].name,
					 res ? cache_op_table[op].miss
					     : cache_op_table[op].access);
				cache_configs[n] = c | (op << 8) | (res << 16);
				cache_names[n] = cache_name_buf[n];
				n++;
			}
		}
	}
	cache_names[n] = NULL;
}

const char *const *pc_event_cache_names(void)
{
	pthread_once(&cache_once, cache_names_init);
	return cache_names;
}

/* Look NAME (len bytes, not terminated) up; fill type/config. */
static int event_lookup(const char *name, size_t len, uint32_t *type,
			uint64_t *config)
{
	const char *const *cn;

	for (const struct pc_event_desc *d = event_table; d->name; d++) {
		if ((strlen(d->name) == len && !strncmp(d->name, name, len)) ||
		    (d->alias && strlen(d->alias) == len &&
		     !strncmp(d->alias, name, len))) {
			*type = d->type;
			*config = d->config;
			return 0;
		}
	}
	cn = pc_event_cache_names();
	for (size_t i = 0; cn[i]; i++) {
		if (strlen(cn[i]) == len && !strncasecmp(cn[i], name, len)) {
			*type = PERF_TYPE_HW_CACHE;
			*config = cache_configs[i];
			return 0;
		}
	}
	if (len >= 2 && name[0] == 'r') {
		uint64_t v = 0;

		if (len > 17)
			return -1;
		for (size_t i = 1; i < len; i++) {
			if (!isxdigit((unsigned char)name[i]))
				return -1;
			v = v << 4 | (uint64_t)(isdigit((unsigned char)name[i]) ?
				name[i] - '0' : (tolower((unsigned char)name[i]) - 'a' + 10));
		}
		*type = PERF_TYPE_RAW;
		*config = v;
		return 0;
	}
	return -1;
}

/*
 * Apply modifiers "ukhp" and perf's "GHIDeSPW" (len bytes at mods) to attr.  Returns 0, or the
 * 1-based offset of the first bad character.  As perf's
 * get_event_modifier(): on an attr that already excludes something (a
 * group member with its own ":u" under "{...}:k"), u/k/h add to what it
 * counts rather than start afresh.  As perf's check_modifier(), a
 * modifier other than p given twice ("uu") is bad, so that a typo is not
 * counted under the name the user mistyped.
 */
size_t pc_event_modifiers(const char *mods, size_t len,
			  struct perf_event_attr *attr)
{
	bool had = attr->exclude_user || attr->exclude_kernel ||
		   attr->exclude_hv;
	bool u = had && !attr->exclude_user, k = had && !attr->exclude_kernel,
	     h = had && !attr->exclude_hv;

	for (size_t i = 0; i < len; i++) {
		if (mods[i] != 'p' && memchr(mods, mods[i], i))
			return i + 1;
		switch (mods[i]) {
		case 'u': u = true; break;
		case 'k': k = true; break;
		case 'h': h = true; break;
		case 'p':
			if (attr->precise_ip == 3)
				return i + 1;
			attr->precise_ip++;
			break;
		/* perf's other modifiers (get_event_modifier()) */
		case 'G':	/* guest only */
			attr->exclude_host = 1;
			attr->exclude_guest = 0;
			break;
		case 'H':	/* host only */
			attr->exclude_guest = 1;
			attr->exclude_host = 0;
			break;
		case 'I': attr->exclude_idle = 1; break;
		case 'D': attr->pinned = 1; break;
		case 'e': attr->exclusive = 1; break;
		/* P (the highest precision there is), S (read the group
		   in each sample) and W (a weak group: members open alone
		   when the group cannot) change nothing a count depends on
		   (and S with inherit is EINVAL); accepted as perf stat
		   accepts them. */
		case 'P':
		case 'S':
		case 'W':
			break;
		default:
			return i + 1;
		}
	}
	if (u || k || h) {
		attr->exclude_user = !u;
		attr->exclude_kernel = !k;
		attr->exclude_hv = !h;
	}
	return 0;
}

/* Parse str[0..len) ("name[:mods]"). */
int pc_event_parse_n(const char *str, size_t len,
		     struct perf_event_attr *attr, size_t *errpos)
{
	const char *colon = memchr(str, ':', len);
	size_t nlen = colon ? (size_t)(colon - str) : len;
	size_t bad;

	uint32_t type;
	uint64_t config;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	if (nlen == 0 || event_lookup(str, nlen, &type, &config)) {
		if (errpos)
			*errpos = 0;
		errno = EINVAL;
		return -1;
	}
	attr->type = type;
	attr->config = config;
	if (colon) {
		bad = len - nlen - 1 == 0 ? 1 :
			pc_event_modifiers(colon + 1, len - nlen - 1, attr);
		if (bad) {
			if (errpos)
				*errpos = nlen + bad;
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

int pc_event_parse(const char *str, struct perf_event_attr *attr,
		   size_t *errpos)
{
	return pc_event_parse_n(str, strlen(str), attr, errpos);
}

const char *pc_event_name(const struct perf_event_attr *attr, char *buf,
			  size_t sz)
{
	const char *name = NULL;
	size_t n;

	if (sz == 0)
		return buf;
	buf[0] = '\0';
	if (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_SOFTWARE ||
	    attr->type == PC_TYPE_TOOL) {
		for (const struct pc_event_desc *d = event_table; d->name; d++)
			if (d->type == attr->type && d->config == attr->config)
				name = d->name;
	} else if (attr->type == PERF_TYPE_HW_CACHE) {
		const char *const *cn = pc_event_cache_names();

		for (size_t i = 0; cn[i]; i++)
			if (cache_configs[i] == attr->config)
				name = cn[i];
	}
	if (name)
		snprintf(buf, sz, "%s", name);
	else if (attr->type == PERF_TYPE_RAW)
		snprintf(buf, sz, "r%llx", (unsigned long long)attr->config);
	else
		snprintf(buf, sz, "type%u/0x%llx", attr->type,
			 (unsigned long long)attr->config);

	n = strlen(buf);
	if (attr->exclude_user || attr->exclude_kernel || attr->exclude_hv ||
	    attr->precise_ip) {
		char mods[8], *m = mods;

		if (attr->exclude_user || attr->exclude_kernel || attr->exclude_hv) {
			if (!attr->exclude_user)
				*m++ = 'u';
			if (!attr->exclude_kernel)
				*m++ = 'k';
			if (!attr->exclude_hv)
				*m++ = 'h';
		}
		for (unsigned int i = 0; i < attr->precise_ip && i < 3; i++)
			*m++ = 'p';
		*m = '\0';
		if (m != mods)
			snprintf(buf + n, sz - n, ":%s", mods);
	}
	return buf;
}

/* Levenshtein distance, bounded to short names. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *pc_event_suggest(const char *bad)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1, limit;
	const char *const *cn = pc_event_cache_names();
	char name[64];
	const char *colon = strchr(bad, ':');

	snprintf(name, sizeof(name), "%.*s",
		 (int)(colon ? (size_t)(colon - bad) : strlen(bad)), bad);
	limit = strlen(name) / 3 + 1;
	if (limit > 3)
		limit = 3;
	for (const struct pc_event_desc *d = event_table; d->name; d++) {
		const char *cand[2] = { d->name, d->alias };

		for (int i = 0; i < 2; i++) {
			size_t dist;

			if (!cand[i])
				continue;
			dist = edit_distance(name, cand[i]);
			if (dist < best_d) {
				best_d = dist;
				best = cand[i];
			}
		}
	}
	for (size_t i = 0; cn[i]; i++) {
		size_t dist = edit_distance(name, cn[i]);

		if (dist < best_d) {
			best_d = dist;
			best = cn[i];
		}
	}
	return best_d <= limit ? best : NULL;
}

/* Cache of pc_event_available() answers, keyed by type/config/excludes. */
#define AVAIL_CACHE 64
static struct {
	uint32_t type;
	uint64_t config;
	uint8_t excl;
	int err;		/* 0 available, else errno */
} avail_cache[AVAIL_CACHE];
static size_t avail_nr;
static pthread_mutex_t avail_lock = PTHREAD_MUTEX_INITIALIZER;

int pc_event_available(const struct perf_event_attr *attr, int *err)
{
	uint8_t excl = attr->exclude_user | attr->exclude_kernel << 1 |
		       attr->exclude_hv << 2;
	int e = 0;

	if (attr->type == PC_TYPE_TOOL)	/* the tool measures it */
		goto out;
	pthread_mutex_lock(&avail_lock);
	for (size_t i = 0; i < avail_nr; i++) {
		if (avail_cache[i].type == attr->type &&
		    avail_cache[i].config == attr->config &&
		    avail_cache[i].excl == excl) {
			e = avail_cache[i].err;
			pthread_mutex_unlock(&avail_lock);
			goto out;
		}
	}
	pthread_mutex_unlock(&avail_lock);

	e = pc_probe_open(attr);

	pthread_mutex_lock(&avail_lock);
	if (avail_nr < AVAIL_CACHE) {
		avail_cache[avail_nr].type = attr->type;
		avail_cache[avail_nr].config = attr->config;
		avail_cache[avail_nr].excl = excl;
		avail_cache[avail_nr].err = e;
		avail_nr++;
	}
	pthread_mutex_unlock(&avail_lock);
out:
	if (err)
		*err = e;
	return e == 0;
}
