/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* event-list.c - perf's event lists: "a,b:u,{c,d}:k", names a resolver knows. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sysapi/event.h>
#include "base/array.h"
#include "sysapi-internal.h"

static int list_push(struct pc_event_list *list, const struct pc_event_spec *ev)
{
	if (ARRAY_GROW(list->ev, list->nr + 1, list->alloc) != 0)
		return -1;
	list->ev[list->nr++] = *ev;
	return 0;
}

int pc_event_list_add(struct pc_event_list *list, const char *name,
		      const struct perf_event_attr *attr)
{
	struct pc_event_spec ev = { .attr = *attr, .group = -1 };

	snprintf(ev.name, sizeof(ev.name), "%s", name);
	return list_push(list, &ev);
}

/*
 * How much of a token a resolver gets: "pmu/terms/" up to its closing
 * slash, "sys:event" up to a second ':'; the rest are modifiers.
 */
static size_t resolver_name_len(const char *tok, size_t len)
{
	const char *slash = memchr(tok, '/', len), *colon;

	/* "pmu/" alone is no PMU event: let the resolver refuse it whole. */
	if (slash && !memchr(slash + 1, '/', len - (size_t)(slash + 1 - tok)))
		return len;
	if (slash) {
		const char *last = tok + len;

		while (last > slash && last[-1] != '/')
			last--;
		return (size_t)(last - tok);
	}
	colon = memchr(tok, ':', len);
	if (colon && (colon = memchr(colon + 1, ':', len - (size_t)(colon + 1 - tok))))
		return (size_t)(colon - tok);
	return len;
}

/*
 * Append the events of one token (a name with its modifiers).  Returns 0,
 * or -1 with errno and *sub the offset in tok of the problem.
 */
static int token_add(struct pc_event_list *list, const char *tok, size_t len,
		     size_t *sub, pc_event_resolve_fn resolve, void *arg)
{
	struct pc_event_spec ev = { .group = -1 };
	size_t first = list->nr, nlen;
	bool glob = false;
	int n;

	if (pc_event_parse_n(tok, len, &ev.attr, sub) == 0) {
		if (len < sizeof(ev.name)) {
			memcpy(ev.name, tok, len);
			ev.name[len] = '\0';
		} else {	/* a guard: perf's longest modifiers fit */
			pc_event_name(&ev.attr, ev.name, sizeof(ev.name));
		}
		return list_push(list, &ev) ? -1 : 0;
	}
	if (resolve == NULL || *sub != 0)
		return -1;
	nlen = resolver_name_len(tok, len);
	for (size_t i = 0; i < nlen; i++)
		glob |= tok[i] == '*' || tok[i] == '?' || tok[i] == '[';
	n = resolve(arg, tok, nlen, list);
	if (n <= 0) {
		int e = n < 0 ? errno : EINVAL;

		list->nr = first;
		*sub = 0;
		errno = e;
		return -1;
	}
	for (size_t i = first; i < list->nr; i++) {
		struct pc_event_spec *e = &list->ev[i];
		size_t bad = 0;

		/* "sys:event:u"; a PMU's "pmu/terms/u" needs no colon. */
		if (nlen < len && tok[nlen] == ':')
			bad = nlen + 1 == len ? 1 :
			      pc_event_modifiers(tok + nlen + 1,
						 len - nlen - 1, &e->attr);
		else if (nlen < len)	/* offsets from nlen, not nlen + 1 */
			bad = tok[nlen - 1] != '/' ? 1 :
			      pc_event_modifiers(tok + nlen, len - nlen,
						 &e->attr);
		if (bad) {
			list->nr = first;
			*sub = nlen + bad - (tok[nlen] != ':');
			errno = EINVAL;
			return -1;
		}
		/* One event not from a glob nor renamed (pmu/name=x/): the
		   user's spelling, modifiers too, as perf stat shows it; a
		   tracepoint keeps its "sys:event" alone, as perf names
		   it whatever modifiers follow. */
		if (n == 1 && !glob && len < sizeof(e->name) &&
		    (nlen == len || tok[nlen] != ':' ||
		     memchr(tok, '/', nlen)) &&
		    strlen(e->name) == nlen && !strncmp(e->name, tok, nlen)) {
			memcpy(e->name, tok, len);
			e->name[len] = '\0';
		}
	}
	return 0;
}

