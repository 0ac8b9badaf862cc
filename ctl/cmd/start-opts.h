/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl start's options (cmd/start-opts.c): the table, the ranges,
 * which were given, the list-valued ones' parsing.
 */
#ifndef FSLOADCTL_START_OPTS_H
#define FSLOADCTL_START_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/parse.h"
#include "engine/job.h"

#define SWEEP_MAX	32	/* thread counts in one --threads list */

/* start_args[]'s entries, its { NULL } included (checked where defined) */
#define START_NARGS	71

struct params;

extern const struct arg_desc start_args[START_NARGS];
/* The numeric options' ranges (check_arg_ranges()). */
extern const struct arg_range start_ranges[];

/* Copy the options given on the command line from @src into @dst. */
void start_copy_given(struct params *dst, const struct params *src,
		      const bool *seen);

/* @arg of start_given(): where the options were given. */
struct given_ctx {
	const bool *seen;	/* on the command line */
	const bool *file;	/* in the job file's [global] */
};

/* Whether option @name was given (@arg: a struct given_ctx). */
bool start_given(const char *name, void *arg);

/* --threads: "4" or "1,2,4,8", at most SWEEP_MAX; EXIT_USAGE if not. */
int start_parse_threads(const char *s, uint32_t *counts, unsigned int *n);
/* --age: a percentage between 0 and 100; EXIT_USAGE if not. */
int start_parse_pct(const char *s, double *pct);
/* --engine: a list of engines, each once; EXIT_USAGE if not. */
int start_parse_engines(const char *s, enum engine *engines,
			unsigned int *n);
/* Warn when @iterations do not rotate @es's engines evenly. */
void start_warn_rotation(const struct engine_set *es,
			 uint32_t iterations);

#endif
