/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: a job's CPU profile as people read it: folded stacks per
 * phase and op type (flame graph tools' input), and per phase and op
 * type the functions with their cost per op, self and with children.
 */
#ifndef FSLOADCTL_REPORT_PROFILE_H
#define FSLOADCTL_REPORT_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "report/flame.h"

struct cpu_profile;
struct job_status;
struct phase_result;
struct results;

/* A function of one phase and op type. */
struct fold_fn {
	char *name;
	uint64_t self;		/* samples with it innermost */
	uint64_t total;		/* samples with it anywhere (once each) */
};

/* One phase and op type of a profile. */
struct fold_view {
	uint32_t phase;
	uint8_t op;
	uint64_t samples;
	struct fold_stack *stacks;	/* by frames */
	unsigned int nstacks;
	struct fold_fn *fns;		/* most self first, then most total */
	unsigned int nfns;
};

/*
 * Fold @p: its stacks merged across workers into one view per phase and
 * op type, by phase then op, with their functions.  Returns the number
 * of views (*@views malloc'd; fold_free()), or -1 out of memory.
 */
int profile_fold(const struct cpu_profile *p, struct fold_view **views);
void fold_free(struct fold_view *views, unsigned int n);

enum profile_file {
	PROFILE_FOLDED,	/* "frame;frame;... samples" a line */
	PROFILE_SVG,	/* a flame graph, searchable, no network asset */
};

/*
 * Write each view of @p as PREFIX-<index>-<phase>-<op>.folded or .svg,
 * the phases' names from @r.  0 or a negative errno.
 */
int profile_write(const struct cpu_profile *p, const struct results *r,
		  const char *prefix, enum profile_file kind);

/* PREFIX-<index>-<phase>-<op>.<ext>: the file names of profile_write(). */
void profile_file_name(char *buf, size_t size, const char *prefix,
		       uint32_t index, const char *phase, const char *op,
		       const char *ext);

/*
 * @prefix, then @suffix, in @buf: the file prefix of one job of several
 * that a start runs (cmd/start.c's run_suffix()).  NULL for a NULL
 * @prefix, and when the two do not fit (with a warning: no files).
 */
const char *file_prefix(char *buf, size_t size, const char *prefix,
			const char *suffix);

/*
 * profile_write() of @p to @folded (PROFILE_FOLDED) and @flamegraph
 * (PROFILE_SVG), either NULL for none; a warning for each that fails.
 */
void profile_write_files(const struct cpu_profile *p, const struct results *r,
			 const char *folded, const char *flamegraph);

/*
 * The "cpu_profile" object of phase @pr (JSON only; nothing without a
 * profile).
 */
void print_profile_json(const struct cpu_profile *p,
			const struct phase_result *pr);

/* The top functions of every phase and op type (text only). */
void print_profile_tables(const struct results *r);

#endif /* FSLOADCTL_REPORT_PROFILE_H */
