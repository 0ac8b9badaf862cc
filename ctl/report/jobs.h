/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start: the report of the jobs one start ran, whichever
 * form they took (one job, a thread sweep, iterations, an engine
 * list), on stdout or into -o's result file.
 */
#ifndef FSLOADCTL_REPORT_JOBS_H
#define FSLOADCTL_REPORT_JOBS_H

#include <stdbool.h>

#include "nl/job.h"
#include "engine/age.h"
#include "engine/job.h"

struct profile;

/*
 * The report of @runs, @nruns of the @nwant asked for (@ncounts thread
 * counts, the engines of @es), with the aging @ar (or NULL), as JSON or
 * text.
 */
void report_jobs(const struct run *runs, unsigned int nruns,
		 unsigned int nwant, unsigned int ncounts,
		 const struct engine_set *es, const struct job_extra *x,
		 const struct profile *pf, const struct age_report *ar,
		 bool json);
/*
 * -o FILE: that report as JSON, written to a temporary file renamed
 * over @path.  0, or EXIT_SYSERR after a message.
 */
int report_write_file(const char *path, const struct run *runs,
		      unsigned int nruns, unsigned int nwant,
		      unsigned int ncounts, const struct engine_set *es,
		      const struct job_extra *x, const struct profile *pf,
		      const struct age_report *ar);

#endif /* FSLOADCTL_REPORT_JOBS_H */
