/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: flame graphs as self-contained SVG files, drawn from folded
 * stacks.  What a box's title says beyond its name and samples, and its
 * colour, are the caller's: a job's profile (report/profile.c) gives
 * the cost per op, a comparison (report/flamediff.c) the change.
 */
#ifndef FSLOADCTL_REPORT_FLAME_H
#define FSLOADCTL_REPORT_FLAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A distinct stack of one phase and op type, all workers' samples. */
struct fold_stack {
	const char *frames;	/* the profile's; outermost first */
	uint64_t samples;
};

/* A box being drawn: its function, in the stack it came from. */
struct flame_box {
	const char *stack;	/* the stack: its call path ends with the box */
	const char *name;
	size_t len;
	uint64_t x;		/* samples before it */
};

struct flame {
	FILE *f;
	uint64_t total;		/* samples */
	unsigned int depth;	/* rows; flame_draw() sets it */
	/*
	 * Box @b of @n samples: write what its title says after "NAME (N
	 * samples, S%" to @fl->f, and return its colour (0xRRGGBB).
	 */
	uint32_t (*paint)(const struct flame *fl, const struct flame_box *b,
			  uint64_t n);
	const void *priv;	/* @paint's */
};

/* A warm colour of its own for each name (@len bytes of @s). */
uint32_t flame_name_colour(const char *s, size_t len);

/*
 * Draw @n stacks (@fl's total samples) as an SVG flame graph to @fl->f,
 * titled @title and @sub (after it, in the title line).
 */
void flame_draw(struct flame *fl, const struct fold_stack *stacks,
		unsigned int n, const char *title, const char *sub);

#endif /* FSLOADCTL_REPORT_FLAME_H */
