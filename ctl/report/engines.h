/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start --engine both: the kernel's run beside the user
 * engine's.
 */
#ifndef FSLOADCTL_ENGINES_H
#define FSLOADCTL_ENGINES_H

#include <stdbool.h>

#include "nl/job.h"
#include "workload/profile.h"
#include "engine/run.h"

/*
 * --engine both: each of the runs (the kernel's, then the user's) in
 * full, then per phase the ratio user/kernel of worker CPU per op and of
 * mean latency (JSON: "kernel", "user", "comparison", "summary").
 */
void report_both(const struct run *runs, unsigned int n,
		 const struct job_extra *x, const struct profile *pf, bool json);

#endif /* FSLOADCTL_ENGINES_H */
