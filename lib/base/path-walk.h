/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * path-walk.h - find the directory that a path's last name is in,
 * following symbolic links as the kernel does with
 * fs.protected_symlinks = 1, whatever that sysctl says.
 *
 * The rule (the kernel's may_follow_link()): a link in a sticky
 * directory that anyone may write (/tmp, /var/tmp, /dev/shm) is followed
 * only when its owner is the one following it or the directory's owner.
 * Anyone may plant a link there; one that root followed on another
 * user's word could name /etc/passwd.  The rule holds for every link on
 * the path, not only the last.
 *
 * The walk keeps a descriptor on each directory it enters and goes on
 * from it (openat(2) with O_NOFOLLOW), so that nothing renamed behind it
 * changes where it ends.  Links inside /proc are the kernel's own
 * (/proc/self, /proc/self/fd/1, which /dev/stdout names): the kernel
 * follows them, never their text, which for an open file may name
 * nothing ("pipe:[N]", a deleted file).
 *
 * Never prints, never exits.
 */
#ifndef BASE_PATH_WALK_H
#define BASE_PATH_WALK_H

#include <stdbool.h>
#include <sys/stat.h>

/*
 * The errno of a link the rule does not follow: above every errno, as
 * libbpf's LIBBPF_ERRNO__* are, for it has none of its own (the kernel
 * says EACCES, which tells the user nothing).  atomic_file_strerror()
 * says it in words.
 */
#define PATH_WALK_ELINK 4200

enum path_kind {
	PATH_ABSENT,		/* no such name yet: the directory takes it */
	PATH_FILE,		/* a name that is not a link: st is its lstat */
	PATH_LINK,		/* a link left unfollowed (no PATH_WALK_FOLLOW):
				   st is its lstat */
	PATH_PROC_LINK,		/* a link in /proc (an open file, /dev/stdout):
				   st is its target's stat */
};

struct path_walk {
	int dirfd;		/* an O_PATH descriptor of the directory */
	char *name;		/* the last name in it */
	enum path_kind kind;
	struct stat st;		/* see kind; unset for PATH_ABSENT */
	struct stat dir;	/* the directory's */
};

enum {
	/* a link as the last name is followed too (under the rule) */
	PATH_WALK_FOLLOW = 1 << 0,
};

/*
 * Walk path (relative to the current directory, or absolute) to the
 * directory its last name is in.  Returns 0 and fills w (release it with
 * path_walk_release()), or -1 with errno and w empty: PATH_WALK_ELINK,
 * ELOOP (more than 40 links), ENOENT (a directory on the way is
 * missing, or path is ""), ENOTDIR, EISDIR (path ends in '/', ".",
 * ".."), EACCES, ENOMEM...
 */
int path_walk(struct path_walk *w, const char *path, unsigned flags);

/* Close and free what w holds. */
void path_walk_release(struct path_walk *w);

/* Whether a directory is sticky and anyone may write it: /tmp. */
bool path_walk_shared_dir(const struct stat *dir);

#endif
