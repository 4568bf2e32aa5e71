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
 * Append the events of the token at str[at], len bytes (a name with its
 * modifiers).  Returns 0, or -1 with errno and *e filled.
 */
static int token_add(struct pc_event_list *list, const char *str, size_t at,
		     size_t len, pc_event_resolve_fn resolve, void *arg,
		     struct pc_event_error *e)
{
	const char *tok = str + at;
	struct pc_event_spec ev = { .group = -1 };
	size_t first = list->nr, nlen, sub = 0;
	bool glob = false;
	int n;

	if (len == 0) {
		ev_error_set(e, at, EINVAL, "remove the extra ',' or braces",
			     "empty event name in '%s'", str);
		errno = EINVAL;
		return -1;
	}
	if (pc_event_parse_n(tok, len, &ev.attr, &sub) == 0) {
		if (len < sizeof(ev.name)) {
			memcpy(ev.name, tok, len);
			ev.name[len] = '\0';
		} else {	/* a guard: perf's longest modifiers fit */
			pc_event_name(&ev.attr, ev.name, sizeof(ev.name));
		}
		if (list_push(list, &ev) == 0)
			return 0;
		ev_error_set(e, at, ENOMEM, NULL, "cannot parse events '%s': "
			     "%s", str, strerror(ENOMEM));
		return -1;
	}
	if (sub != 0) {		/* the name is known; a modifier is not */
		nlen = (size_t)((const char *)memchr(tok, ':', len) - tok);
		ev_error_modifier(e, tok, len, nlen, nlen + 1, at + sub);
		errno = EINVAL;
		return -1;
	}
	nlen = resolver_name_len(tok, len);
	if (resolve == NULL) {
		ev_error_unknown(e, tok, len, nlen, at);
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < nlen; i++)
		glob |= tok[i] == '*' || tok[i] == '?' || tok[i] == '[';
	n = resolve(arg, tok, nlen, list);
	if (n <= 0) {
		int err = n < 0 ? errno : EINVAL;

		list->nr = first;
		if (err == EINVAL)
			ev_error_unknown(e, tok, len, nlen, at);
		else
			ev_error_resolver(e, str, tok, len, err, at);
		errno = err;
		return -1;
	}
	for (size_t i = first; i < list->nr; i++) {
		struct pc_event_spec *s = &list->ev[i];
		size_t bad = 0;

		/* "sys:event:u"; a PMU's "pmu/terms/u" needs no colon. */
		if (nlen < len && tok[nlen] == ':')
			bad = nlen + 1 == len ? 1 :
			      pc_event_modifiers(tok + nlen + 1,
						 len - nlen - 1, &s->attr);
		else if (nlen < len)	/* offsets from nlen, not nlen + 1 */
			bad = tok[nlen - 1] != '/' ? 1 :
			      pc_event_modifiers(tok + nlen, len - nlen,
						 &s->attr);
		if (bad) {
			list->nr = first;
			ev_error_modifier(e, tok, len, nlen, nlen +
					  (tok[nlen] == ':'),
					  at + nlen + bad - (tok[nlen] != ':'));
			errno = EINVAL;
			return -1;
		}
		/* One event not from a glob nor renamed (pmu/name=x/): the
		   user's spelling, modifiers too, as perf stat shows it; a
		   tracepoint keeps its "sys:event" alone, as perf names
		   it whatever modifiers follow. */
		if (n == 1 && !glob && len < sizeof(s->name) &&
		    (nlen == len || tok[nlen] != ':' ||
		     memchr(tok, '/', nlen)) &&
		    strlen(s->name) == nlen && !strncmp(s->name, tok, nlen)) {
			memcpy(s->name, tok, len);
			s->name[len] = '\0';
		}
	}
	return 0;
}

/* The modifiers after "{...}:" (str[mstart..pos)) applied to the group's
   members; 0, or -1 with *e filled. */
static int group_modifiers(struct pc_event_list *list, const char *str,
			   size_t group_start, size_t mstart, size_t pos,
			   size_t group_first, struct pc_event_error *e)
{
	for (size_t i = group_first; i < list->nr; i++) {
		struct pc_event_spec *s = &list->ev[i];
		unsigned pinned = s->attr.pinned, exclusive = s->attr.exclusive;
		size_t sub = pos == mstart ? 1 :
			     pc_event_modifiers(str + mstart, pos - mstart,
						&s->attr);

		if (sub) {
			ev_error_modifier(e, str + group_start,
					  pos - group_start,
					  mstart - 1 - group_start,
					  mstart - group_start,
					  mstart + sub - 1);
			return -1;
		}
		/* The kernel pins (reserves) a group through its leader and
		   refuses a member that asks: as perf, the group's D and e
		   go to the leader. */
		if (i != group_first) {
			s->attr.pinned = pinned;
			s->attr.exclusive = exclusive;
		}
	}
	return 0;
}

