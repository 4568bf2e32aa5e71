/*
 * check.h - the little harness of the C tests: CHECK() records a failure
 * with its location and goes on; check_done() gives automake's exit code.
 */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_failures;
static int check_count;

#define CHECK(cond, ...) do {						\
	check_count++;							\
	if (!(cond)) {							\
		check_failures++;					\
		fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

/* The machine cannot run this test: say why, exit 77. */
#define SKIP(...) do {							\
	printf("SKIP: ");						\
	printf(__VA_ARGS__);						\
	putchar('\n');							\
	exit(77);							\
} while (0)

static inline int check_done(void)
{
	printf("%d checks, %d failed\n", check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif
