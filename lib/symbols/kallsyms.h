/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* kallsyms.h - the kernel's text symbols, modules included, from kallsyms. */
#ifndef SYMBOLS_KALLSYMS_H
#define SYMBOLS_KALLSYMS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct kallsyms;

/*
 * Read a kallsyms file (/proc/kallsyms) and keep its text symbols sorted.
 * Only a regular file is read (/proc's, of size 0, among them), and at
 * most 256 MiB of it.  Once *stop is set (stop not NULL: a flag that a
 * signal handler sets), the read gives up between two blocks, or at the
 * signal's EINTR where a read blocks.  Returns the table, or NULL with
 * errno: EACCES, ENOENT, ENOMEM; EINVAL for what is not a regular file
 * (a FIFO, a device: /dev/zero), EISDIR; EFBIG past the bound; EINTR
 * once stopped; ENODATA when the file holds no text symbol.  Free with
 * kallsyms_free().
 */
struct kallsyms *kallsyms_load_until(const char *path,
				     const volatile sig_atomic_t *stop);

/* kallsyms_load_until(path, NULL): read to the end. */
static inline struct kallsyms *kallsyms_load(const char *path)
{
	return kallsyms_load_until(path, NULL);
}
void kallsyms_free(struct kallsyms *ks);

/* True when every address read as zero (kptr_restrict hides them). */
bool kallsyms_hidden(const struct kallsyms *ks);

/* Number of text symbols kept. */
size_t kallsyms_count(const struct kallsyms *ks);

/*
 * The symbol covering addr: its name, with *off = addr - start and *module
 * "[kernel.kallsyms]" or "[ext4]" style.  A symbol ends where the next one
 * starts.  Returns NULL when addr is before the first symbol, past the
 * last one, or the table is hidden.  Strings live as long as ks.
 */
const char *kallsyms_lookup(const struct kallsyms *ks, uint64_t addr,
			    uint64_t *off, const char **module);

#endif
