/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: phase results (FSLOAD_CMD_RESULT_GET).
 */
#ifndef FSLOADCTL_RESULTS_H
#define FSLOADCTL_RESULTS_H

#include <stdint.h>

#include "fsloadctl.h"
#include "status.h"

struct nl_ctx;

/* Statistics of one operation type in a phase (FSLOAD_A_OPSTAT_*). */
struct opstat {
	uint64_t have;
	uint8_t type;
	uint64_t ops;
	uint64_t errors;
	uint64_t bytes;
	uint64_t lat_sum_ns;
	uint64_t lat_min_ns;
	uint64_t lat_max_ns;
};

/* Result of one phase (FSLOAD_A_RES_*). */
struct phase_result {
	uint64_t have;
	uint32_t index;
	char name[FSLOAD_NAME_MAX];
	uint32_t threads;
	uint8_t complete;
	uint8_t stonewalled;
	uint64_t elapsed_ns;
	uint64_t ops;
	uint64_t errors;
	uint64_t bytes;
	struct opstat *opstats;
	unsigned int nopstats;
};

struct results {
	struct phase_result *phases;
	unsigned int nphases;
};

/* Dump the results of job @id, sorted by phase.  Returns an exit code. */
int results_get(struct nl_ctx *nl, uint32_t id, struct results *r);
void results_free(struct results *r);

/*
 * Print the per-phase table (text) or the "phases" array (JSON), inside
 * a document opened with print_begin().
 */
void print_results(const struct results *r);

/*
 * Fetch and print the status and results of job @id (one JSON document
 * or the text header and table).  @final is used when the job is gone by
 * now (may be NULL); @x adds what the starter knows (may be NULL).
 * Returns EXIT_OK, EXIT_JOB when the job ended failed or stopped, or the
 * error's exit code.
 */
int show_job_results(struct nl_ctx *nl, uint32_t id,
		     const struct job_status *final,
		     const struct job_extra *x);

/* Fetch the status of job @id (JOB_GET do) into @js. */
int job_get(struct nl_ctx *nl, uint32_t id, struct job_status *js,
	    unsigned int flags);

#endif /* FSLOADCTL_RESULTS_H */
