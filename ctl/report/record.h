/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start: self-describing results (-o FILE, --json) and
 * --rerun FILE.  Documentation/results.rst documents the result file.
 */
#ifndef FSLOADCTL_RECORD_H
#define FSLOADCTL_RECORD_H

#include <stdbool.h>

#include "lib/parse.h"
#include "workload/profile.h"

/* The result file's schema: name and version ("fsload-result", 1). */
#define RESULT_SCHEMA		"fsload-result"
#define RESULT_SCHEMA_VERSION	1

/* What the result file says about how the run was asked for. */
struct record_info {
	int argc;			/* start's arguments, argv[0] "start" */
	char **argv;
	const struct arg_desc *args;	/* start's options table */
	const struct params *p;		/* resolved: defaults, profile, cli */
	const struct program *prog;	/* the last job's program */
	const char *engine;		/* kernel|user|both */
	const char *rerun_of;		/* --rerun FILE, or NULL */
};

/*
 * Before the jobs: remember @ri (it must stay valid) and what the
 * environment looked like (taint).
 */
void record_begin(const struct record_info *ri);
/* print_set_trailer() callback: "result", "fsload", "environment", "run". */
void record_trailer(void);

/*
 * start --rerun FILE: the arguments that repeat FILE's run (its own
 * arguments, its seed, its job file written to a temporary file), then
 * @argv's other arguments (which override), without --rerun itself.
 * Returns 0 with a malloc'ed *@nargv, or an exit code after a message.
 */
int record_rerun_args(const char *path, int argc, char **argv, int *nargc,
		      char ***nargv);

#endif /* FSLOADCTL_RECORD_H */
