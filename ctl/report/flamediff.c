// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl compare --flamegraph: the folded stacks, the call paths and
 * the colours of differential flame graphs (report/flamediff.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/flamediff.h"

static int stack_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fold_stack *)a)->frames,
		      ((const struct fold_stack *)b)->frames);
}

/* Sort @s and add equal ones; returns how many are left. */
static unsigned int merge_equal(struct fold_stack *s, unsigned int n)
{
	unsigned int i, u;

	if (!n)
		return 0;
	qsort(s, n, sizeof(*s), stack_cmp);
	for (i = 1, u = 1; i < n; i++) {
		if (!strcmp(s[i].frames, s[u - 1].frames))
			s[u - 1].samples += s[i].samples;
		else
			s[u++] = s[i];
	}
	return u;
}

void folded_free(struct folded *f)
{
	unsigned int i;

	for (i = 0; f->lines && i < f->nlines; i++)
		free(f->lines[i]);
	free(f->lines);
	free(f->stacks);
	memset(f, 0, sizeof(*f));
}

int folded_read(const char *path, struct folded *f)
{
	char *line = NULL, *sp, *end, **lt;
	struct fold_stack *st;
	size_t cap = 0, nalloc = 0;
	unsigned long long cnt;
	unsigned int i, lineno = 0;
	ssize_t len;
	int err = 0;
	FILE *in;

	memset(f, 0, sizeof(*f));
	in = fopen(path, "r");
	if (!in)
		return -errno;
	while ((len = getline(&line, &cap, in)) >= 0) {
		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (!len)
			continue;
		sp = strrchr(line, ' ');
		errno = 0;
		cnt = sp ? strtoull(sp + 1, &end, 10) : 0;
		if (!sp || sp == line || !sp[1] || *end || errno) {
			fprintf(stderr, "%s:%u: not a folded stack (FRAMES COUNT)\n",
				path, lineno);
			err = -EINVAL;
			break;
		}
		if (f->n == nalloc) {
			nalloc = nalloc ? 2 * nalloc : 256;
			st = realloc(f->stacks, nalloc * sizeof(*st));
			lt = st ? realloc(f->lines, nalloc * sizeof(*lt)) : NULL;
			if (st)
				f->stacks = st;
			if (!st || !lt) {
				err = -ENOMEM;
				break;
			}
			f->lines = lt;
		}
		*sp = '\0';
		f->lines[f->n] = strdup(line);
		if (!f->lines[f->n]) {
			err = -ENOMEM;
			break;
		}
		f->stacks[f->n].frames = f->lines[f->n];
		f->stacks[f->n].samples = cnt;
		f->n++;
		f->nlines = f->n;
	}
	free(line);
	fclose(in);
	if (err) {
		folded_free(f);
		return err;
	}
	f->nlines = f->n;
	f->n = merge_equal(f->stacks, f->n);
	for (i = 0; i < f->n; i++)
		f->samples += f->stacks[i].samples;
	return 0;
}

void path_table_free(struct path_table *t)
{
	size_t i;

	for (i = 0; t->paths && i < t->n; i++)
		free((char *)t->paths[i].frames);
	free(t->paths);
	t->paths = NULL;
	t->n = 0;
}

int path_table_build(const struct folded *f, struct path_table *t)
{
	struct fold_stack *p = NULL, *tmp;
	size_t n = 0, cap = 0, i, u;
	unsigned int s;
	const char *c;

	t->paths = NULL;
	t->n = 0;
	for (s = 0; s < f->n; s++) {
		for (c = f->stacks[s].frames;; c++) {
			if (*c != ';' && *c)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 1024;
				tmp = realloc(p, cap * sizeof(*p));
				if (!tmp)
					goto nomem;
				p = tmp;
			}
			p[n].frames = strndup(f->stacks[s].frames,
					      (size_t)(c - f->stacks[s].frames));
			if (!p[n].frames)
				goto nomem;
			p[n++].samples = f->stacks[s].samples;
			if (!*c)
				break;
		}
	}
	if (n) {
		qsort(p, n, sizeof(*p), stack_cmp);
		for (i = 1, u = 1; i < n; i++) {
			if (!strcmp(p[i].frames, p[u - 1].frames)) {
				p[u - 1].samples += p[i].samples;
				free((char *)p[i].frames);
			} else {
				p[u++] = p[i];
			}
		}
		n = u;
	}
	t->paths = p;
	t->n = n;
	return 0;
