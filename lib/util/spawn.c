/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn.c - start a command, hold it before exec, then let it go.
 *
 * The child is a vfork() child: it shares our memory until its exec, so
 * starting it costs neither a copy of the page tables nor the copy-on-
 * write faults a fork() costs both sides afterwards (on a virtual machine
 * the largest part of `pcstat -- true`).  vfork() suspends the thread that
 * calls it until the child execs, so a helper thread calls it while this
 * one opens the counters on the held child; signals are blocked in that
 * thread, and the child puts every caught signal back to its default
 * before unblocking, so that no handler of ours runs in it (posix_spawn's
 * rules).  The child tells its pid, then waits for a byte on the go pipe;
 * a failed exec sends its errno back, a successful one closes the pipe.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/die.h"
#include "util/fd-limit.h"
#include "util/spawn.h"

struct spawn_start {
	char *const *argv;
	const char *path;	/* what execv() runs: found by the parent */
	sigset_t mask;		/* the child's, once its handlers are reset */
	int go, err;		/* the child's ends */
	int go_w, err_r;	/* ours, which the child must not hold */
	pid_t pid;		/* vfork()'s answer in the helper */
	int vfork_errno;
};

/*
 * glibc takes signal __SIGRTMIN + 1 (SIGSETXID) for itself at the first
 * pthread_create(), replacing what we inherited: a command must still
 * inherit it ignored when it was.  glibc's sigaction() refuses the
 * signal, so this asks the kernel itself (struct layout: the generic one
 * of these architectures; elsewhere the command gets the default).
 */
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv)
#define SETXID (__SIGRTMIN + 1)
struct ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};
static int setxid_ignored = -1;	/* before our first thread */

static void setxid_remember(void)
{
	struct ksigaction k;

	if (setxid_ignored < 0)
		setxid_ignored = syscall(SYS_rt_sigaction, SETXID, NULL, &k,
					 sizeof(k.mask)) == 0 &&
				 k.handler == SIG_IGN;
}

static void setxid_restore(void)
{
	struct ksigaction k = { .handler = SIG_IGN };

	if (setxid_ignored == 1)
		syscall(SYS_rt_sigaction, SETXID, &k, NULL, sizeof(k.mask));
}
#else
static void setxid_remember(void) { }
static void setxid_restore(void) { }
#endif

/* The vfork() child: nothing here may return or touch the helper's frame
   beyond reading it (it is suspended on this stack). */
