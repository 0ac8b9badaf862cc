// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start: self-describing results.  Every JSON document of start
 * ends with the members that make it a result file (Documentation/results.rst):
 *
 *   "result":      {"schema": "fsload-result", "version": 1}
 *   "fsload":      version, git revision, protocol, module
 *   "environment": kernel, CPU, memory, mitigations, filesystem, device
 *   "run":         the arguments as given, the seed, every resolved
 *                  parameter, the program the kernel ran, the job file
 *
 * and start --rerun FILE repeats a run from "run" alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fsloadctl.h"
#include "lib/json.h"
#include "lib/print.h"
#include "lib/msg.h"
#include "nl/names.h"
#include "report/env.h"
#include "report/record.h"

static const struct record_info *rec;

void record_begin(const struct record_info *ri)
{
	rec = ri;
	env_begin();
}

/* Options that say where and how to print, not what to run. */
static bool output_only(const char *arg, bool *takes_value)
{
	*takes_value = false;
	if (!strcmp(arg, "--json") || !strcmp(arg, "-j"))
		return true;
	if (!strcmp(arg, "-o") || !strcmp(arg, "--output") ||
	    !strcmp(arg, "--rerun")) {
		*takes_value = true;
		return true;
	}
	return !strncmp(arg, "--output=", 9) || !strncmp(arg, "--rerun=", 8);
}

static void print_params(void)
{
	const struct arg_desc *a, *b;
	const char *base = (const char *)rec->p;
	char num[64];

	open_json_object("params");
	for (a = rec->args; a->name; a++) {
		const void *f = base + a->offset;

		/* aliases (--items for --files): the first name only */
		for (b = rec->args; b < a; b++)
			if (b->offset == a->offset)
				break;
		if (b < a)
			continue;
		switch (a->type) {
		case ARG_FLAG:
			print_bool(PRINT_JSON, a->name, NULL, *(const bool *)f);
			break;
		case ARG_U32:
		case ARG_SIZE32:
			print_uint(PRINT_JSON, a->name, NULL, *(const uint32_t *)f);
			break;
		case ARG_U64:
		case ARG_SIZE64:
			print_uint(PRINT_JSON, a->name, NULL, *(const uint64_t *)f);
			break;
		case ARG_STR:
			print_string(PRINT_JSON, a->name, NULL,
				     *(const char *const *)f);
			break;
		case ARG_SECONDS:
			/* exactly, not to three decimals */
			snprintf(num, sizeof(num), "%.17g", *(const double *)f);
			print_string(PRINT_JSON, a->name, NULL, num);
			break;
		}
	}
	close_json_object();
}

static void print_program(const struct program *prog)
{
	unsigned int i, j;

	open_json_object("program");
	print_string(PRINT_JSON, "profile", NULL, prog->profile);
	print_uint(PRINT_JSON, "job_flags", NULL, prog->job_flags);
	print_uint(PRINT_JSON, "files", NULL, prog->files);
	open_json_array("phases");
	for (i = 0; i < prog->nphases; i++) {
		const struct prog_phase *ph = &prog->phases[i];
		char pre[2] = { ph->prefix, 0 };

		open_json_object(NULL);
		print_string(PRINT_JSON, "name", NULL, ph->name);
		print_uint(PRINT_JSON, "order", NULL, ph->order);
		print_uint(PRINT_JSON, "iterations", NULL, ph->iterations);
		print_uint(PRINT_JSON, "duration_ms", NULL, ph->duration_ms);
		print_uint(PRINT_JSON, "flags", NULL, ph->flags);
		print_string(PRINT_JSON, "prefix", NULL, ph->prefix ? pre : NULL);
		print_uint(PRINT_JSON, "first", NULL, ph->first);
		print_uint(PRINT_JSON, "stride", NULL, ph->stride);
		open_json_array("ops");
		for (j = 0; j < ph->nops; j++) {
			const struct prog_op *op = &ph->ops[j];
			char opre[2] = { op->prefix, 0 };

			open_json_object(NULL);
			print_string(PRINT_JSON, "op", NULL, op_name(op->type));
			print_uint(PRINT_JSON, "weight", NULL, op->weight);
			print_uint(PRINT_JSON, "size", NULL, op->size);
			print_uint(PRINT_JSON, "block", NULL, op->block);
			print_uint(PRINT_JSON, "flags", NULL, op->flags);
			print_string(PRINT_JSON, "prefix", NULL,
				     op->prefix ? opre : NULL);
			close_json_object();
		}
		close_json_array();
		close_json_object();
	}
	close_json_array();
	close_json_object();
}

/* The job file as it was, so that --rerun needs nothing else. */
static void print_job_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	if (!path) {
		print_null(PRINT_JSON, "job_file", NULL);
		return;
	}
	f = fopen(path, "r");
	m = open_memstream(&buf, &len);
	if (f && m)
		while ((c = getc(f)) != EOF)
			putc(c, m);
	if (m)
		fclose(m);
	if (f)
		fclose(f);
	open_json_object("job_file");
	print_string(PRINT_JSON, "path", NULL, path);
	print_string(PRINT_JSON, "text", NULL, f ? buf : NULL);
	close_json_object();
	free(buf);
}

