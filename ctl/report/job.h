/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a job's status, as text and JSON.
 */
#ifndef FSLOADCTL_REPORT_JOB_H
#define FSLOADCTL_REPORT_JOB_H

#include "nl/job.h"

enum job_view {
	JOB_VIEW_HEADER,	/* results header (start, wait, results) */
	JOB_VIEW_DETAIL,	/* status ID */
	JOB_VIEW_ROW,		/* one line of list */
};

/* Print the job: a JSON object (named @key, or an array member when
 * NULL) and, in text mode, the lines of @view. */
void print_job(const char *key, const struct job_status *js,
	       const struct job_extra *x, enum job_view view);
/* Column titles of JOB_VIEW_ROW (text only). */
void print_job_row_titles(void);
/* start --detach: the id of the job @js started (JSON: and its header). */
void report_job_started(const struct job_status *js,
			const struct job_extra *x, bool json);

#endif /* FSLOADCTL_REPORT_JOB_H */
