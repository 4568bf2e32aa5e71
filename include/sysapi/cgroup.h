/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cgroup.h - cgroups as counting targets: a counter opened with
 * PC_OPEN_CGROUP(fd, cpu) counts only the tasks of that cgroup and of
 * the cgroups below it, while they run on cpu.
 *
 * Never prints or exits: functions return -1 (or NULL) with errno set.
 */
#ifndef SYSAPI_CGROUP_H
#define SYSAPI_CGROUP_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The cgroup hierarchy perf_event counts in, found as perf finds it in
 * /proc/mounts: the cgroup v1 hierarchy with the perf_event controller,
 * else the cgroup2 mount ("/sys/fs/cgroup", "/sys/fs/cgroup/unified").
 * Looked up once; the string is static.  NULL with errno ENOENT when
 * neither is mounted (or /proc/mounts cannot be read: its errno).
 */
const char *pc_cgroup_mount(void);

/*
 * Open the cgroup name of that hierarchy ("pcx", "a/b"; "/" or "" is the
 * root) as a directory for PC_OPEN_CGROUP().  Returns a close-on-exec
 * file descriptor the caller closes, or -1 with errno (ENOENT: no such
 * cgroup, a name that leads out of the hierarchy ("../.."), or no
 * hierarchy; EACCES; ENOTDIR).
 */
int pc_cgroup_open(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* SYSAPI_CGROUP_H */
