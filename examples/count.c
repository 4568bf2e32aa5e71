/*
 * count.c - count the page faults and CPU time of a loop, in a few lines.
 *
 *	cc count.c $(pkg-config --cflags --libs sysapi)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysapi/sysapi.h>

int main(int argc, char **argv)
{
	const char *event = argc > 1 ? argv[1] : "page-faults";
	size_t pages = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000;
	struct perf_event_attr attr;
	struct pc_counter *c;
	struct pc_count n;
	char err[512];

	if (pc_event_parse(event, &attr, NULL)) {
		fprintf(stderr, "count: unknown event '%s'\n", event);
		return 2;
	}
	attr.disabled = 1;
	c = pc_counter_open(&attr, &PC_OPEN_TASK(0));
	if (!c) {
		fprintf(stderr, "count: %s\n", pc_strerror(errno, &attr, err, sizeof(err)));
		return 1;
	}
	pc_counter_enable(c);
	char *mem = malloc(pages * 4096);	/* the work: touch N pages */
	for (size_t i = 0; mem && i < pages; i++)
		mem[i * 4096] = 1;
	pc_counter_disable(c);
	pc_counter_read(c, &n);
	printf("%llu %s\n", (unsigned long long)n.value, event);
	free(mem);
	pc_counter_close(c);
	return 0;
}
