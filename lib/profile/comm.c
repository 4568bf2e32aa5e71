/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* comm.c - thread id -> command name, from COMM records and /proc. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/comm.h"

struct comm_entry {
	pid_t tid;
	bool dead;
	char name[16];		/* TASK_COMM_LEN, NUL-terminated */
};

static size_t tid_hash(pid_t tid)
{
	return hash_bytes(&tid, sizeof(tid), 0);
}

static bool tid_eq(const void *item, const void *key)
{
	return ((const struct comm_entry *)item)->tid == *(const pid_t *)key;
}

static struct comm_entry *comm_find(struct comm_table *t, pid_t tid)
{
	return hashtab_find(&t->tab, tid_hash(tid), tid_eq, &tid);
}

static struct comm_entry *comm_entry(struct comm_table *t, pid_t tid)
{
	struct comm_entry *e = comm_find(t, tid);

	if (e)
		return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->tid = tid;
	if (hashtab_add(&t->tab, tid_hash(tid), e) != 0) {
		free(e);
		return NULL;
	}
	return e;
}

int comm_set(struct comm_table *t, pid_t pid, pid_t tid, const char *comm)
{
	struct comm_entry *e = comm_entry(t, tid);

	(void)pid;
	if (!e)
		return -1;
	snprintf(e->name, sizeof(e->name), "%s", comm);
	if (e->dead) {		/* a recycled tid */
		e->dead = false;
		t->dead--;
	}
	return 0;
}

/* Read /proc/PID/task/TID/comm into buf; false when it cannot. */
static bool comm_read(const struct comm_table *t, pid_t pid, pid_t tid,
		      char *buf, size_t size)
{
	char path[96], whole[18];	/* 15 bytes, the newline, one more */
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", t->proc,
		 (int)(pid > 0 ? pid : tid), (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, whole, sizeof(whole) - 1);
	close(fd);
	if (n <= 0)
		return false;
	/* the kernel's newline ends it; one inside is the name's own */
	if (whole[n - 1] == '\n')
		n--;
	if ((size_t)n >= size)
		n = (ssize_t)size - 1;
	memcpy(buf, whole, (size_t)n);
	buf[n] = '\0';
	return true;
}

const char *comm_get(struct comm_table *t, pid_t pid, pid_t tid)
{
	struct comm_entry *e = comm_find(t, tid);
	char name[16];

	if (e)
		return e->name;
	if (tid == 0)
		return "swapper";	/* the idle task, as perf names it */
	if (!comm_read(t, pid, tid, name, sizeof(name)))
		snprintf(name, sizeof(name), ":%d", (int)tid);
	e = comm_entry(t, tid);
	if (!e)
		return "[unknown]";
	memcpy(e->name, name, sizeof(e->name));
	return e->name;
}

void comm_exit(struct comm_table *t, pid_t tid)
{
	struct comm_entry *e = comm_find(t, tid);

	if (e && !e->dead) {
		e->dead = true;
		t->dead++;
	}
}

static bool comm_is_dead(void *item, void *arg)
{
	struct comm_entry *e = item;

	(void)arg;
	if (!e->dead)
		return false;
	free(e);
	return true;
}

void comm_gc(struct comm_table *t)
{
	if (!t->dead)
		return;
	hashtab_remove_if(&t->tab, comm_is_dead, NULL);
	t->dead = 0;
}

void comm_release(struct comm_table *t)
{
	hashtab_free_items(&t->tab);
	t->dead = 0;
}