/*
 * The '}' at *pos closes the group of list's events from group_first on,
 * which opened at group_start: its modifiers ({a,b}:u applies to all)
 * are taken, and *pos is left at the ',' or the end after it.  0, or -1
 * with e set.
 */
static int group_close(struct pc_event_list *list, const char *str,
		       size_t *pos, size_t group_start, size_t group_first,
		       struct pc_event_error *e)
{
	size_t len = strlen(str), p = *pos + 1;

	if (str[p] == ':') {
		size_t mstart = ++p;

		while (p < len && str[p] != ',')
			p++;
		/* The members keep their own names, as perf stat shows
		   them ("cycles", not "cycles:u"). */
		if (group_modifiers(list, str, group_start, mstart, p,
				    group_first, e) != 0)
			return -1;
		for (size_t i = group_first; i < list->nr; i++)
			list->ev[i].sample_read = memchr(str + mstart, 'S',
							 p - mstart) != NULL;
	}
	*pos = p;
	if (p < len && str[p] != ',') {
		ev_error_set(e, p, EINVAL, "write groups as {a,b},c",
			     "'%c' after a group in event list '%s'", str[p],
			     str);
		return -1;
	}
	return 0;
}

int pc_event_list_parse_err(struct pc_event_list *list, const char *str,
			    pc_event_resolve_fn resolve, void *arg,
			    struct pc_event_error *e)
{
	size_t old_nr = list->nr, pos = 0, len = strlen(str);
	int old_groups = list->ngroups;
	bool had_storage = list->ev != NULL;
	int group = -1;
	size_t group_first = 0, group_start = 0;

	if (len == 0) {
		ev_error_set(e, 0, EINVAL, NULL, "empty event list");
		goto bad;
	}
	while (pos <= len) {
		size_t start, first = list->nr;
		bool in_pmu = false;

		if (str[pos] == '{') {
			if (group >= 0) {	/* groups do not nest */
				ev_error_braces(e, str, pos);
				goto bad;
			}
			group = list->ngroups++;
			group_first = list->nr;
			group_start = pos;
			pos++;
		}
		start = pos;
		/* A comma between a PMU's slashes separates its terms. */
		while (pos < len && (in_pmu || (str[pos] != ',' &&
		       str[pos] != '}' && str[pos] != '{'))) {
			in_pmu ^= str[pos] == '/';
			pos++;
		}
		if (str[pos] == '{') {
			ev_error_braces(e, str, pos);
			goto bad;
		}
		if (token_add(list, str, start, pos - start, resolve, arg, e))
			goto fail;
		for (size_t i = first; i < list->nr; i++) {
			list->ev[i].group = group;
			list->ev[i].leader = group >= 0 && i == group_first;
		}
		if (str[pos] == '}') {
			if (group < 0 || group_close(list, str, &pos,
						     group_start, group_first,
						     e) != 0) {
				if (group < 0)
					ev_error_braces(e, str, pos);
				goto bad;
			}
			group = -1;
		}
		if (pos == len)
			break;
		pos++;			/* the comma */
		if (pos == len) {	/* trailing comma */
			token_add(list, str, pos, 0, resolve, arg, e);
			goto bad;
		}
	}
	if (group >= 0) {		/* unbalanced '{' */
		ev_error_braces(e, str, len);
		goto bad;
	}
	return 0;
bad:
	errno = EINVAL;
fail:
	{
		int err = errno;

		/* Restore the caller's list; storage this call allocated for
		   a list that had none is released with it. */
		list->nr = old_nr;
		list->ngroups = old_groups;
		if (!had_storage)
			pc_event_list_release(list);
		if (e)
			e->err = err;
		errno = err;
		return -1;
	}
}

int pc_event_list_parse_with(struct pc_event_list *list, const char *str,
			     size_t *errpos, pc_event_resolve_fn resolve,
			     void *arg)
{
	struct pc_event_error e;
	int rc = pc_event_list_parse_err(list, str, resolve, arg, &e);

	if (rc != 0 && errpos)
		*errpos = e.idx;
	return rc;
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