int pc_event_list_parse_with(struct pc_event_list *list, const char *str,
			     size_t *errpos, pc_event_resolve_fn resolve,
			     void *arg)
{
	size_t old_nr = list->nr, pos = 0, len = strlen(str);
	int old_groups = list->ngroups;
	bool had_storage = list->ev != NULL;
	int group = -1;
	size_t group_first = 0;

	if (len == 0)
		goto bad;
	while (pos <= len) {
		size_t start, end, sub, first = list->nr;
		bool in_pmu = false;

		if (str[pos] == '{') {
			if (group >= 0)
				goto bad;
			group = list->ngroups++;
			group_first = list->nr;
			pos++;
		}
		start = pos;
		/* A comma between a PMU's slashes separates its terms. */
		while (pos < len && (in_pmu || (str[pos] != ',' &&
		       str[pos] != '}' && str[pos] != '{'))) {
			in_pmu ^= str[pos] == '/';
			pos++;
		}
		end = pos;
		if (str[pos] == '{')
			goto bad;
		if (token_add(list, str + start, end - start, &sub, resolve,
			      arg)) {
			pos = start + sub;
			if (errno == ENOMEM)
				goto nomem;
			if (errno != EINVAL)
				goto fail;
			goto bad;
		}
		for (size_t i = first; i < list->nr; i++) {
			list->ev[i].group = group;
			list->ev[i].leader = group >= 0 && i == group_first;
		}
		if (str[pos] == '}') {
			if (group < 0)
				goto bad;
			pos++;
			if (str[pos] == ':') {	/* {a,b}:u applies to all */
				size_t mstart = ++pos;

				while (pos < len && str[pos] != ',')
					pos++;
				/* The members keep their own names, as perf
				   stat shows them ("cycles", not "cycles:u"). */
				for (size_t i = group_first; i < list->nr; i++) {
					struct pc_event_spec *e = &list->ev[i];
					unsigned pinned = e->attr.pinned,
						 exclusive = e->attr.exclusive;

					sub = pc_event_modifiers(str + mstart,
							      pos - mstart, &e->attr);
					if (sub || pos == mstart) {
						pos = mstart + (sub ? sub - 1 : 0);
						goto bad;
					}
					/* The kernel pins (reserves) a group
					   through its leader and refuses a
					   member that asks: as perf, the
					   group's D and e go to the leader. */
					if (i != group_first) {
						e->attr.pinned = pinned;
						e->attr.exclusive = exclusive;
					}
				}
			}
			group = -1;
			if (pos < len && str[pos] != ',')
				goto bad;
		}
		if (pos == len)
			break;
		pos++;			/* the comma */
		if (pos == len)
			goto bad;	/* trailing comma */
	}
	if (group >= 0) {		/* unbalanced '{' */
		pos = len;
		goto bad;
	}
	return 0;
bad:
	errno = EINVAL;
	goto fail;
nomem:
	errno = ENOMEM;
fail:
	{
		int e = errno;

		/* Restore the caller's list; storage this call allocated for
		   a list that had none is released with it. */
		list->nr = old_nr;
		list->ngroups = old_groups;
		if (!had_storage)
			pc_event_list_release(list);
		if (errpos)
			*errpos = pos;
		errno = e;
		return -1;
	}
}

int pc_event_list_parse(struct pc_event_list *list, const char *str,
			size_t *errpos)
{
	return pc_event_list_parse_with(list, str, errpos, NULL, NULL);
}

void pc_event_list_release(struct pc_event_list *list)
{
	free(list->ev);
	memset(list, 0, sizeof(*list));
}
