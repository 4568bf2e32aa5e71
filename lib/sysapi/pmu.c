/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pmu.c - "pmu/term=value,.../" to perf_event_attr, from sysfs. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sysapi/pmu.h>
#include "base/array.h"
#include "sysapi-internal.h"

#define DEVICES "/sys/bus/event_source/devices"

/* DIR/PMU/SUB/FILE (SUB may be NULL) into buf, the newline cut; -1 when
   unreadable. */
static int read_attr(const char *dir, const char *pmu, const char *sub,
		     const char *file, char *buf, size_t sz)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s/%s%s%s", dir, pmu, sub ? sub : "",
		 sub ? "/" : "", file);
	if (pc_read_small(path, buf, sz) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static bool parse_num(const char *s, uint64_t *v)
{
	char *end;

	if (*s == '\0' || *s == '-')
		return false;
	/* decimal or 0x hex, as perf's lexer reads terms: "010" is ten */
	errno = 0;
	*v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ?
		      16 : 10);
	return errno == 0 && end != s && *end == '\0';
}

/*
 * Put v into the bits a format file names ("config:0-7,21",
 * "config1:0-63", "config:5"); false when the value does not fit.
 */
static bool apply_format(const char *fmt, uint64_t v,
			 struct perf_event_attr *attr)
{
	const char *colon = strchr(fmt, ':');
	__u64 *word;
	const char *p;

	if (colon == NULL)
		return false;
	if (!strncmp(fmt, "config1", 7))
		word = &attr->config1;
	else if (!strncmp(fmt, "config2", 7))
		word = &attr->config2;
	else if (!strncmp(fmt, "config", 6))
		word = &attr->config;
	else
		return false;
	for (p = colon + 1; *p;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (hi < lo || hi > 63)
			return false;
		for (unsigned long b = lo; b <= hi; b++) {
			*word &= ~(1ull << b);
			*word |= (v & 1) << b;
			v >>= 1;
		}
		p = *end == ',' ? end + 1 : end;
		if (end == p && *p)
			return false;
	}
	return v == 0;
}

/* Apply one term "key[=value]"; alias_ok: an events/ alias may stand here. */
static int apply_term(const char *dir, const char *pmu, uint32_t type,
		      char *term, bool alias_ok, struct perf_event_attr *attr,
		      char *name, size_t namesz)
{
	char *eq = strchr(term, '='), buf[256];
	const char *val = eq ? eq + 1 : "1";
	uint64_t v;

	if (eq)
		*eq = '\0';
	if (!strcmp(term, "name") && eq) {
		snprintf(name, namesz, "%s", val);
		return 0;
	}
	if (!strcmp(term, "percore") || !strcmp(term, "metric-id"))
		return 0;
	if (alias_ok && !eq && strcmp(pmu, ".") &&
	    read_attr(dir, pmu, "events", term, buf, sizeof(buf)) == 0) {
		char *save = NULL;

		for (char *t = strtok_r(buf, ",", &save); t;
		     t = strtok_r(NULL, ",", &save))
			if (apply_term(dir, pmu, type, t, false, attr, name,
				       namesz))
				return -1;
		return 0;
	}
	if (alias_ok && !eq &&
	    (type == PERF_TYPE_SOFTWARE || type == PERF_TYPE_HARDWARE)) {
		for (const struct pc_event_desc *d = pc_event_table(); d->name; d++)
			if (d->type == type && (!strcmp(d->name, term) ||
			    (d->alias && !strcmp(d->alias, term)))) {
				attr->config = d->config;
				return 0;
			}
	}
	if (!parse_num(val, &v))
		return -1;
	if (!strcmp(term, "config") || !strcmp(term, "config1") ||
	    !strcmp(term, "config2")) {
		*(term[6] == '1' ? &attr->config1 : term[6] == '2' ?
		  &attr->config2 : &attr->config) = v;
		return 0;
	}
	if (!strcmp(term, "period")) {
		attr->sample_period = v;
		return 0;
	}
	if (strchr(term, '/') || strchr(term, '.') || !strcmp(pmu, ".") ||
	    read_attr(dir, pmu, "format", term, buf, sizeof(buf)) < 0 ||
	    !apply_format(buf, v, attr))
		return -1;
	return 0;
}

int pc_pmu_resolve(void *arg, const char *name, size_t len,
		   struct pc_event_list *list)
{
	const char *dir = arg ? arg : DEVICES;
	const char *slash = memchr(name, '/', len);
	char pmu[128], terms[512], buf[32], evname[64], *save = NULL;
	struct perf_event_attr attr;
	uint64_t type;

	if (slash == NULL || slash == name || len < 2 || name[len - 1] != '/' ||
	    (size_t)(slash - name) >= sizeof(pmu) || len >= sizeof(terms))
		return 0;
	snprintf(pmu, sizeof(pmu), "%.*s", (int)(slash - name), name);
	snprintf(terms, sizeof(terms), "%.*s",
		 (int)(len - (size_t)(slash + 1 - name) - 1), slash + 1);
	if (strchr(pmu, '.') || strchr(terms, '/'))
		return 0;	/* never leave the devices directory */
	if (read_attr(dir, pmu, NULL, "type", buf, sizeof(buf)) == 0 &&
	    parse_num(buf, &type)) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = (uint32_t)type;
	} else if (pc_event_parse(pmu, &attr, NULL) == 0 && !strchr(pmu, ':')) {
		/* perf's "cpu-clock/period=1000/": a named event with terms
		   (only the built-in ones: it has no format/). */
		strcpy(pmu, ".");
	} else {
		return 0;
	}
	snprintf(evname, sizeof(evname), "%.*s", (int)len, name);
	for (char *t = strtok_r(terms, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (apply_term(dir, pmu, attr.type, t, true, &attr, evname,
			       sizeof(evname))) {
			errno = EINVAL;
			return -1;
		}
	}
	return pc_event_list_add(list, evname, &attr) < 0 ? -1 : 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pc_pmu_list(const char *dir, char ***names)
{
	char **v = NULL, path[1024];
	size_t nr = 0, alloc = 0;
	DIR *d, *e;
	struct dirent *pd, *ed;

	if (dir == NULL)
		dir = DEVICES;
	d = opendir(dir);
	if (d == NULL)
		return -1;
	while ((pd = readdir(d)) != NULL) {
		if (pd->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/events", dir, pd->d_name);
		e = opendir(path);
		while (e && (ed = readdir(e)) != NULL) {
			/* tsc.scale, tsc.unit: facts about tsc, not events */
			if (ed->d_name[0] == '.' || strchr(ed->d_name, '.'))
				continue;
			if (ARRAY_GROW(v, nr + 2, alloc) != 0 ||
			    asprintf(&v[nr], "%s/%s/", pd->d_name,
				     ed->d_name) < 0) {
				closedir(e);
				closedir(d);
				while (nr > 0)
					free(v[--nr]);
				free(v);
				errno = ENOMEM;
				return -1;
			}
			v[++nr] = NULL;
		}
		if (e)
			closedir(e);
	}
	closedir(d);
	if (v == NULL && (v = calloc(1, sizeof(*v))) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	qsort(v, nr, sizeof(*v), cmp_str);
	*names = v;
	return (int)nr;
}
