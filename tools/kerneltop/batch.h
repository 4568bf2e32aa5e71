/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * batch.h - kerneltop -b (batch.c): frames printed until -n or a
 * stop signal.
 */
#ifndef KERNELTOP_BATCH_H
#define KERNELTOP_BATCH_H

struct kt;

int batch_run(struct kt *kt);

#endif
