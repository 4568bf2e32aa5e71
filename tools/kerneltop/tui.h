/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tui.h - the live screens (tui.c).
 */
#ifndef KERNELTOP_TUI_H
#define KERNELTOP_TUI_H

struct kt;

/* tui.c: the live screens until q or a stop signal. */
int tui_run(struct kt *kt);

#endif
