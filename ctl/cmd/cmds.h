/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: subcommands.
 */
#ifndef FSLOADCTL_CMDS_H
#define FSLOADCTL_CMDS_H

#include "lib/parse.h"

int cmd_start(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_wait(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_compare(int argc, char **argv);

extern const struct cmd_desc start_cmd, status_cmd, list_cmd, stop_cmd,
	wait_cmd, results_cmd, compare_cmd;

#endif /* FSLOADCTL_CMDS_H */
