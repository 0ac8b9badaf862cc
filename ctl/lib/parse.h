/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: table-driven command line parsing.
 */
#ifndef FSLOADCTL_PARSE_H
#define FSLOADCTL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum arg_type {
	ARG_FLAG,	/* bool, no value */
	ARG_U32,	/* uint32_t */
	ARG_U64,	/* uint64_t */
	ARG_SIZE32,	/* uint32_t, K/M/G suffixes (KiB multiples) */
	ARG_SIZE64,	/* uint64_t, K/M/G/T suffixes */
	ARG_STR,	/* const char *, points into argv */
	ARG_SECONDS,	/* double, seconds, >= 0 */
};

/**
 * struct arg_desc - one "--name [VALUE]" option
 * @name: long name without the dashes
 * @type: type of the value and of the destination field
 * @offset: offset of the destination in the options structure
 * @metavar: value placeholder in the help text
 * @help: one-line description
 */
struct arg_desc {
	const char *name;
	enum arg_type type;
	size_t offset;
	const char *metavar;
	const char *help;
};

/**
 * struct cmd_ctx - what a subcommand runs with, besides its arguments
 * @json: JSON on stdout (--json, -j, before or after the subcommand)
 */
struct cmd_ctx {
	bool json;
};

/**
 * struct cmd_desc - a subcommand
 * @name: the subcommand
 * @fn: runs it in @ctx; argv[0] is the subcommand; returns an exit code
 * @synopsis: arguments after the name, for the help text
 * @desc: what it does
 * @args: its options, ending with a zeroed entry, or NULL
 * @help_extra: prints more help after the options (may be NULL)
 */
struct cmd_desc {
	const char *name;
	int (*fn)(struct cmd_ctx *ctx, int argc, char **argv);
	const char *synopsis;
	const char *desc;
	const struct arg_desc *args;
	void (*help_extra)(FILE *f);
};

/*
 * Parse argv[1..argc-1] of @cmd into @opts.  --json (-j) sets @ctx->json
 * (@ctx may be NULL where --json is not an option), --help (-h) prints the command's help and exits 0.
 * @seen[i] is set when option i was given (may be NULL).  Positional
 * arguments are stored in @pos (at most @max_pos) and counted in @npos.
 * Returns 0, or EXIT_USAGE after printing why.
 */
int parse_args(const struct cmd_desc *cmd, struct cmd_ctx *ctx, void *opts,
	       bool *seen, int argc, char **argv, char **pos, int max_pos,
	       int *npos);

/*
 * Store @val, the value of option @a, into @opts.  Returns 0, or
 * EXIT_USAGE after printing why.
 */
int store_arg(const struct arg_desc *a, void *opts, const char *val);

/**
 * struct arg_range - the values a numeric option may take
 * @name: the option (struct arg_desc's name)
 * @min: its least value (the spec's limit where the protocol has one:
 *	include/uapi/linux/fsload.h)
 * @max: its largest
 * @zero_ok: 0 is valid too (none, never), below @min
 */
struct arg_range {
	const char *name;
	uint64_t min, max;
	bool zero_ok;
};

/*
 * Check the options of @args in @opts against @ranges (ending with a
 * zeroed entry), wherever their values came from.  Returns 0, or
 * EXIT_USAGE after printing the first option out of its range, and the
 * range.
 */
int check_arg_ranges(const struct arg_desc *args,
		     const struct arg_range *ranges, const void *opts);

/* Was option @name given?  (Looks it up in @cmd->args.) */
bool arg_seen(const struct cmd_desc *cmd, const bool *seen, const char *name);

int parse_u64(const char *s, uint64_t *v);
int parse_u32(const char *s, uint32_t *v);
/* Number with an optional K, M, G or T suffix (1024 multiples). */
int parse_size(const char *s, uint64_t *v);

/* A job id argument; prints a usage error. */
int parse_job_id(const char *s, uint32_t *id);
/* parse_args() of a command whose one argument is a job id, into @id. */
int parse_id_args(const struct cmd_desc *cmd, struct cmd_ctx *ctx, void *opts,
		  int argc, char **argv, uint32_t *id);

void cmd_usage(FILE *f, const struct cmd_desc *cmd);
/* Usage error: message, pointer to help, returns EXIT_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* FSLOADCTL_PARSE_H */
