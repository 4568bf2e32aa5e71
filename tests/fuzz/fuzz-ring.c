/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-ring: ring-buffer records as the kernel writes them, through the
 * real reader (pc_ring_next()) and the feed's drain (lib/profile): MMAP,
 * MMAP2, COMM, FORK, EXIT, LOST, THROTTLE and SAMPLE records go to
 * lib/symbols, the thread names and the call-chain builder (frame
 * pointers, or lib/unwind on the copied user stack) as they do in
 * monitor and kerneltop.  The target plays the kernel: the input's bytes
 * are what it wrote into a ring of plain memory (as test-ring does).
 *
 * Input: u64 sample_type (masked to what the kernel can be asked for),
 * a flags byte (bit 0 sample_id_all, bits 1-2 call graph: none, frame
 * pointers, DWARF; bit 3 no_resolve; bit 4 two events; bit 5 the two a
 * group read at each sample, PERF_FORMAT_GROUP, as feed's group_read
 * opens them), a byte placing
 * the first record (in 8-byte steps: records wrap), then the ring data.
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "sysapi/sysapi-internal.h"
#include "profile/feed-internal.h"
#include "fuzz.h"

#define RING_SIZE 4096u
#define FUZZ_PID 42

static const uint64_t type_mask = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ |
	PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
	PERF_SAMPLE_PERIOD | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_RAW |
	PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
	PERF_SAMPLE_STACK_USER | PERF_SAMPLE_IDENTIFIER;

static char kallsyms[256], proc[256], jit[256];
static long page;
static void *base;

static const char ksyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T do_syscall_64\n"
	"ffffffff81002000 t schedule\n"
	"ffffffffc0000000 t ext4_read [ext4]\n";
static const char jitmap[] = "7f0000001000 100 jitted_one\n"
			     "7f0000001100 80 jitted_two\n";

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *d = fuzz_dir("ring");
	char rel[64];

	(void)argc;
	(void)argv;
	snprintf(kallsyms, sizeof(kallsyms), "%s",
		 fuzz_file("kallsyms", ksyms, sizeof(ksyms) - 1));
	snprintf(rel, sizeof(rel), "jit/perf-%d.map", FUZZ_PID);
	fuzz_file(rel, jitmap, sizeof(jitmap) - 1);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/comm", FUZZ_PID, FUZZ_PID);
	fuzz_file(rel, "target\n", 7);
	snprintf(proc, sizeof(proc), "%s/proc", d);
	snprintf(jit, sizeof(jit), "%s/jit", d);
	page = sysconf(_SC_PAGESIZE);
	base = aligned_alloc((size_t)page, (size_t)page + RING_SIZE);
	FUZZ_CHECK(base != NULL);
	return 0;
}

struct seen {
	const struct feed *f;
	uint64_t samples;
};

