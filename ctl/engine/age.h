/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start --age, and the age profile: fill the filesystem first.
 */
#ifndef FSLOADCTL_AGE_H
#define FSLOADCTL_AGE_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/profile.h"
#include "engine/job.h"

struct nl_ctx;

/* The aging that ran before (or as) the measured job, for the report. */
struct age_report {
	bool present;
	double target_pct;
	double before_pct;
	double after_pct;
	bool reached;
	bool full;		/* the fill ended at ENOSPC: reached */
	bool kept;		/* its files are left in place */
	const struct run *run;	/* NULL: nothing to do, already full */
};

/*
 * Fill the filesystem of p->dir to @target percent with the age program:
 * one job of weighted create/append/unlink over a file set, stopped by
 * fsloadctl once statfs shows the target (checked every AGE_TICK_MS).
 * @alone: the age profile itself (its --size/--block/--files apply);
 * else the aging before another profile (40 KiB in 4 KiB blocks).
 * The job keeps its files when @keep_files.
 */
int run_age(struct nl_ctx *nl, const struct params *p, uint32_t threads,
	    double target, bool alone, bool keep_files, enum engine engine,
	    struct run *run, struct age_report *ar);

#endif /* FSLOADCTL_AGE_H */
