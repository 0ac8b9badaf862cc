/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl compare --flamegraph: differential flame graphs of two
 * results' CPU profiles, from their folded stacks (start --folded).  The
 * boxes are as wide as NEW's samples; a box's colour says how its cost
 * per op (its samples times the cost of one sample per op) changed from
 * BASE, red for more, blue for less, grey when the change is within the
 * sampling error (samples are Poisson counts).
 */
#ifndef FSLOADCTL_REPORT_FLAMEDIFF_H
#define FSLOADCTL_REPORT_FLAMEDIFF_H

#include <stddef.h>
#include <stdint.h>

#include "report/flame.h"

/* A folded stacks file: "frame;frame;... samples" lines. */
struct folded {
	struct fold_stack *stacks;	/* sorted, equal ones added */
	unsigned int n;
	uint64_t samples;
	char **lines;			/* owned: the stacks' frames */
	unsigned int nlines;
};

/*
 * Read @path into @f: lines "FRAMES COUNT", equal stacks added (the
 * folded files of several runs, concatenated).  0, -ENOENT, -EINVAL (a
 * line without a count, named on stderr) or -ENOMEM.
 */
int folded_read(const char *path, struct folded *f);
void folded_free(struct folded *f);

/* Every call path (prefix of a stack, whole frames) and its samples. */
struct path_table {
	struct fold_stack *paths;	/* sorted by frames; owned */
	size_t n;
};

int path_table_build(const struct folded *f, struct path_table *t);
/* Samples of the stacks that begin with the @len bytes of @path (whole frames). */
uint64_t path_samples(const struct path_table *t, const char *path,
		      size_t len);
void path_table_free(struct path_table *t);

/*
 * The change of a box, in standard errors: BASE's @bs samples and NEW's
 * @ns, each standing for @bc and @nc per op (one sample's cost divided
 * by the ops, over the runs summed): (ns nc - bs bc) / sqrt(bs bc^2 +
 * ns nc^2), the Poisson error of both counts.  NaN when neither side
 * sampled it.
 */
double flame_diff_z(double bs, double bc, double ns, double nc);

/*
 * The colour (0xRRGGBB) of a box whose cost per op went from @base to
 * @new, @z standard errors: grey within @zc; else red (more) or blue
 * (less), the deeper the larger the change relative to the larger of
 * the two (a box NEW alone has is the deepest red).
 */
uint32_t flame_diff_colour(double base, double new, double z, double zc);

/*
 * Write a differential flame graph of @now against @base to @path
 * (report/flame.c): widths from @now, colours from
 * flame_diff_colour() with @bc and @nc, @now's and @base's cost per op
 * of one sample (in @unit), and @zc.  0 or a negative errno.
 */
int flame_diff_write(const char *path, const char *title,
		     const struct folded *base, const struct folded *now,
		     double bc, double nc, double zc, const char *unit);

#endif /* FSLOADCTL_REPORT_FLAMEDIFF_H */