static void child_run(const struct spawn_start *st)
{
	pid_t self = getpid();
	ssize_t n;
	char b;
	int e;

	/* Our ends closed in the child's copy of the table: if we die
	   before the go, its read sees EOF and it exits 127. */
	close(st->go_w);
	close(st->err_r);
	/* First the pid, so that the counters open while this child puts
	   its signals in order (everything stays blocked until then). */
	if (write(st->err, &self, sizeof(self)) != (ssize_t)sizeof(self))
		_exit(127);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0 &&
		    sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN) {
			sa.sa_handler = SIG_DFL;
			sa.sa_flags = 0;
			sigaction(sig, &sa, NULL);
		}
	}
	setxid_restore();
	fd_limit_restore();
	do
		n = read(st->go, &b, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127);	/* the tool gave up before the exec */
	sigprocmask(SIG_SETMASK, &st->mask, NULL);
	execv(st->path, st->argv);
	e = errno;
	if (write(st->err, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

static void *helper(void *arg)
{
	struct spawn_start *st = arg;
	pid_t pid = vfork();

	if (pid == 0)
		child_run(st);
	/* Here once the child has exec'd or exited; if vfork() failed,
	   say so where the parent waits for the child's pid. */
	st->pid = pid;
	if (pid < 0) {
		st->vfork_errno = errno;
		if (write(st->err, &pid, sizeof(pid)) < 0)
			st->vfork_errno = errno;
	}
	return NULL;
}

/*
 * The spawn held now, if any: a tool that exits before spawn_release()
 * (die() while opening counters) lets it go at exit -- it reads EOF and
 * exits 127 -- and joins the helper, before later atexit handlers run.
 * (LeakSanitizer's stops every thread at exit: it would wait forever for
 * a helper suspended in vfork() on a child that waits for us.)
 */
static struct spawn *held;
static bool atexit_set;

static void held_abandon(void)
{
	struct spawn *sp = held;

	if (sp == NULL)
		return;
	held = NULL;
	close(sp->go_fd);
	close(sp->err_fd);
	pthread_join(sp->helper, NULL);
	free(sp->start);
	sp->start = NULL;
}

/*
 * glibc's pthread_create() says EAGAIN both when the process limit
 * (ulimit -u) is reached and when the thread's stack cannot be mapped
 * (ulimit -v): whether a stack of that size can be mapped now tells
 * which.
 */
static bool stack_fits(void)
{
	size_t size = 8u << 20;
	pthread_attr_t a;
	void *p;

	if (pthread_getattr_default_np(&a) == 0) {
		pthread_attr_getstacksize(&a, &size);
		pthread_attr_destroy(&a);
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		 MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (p == MAP_FAILED)
		return false;
	munmap(p, size);
	return true;
}

static void close4(int a, int b, int c, int d)
{
	close(a);
	close(b);
	close(c);
	close(d);
}

static bool runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

char *spawn_path_search(const char *name)
{
	const char *path = getenv("PATH"), *p, *colon;
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return runnable(name) ? realpath(name, NULL) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = colon + 1) {
		size_t len;

		colon = strchr(p, ':');
		len = colon ? (size_t)(colon - p) : strlen(p);
		if (snprintf(buf, sizeof(buf), "%.*s/%s", len ? (int)len : 1,
			     len ? p : ".", name) < (int)sizeof(buf) &&
		    runnable(buf))
			return realpath(buf, NULL);
		if (!colon)
			break;
	}
	errno = ENOENT;
	return NULL;
}

int spawn_hold(struct spawn *sp, char *const argv[], const sigset_t *child_mask)
{
	struct spawn_start *st;
	sigset_t all, old;
	char *found;
	int go[2], err[2], e;
	pid_t pid = -1;
	ssize_t n;

	/* searched here, not in the child: execv() of one path, so that
	   no /bin/sh fallback and no second search can happen */
	found = spawn_path_search(argv[0]);
	/* a name without '/' found nowhere in $PATH: "" fails to exec
	   with ENOENT, as in a shell -- execv() of the bare name would run
	   a file of that name in the current directory, which anyone may
	   have put there */
	snprintf(sp->path, sizeof(sp->path), "%s", found ? found :
		 strchr(argv[0], '/') ? argv[0] : "");
	free(found);

	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return -1;
	if (pipe2(go, O_CLOEXEC) != 0) {
		free(st);
		return -1;
	}
	if (pipe2(err, O_CLOEXEC) != 0) {
		e = errno;
		close(go[0]);
		close(go[1]);
		free(st);
		errno = e;
		return -1;
	}
	st->argv = argv;
	st->path = sp->path;
	st->go = go[0];
	st->err = err[1];
	st->go_w = go[1];
	st->err_r = err[0];
	setxid_remember();
	/* The helper (and so the child) starts with every signal blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	st->mask = child_mask ? *child_mask : old;
	e = pthread_create(&sp->helper, NULL, helper, st);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e == EAGAIN && !stack_fits())
		e = ENOMEM;
	if (e) {
		close4(go[0], go[1], err[0], err[1]);
		free(st);
		errno = e;
		return -1;
	}
	/* The child's pid once it runs (its copy of our descriptors made,
	   ours may close), or -1 from the helper if vfork() failed. */
	do
		n = read(err[0], &pid, sizeof(pid));
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(pid) || pid <= 0) {
		close4(go[0], go[1], err[0], err[1]);	/* a child goes */
		pthread_join(sp->helper, NULL);
		e = st->vfork_errno ? st->vfork_errno : EIO;
		free(st);
		errno = e;
		return -1;
	}
	close(go[0]);
	close(err[1]);
	sp->pid = pid;
	sp->start = st;
	sp->go_fd = go[1];
	sp->err_fd = err[0];
	if (!atexit_set && atexit(held_abandon) == 0)
		atexit_set = true;
	held = sp;
	return 0;
}

void spawn_park(const struct spawn *sp)
{
	char path[64], buf[512];

	/* Its only sleep before exec is the read of go_fd: state S. */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)sp->pid);
	for (int i = 0; i < 10000; i++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		const char *state;

		if (fd >= 0)
			close(fd);
		if (n <= 0)
			return;
		buf[n] = '\0';
		state = strrchr(buf, ')');	/* comm may hold ") " */
		if (state == NULL || state[1] == '\0' || state[2] == 'S')
			return;
		usleep(100);
	}
}

/*
 * The pid of the command last let go, while it may still run.  Whether
 * it is still ours is asked of waitpid(): a pid we reaped answers ECHILD
 * even if a stranger has it now, so no stranger is ever signalled.
 */
static volatile pid_t started = -1;

void spawn_end_started(void)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	pid_t pid = started;
	int status;

	started = -1;
	if (pid <= 0 || waitpid(pid, &status, WNOHANG) != 0)
		return;		/* gone, or a zombie, reaped now */
	kill(pid, SIGTERM);
	kill(pid, SIGCONT);
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, &status, WNOHANG) != 0)
			return;
		nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

