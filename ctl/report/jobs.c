// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start: the report of the jobs one start ran, on stdout or,
 * for -o FILE, atomically into a result file.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/print.h"
#include "report/engines.h"
#include "report/jobs.h"
#include "report/runs.h"

void report_jobs(const struct run *runs, unsigned int nruns,
		 unsigned int nwant, unsigned int ncounts,
		 const struct engine_set *es, const struct job_extra *x,
		 const struct profile *pf, const struct age_report *ar,
		 bool json)
{
	if (es->n > 1 && nruns)
		report_engines(runs, nruns, es, x, pf, json);
	else if (nruns == 1 && nwant == 1)
		report_single(&runs[0], x, pf, ar, json);
	else if (nruns && ncounts > 1)
		report_sweep(runs, nruns, pf, ar, json);
	else if (nruns)
		report_iterations(runs, nruns, pf, ar, json);
}

int report_write_file(const char *path, const struct run *runs,
		      unsigned int nruns, unsigned int nwant,
		      unsigned int ncounts, const struct engine_set *es,
		      const struct job_extra *x, const struct profile *pf,
		      const struct age_report *ar)
{
	char *tmp;
	FILE *f;
	int err;

	if (asprintf(&tmp, "%s.tmp-%d", path, (int)getpid()) < 0)
		return EXIT_SYSERR;
	f = fopen(tmp, "w");
	if (!f) {
		errsys("cannot write %s", tmp);
		free(tmp);
		return EXIT_SYSERR;
	}
	print_redirect(f);
	report_jobs(runs, nruns, nwant, ncounts, es, x, pf, ar, true);
	print_redirect(NULL);
	err = ferror(f);
	if (fclose(f) || err || rename(tmp, path)) {
		errsys("cannot write %s", path);
		unlink(tmp);
		free(tmp);
		return EXIT_SYSERR;
	}
	free(tmp);
	return 0;
}