/* What the feed promises of each sample it hands over. */
static int on_sample(void *arg, const struct feed_sample *s)
{
	struct seen *seen = arg;

	seen->samples++;
	FUZZ_CHECK(s->raw != NULL);
	FUZZ_CHECK(s->event < seen->f->nattrs);
	FUZZ_CHECK(strchr("k.hg", s->mode) && s->mode);
	FUZZ_CHECK((unsigned)s->user_stop < UNWIND_STOP_MAX);
	FUZZ_CHECK(!s->ndeltas || (s->deltas && seen->f->group_read &&
				   s->ndeltas == seen->f->nattrs - 1));
	if (seen->f->no_resolve)
		return 0;
	FUZZ_CHECK(s->sym && s->comm && s->nframes >= 1 && s->frames);
	FUZZ_CHECK(s->sym->dso != NULL);
	FUZZ_CHECK((unsigned)s->sym->cause < SYM_CAUSE_MAX);
	FUZZ_CHECK(s->sym->cause != SYM_OK || s->sym->sym != NULL);
	for (unsigned i = 0; i < s->nframes; i++) {
		const struct stk_sample_frame *fr = &s->frames[i];

		FUZZ_CHECK(fr->dso != NULL);
		FUZZ_CHECK(strchr("k.hg", fr->mode) && fr->mode);
		FUZZ_CHECK((unsigned)fr->cause < SYM_CAUSE_MAX);
		FUZZ_CHECK(!fr->inlined || i + 1 < s->nframes);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_counter counter[2];
	struct perf_event_mmap_page *pg = base;
	struct feed_info info;
	struct seen seen = { 0 };
	struct symbols *sym;
	struct pc_ring *ring;
	struct feed *f;
	uint64_t st, tail;
	uint8_t flags, *ring_data = (uint8_t *)base + page;
	size_t len;

	if (size < 10)
		return 0;
	memcpy(&st, data, 8);
	st &= type_mask;
	flags = data[8];
	data += 10;
	size -= 10;
	len = size < RING_SIZE ? size : RING_SIZE;

	/* The ring: a header page, then the records where the kernel
	   would have written them, head past the last byte. */
	memset(base, 0, (size_t)page + RING_SIZE);
	tail = 3ull * RING_SIZE + (uint64_t)data[-1] * 8 % RING_SIZE;
	for (size_t i = 0; i < len; i++)
		ring_data[(tail + i) % RING_SIZE] = data[i];
	pg->data_tail = tail;
	pg->data_head = tail + len;

	memset(counter, 0, sizeof(counter));
	counter[0].fd = counter[1].fd = -1;
	pc_attr_sampling(&counter[0].attr, 1000, false, 0);
	counter[0].attr.sample_type = st;
	counter[0].attr.sample_id_all = flags & 1;
	if (flags & 32)
		counter[0].attr.read_format = PERF_FORMAT_GROUP |
			PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (st & PERF_SAMPLE_REGS_USER)
		counter[0].attr.sample_regs_user = unwind_regs_mask() ?
			unwind_regs_mask() : 0xff0fff;
	counter[1].attr = counter[0].attr;
	ring = pc_ring_new_memory(&counter[0], base, RING_SIZE);
	FUZZ_CHECK(ring != NULL);

	sym = symbols_new(&SYMBOLS_OPTS(.flags = SYMBOLS_NO_PROC,
					.kallsyms = kallsyms, .proc = proc,
					.jit_dir = jit));
	FUZZ_CHECK(sym != NULL);

	/* The feed as feed_open() leaves it, over the one ring. */
	f = calloc(1, sizeof(*f));
	FUZZ_CHECK(f != NULL);
	f->comms = (struct comm_table)COMM_TABLE_INIT;
	f->comms.proc = proc;
	f->sym = sym;
	f->no_resolve = flags & 8;
	f->nattrs = flags & 48 ? 2 : 1;
	f->group_read = flags & 32;
	f->deltas = calloc(2, sizeof(*f->deltas));	/* as feed_open(): nattrs */
	f->attrs = calloc(2, sizeof(*f->attrs));
	f->ctr = calloc(2, sizeof(*f->ctr));
	f->rings = calloc(1, sizeof(*f->rings));
	f->heads = calloc(1, sizeof(*f->heads));
	f->watch = calloc(1, sizeof(*f->watch));
	FUZZ_CHECK(f->attrs && f->ctr && f->rings && f->heads && f->watch);
	f->attrs[0] = f->attrs[1] = counter[0].attr;
	f->ctr[0] = (struct feed_counter){ &counter[0], 100, 0, false };
	f->ctr[1] = (struct feed_counter){ &counter[1], 200, 1, false };
	f->nctr = f->nattrs;
	f->rings[0] = ring;
	f->nrings = 1;
	f->watch[0].id = FUZZ_PID;
	f->nwatch = 1;
	f->backend = PC_BACKEND_EVENT;
	f->callgraph = (enum feed_callgraph)((flags >> 1) & 3);
	if (f->callgraph > FEED_CG_DWARF)
		f->callgraph = FEED_CG_NONE;
	if (f->callgraph == FEED_CG_DWARF) {
		f->unwind = unwind_new(sym);
		f->uf = malloc(FEED_MAX_USER_FRAMES * sizeof(*f->uf));
		FUZZ_CHECK(f->uf != NULL);
		if (!f->unwind)		/* a build without libunwind */
			f->callgraph = FEED_CG_FP;
	}

	seen.f = f;
	FUZZ_CHECK(feed_drain(f, on_sample, &seen) == 0);
	/* everything was read: the reader moved past every byte */
	FUZZ_CHECK(pg->data_tail == pg->data_head);
	FUZZ_CHECK(pc_ring_next(ring, &(struct pc_record){ 0 }) == 0);
	feed_info(f, &info);
	FUZZ_CHECK(info.samples == seen.samples);
	FUZZ_CHECK(info.samples <= pc_ring_samples(ring));
	FUZZ_CHECK(pc_ring_samples(ring) <= pc_ring_records(ring));
	FUZZ_CHECK(pc_ring_records(ring) <= len / 8);
	FUZZ_CHECK(info.by_mode[0] + info.by_mode[1] + info.by_mode[2] +
		   info.by_mode[3] == info.samples);

	f->nctr = 0;		/* the counters are ours, not the feed's */
	feed_close(f);
	pc_ring_free(ring);
	symbols_free(sym);
	return 0;
}
