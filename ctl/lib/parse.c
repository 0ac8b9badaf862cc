// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: table-driven command line parsing.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/msg.h"

int parse_u64(const char *s, uint64_t *v)
{
	unsigned long long x;
	char *end;
	int base = 10;

	if (!isdigit((unsigned char)*s))
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

int parse_u32(const char *s, uint32_t *v)
{
	uint64_t x;

	if (parse_u64(s, &x) || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int parse_size(const char *s, uint64_t *v)
{
	unsigned long long x;
	unsigned int shift = 0;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	/* accept "4k", "4K", "4KiB", "4KB", "4096B" */
	if (shift && end[0] == 'i' && end[1] == 'B')
		end += 2;
	else if (*end == 'B')
		end++;
	if (*end)
		return -1;
	if (shift && x > (UINT64_MAX >> shift))
		return -1;
	*v = (uint64_t)x << shift;
	return 0;
}

int parse_job_id(const char *s, uint32_t *id)
{
	if (parse_u32(s, id))
		return usage_error("invalid job id '%s'", s);
	return 0;
}

int parse_id_args(const struct cmd_desc *cmd, struct cmd_ctx *ctx, void *opts,
		  int argc, char **argv, uint32_t *id)
{
	char *pos[1];
	int npos, ret;

	ret = parse_args(cmd, ctx, opts, NULL, argc, argv, pos, 1, &npos);
	if (ret)
		return ret;
	if (npos != 1)
		return usage_error("a job id is required");
	return parse_job_id(pos[0], id);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fsloadctl: %s%s", cmd_name ? cmd_name : "",
		cmd_name ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (cmd_name)
		fprintf(stderr, "\nTry 'fsloadctl %s --help'.\n", cmd_name);
	else
		fprintf(stderr, "\nTry 'fsloadctl help'.\n");
	return EXIT_USAGE;
}

void cmd_usage(FILE *f, const struct cmd_desc *cmd)
{
	const struct arg_desc *a;
	char left[64];

	fprintf(f, "usage: fsloadctl %s%s%s\n  %s\n", cmd->name,
		cmd->synopsis ? " " : "", cmd->synopsis ? cmd->synopsis : "",
		cmd->desc);
	if (!cmd->args || !cmd->args[0].name)
		return;
	fprintf(f, "options:\n");
	for (a = cmd->args; a->name; a++) {
		snprintf(left, sizeof(left), "--%s%s%s", a->name,
			 a->metavar ? " " : "", a->metavar ? a->metavar : "");
		fprintf(f, "  %-24s %s\n", left, a->help);
	}
	fprintf(f, "  %-24s %s\n", "--json", "JSON output on stdout");
	if (cmd->help_extra)
		cmd->help_extra(f);
}

static const struct arg_desc *find_arg(const struct arg_desc *tab,
				       const char *name, size_t len)
{
	const struct arg_desc *a;

	for (a = tab; a && a->name; a++)
		if (strlen(a->name) == len && !strncmp(a->name, name, len))
			return a;
	return NULL;
}

bool arg_seen(const struct cmd_desc *cmd, const bool *seen, const char *name)
{
	const struct arg_desc *a = find_arg(cmd->args, name, strlen(name));

	return a && seen[a - cmd->args];
}

int store_arg(const struct arg_desc *a, void *opts, const char *val)
{
	char *dst = (char *)opts + a->offset;
	uint64_t v64;
	uint32_t v32;
	double d;
	char *end;

	switch (a->type) {
	case ARG_FLAG:
		*(bool *)dst = true;
		return 0;
	case ARG_U32:
		if (parse_u32(val, &v32))
			break;
		*(uint32_t *)dst = v32;
		return 0;
	case ARG_U64:
		if (parse_u64(val, &v64))
			break;
		*(uint64_t *)dst = v64;
		return 0;
	case ARG_SIZE32:
		if (parse_size(val, &v64) || v64 > UINT32_MAX)
			break;
		*(uint32_t *)dst = (uint32_t)v64;
		return 0;
	case ARG_SIZE64:
		if (parse_size(val, &v64))
			break;
		*(uint64_t *)dst = v64;
		return 0;
	case ARG_STR:
		*(const char **)dst = val;
		return 0;
	case ARG_SECONDS:
		errno = 0;
		d = strtod(val, &end);
		if (errno || *end || end == val || !(d >= 0) || d > 1e9)
			break;
		*(double *)dst = d;
		return 0;
	}
	return usage_error("invalid value '%s' for --%s", val, a->name);
}

/* " (--other, ...)": the other names of option @a, or "". */
static const char *arg_aliases(const struct arg_desc *args,
			       const struct arg_desc *a)
{
	static char buf[128];
	const struct arg_desc *b;
	size_t n = 0;

	buf[0] = '\0';
	for (b = args; b->name && n < sizeof(buf); b++)
		if (b != a && b->offset == a->offset)
			n += snprintf(buf + n, sizeof(buf) - n, "%s--%s",
				      n ? ", " : " (", b->name);
	if (n && n < sizeof(buf) - 1)
		snprintf(buf + n, sizeof(buf) - n, ")");
	return buf;
}

int check_arg_ranges(const struct arg_desc *args,
		     const struct arg_range *ranges, const void *opts)
{
	const struct arg_range *r;
	const struct arg_desc *a;
	const char *src;
	uint64_t v;

	for (r = ranges; r->name; r++) {
		a = find_arg(args, r->name, strlen(r->name));
		if (!a)
			continue;
		src = (const char *)opts + a->offset;
		if (a->type == ARG_U32 || a->type == ARG_SIZE32)
			v = *(const uint32_t *)src;
		else if (a->type == ARG_U64 || a->type == ARG_SIZE64)
			v = *(const uint64_t *)src;
		else
			continue;
		if ((v >= r->min && v <= r->max) || (!v && r->zero_ok))
			continue;
		return usage_error("--%s%s: %" PRIu64 " is not %s%" PRIu64 " to %" PRIu64,
				   a->name, arg_aliases(args, a), v,
				   r->zero_ok ? "0 or " : "", r->min, r->max);
	}
	return 0;
}

int parse_args(const struct cmd_desc *cmd, struct cmd_ctx *ctx, void *opts,
	       bool *seen, int argc, char **argv, char **pos, int max_pos,
	       int *npos)
{
	const struct arg_desc *a;
	bool only_pos = false;
	const char *name, *val, *eq;
	size_t len;
	int i, ret;

	*npos = 0;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (only_pos || arg[0] != '-' || !arg[1]) {
			if (*npos >= max_pos)
				return usage_error("unexpected argument '%s'",
						   arg);
			pos[(*npos)++] = argv[i];
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_pos = true;
			continue;
		}
		if (ctx && (!strcmp(arg, "--json") || !strcmp(arg, "-j"))) {
			ctx->json = true;
			continue;
		}
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			cmd_usage(stdout, cmd);
			exit(EXIT_OK);
		}
		if (arg[1] != '-')
			return usage_error("unknown option '%s'", arg);
		name = arg + 2;
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		a = find_arg(cmd->args, name, len);
		if (!a)
			return usage_error("unknown option '%s'", arg);
		if (a->type == ARG_FLAG) {
			if (eq)
				return usage_error("--%s takes no value",
						   a->name);
			val = NULL;
		} else if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			return usage_error("--%s needs a value (%s)", a->name,
					   a->metavar ? a->metavar : "VALUE");
		}
		ret = store_arg(a, opts, val);
		if (ret)
			return ret;
		if (seen)
			seen[a - cmd->args] = true;
	}
	return 0;
}
