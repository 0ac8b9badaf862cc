/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a profile's headline figures from one job's results (the
 * metric its profile names: workload/profile.h's struct metric_spec).
 */
#ifndef FSLOADCTL_METRIC_H
#define FSLOADCTL_METRIC_H

#include <stdint.h>

struct job_status;
struct profile;
struct results;

/*
 * The profile's headline number from one job's results: files/s of
 * smallfiles' create phases, transactions/s of randrw, ...  @value is
 * per second; @lat_avg_ns NAN when the profile has none.
 */
struct metric {
	const char *label;	/* text column: "files/s" */
	const char *key;	/* JSON: "files_per_sec" */
	uint64_t ops;		/* operations counted */
	uint64_t bytes;		/* written and read by them */
	uint64_t elapsed_ns;	/* over this time */
	double value;
	double lat_avg_ns;
	double lat_p50_ns;	/* of the counted ops; NAN when none */
	double lat_p99_ns;
	double worker_ns_per_op;	/* workers' CPU per op; NAN unknown */
	double cpu_ns;		/* the phases' CPU (phase_cpu_ns()); NAN unknown */
};
/* @js: the job's status, for its idle rate (cpu_ns), or NULL. */
void profile_metric(const struct profile *pf, const struct results *r,
		    const struct job_status *js, struct metric *m);

#endif /* FSLOADCTL_METRIC_H */
