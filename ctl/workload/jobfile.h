/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: INI job files (start --job FILE).
 */
#ifndef FSLOADCTL_JOBFILE_H
#define FSLOADCTL_JOBFILE_H

#include <stdbool.h>

#include "lib/parse.h"
#include "workload/profile.h"

/*
 * Read the job file @path: its phases into @prog, its [global] settings
 * into @p (start options, @args, applied over what @p holds).  @given is
 * set for each option of @args the file gave (indexed as @args).
 * Returns 0, or EXIT_USAGE after printing FILE:LINE: what is wrong.
 */
int jobfile_load(const char *path, const struct arg_desc *args,
		 struct params *p, bool *given, struct program *prog);

#endif /* FSLOADCTL_JOBFILE_H */
