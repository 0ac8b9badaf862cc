/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start: reports of one job, of a thread sweep (one job per
 * thread count) and of iterations (mdtest's summary), with what
 * fsloadctl measured itself (extents, utilisation).
 */
#ifndef FSLOADCTL_RUNS_H
#define FSLOADCTL_RUNS_H

#include <stdbool.h>

#include "nl/job.h"
#include "workload/profile.h"
#include "engine/age.h"
#include "engine/job.h"

/* The age profile found the filesystem full enough: nothing ran. */
void report_age_reached(const struct age_report *age, bool json);
/* One job: header, phase table, the profile's summary, age, extents. */
void report_single(const struct run *run, const struct job_extra *x,
		   const struct profile *pf, const struct age_report *age,
		   bool json);
/* One row per thread count; JSON "sweep": [...]. */
void report_sweep(const struct run *runs, unsigned int n,
		  const struct profile *pf, const struct age_report *age,
		  bool json);
/* Per-phase Max/Min/Mean/StdDev of ops/s over the runs. */
void report_iterations(const struct run *runs, unsigned int n,
		       const struct profile *pf, const struct age_report *age,
		       bool json);

#endif /* FSLOADCTL_RUNS_H */
