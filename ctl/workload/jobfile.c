// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: INI job files.
 *
 *	# comment (also ';')
 *	[global]
 *	dir = /mnt/scratch
 *	threads = 4
 *	files = 1000			# per thread (a comment)
 *	files-per-dir = 100
 *	tree-branch = 0			# directory tree (mdtest -b); 0 flat
 *	first-dir = 0			# the first directory holding files
 *	names = fsload			# or mdtest, fsmark (--names)
 *	seed = 42
 *	rank = 0			# of a multi-client run (--rank)
 *	shared-dir = no
 *	keep = no
 *	name = mywork			# the job's profile label
 *
 *	[phase create]			# up to 32 phases, run in order
 *	order = sequential		# or random
 *	iterations = 1000		# per thread (default: files)
 *	time = 10			# seconds: stonewall
 *	continue = yes			# ENOENT/EEXIST... count as misses
 *	dirs = no			# iterate over the directories
 *	hold = no			# sync, drop caches before it
 *	prefix = f			# first letter of the names
 *	first = 0			# sequential order starts here
 *	stride = 0			# items of thread (t + N) % threads
 *	timed-sync = no			# syncfs inside the time (mdtest -Y)
 *	op = create size=4K block=4K weight=1 fsync
 *
 * [global] keys are start options (--files-per-dir ...), with the same
 * values; the command line overrides them.  Ops take weight=, size=,
 * block=, prefix= (rename) and the flags fsync, direct, fallocate, random,
 * sized (read: size= bytes), rotate (rename: mdtest's), rdwr (create),
 * trunc (create as fs_mark: O_TRUNC, write()) and mknod (create as
 * mdtest -k: mknod(S_IFREG), no data).  first-dir is the protocol's (no
 * start option): with tree-branch, the files are in the directories from
 * that one on (mdtest -L: the first leaf).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/msg.h"
#include "nl/names.h"
#include "workload/jobfile.h"
#include "workload/profile.h"

#define LINE_MAX_LEN	1024

struct jf {
	const char *path;
	unsigned int line;
	const struct arg_desc *args;
	struct params *p;
	bool *given;
	struct program *prog;
	struct prog_phase *ph;	/* the section being read; NULL: global */
	/* the [group NAME] section being read, or NULL */
	__typeof__(((struct program *)0)->groups[0]) *group;
	bool in_global;
	bool name_set;
};

