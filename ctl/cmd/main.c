// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: control the fsload in-kernel filesystem workload generator
 * over generic netlink.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "cmd/cmds.h"
#include "nl/nl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "workload/profile.h"

const char *cmd_name;
bool opt_json;

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "fsloadctl: ");
	if (cmd_name)
		fprintf(stderr, "%s: ", cmd_name);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
}

void errmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void warnmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void errsys(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
}

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct cmd_desc help_cmd = {
	.name = "help",
	.fn = cmd_help,
	.synopsis = "[COMMAND]",
	.desc = "Show this help, or a command's options.",
};

static const struct cmd_desc version_cmd = {
	.name = "version",
	.fn = cmd_version,
	.desc = "Show fsloadctl's version and the loaded module's protocol version.",
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

static int cmd_help(int argc, char **argv)
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

static int cmd_version(int argc, char **argv)
{
	struct nl_ctx nl;
	char *pos[1];
	int npos, ret;
	FILE *f;
	char modver[64] = "";

	ret = parse_args(&version_cmd, NULL, NULL, argc, argv, pos, 0, &npos);
	if (ret)
		return ret;
	f = fopen("/sys/module/fsload/version", "r");
	if (f) {
		if (fgets(modver, sizeof(modver), f))
			modver[strcspn(modver, "\n")] = '\0';
		fclose(f);
	}
	ret = nl_open(&nl, false);

	print_begin(opt_json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	print_string(PRINT_ANY, "fsloadctl", "fsloadctl %s", FSLOADCTL_VERSION);
	print_uint(PRINT_ANY, "protocol", " (protocol %" PRIu64 ")\n",
		   FSLOAD_FAMILY_VERSION);
	if (!ret) {
		print_uint(PRINT_ANY, "module_protocol",
			   "fsload module: protocol %" PRIu64, nl.family_version);
		print_uint(PRINT_ANY, "family_id", ", family id %" PRIu64,
			   nl.family);
		print_string(modver[0] ? PRINT_ANY : PRINT_JSON,
			     "module_version", ", version %s",
			     modver[0] ? modver : NULL);
		print_fp("\n");
		nl_close(&nl);
	} else {
		print_null(PRINT_JSON, "module_protocol", NULL);
	}
	print_end();
	/* the tool's version is shown either way; the status says the rest */
	return ret;
}

int main(int argc, char **argv)
{
	const struct cmd_desc *cmd;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			opt_json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		} else if (!strcmp(argv[i], "--version") ||
			   !strcmp(argv[i], "-V")) {
			cmd_name = "version";
			return cmd_version(1, argv);
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
	return cmd->fn(argc - i, argv + i);
}
