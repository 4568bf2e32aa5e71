/*
 * test-trace: tracepoint records read through their formats.
 *
 * A fake tracefs (the kernel's sched_switch format, one with a
 * __data_loc string, one whose print fmt cannot be parsed) and records
 * written here by hand: the text, the raw fields and each field must be
 * what the format says, and records that do not fit it are refused.
 * Then the real kernel: this process sleeps 30 times under a
 * sched:sched_switch counter with PERF_SAMPLE_RAW, and its records must
 * name it as prev_comm, in state S, at least 30 times.
 * Hostile formats (a print fmt nested 100,000 deep, or chaining 200,000
 * operators: libtraceevent's recursion overflows the stack; no name
 * line; a field after a blank line, which it drops) are refused with
 * EBADMSG, and one nested 20 deep still reads.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sysapi/sysapi.h>
#include "trace/trace.h"
#include "../check.h"

static char root[64];

/* The sched_switch format of Linux 6.x, id 372. */
static const char switch_format[] =
"name: sched_switch\n"
"ID: 372\n"
"format:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
"\n"
"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
"\n"
"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, "
"REC->prev_prio, (REC->prev_state & ((((0x00000000 | 0x00000001 | "
"0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | "
"0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", "
"{ 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, "
"{ 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & "
"(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", "
"REC->next_comm, REC->next_pid, REC->next_prio\n";

/* A string of its own length (__data_loc), as the kernel lays one. */
static const char str_format[] =
"name: named\n"
"ID: 900\n"
"format:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
"\n"
"\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
"\tfield:int n;\toffset:12;\tsize:4;\tsigned:1;\n"
"\n"
"print fmt: \"name=%s n=%d\", __get_str(name), REC->n\n";

/* Fields that parse, a print fmt that does not. */
static const char badprint_format[] =
"name: badprint\n"
"ID: 901\n"
"format:\n"
"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
"\n"
"\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n"
"\n"
"print fmt: \"v=%d\", ((REC->v\n";

