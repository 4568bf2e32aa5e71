/*
 * countset.c - count a group of events around a loop, in a few lines:
 * the page faults of touching N fresh pages, the CPU time of spinning
 * MS milliseconds, read together.
 *
 *	cc countset.c $(pkg-config --cflags --libs sysapi)
 *	./countset '{task-clock,page-faults}' 1000 100
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sysapi/sysapi.h>

int main(int argc, char **argv)
{
	const char *events = argc > 1 ? argv[1] : "{task-clock,page-faults}";
	size_t pages = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000;
	double ms = argc > 3 ? atof(argv[3]) : 100;
	struct pc_event_list list = { 0 };
	struct pc_countset *set;
	struct pc_count *n;
	char err[PC_STRERROR_SIZE];

	if (pc_event_list_parse(&list, events, NULL)) {
		fprintf(stderr, "countset: cannot parse '%s'\n", events);
		return 2;
	}
	set = pc_countset_new(&list, &PC_COUNTSET_OPTS());
	n = calloc(list.nr, sizeof(*n));
	if (!set || !n || pc_countset_add(set, 0, -1) < 0)	/* ourselves */
		return 1;
	if (pc_countset_open(set)) {
		fprintf(stderr, "countset: %s\n",
			pc_countset_strerror(set, err, sizeof(err)));
		return 1;
	}
	pc_countset_enable(set);
	char *mem = malloc(pages * 4096);	/* the work: touch N pages, */
	for (size_t i = 0; mem && i < pages; i++)
		mem[i * 4096] = 1;
	clock_t end = clock() + (clock_t)(ms * CLOCKS_PER_SEC / 1000);
	while (clock() < end)			/* and spin MS ms */
		;
	pc_countset_disable(set);
	pc_countset_read(set, 0, n);		/* a group in one read */
	for (size_t e = 0; e < list.nr; e++)
		if (pc_countset_counter(set, e, 0))
			printf("%.0f %s\n", pc_count_scaled(&n[e], NULL),
			       list.ev[e].name);
		else
			printf("<not counted> %s\n", list.ev[e].name);
	if (pc_countset_user_only(set))
		printf("(user space only: perf_event_paranoid)\n");
	free(mem);
	free(n);
	pc_countset_free(set);
	pc_event_list_release(&list);
	return 0;
}