static int jf_error(const struct jf *jf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int jf_error(const struct jf *jf, const char *fmt, ...)
{
	va_list ap;

	if (jf->line)
		fprintf(stderr, "fsloadctl: start: %s:%u: ", jf->path, jf->line);
	else
		fprintf(stderr, "fsloadctl: start: %s: ", jf->path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int parse_bool(const char *s, bool *v)
{
	if (!strcmp(s, "1") || !strcasecmp(s, "yes") || !strcasecmp(s, "true") ||
	    !strcasecmp(s, "on")) {
		*v = true;
		return 0;
	}
	if (!strcmp(s, "0") || !strcasecmp(s, "no") || !strcasecmp(s, "false") ||
	    !strcasecmp(s, "off")) {
		*v = false;
		return 0;
	}
	return -1;
}

static int op_type(const char *s)
{
	unsigned int t;

	if (!strcmp(s, "delete"))
		return FSLOAD_OP_UNLINK;
	if (!strcmp(s, "write"))
		return FSLOAD_OP_WRITE_RANDOM;
	for (t = 1; t <= FSLOAD_OP_MAX; t++)
		if (!strcmp(s, op_name(t)))
			return (int)t;
	return -1;
}

/* The index of group @name, or -1. */
static int group_find(const struct program *prog, const char *name)
{
	unsigned int g;

	for (g = 0; g < prog->ngroups; g++)
		if (!strcmp(prog->groups[g].name, name))
			return (int)g;
	return -1;
}

/* A [group NAME] key: threads = N, its workers. */
static int group_key(struct jf *jf, const char *key, char *val)
{
	if (strcmp(key, "threads"))
		return jf_error(jf, "unknown [group] key '%s' (threads)", key);
	if (parse_u32(val, &jf->group->threads) || !jf->group->threads)
		return jf_error(jf, "threads: a number, at least 1");
	return 0;
}

/* A [global] key: the start option of that name. */
static int global_key(struct jf *jf, const char *key, char *val)
{
	static const char *const keys[] = {
		"dir", "threads", "files", "files-per-dir", "tree-branch",
		"seed", "rank", "shared-dir", "keep", "progress-ms", "device",
		"force", "names", "name-bytes", "name-random-bytes",
	};
	const struct arg_desc *a;
	unsigned int i;
	char *copy;
	bool b;

	if (!strcmp(key, "name")) {
		if (!*val || strlen(val) >= sizeof(jf->prog->profile))
			return jf_error(jf, "name: 1 to %d characters",
					FSLOAD_NAME_MAX - 1);
		snprintf(jf->prog->profile, sizeof(jf->prog->profile), "%s",
			 val);
		jf->name_set = true;
		return 0;
	}
	if (!strcmp(key, "first-dir")) {
		if (parse_u32(val, &jf->p->first_dir) ||
		    jf->p->first_dir > FSLOAD_DIRS_MAX)
			return jf_error(jf, "first-dir: a directory index, 0 to %d",
					FSLOAD_DIRS_MAX);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i]))
			break;
	if (i == ARRAY_SIZE(keys))
		return jf_error(jf, "unknown [global] key '%s' (one of: dir, threads, files, files-per-dir, tree-branch, first-dir, seed, rank, shared-dir, keep, progress-ms, device, force, names, name-bytes, name-random-bytes, name)",
				key);
	for (a = jf->args; a->name; a++)
		if (!strcmp(a->name, key))
			break;
	if (!a->name)
		return jf_error(jf, "'%s' is not a start option", key);
	if (a->type == ARG_FLAG) {
		if (parse_bool(val, &b))
			return jf_error(jf, "%s: '%s' is not yes or no", key,
					val);
		*(bool *)((char *)jf->p + a->offset) = b;
	} else {
		/* the value must outlive the file's buffer: ARG_STR */
		copy = strdup(val);
		if (!copy)
			return jf_error(jf, "out of memory");
		if (store_arg(a, jf->p, copy))
			return jf_error(jf, "invalid %s '%s'", key, val);
	}
	jf->given[a - jf->args] = true;
	return 0;
}

/* An op's flag as a job file names it; 0 if @tok is none. */
static uint32_t op_flag(const char *tok)
{
	static const struct {
		const char *name;
		uint32_t flag;
	} flags[] = {
		{ "fsync", FSLOAD_OP_F_FSYNC },
		{ "direct", FSLOAD_OP_F_DIRECT },
		{ "fallocate", FSLOAD_OP_F_FALLOCATE },
		{ "random", FSLOAD_OP_F_RANDOM },
		{ "sized", FSLOAD_OP_F_SIZED },
		{ "rotate", FSLOAD_OP_F_ROTATE },
		{ "rdwr", FSLOAD_OP_F_RDWR },
		{ "trunc", FSLOAD_OP_F_TRUNC },
		{ "mknod", FSLOAD_OP_F_MKNOD },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(flags); i++)
		if (!strcmp(tok, flags[i].name))
			return flags[i].flag;
	return 0;
}

/* op = TYPE [weight=W] [size=S] [block=B] [fsync] [direct] [fallocate]
 *	[prefix=c] [depth=N] [random] [sized] [rotate] [rdwr] [trunc]
 *	[mknod] [group=NAME] */
static int op_line(struct jf *jf, char *val)
{
	struct prog_op *op;
	char *tok, *save = NULL, *eq;
	uint64_t v;
	uint32_t f;
	int type, g;

	tok = strtok_r(val, " \t", &save);
	if (!tok)
		return jf_error(jf, "op: the operation type is missing");
	type = op_type(tok);
	if (type < 0)
		return jf_error(jf, "op: unknown operation '%s'", tok);
	op = phase_add_op(jf->ph, (uint8_t)type, 1);
	if (!op)
		return jf_error(jf, "more than %d ops in phase %s",
				FSLOAD_PHASE_OPS_MAX, jf->ph->name);
	while ((tok = strtok_r(NULL, " \t", &save))) {
		eq = strchr(tok, '=');
		if (eq)
			*eq++ = '\0';
		f = eq ? 0 : op_flag(tok);
		if (f) {
			op->flags |= f;
		} else if (!strcmp(tok, "group") && eq) {
			g = group_find(jf->prog, eq);
			if (g < 0)
				return jf_error(jf, "op: no [group %s] before this phase",
						eq);
			op->group = (uint8_t)(g + 1);
		} else if (!strcmp(tok, "depth") && eq) {
			if (parse_u32(eq, &op->depth) || !op->depth)
				return jf_error(jf, "op: invalid depth '%s'", eq);
		} else if (!strcmp(tok, "weight") && eq) {
			if (parse_u32(eq, &op->weight) || !op->weight)
				return jf_error(jf, "op: invalid weight '%s'",
						eq);
		} else if (!strcmp(tok, "size") && eq) {
			if (parse_size(eq, &op->size))
				return jf_error(jf, "op: invalid size '%s'", eq);
		} else if (!strcmp(tok, "block") && eq) {
			if (parse_size(eq, &v) || !v || v > UINT32_MAX)
				return jf_error(jf, "op: invalid block '%s'",
						eq);
			op->block = (uint32_t)v;
		} else if (!strcmp(tok, "prefix") && eq) {
			if (strlen(eq) != 1 || !islower((unsigned char)*eq))
				return jf_error(jf, "op: prefix is one letter a..z");
			op->prefix = *eq;
		} else {
			return jf_error(jf, "op: unknown parameter '%s%s%s' (weight=, size=, block=, prefix=, depth=, group=, fsync, direct, fallocate, random, sized, rotate, rdwr, trunc, mknod)",
					tok, eq ? "=" : "", eq ? eq : "");
		}
	}
	if (op->type == FSLOAD_OP_RENAME && !op->prefix &&
	    !(op->flags & FSLOAD_OP_F_ROTATE))
		return jf_error(jf, "op: rename needs prefix=LETTER (the new first letter) or rotate");
	if (op->type != FSLOAD_OP_RENAME && op->prefix)
		return jf_error(jf, "op: prefix= applies to rename only");
	return 0;
}

static int phase_key(struct jf *jf, const char *key, char *val)
{
	struct prog_phase *ph = jf->ph;
	double d;
	char *end;
	bool b;

	if (!strcmp(key, "op"))
		return op_line(jf, val);
	if (!strcmp(key, "order")) {
		if (!strcmp(val, "sequential"))
			ph->order = FSLOAD_ORDER_SEQUENTIAL;
		else if (!strcmp(val, "random"))
			ph->order = FSLOAD_ORDER_RANDOM;
		else
			return jf_error(jf, "order: sequential or random");
	} else if (!strcmp(key, "iterations")) {
		if (parse_u64(val, &ph->iterations) || !ph->iterations)
			return jf_error(jf, "iterations: a number, at least 1");
	} else if (!strcmp(key, "time")) {
		errno = 0;
		d = strtod(val, &end);
		if (errno || *end || end == val || !(d > 0) || d > 4e6)
			return jf_error(jf, "time: seconds, more than 0");
		ph->duration_ms = (uint32_t)(d * 1000 + 0.5);
	} else if (!strcmp(key, "continue")) {
		if (parse_bool(val, &b))
			return jf_error(jf, "continue: yes or no");
		ph->flags = b ? ph->flags | FSLOAD_PHASE_F_CONTINUE :
			    ph->flags & ~FSLOAD_PHASE_F_CONTINUE;
	} else if (!strcmp(key, "hold")) {
		if (parse_bool(val, &b))
			return jf_error(jf, "hold: yes or no");
		ph->flags = b ? ph->flags | FSLOAD_PHASE_F_HOLD :
			    ph->flags & ~FSLOAD_PHASE_F_HOLD;
	} else if (!strcmp(key, "dirs")) {
		if (parse_bool(val, &b))
			return jf_error(jf, "dirs: yes or no");
		ph->flags = b ? ph->flags | FSLOAD_PHASE_F_DIRS :
			    ph->flags & ~FSLOAD_PHASE_F_DIRS;
	} else if (!strcmp(key, "prefix")) {
		if (strlen(val) != 1 || !islower((unsigned char)*val))
			return jf_error(jf, "prefix: one letter a..z");
		ph->prefix = *val;
	} else if (!strcmp(key, "first")) {
		if (parse_u64(val, &ph->first))
			return jf_error(jf, "first: a file index");
	} else if (!strcmp(key, "stride")) {
		if (parse_u32(val, &ph->stride))
			return jf_error(jf, "stride: a number of threads");
	} else if (!strcmp(key, "timed-sync")) {
		if (parse_bool(val, &b))
			return jf_error(jf, "timed-sync: yes or no");
		ph->flags = b ? ph->flags | FSLOAD_PHASE_F_TIMED_SYNC :
			    ph->flags & ~FSLOAD_PHASE_F_TIMED_SYNC;
	} else {
		return jf_error(jf, "unknown phase key '%s' (order, iterations, time, continue, dirs, hold, prefix, first, stride, timed-sync, op)",
				key);
	}
	return 0;
}

static int section(struct jf *jf, char *s)
{
	char *name;

	s = trim(s);
	if (!strcmp(s, "global")) {
		jf->in_global = true;
		jf->ph = NULL;
		jf->group = NULL;
		return 0;
	}
	if (!strncmp(s, "group", 5) && isspace((unsigned char)s[5])) {
		name = trim(s + 5);
		if (!*name || strlen(name) >= FSLOAD_NAME_MAX)
			return jf_error(jf, "a group name has 1 to %d characters",
					FSLOAD_NAME_MAX - 1);
		if (group_find(jf->prog, name) >= 0)
			return jf_error(jf, "group %s twice", name);
		if (jf->prog->ngroups == FSLOAD_GROUPS_MAX)
			return jf_error(jf, "more than %d groups",
					FSLOAD_GROUPS_MAX);
		snprintf(jf->prog->groups[jf->prog->ngroups].name,
			 FSLOAD_NAME_MAX, "%s", name);
		jf->group = &jf->prog->groups[jf->prog->ngroups++];
		jf->in_global = false;
		jf->ph = NULL;
		return 0;
	}
	if (strncmp(s, "phase", 5) || !isspace((unsigned char)s[5]))
		return jf_error(jf, "unknown section [%s] ([global], [group NAME] or [phase NAME])",
				s);
	name = trim(s + 5);
	if (!*name || strlen(name) >= FSLOAD_NAME_MAX)
		return jf_error(jf, "a phase name has 1 to %d characters",
				FSLOAD_NAME_MAX - 1);
	jf->in_global = false;
	jf->group = NULL;
	jf->ph = program_add_phase(jf->prog, name);
	if (!jf->ph)
		return jf_error(jf, "more than %d phases", FSLOAD_PHASES_MAX);
	return 0;
}

int jobfile_load(const char *path, const struct arg_desc *args,
		 struct params *p, bool *given, struct program *prog)
{
	struct jf jf = {
		.path = path, .args = args, .p = p, .given = given,
		.prog = prog,
	};
	char buf[LINE_MAX_LEN], *s, *eq, *key, *val, *end;
	const char *base;
	unsigned int i, j;
	FILE *f;
	int ret = 0;

	memset(prog, 0, sizeof(*prog));
	f = fopen(path, "r");
	if (!f) {
		errsys("%s", path);
		return EXIT_USAGE;
	}
	while (!ret && fgets(buf, sizeof(buf), f)) {
		jf.line++;
		if (!strchr(buf, '\n') && !feof(f)) {
			ret = jf_error(&jf, "line longer than %d characters",
				       LINE_MAX_LEN - 2);
			break;
		}
		s = trim(buf);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			end = strchr(s, ']');
			if (!end || *trim(end + 1))
				ret = jf_error(&jf, "a section is [NAME]");
			else {
				*end = '\0';
				ret = section(&jf, s + 1);
			}
			continue;
		}
		eq = strchr(s, '=');
		if (!eq) {
			ret = jf_error(&jf, "expected KEY = VALUE");
			break;
		}
		*eq = '\0';
		key = trim(s);
		/* a comment after the value: blank, then '#' or ';' */
		for (end = eq + 1; *end; end++)
			if ((*end == '#' || *end == ';') &&
			    isspace((unsigned char)end[-1])) {
				*end = '\0';
				break;
			}
		val = trim(eq + 1);
		/* files_per_dir and files-per-dir */
		for (end = key; *end; end++)
			if (*end == '_')
				*end = '-';
		if (jf.in_global)
			ret = global_key(&jf, key, val);
		else if (jf.group)
			ret = group_key(&jf, key, val);
		else if (jf.ph)
			ret = phase_key(&jf, key, val);
		else
			ret = jf_error(&jf, "'%s' outside a section", key);
	}
	if (!ret && ferror(f)) {
		errsys("%s", path);
		ret = EXIT_USAGE;
	}
	fclose(f);
	if (ret)
		return ret;
	jf.line = 0;
	if (!prog->nphases)
		return jf_error(&jf, "no [phase NAME] section");
	for (i = 0; i < prog->ngroups; i++)
		if (!prog->groups[i].threads)
			return jf_error(&jf, "group %s has no threads = N",
					prog->groups[i].name);
	for (i = 0; i < prog->nphases; i++) {
		if (!prog->phases[i].nops)
			return jf_error(&jf, "phase %s has no op line",
					prog->phases[i].name);
		/* bio ops make a block job: on the device, not in a dir */
		for (j = 0; j < prog->phases[i].nops; j++)
			if (prog->phases[i].ops[j].type == FSLOAD_OP_BIO_WRITE ||
			    prog->phases[i].ops[j].type == FSLOAD_OP_BIO_READ)
				prog->block = true;
	}
	if (!jf.name_set) {
		/* the file's name without .ini: the job's label */
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		snprintf(prog->profile, sizeof(prog->profile), "%.*s",
			 (int)(strcspn(base, ".") ? strcspn(base, ".") :
			       strlen(base)), base);
	}
	return 0;
}
