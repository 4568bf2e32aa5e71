/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * words.h - a command line split into argv as sh splits words, without a
 * shell: blanks separate, '...' is literal, "..." keeps \" and \\, a
 * backslash outside quotes takes the next character.  No expansion of
 * any kind ($, *, ~): what is written is what runs.
 *
 * Never prints or exits.
 */
#ifndef BASE_WORDS_H
#define BASE_WORDS_H

/*
 * Split str into a NULL-terminated argv in *out, one allocation: free it
 * with free(*out) alone.  Returns the number of words (>= 1), or -1 with
 * errno EINVAL (no word, or an unterminated quote) or ENOMEM.
 */
int words_split(const char *str, char ***out);

#endif