nomem:
	t->paths = p;
	t->n = n;
	path_table_free(t);
	return -ENOMEM;
}

uint64_t path_samples(const struct path_table *t, const char *path,
		      size_t len)
{
	size_t lo = 0, hi = t->n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strncmp(t->paths[mid].frames, path, len);
		if (!c && t->paths[mid].frames[len])
			c = 1;
		if (!c)
			return t->paths[mid].samples;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

double flame_diff_z(double bs, double bc, double ns, double nc)
{
	double var = bs * bc * bc + ns * nc * nc;

	if (!(var > 0))
		return NAN;
	return (ns * nc - bs * bc) / sqrt(var);
}

uint32_t flame_diff_colour(double base, double new, double z, double zc)
{
	double big = fmax(fabs(base), fabs(new)), rel;
	unsigned int k;

	if (isnan(z) || fabs(z) <= zc || !(big > 0))
		return 0xd8d8d8;
	rel = fmin(fabs(new - base) / big, 1);
	/* 40 (a trace) to 255 (all new, all gone) */
	k = 40 + (unsigned int)lround(215 * rel);
	if (new > base)
		return 0xff0000 | (255 - k) << 8 | (255 - k);
	return (255 - k) << 16 | (255 - k) << 8 | 0xff;
}

/* A differential flame graph's BASE: its call paths, costs per sample. */
struct flame_diff {
	struct path_table base;
	double bc, nc;		/* BASE's, NEW's cost per op of a sample */
	double zc;		/* the sampling error's quantile */
	const char *unit;
};

/* A box's cost per op in BASE and NOW, the change, and its colour. */
static uint32_t diff_paint(const struct flame *fl, const struct flame_box *b,
			   uint64_t n)
{
	const struct flame_diff *d = fl->priv;
	double bs = (double)path_samples(&d->base, b->stack,
					 (size_t)(b->name + b->len - b->stack));
	double base = bs * d->bc, now = (double)n * d->nc;
	double z = flame_diff_z(bs, d->bc, (double)n, d->nc);

	fprintf(fl->f, "; %.1f -> %.1f %s/op, %+.1f", base, now, d->unit,
		now - base);
	if (base > 0)
		fprintf(fl->f, " (%+.1f%%)", (now - base) / base * 100);
	fprintf(fl->f, ", z %.1f%s", z,
		fabs(z) > d->zc ? "" : ": within the sampling error");
	return flame_diff_colour(base, now, z, d->zc);
}

int flame_diff_write(const char *path, const char *title,
		     const struct folded *base, const struct folded *now,
		     double bc, double nc, double zc, const char *unit)
{
	struct flame_diff d = {
		.bc = bc, .nc = nc, .zc = zc, .unit = unit ? unit : "?",
	};
	struct flame fl = {
		.total = now->samples, .paint = diff_paint, .priv = &d,
	};
	char sub[256];
	int err;

	err = path_table_build(base, &d.base);
	if (err)
		return err;
	fl.f = fopen(path, "w");
	if (!fl.f) {
		err = -errno;
		path_table_free(&d.base);
		return err;
	}
	snprintf(sub, sizeof(sub),
		 " (widths: NEW's %" PRIu64 " samples; colour: cost per op against BASE's %" PRIu64
		 ", red more, blue less, grey within the sampling error)",
		 now->samples, base->samples);
	flame_draw(&fl, now->stacks, now->n, title, sub);
	if (fclose(fl.f))
		err = -errno;
	path_table_free(&d.base);
	return err;
}
