/* SPDX-License-Identifier: GPL-2.0-or-later */
/* control.c - perf's --control channel: a program marks what is counted. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/die.h"
#include "util/parse.h"
#include "util/usage.h"
#include "control.h"

/* perf writes sizeof("ack\n"): the terminating NUL goes out too. */
static const char ack_tag[] = "ack\n";

static int open_part(const char *kind, const char *s, size_t len, int flags)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%.*s", (int)len, s);
	if (strcmp(kind, "fd") == 0) {
		if (!parse_int(path, 0, 1 << 20, &fd) || fcntl(fd, F_GETFD) < 0)
			usage_error("--control fd: needs open file descriptors, "
				    "not '%s'", path);
		return fd;
	}
	/* O_RDWR: opening a fifo does not wait for the other end. */
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		die_status(2, "cannot open the --control fifo '%s': %s "
			   "(create it with mkfifo)", path, strerror(errno));
	return fd;
}

void control_open(struct control *c, const char *spec)
{
	const char *p, *comma;
	const char *kind;

	memset(c, 0, sizeof(*c));
	c->ctl = c->ack = -1;
	if (spec == NULL)
		return;
	if (strncmp(spec, "fifo:", 5) == 0)
		kind = "fifo", p = spec + 5;
	else if (strncmp(spec, "fd:", 3) == 0)
		kind = "fd", p = spec + 3;
	else
		usage_error("--control needs fifo:CTL[,ACK] or fd:CTL[,ACK], "
			    "not '%s'", spec);
	comma = strchr(p, ',');
	if ((comma ? (size_t)(comma - p) : strlen(p)) == 0)
		usage_error("--control %s: needs a control %s", kind, kind);
	c->ctl = open_part(kind, p, comma ? (size_t)(comma - p) : strlen(p),
			   O_RDWR | O_NONBLOCK);
	if (comma && comma[1])
		c->ack = open_part(kind, comma + 1, strlen(comma + 1), O_RDWR);
	fcntl(c->ctl, F_SETFL, fcntl(c->ctl, F_GETFL) | O_NONBLOCK);
	c->own = strcmp(kind, "fifo") == 0;
}

static void command(struct control *c, const char *cmd, struct cset *cs,
		    const struct config *cfg)
{
	if (strcmp(cmd, "enable") == 0) {
		cset_enable(cs, cfg);
		c->enabled = true;
		if (!cfg->quiet)
			fputs("Events enabled\n", stderr);
	} else if (strcmp(cmd, "disable") == 0) {
		cset_disable(cs, cfg);
		c->enabled = false;
		if (!cfg->quiet)
			fputs("Events disabled\n", stderr);
	} else if (strcmp(cmd, "ping") != 0) {
		/* perf ignores what it does not know, and acks nothing. */
		return;
	}
	if (c->ack >= 0 && write(c->ack, ack_tag, sizeof(ack_tag)) < 0)
		warn_msg("cannot acknowledge '%s' on --control: %s", cmd,
			 strerror(errno));
}

void control_process(struct control *c, struct cset *cs,
		     const struct config *cfg)
{
	ssize_t n;

	if (c->ctl < 0)
		return;
	while ((n = read(c->ctl, c->buf + c->len,
			 sizeof(c->buf) - 1 - c->len)) > 0) {
		char *nl;

		c->len += (size_t)n;
		c->buf[c->len] = '\0';
		while ((nl = memchr(c->buf, '\n', c->len)) != NULL) {
			*nl = '\0';
			command(c, c->buf, cs, cfg);
			c->len -= (size_t)(nl + 1 - c->buf);
			memmove(c->buf, nl + 1, c->len);
		}
		if (c->len == sizeof(c->buf) - 1)
			c->len = 0;	/* no command is that long */
	}
}

void control_close(struct control *c)
{
	if (c->own && c->ctl >= 0)
		close(c->ctl);
	if (c->own && c->ack >= 0)
		close(c->ack);
	c->ctl = c->ack = -1;
}
