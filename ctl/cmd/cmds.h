/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the subcommands, one file each in cmd/ (stop --wait and
 * status without an id borrow wait's and list's work).
 */
#ifndef FSLOADCTL_CMDS_H
#define FSLOADCTL_CMDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/parse.h"

extern const struct cmd_desc start_cmd, status_cmd, list_cmd, stop_cmd,
	wait_cmd, results_cmd, compare_cmd, version_cmd;

int cmd_start(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_status(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_list(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_stop(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_wait(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_results(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_compare(struct cmd_ctx *ctx, int argc, char **argv);
int cmd_version(struct cmd_ctx *ctx, int argc, char **argv);

/* list: print every job's status (also status without an id). */
int list_jobs(const struct cmd_ctx *ctx);

/* Options of wait, and of stop --wait. */
struct wait_opts {
	bool wait;
	double timeout;
	bool quiet;
};

#define WOPT(field)	offsetof(struct wait_opts, field)

/*
 * Wait for job @id, subscribed before its state is read, and print its
 * results.  With @stop, ask it to stop first.
 */
int wait_job(const struct cmd_ctx *ctx, uint32_t id, const struct wait_opts *o,
	     bool stop);

#endif /* FSLOADCTL_CMDS_H */