void record_trailer(void)
{
	bool tv;
	int i;

	if (!rec)
		return;
	open_json_object("result");
	print_string(PRINT_JSON, "schema", NULL, RESULT_SCHEMA);
	print_uint(PRINT_JSON, "version", NULL, RESULT_SCHEMA_VERSION);
	close_json_object();
	env_print(rec->p->dir);

	open_json_object("run");
	open_json_array("argv");
	for (i = 1; i < rec->argc; i++) {
		if (output_only(rec->argv[i], &tv)) {
			i += tv;
			continue;
		}
		print_string(PRINT_JSON, NULL, NULL, rec->argv[i]);
	}
	close_json_array();
	print_uint(PRINT_JSON, "seed", NULL, rec->p->seed);
	print_string(PRINT_JSON, "engine", NULL, rec->engine);
	print_string(PRINT_JSON, "names", NULL, names_name(rec->p->scheme));
	print_string(PRINT_JSON, "rerun_of", NULL, rec->rerun_of);
	{
		char cwd[4096];

		print_string(PRINT_JSON, "cwd", NULL,
			     getcwd(cwd, sizeof(cwd)) ? cwd : NULL);
	}
	print_params();
	if (rec->prog && rec->prog->nphases)
		print_program(rec->prog);
	else
		print_null(PRINT_JSON, "program", NULL);
	print_job_file(rec->p->job);
	close_json_object();
}

static int push(char ***v, int *n, const char *s)
{
	char **nv = realloc(*v, (size_t)(*n + 2) * sizeof(**v));

	if (!nv)
		return -1;
	*v = nv;
	nv[*n] = strdup(s);
	if (!nv[*n])
		return -1;
	nv[++*n] = NULL;
	return 0;
}

/* The job file's text into a temporary file; its path (malloc'ed). */
static char *write_job_file(const char *text)
{
	const char *tmp = getenv("TMPDIR");
	char *path;
	int fd;
	size_t len = strlen(text);

	if (asprintf(&path, "%s/fsload-rerun-XXXXXX.ini",
		     tmp && *tmp ? tmp : "/tmp") < 0)
		return NULL;
	fd = mkstemps(path, 4);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		errsys("cannot write the job file %s", path);
		if (fd >= 0)
			close(fd);
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

int record_rerun_args(const char *path, int argc, char **argv, int *nargc,
		      char ***nargv)
{
	const struct jval *run, *a, *jf, *seed;
	const char *schema, *text;
	struct jval *doc;
	char **v = NULL, *jpath = NULL;
	int n = 0, ret = EXIT_USAGE, i;
	bool seed_given = false;
	size_t k;

	doc = json_load(path);
	if (!doc)
		return EXIT_USAGE;
	schema = json_str(json_get(doc, "result"), "schema");
	run = json_get(doc, "run");
	a = json_get(run, "argv");
	if (!schema || strcmp(schema, RESULT_SCHEMA) || !a || a->type != J_ARR) {
		errmsg("%s: not an fsload result file (no \"result\" and \"run\")",
		       path);
		goto out;
	}
	jf = json_get(run, "job_file");
	text = json_str(jf, "text");
	if (jf && jf->type == J_OBJ && text) {
		jpath = write_job_file(text);
		if (!jpath) {
			ret = EXIT_SYSERR;
			goto out;
		}
	}
	if (push(&v, &n, "start"))
		goto oom;
	for (k = 0; k < a->n; k++) {
		const struct jval *s = a->items[k];

		if (s->type != J_STR) {
			errmsg("%s: run.argv holds a non-string", path);
			goto out;
		}
		if (!strcmp(s->str, "--seed") || !strncmp(s->str, "--seed=", 7))
			seed_given = true;
		if (jpath && !strcmp(s->str, "--job") && k + 1 < a->n) {
			if (push(&v, &n, "--job") || push(&v, &n, jpath))
				goto oom;
			k++;
			continue;
		}
		if (jpath && !strncmp(s->str, "--job=", 6)) {
			if (push(&v, &n, "--job") || push(&v, &n, jpath))
				goto oom;
			continue;
		}
		if (push(&v, &n, s->str))
			goto oom;
	}
	seed = json_get(run, "seed");
	if (!seed_given && seed && seed->type == J_NUM) {
		if (push(&v, &n, "--seed") || push(&v, &n, seed->str))
			goto oom;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rerun")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--rerun=", 8))
			continue;
		if (push(&v, &n, argv[i]))
			goto oom;
	}
	*nargc = n;
	*nargv = v;
	v = NULL;
	ret = 0;
	goto out;
oom:
	errmsg("out of memory");
	ret = EXIT_SYSERR;
out:
	if (v) {
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
	}
	free(jpath);
	json_free(doc);
	return ret;
}