static void on_sigpipe(int sig)
{
	int e = errno;

	spawn_end_started();
	/* SA_RESETHAND made it the default again: die of it on return */
	raise(sig);
	errno = e;
}

void spawn_end_on_failure(void)
{
	struct sigaction sa = { .sa_handler = on_sigpipe,
				.sa_flags = SA_RESETHAND | SA_RESTART };
	struct sigaction old;

	die_cleanup(spawn_end_started);
	if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler != SIG_IGN) {
		sigemptyset(&sa.sa_mask);
		sigaction(SIGPIPE, &sa, NULL);
	}
}

int spawn_release(struct spawn *sp)
{
	ssize_t n;
	int e = 0;

	if (held == sp)
		held = NULL;

	n = write(sp->go_fd, "x", 1);
	close(sp->go_fd);
	if (n != 1) {
		e = errno;
		close(sp->err_fd);
		pthread_join(sp->helper, NULL);	/* the child saw EOF */
		free(sp->start);
		sp->start = NULL;
		return e;
	}
	do
		n = read(sp->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(sp->err_fd);
	/* the helper returns once the child has exec'd or exited */
	pthread_join(sp->helper, NULL);
	free(sp->start);
	sp->start = NULL;
	if (n == (ssize_t)sizeof(e))
		return e;	/* it exits 127: the caller reaps it */
	started = sp->pid;
	return 0;
}

/* EACCES from exec: what is in the way, and the fix. */
static const char *spawn_eacces(const struct spawn *sp, char *buf,
				size_t size)
{
	struct stat st;
	const char *why;

	if (stat(sp->path, &st) != 0)
		why = "no permission to reach it: a directory on its path "
		      "is not searchable";
	else if (S_ISDIR(st.st_mode))
		why = "a directory, not a program";
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (!(st.st_mode & 0111))
		why = "not executable: chmod +x it, or run it with its "
		      "interpreter";
	else
		why = "not executable for this user, or on a file system "
		      "mounted noexec";
	snprintf(buf, size, "%s (%s)", strerror(EACCES), why);
	return buf;
}

const char *spawn_strerror(const struct spawn *sp, int err, char *buf,
			   size_t size)
{
	struct rlimit rl;
	char lim[96];
	char line[256] = "";
	ssize_t n = 0;
	int fd;

	switch (err) {
	case EMFILE:
		snprintf(buf, size, "%s (raise the limit with 'ulimit -n')",
			 strerror(err));
		return buf;
	case ENFILE:
		snprintf(buf, size, "%s (the system's file table is full: "
			 "fs.file-max)", strerror(err));
		return buf;
	case EAGAIN:
		/* root (CAP_SYS_RESOURCE) is held to no RLIMIT_NPROC */
		if (getrlimit(RLIMIT_NPROC, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY && geteuid() != 0)
			snprintf(buf, size, "%s (no process can be created: the "
				 "limit of 'ulimit -u' is reached)",
				 strerror(err));
		else
			snprintf(buf, size, "%s (no process can be created: the "
				 "system's limit is reached, kernel.threads-max "
				 "or kernel.pid_max)", strerror(err));
		return buf;
	case ENOMEM:
		if (as_limit_advice(lim, sizeof(lim)))
			snprintf(buf, size, "%s (no memory for a new process: "
				 "%s)", strerror(err), lim);
		else
			snprintf(buf, size, "%s (no memory for a new process: "
				 "free some)", strerror(err));
		return buf;
	case EACCES:
		return spawn_eacces(sp, buf, size);
	case ENOENT:
	case ENOEXEC:
		break;
	default:
		return snprintf(buf, size, "%s", strerror(err)), buf;
	}
	fd = open(sp->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		n = read(fd, line, sizeof(line) - 1);
		close(fd);
	}
	if (fd < 0 || n < 0)
		return snprintf(buf, size, "%s", strerror(err)), buf;
	line[n > 0 ? n : 0] = '\0';
	if (err == ENOENT && strncmp(line, "#!", 2) == 0) {
		const char *interp = line + 2 + strspn(line + 2, " \t");

		snprintf(buf, size, "bad interpreter '%.*s': %s (the #! line "
			 "names a program that does not exist)",
			 (int)strcspn(interp, " \t\n"), interp, strerror(err));
	} else if (err == ENOEXEC) {
		snprintf(buf, size, "%s (%s)", strerror(err),
			 strncmp(line, "\177ELF", 4) == 0 ?
			 "an ELF file this machine cannot run, or corrupt" :
			 "not a program, and no #! line names an interpreter");
	} else {
		snprintf(buf, size, "%s", strerror(err));
	}
	return buf;
}

int spawn_exit_status(const struct spawn *sp, int err)
{
	return err == ENOENT && access(sp->path, F_OK) != 0 ? 127 : 126;
}
