/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a job's results, as the per-phase tables (text) and the
 * "phases" array (JSON).
 */
#ifndef FSLOADCTL_REPORT_RESULTS_H
#define FSLOADCTL_REPORT_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "nl/job.h"
#include "nl/nl.h"
#include "nl/results.h"

/*
 * How a phase ended, as the text table's complete column and JSON's
 * "completion" say it: "yes" every worker ran every iteration, "time" a
 * stonewall ended it (still complete), "target" fsloadctl stopped an
 * aging fill at its target (a normal end), "no" it was stopped or failed.
 */
const char *phase_completion(const struct phase_result *pr);
/* The failures the phase expected (not errors): its op types' misses. */
uint64_t phase_misses(const struct phase_result *pr);

/*
 * Print the per-phase table (text) or the "phases" array (JSON), inside
 * a document opened with print_begin().
 */
void print_results(const struct results *r, const struct job_status *js);

/*
 * Fetch and print the status and results of job @id (one JSON document
 * or the text header and table, as @json says).  @final is used when the
 * job is gone by now (may be NULL); @x adds what the starter knows (may
 * be NULL).  A CPU profile's folded stacks and flame graphs go to the
 * prefixes @folded and @flamegraph (NULL: none).
 * Returns EXIT_OK, EXIT_JOB when the job ended failed or stopped, or the
 * error's exit code.
 */
int show_job_results(struct nl_ctx *nl, uint32_t id,
		     const struct job_status *final,
		     const struct job_extra *x, bool json,
		     const char *folded, const char *flamegraph);

/*
 * The CPU time a phase cost, in ns: its workers', the background's and
 * the tail's, as the "cpu" figures count them (@js: the machine's idle
 * rate, or NULL).  NAN when unknown.
 */
double phase_cpu_ns(const struct phase_result *pr,
		    const struct job_status *js);

#endif /* FSLOADCTL_REPORT_RESULTS_H */