static void put(const char *sub, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/%s", root, sub);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

/* A sched_switch record: prev (comm, pid, state) ==> next. */
static size_t switch_record(uint8_t *r, const char *prev, int pid,
			    long state, const char *next)
{
	uint16_t type = 372;
	int prio = 120, npid = 0;

	memset(r, 0, 64);
	memcpy(r, &type, 2);
	memcpy(r + 4, &pid, 4);
	memcpy(r + 8, prev, strlen(prev) < 16 ? strlen(prev) : 16);
	memcpy(r + 24, &pid, 4);
	memcpy(r + 28, &prio, 4);
	memcpy(r + 32, &state, 8);
	memcpy(r + 40, next, strlen(next) < 16 ? strlen(next) : 16);
	memcpy(r + 56, &npid, 4);
	memcpy(r + 60, &prio, 4);
	return 64;
}

static void fake_tree(void)
{
	struct trace_formats *tf;
	uint8_t r[96];
	char buf[512];
	const char *const *fields;
	size_t n, len;
	uint16_t type;
	uint32_t loc;
	int v;

	snprintf(root, sizeof(root), "/tmp/test-trace.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(99);
	}
	put("sched/sched_switch/format", switch_format);
	put("t/named/format", str_format);
	put("t/badprint/format", badprint_format);
	put("t/garbage/format", "name: garbage\nnothing here\n");

	tf = trace_formats_new(root);
	CHECK(tf != NULL, "new: %s", strerror(errno));
	if (!tf)
		return;
	CHECK(trace_formats_add(tf, "sched:sched_switch") == 0, "add: %s",
	      strerror(errno));
	CHECK(trace_formats_add(tf, "sched:sched_switch") == 0, "add again");
	CHECK(trace_formats_add(tf, "t:named") == 0, "add named: %s",
	      strerror(errno));
	CHECK(trace_formats_add(tf, "t:badprint") == 0, "add badprint: %s",
	      strerror(errno));
	errno = 0;
	CHECK(trace_formats_add(tf, "t:garbage") == -1 && errno == EBADMSG,
	      "garbage format: errno %d", errno);
	errno = 0;
	CHECK(trace_formats_add(tf, "sched:nosuch") == -1 && errno == ENOENT,
	      "missing: errno %d", errno);
	static const char *const bad_names[] = {
		"sched", ":x", "sched:", "..:x", "sched:..", "a/b:c", "s:a/b",
	};
	for (size_t i = 0; i < sizeof(bad_names) / sizeof(*bad_names); i++) {
		errno = 0;
		CHECK(trace_formats_add(tf, bad_names[i]) == -1 &&
		      errno == EINVAL, "'%s' taken (errno %d)", bad_names[i],
		      errno);
	}

	fields = trace_formats_fields(tf, "sched:sched_switch", &n);
	CHECK(fields && n == 7 && !strcmp(fields[0], "prev_comm") &&
	      !strcmp(fields[3], "prev_state") &&
	      !strcmp(fields[6], "next_prio"), "fields: %zu", n);
	CHECK(!trace_formats_fields(tf, "sched:other", &n) && n == 0,
	      "fields of an event not added");

	/* the print fmt's text, as the kernel's own trace prints it */
	len = switch_record(r, "kt-nap", 4242, 1, "swapper/1");
	CHECK(!strcmp(trace_record_event(tf, r, len), "sched:sched_switch"),
	      "event of the record");
	CHECK(trace_record_text(tf, r, len, TRACE_PRETTY, buf, sizeof(buf)) > 0 &&
	      !strcmp(buf, "prev_comm=kt-nap prev_pid=4242 prev_prio=120 "
		      "prev_state=S ==> next_comm=swapper/1 next_pid=0 "
		      "next_prio=120"), "pretty: '%s'", buf);
	CHECK(trace_record_text(tf, r, len, TRACE_RAW, buf, sizeof(buf)) > 0 &&
	      !strcmp(buf, "prev_comm=kt-nap prev_pid=4242 prev_prio=120 "
		      "prev_state=1 next_comm=swapper/1 next_pid=0 "
		      "next_prio=120"), "raw: '%s'", buf);
	/* one field: the print fmt's value, or the field's own */
	CHECK(trace_record_field(tf, r, len, "prev_state", TRACE_PRETTY, buf,
				 sizeof(buf)) == 1 && !strcmp(buf, "S"),
	      "prev_state pretty: '%s'", buf);
	CHECK(trace_record_field(tf, r, len, "prev_state", TRACE_RAW, buf,
				 sizeof(buf)) == 1 && !strcmp(buf, "1"),
	      "prev_state raw: '%s'", buf);
	CHECK(trace_record_field(tf, r, len, "prev_comm", TRACE_PRETTY, buf,
				 sizeof(buf)) > 0 && !strcmp(buf, "kt-nap"),
	      "prev_comm: '%s'", buf);
	errno = 0;
	CHECK(trace_record_field(tf, r, len, "prev", TRACE_PRETTY, buf,
				 sizeof(buf)) == -1 && errno == ENOENT,
	      "a field name's prefix taken: '%s'", buf);
	/* running (state 0), preempted: R */
	len = switch_record(r, "kt-spin", 7, 0, "kt-nap");
	CHECK(trace_record_field(tf, r, len, "prev_state", TRACE_PRETTY, buf,
				 sizeof(buf)) == 1 && !strcmp(buf, "R"),
	      "prev_state 0: '%s'", buf);
	/* a comm of all 16 bytes, no NUL: cut at 16, never read on */
	len = switch_record(r, "0123456789abcdefXXXX", 7, 0, "x");
	CHECK(trace_record_field(tf, r, len, "prev_comm", TRACE_RAW, buf,
				 sizeof(buf)) >= 0 &&
	      !strncmp(buf, "0123456789abcdef", 16) && !strchr(buf, 'X'),
	      "16-byte comm: '%s'", buf);
	/* cut to the caller's buffer */
	CHECK(trace_record_text(tf, r, len, TRACE_PRETTY, buf, 10) == 9 &&
	      strlen(buf) == 9, "cut: '%s'", buf);

	/* records that do not fit */
	errno = 0;
	CHECK(trace_record_text(tf, r, 40, TRACE_PRETTY, buf, sizeof(buf)) ==
	      -1 && errno == EBADMSG, "a short record read (errno %d)", errno);
	errno = 0;
	CHECK(trace_record_text(tf, r, 1, TRACE_RAW, buf, sizeof(buf)) == -1 &&
	      errno == EBADMSG, "a 1-byte record read (errno %d)", errno);
	type = 373;
	memcpy(r, &type, 2);
	errno = 0;
	CHECK(trace_record_text(tf, r, 64, TRACE_PRETTY, buf, sizeof(buf)) ==
	      -1 && errno == ENOENT && !trace_record_event(tf, r, 64),
	      "a record of no event added read (errno %d)", errno);

	/* __data_loc: the string where the record says, if inside it */
	memset(r, 0, sizeof(r));
	type = 900;
	memcpy(r, &type, 2);
	loc = 16 | 7u << 16;		/* at 16, 7 bytes */
	memcpy(r + 8, &loc, 4);
	v = -5;
	memcpy(r + 12, &v, 4);
	memcpy(r + 16, "a-name", 7);
	CHECK(trace_record_text(tf, r, 24, TRACE_PRETTY, buf, sizeof(buf)) > 0 &&
	      !strcmp(buf, "name=a-name n=-5"), "data_loc pretty: '%s'", buf);
	CHECK(trace_record_field(tf, r, 24, "name", TRACE_RAW, buf,
				 sizeof(buf)) > 0 && !strcmp(buf, "a-name"),
	      "data_loc field: '%s'", buf);
	loc = 20 | 7u << 16;		/* 20 + 7 > 24 */
	memcpy(r + 8, &loc, 4);
	errno = 0;
	CHECK(trace_record_text(tf, r, 24, TRACE_PRETTY, buf, sizeof(buf)) ==
	      -1 && errno == EBADMSG, "a string past the record read");
	loc = 0xffff | 0xffffu << 16;
	memcpy(r + 8, &loc, 4);
	errno = 0;
	CHECK(trace_record_field(tf, r, 24, "n", TRACE_RAW, buf,
				 sizeof(buf)) == -1 && errno == EBADMSG,
	      "a string far past the record read");

	/* a print fmt that did not parse: the raw fields stand for it */
	memset(r, 0, sizeof(r));
	type = 901;
	memcpy(r, &type, 2);
	v = 77;
	memcpy(r + 8, &v, 4);
	CHECK(trace_record_text(tf, r, 12, TRACE_PRETTY, buf, sizeof(buf)) > 0 &&
	      !strcmp(buf, "v=77"), "bad print fmt: '%s'", buf);
	trace_event_name("sched:sched_switch:u", buf, sizeof(buf));
	CHECK(!strcmp(buf, "sched:sched_switch"), "name: '%s'", buf);
	trace_event_name("sched:sched_switch", buf, sizeof(buf));
	CHECK(!strcmp(buf, "sched:sched_switch"), "name: '%s'", buf);
	trace_formats_free(tf);
	nftw(root, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* A format named name whose fields are int a and int b (a blank
   line before b when gap), print fmt "%d" of arg; malloc'd. */
static char *hostile(const char *name, unsigned id, const char *arg,
		     bool gap, bool noname)
{
	static const char fmt[] =
		"%s%s\nID: %u\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;"
		"\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n%s"
		"\tfield:int b;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"%%d\", %s\n";
	size_t size = strlen(fmt) + strlen(name) + strlen(arg) + 32;
	char *t = malloc(size);

	if (!t)
		exit(99);
	snprintf(t, size, fmt, noname ? "" : "name: ", noname ? "" : name,
		 id, gap ? "\n" : "", arg);
	return t;
}

/* arg nested n deep: "((((REC->a))))" */
static char *nest(size_t n)
{
	char *s = malloc(2 * n + 8);

	if (!s)
		exit(99);
	memset(s, '(', n);
	strcpy(s + n, "REC->a");
	memset(s + n + 6, ')', n);
	s[2 * n + 6] = '\0';
	return s;
}

/* arg chaining n operators: "REC->a|1|1..." */
static char *chain(size_t n)
{
	char *s = malloc(2 * n + 8);

	if (!s)
		exit(99);
	strcpy(s, "REC->a");
	for (size_t i = 0; i < n; i++)
		memcpy(s + 6 + 2 * i, "|1", 3);
	return s;
}

static void hostile_formats(void)
{
	static const struct {
		const char *name;
		char *(*arg)(size_t);
		size_t n;
		bool gap, noname;
	} bad[] = {
		{ "deep", nest, 100000, false, false },
		{ "chained", chain, 200000, false, false },
		{ "nameless", nest, 1, false, true },
		{ "gap", nest, 1, true, false },
	};
	struct trace_formats *tf;
	char path[64], buf[64], *arg, *text;
	uint8_t r[16] = { 0 };
	uint16_t type = 920;
	int v = 5;

	snprintf(root, sizeof(root), "/tmp/test-trace.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(99);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		arg = bad[i].arg(bad[i].n);
		text = hostile(bad[i].name, 910 + (unsigned)i, arg, bad[i].gap,
			       bad[i].noname);
		snprintf(path, sizeof(path), "t/%s/format", bad[i].name);
		put(path, text);
		free(text);
		free(arg);
	}
	arg = nest(20);
	text = hostile("deep20", 920, arg, false, false);
	put("t/deep20/format", text);
	free(text);
	free(arg);
	tf = trace_formats_new(root);
	CHECK(tf != NULL, "new: %s", strerror(errno));
	if (!tf)
		return;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		snprintf(path, sizeof(path), "t:%s", bad[i].name);
		errno = 0;
		CHECK(trace_formats_add(tf, path) == -1 && errno == EBADMSG,
		      "%s format: errno %d (%s)", bad[i].name, errno,
		      strerror(errno));
	}
	CHECK(trace_formats_add(tf, "t:deep20") == 0, "20 deep: %s",
	      strerror(errno));
	memcpy(r, &type, 2);
	memcpy(r + 8, &v, 4);
	CHECK(trace_record_text(tf, r, 16, TRACE_PRETTY, buf, sizeof(buf)) > 0
	      && !strcmp(buf, "5"), "20 deep: '%s'", buf);
	trace_formats_free(tf);
	nftw(root, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* The real kernel: our own switches out, asleep, by name. */
static void real_switches(void)
{
	struct perf_event_attr a;
	struct trace_formats *tf;
	struct pc_counter *c;
	struct pc_ring *ring;
	struct pc_record rec;
	struct timespec nap = { 0, 2000000 };
	uint64_t ours = 0, asleep = 0, other = 0, unread = 0;
	char buf[512];
	int r;

	struct pc_event_list l = { 0 };

	if (!pc_tracefs_dir() || pc_tracepoint_resolve(NULL,
	    "sched:sched_switch", 18, &l) != 1) {
		printf("# no tracefs or no sched:sched_switch: the kernel "
		       "part skipped\n");
		pc_event_list_release(&l);
		return;
	}
	a = l.ev[0].attr;
	pc_event_list_release(&l);
	tf = trace_formats_new(NULL);
	CHECK(tf && trace_formats_add(tf, "sched:sched_switch") == 0,
	      "the real format: %s", strerror(errno));
	if (!tf)
		return;
	prctl(PR_SET_NAME, "tt-napper");
	pc_attr_sampling(&a, 1, false, PERF_SAMPLE_RAW);
	c = pc_counter_open(&a, &PC_OPEN_TASK(0));
	if (!c) {
		printf("# sched:sched_switch not sampled here (%s): the "
		       "kernel part skipped\n", strerror(errno));
		trace_formats_free(tf);
		return;
	}
	ring = pc_counter_mmap(c, 16);
	CHECK(ring != NULL, "mmap: %s", strerror(errno));
	for (int i = 0; ring && i < 30; i++)
		nanosleep(&nap, NULL);
	while (ring && (r = pc_ring_next(ring, &rec)) != 0) {
		if (r < 0 || rec.type != PERF_RECORD_SAMPLE)
			continue;
		if (trace_record_field(tf, rec.sample.raw, rec.sample.raw_size,
				       "prev_comm", TRACE_PRETTY, buf,
				       sizeof(buf)) < 0) {
			unread++;
			continue;
		}
		if (strcmp(buf, "tt-napper")) {
			other++;
			continue;
		}
		ours++;
		if (trace_record_field(tf, rec.sample.raw, rec.sample.raw_size,
				       "prev_state", TRACE_PRETTY, buf,
				       sizeof(buf)) > 0 && !strcmp(buf, "S"))
			asleep++;
	}
	CHECK(unread == 0 && other == 0, "%llu records unread, %llu of "
	      "another task", (unsigned long long)unread,
	      (unsigned long long)other);
	/* each nap switches out asleep once (a preemption adds an R) */
	CHECK(asleep >= 30 && asleep <= ours, "30 naps: %llu switches "
	      "asleep of %llu", (unsigned long long)asleep,
	      (unsigned long long)ours);
	pc_counter_close(c);
	trace_formats_free(tf);
}

int main(void)
{
	fake_tree();
	hostile_formats();
	real_switches();
	return check_done();
}
