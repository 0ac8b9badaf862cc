/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: stall notices.
 */
#ifndef FSLOADCTL_STALL_H
#define FSLOADCTL_STALL_H

#include <stdbool.h>

#include "nl/job.h"
#include "nl/series.h"

/*
 * Note the stalled workers of @js, with their stacks, on stderr too; a
 * stall without its thread id (a notification never has it) takes it
 * from @pids, the workers' by index (@npids of them).
 */
void series_stall_report(struct series *s, const struct job_status *js,
			 const uint32_t *pids, unsigned int npids, bool quiet);

#endif /* FSLOADCTL_STALL_H */
