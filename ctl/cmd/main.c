// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: control the fsload in-kernel filesystem workload generator
 * over generic netlink.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/multi.h"
#include "lib/parse.h"
#include "workload/profile.h"
#include "cmd/cmds.h"

static int cmd_help(struct cmd_ctx *ctx, int argc, char **argv);

static const struct cmd_desc help_cmd = {
	.name = "help",
	.fn = cmd_help,
	.synopsis = "[COMMAND]",
	.desc = "Show this help, or a command's options.",
};

static const struct cmd_desc *const commands[] = {
	&start_cmd, &status_cmd, &list_cmd, &stop_cmd, &wait_cmd,
	&results_cmd, &compare_cmd, &version_cmd, &help_cmd,
};

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f,
		"usage: fsloadctl [--json] COMMAND [ARGS]\n"
		"\n"
		"Run filesystem workloads in the kernel (fsload module).\n"
		"\n"
		"commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		char left[64];

		snprintf(left, sizeof(left), "%s%s%s", commands[i]->name,
			 commands[i]->synopsis ? " " : "",
			 commands[i]->synopsis ? commands[i]->synopsis : "");
		fprintf(f, "  %-36s %s\n", left, commands[i]->desc);
	}
	fprintf(f,
		"\n"
		"profiles (start --profile):\n");
	profile_help(f);
	fprintf(f,
		"\n"
		"global options:\n"
		"  --json, -j     JSON on stdout (also accepted after the command)\n"
		"  --help, -h     this help; 'fsloadctl COMMAND --help' for a command's options\n"
		"\n"
		"exit status:\n"
		"  0  success; the job ended done\n"
		"  1  the job ended failed or stopped (results are still printed)\n"
		"  2  usage error\n"
		"  3  the kernel refused the request (error and its reason on stderr)\n"
		"  4  the fsload module is not loaded\n"
		"  5  other system or netlink error\n"
		"  6  wait --timeout expired before the job ended\n"
		"  7  compare: changes beyond --threshold, but the noise was not measured\n"
		"     (one wall-clock run a side): repeat with --iterations N\n"
		"A second SIGINT/SIGTERM while start waits kills fsloadctl by that\n"
		"signal; the kernel then stops the job (unless --detach).\n");
}

static const struct cmd_desc *find_cmd(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static int cmd_help(struct cmd_ctx *ctx __attribute__((unused)), int argc,
		    char **argv)
{
	const struct cmd_desc *cmd;

	if (argc < 2) {
		usage(stdout);
		return EXIT_OK;
	}
	cmd = find_cmd(argv[1]);
	if (!cmd)
		return usage_error("unknown command '%s'", argv[1]);
	cmd_usage(stdout, cmd);
	return EXIT_OK;
}

static int run_command(int argc, char **argv)
{
	struct cmd_ctx ctx = { 0 };
	const struct cmd_desc *cmd;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			ctx.json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--version") ||
			   !strcmp(argv[i], "-V")) {
			cmd_name = "version";
			return cmd_version(&ctx, 1, argv);
		} else {
			return usage_error("unknown option '%s'", argv[i]);
		}
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	cmd = find_cmd(argv[i]);
	if (!cmd)
		return usage_error("unknown command '%s'", argv[i]);
	cmd_name = cmd->name;
	return cmd->fn(&ctx, argc - i, argv + i);
}

/* In fsloadctl-mpi the process is one rank of an MPI run (lib/multi.h). */
int main(int argc, char **argv)
{
	int ret;

	ret = multi_init(&argc, &argv);
	if (ret)
		return ret;
	ret = run_command(argc, argv);
	multi_finish();
	return ret;
}
