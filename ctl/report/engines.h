/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start --engine kernel,user,uring (both: kernel,user): each
 * engine's run of the same program, side by side.
 */
#ifndef FSLOADCTL_ENGINES_H
#define FSLOADCTL_ENGINES_H

#include <stdbool.h>

#include "nl/job.h"
#include "workload/profile.h"
#include "engine/run.h"

/*
 * The @n runs of the engines of @es (fewer when one failed), each in
 * full, then per phase each engine's worker CPU per op and mean latency
 * with their ratios to the reference engine's (the kernel's, else the
 * first); JSON: "engines", "order", one object per engine by name,
 * "comparison", "summary".  Runs of several iterations (run->iteration,
 * run->position): the means over each engine's runs, and its order
 * effect (its means where it ran later over those where it ran first).
 */
void report_engines(const struct run *runs, unsigned int n,
		    const struct engine_set *es, const struct job_extra *x,
		    const struct profile *pf, bool json);

#endif /* FSLOADCTL_ENGINES_H */
