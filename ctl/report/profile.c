// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's CPU profile, folded and reported.
 *
 * The kernel sends each worker's distinct stacks per phase and op type;
 * here they are merged across workers (sorted, equal frames added), and
 * each function's samples counted: self when it is the innermost frame,
 * total when it is anywhere in the stack (once per stack, so recursion
 * does not count twice).  A sample stands for the profile's period (ns
 * of cpu-clock, instructions under QEMU's instruction clock, or cycles),
 * less, for the cpu-clock timer, the handler's own time per sample: the
 * timer's period runs on while the handler records a sample, which no
 * sample can land in (interrupts are off), so a period covers less work
 * than its length (sample_cost()).  A function's cost per op is its
 * samples x that cost / the op type's operations in the phase.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/print.h"
#include "nl/names.h"
#include "nl/profile.h"
#include "nl/results.h"
#include "report/profile.h"

/* Functions in the text table of each phase and op type. */
#define PROFILE_TOP	10

/* A view's op type: "none" for the samples before a phase's first op. */
static const char *view_op(uint8_t op)
{
	return op ? op_name(op) : "none";
}

/* What a sample's period is counted in. */
static const char *profile_unit(const struct cpu_profile *p)
{
	return p->clock == FSLOAD_PROFILE_CLOCK_CYCLES ? "cycles" : "ns";
}

static int stack_cmp(const void *a, const void *b)
{
	const struct prof_stack *x = *(const struct prof_stack *const *)a;
	const struct prof_stack *y = *(const struct prof_stack *const *)b;

	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return strcmp(x->frames, y->frames);
}

static int fn_cmp(const void *a, const void *b)
{
	const struct fold_fn *x = a, *y = b;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Function @name (@len bytes) of @v, added when new; NULL out of memory. */
static struct fold_fn *view_fn(struct fold_view *v, const char *name,
			       size_t len)
{
	struct fold_fn *tmp;
	unsigned int i;

	for (i = 0; i < v->nfns; i++) {
		if (!strncmp(v->fns[i].name, name, len) &&
		    !v->fns[i].name[len])
			return &v->fns[i];
	}
	tmp = realloc(v->fns, (v->nfns + 1) * sizeof(*tmp));
	if (!tmp)
		return NULL;
	v->fns = tmp;
	tmp = &v->fns[v->nfns];
	tmp->name = strndup(name, len);
	if (!tmp->name)
		return NULL;
	tmp->self = 0;
	tmp->total = 0;
	v->nfns++;
	return tmp;
}

/*
 * Count stack @s of @v in its functions.  @seen (as many entries as @v
 * may have functions after it) marks those counted in this stack.
 */
static int view_count(struct fold_view *v, const struct fold_stack *s)
{
	const char *f = s->frames, *end;
	struct fold_fn *fn = NULL;
	unsigned char *seen;
	size_t nseen = v->nfns;
	unsigned int i;

	seen = calloc(nseen + strlen(f) + 1, 1);
	if (!seen)
		return -1;
	for (;;) {
		end = strchr(f, ';');
		if (!end)
			end = f + strlen(f);
		fn = view_fn(v, f, (size_t)(end - f));
		if (!fn) {
			free(seen);
			return -1;
		}
		i = (unsigned int)(fn - v->fns);
		if (!seen[i]) {
			seen[i] = 1;
			fn->total += s->samples;
		}
		if (!*end)
			break;
		f = end + 1;
	}
	fn->self += s->samples;
	free(seen);
	return 0;
}

void fold_free(struct fold_view *views, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		free(views[i].stacks);
		for (j = 0; j < views[i].nfns; j++)
			free(views[i].fns[j].name);
		free(views[i].fns);
	}
	free(views);
}

int profile_fold(const struct cpu_profile *p, struct fold_view **views)
{
	const struct prof_stack **sorted;
	struct fold_view *v = NULL, *tmp;
	unsigned int i, n = 0;

	*views = NULL;
	if (!p->nstacks)
		return 0;
	sorted = malloc(p->nstacks * sizeof(*sorted));
	if (!sorted)
		return -1;
	for (i = 0; i < p->nstacks; i++)
		sorted[i] = &p->stacks[i];
	qsort(sorted, p->nstacks, sizeof(*sorted), stack_cmp);
	for (i = 0; i < p->nstacks; i++) {
		const struct prof_stack *s = sorted[i];
		struct fold_stack *fs;

		if (!n || v->phase != s->phase || v->op != s->op) {
			tmp = realloc(*views, (n + 1) * sizeof(*tmp));
			if (!tmp)
				goto fail;
			*views = tmp;
			v = &tmp[n++];
			memset(v, 0, sizeof(*v));
			v->phase = s->phase;
			v->op = s->op;
		}
		v->samples += s->samples;
		if (v->nstacks &&
		    !strcmp(v->stacks[v->nstacks - 1].frames, s->frames)) {
			v->stacks[v->nstacks - 1].samples += s->samples;
			continue;
		}
		fs = realloc(v->stacks, (v->nstacks + 1) * sizeof(*fs));
		if (!fs)
			goto fail;
		v->stacks = fs;
		fs[v->nstacks].frames = s->frames;
		fs[v->nstacks].samples = s->samples;
		v->nstacks++;
	}
	for (i = 0; i < n; i++) {
		unsigned int j;

		v = &(*views)[i];
		for (j = 0; j < v->nstacks; j++) {
			if (view_count(v, &v->stacks[j]))
				goto fail;
		}
		qsort(v->fns, v->nfns, sizeof(*v->fns), fn_cmp);
	}
	free(sorted);
	return (int)n;
fail:
	free(sorted);
	fold_free(*views, n);
	*views = NULL;
	return -1;
}

/* Operations of type @op in phase @pr. */
static uint64_t phase_ops(const struct phase_result *pr, uint8_t op)
{
	unsigned int i;

	for (i = 0; pr && i < pr->nopstats; i++) {
		if (pr->opstats[i].type == op)
			return pr->opstats[i].ops;
	}
	return 0;
}

/*
 * The work one sample of phase @pr stands for: the period, less the
 * handler's own time per sample under the cpu-clock timer (its period
 * counts the handler's time; the cycle counter stops in the handler's
 * NMI).  The interrupt entry and exit around the handler are not
 * measured and stay in (README, "CPU profiles").
 */
static double sample_cost(const struct cpu_profile *p,
			  const struct phase_result *pr)
{
	double h;

	if (p->clock == FSLOAD_PROFILE_CLOCK_CYCLES || !pr ||
	    !pr->prof_samples)
		return (double)p->period;
	h = (double)pr->prof_ns / (double)pr->prof_samples;
	return h < (double)p->period ? (double)p->period - h : 0;
}

/* A job's flame graph: a box's cost per op, a colour per name. */
struct flame_job {
	double ops;		/* the op type's operations; 0: unknown */
	double period;		/* the work of one sample */
	const char *unit;
};

static uint32_t job_paint(const struct flame *fl, const struct flame_box *b,
			  uint64_t n)
{
	const struct flame_job *j = fl->priv;

	if (j->ops > 0)
		fprintf(fl->f, ", %.1f %s/op", (double)n * j->period / j->ops,
			j->unit);
	return flame_name_colour(b->name, b->len);
}

/* Write view @v of @p as an SVG flame graph to @f. */
static void flame_write(FILE *f, const struct cpu_profile *p,
			const struct phase_result *pr,
			const struct fold_view *v, const char *title,
			uint64_t ops)
{
	struct flame_job j = {
		.ops = (double)ops, .period = sample_cost(p, pr),
		.unit = profile_unit(p),
	};
	struct flame fl = {
		.f = f, .total = v->samples, .paint = job_paint, .priv = &j,
	};
	char sub[128];

	snprintf(sub, sizeof(sub), " (%" PRIu64 " samples of %" PRIu64 " %s)",
		 v->samples, p->period, j.unit);
	flame_draw(&fl, v->stacks, v->nstacks, title, sub);
}

/* A file name's part from @s: letters, digits, - and _ kept. */
static void name_part(char *dst, size_t size, const char *s)
{
	size_t i;

	for (i = 0; i + 1 < size && s[i]; i++)
		dst[i] = (s[i] >= 'a' && s[i] <= 'z') ||
			 (s[i] >= 'A' && s[i] <= 'Z') ||
			 (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ? s[i] :
			 '_';
	dst[i] = '\0';
}

void profile_file_name(char *buf, size_t size, const char *prefix,
		       uint32_t index, const char *phase, const char *op,
		       const char *ext)
{
	char name[FSLOAD_NAME_MAX];

	name_part(name, sizeof(name), phase ? phase : "phase");
	snprintf(buf, size, "%s-%" PRIu32 "-%s-%s.%s", prefix, index, name, op,
		 ext);
}

int profile_write(const struct cpu_profile *p, const struct results *r,
		  const char *prefix, enum profile_file kind)
{
	const struct phase_result *pr;
	struct fold_view *views;
	char path[4096], title[2 * FSLOAD_NAME_MAX];
	int n, i, err = 0;
	unsigned int j;
	FILE *f;

	n = profile_fold(p, &views);
	if (n < 0)
		return -ENOMEM;
	for (i = 0; i < n && !err; i++) {
		pr = results_phase(r, views[i].phase);
		profile_file_name(path, sizeof(path), prefix, views[i].phase,
				  pr ? pr->name : NULL, view_op(views[i].op),
				  kind == PROFILE_SVG ? "svg" : "folded");
		f = fopen(path, "w");
		if (!f) {
			err = -errno;
			break;
		}
		if (kind == PROFILE_SVG) {
			snprintf(title, sizeof(title), "%s, %s",
				 pr ? pr->name : "?", view_op(views[i].op));
			flame_write(f, p, pr, &views[i], title,
				    phase_ops(pr, views[i].op));
		}
		for (j = 0; kind == PROFILE_FOLDED && j < views[i].nstacks; j++)
			fprintf(f, "%s %" PRIu64 "\n", views[i].stacks[j].frames,
				views[i].stacks[j].samples);
		if (fclose(f))
			err = -errno;
	}
	fold_free(views, n);
	return err;
}

const char *file_prefix(char *buf, size_t size, const char *prefix,
			const char *suffix)
{
	int n;

	if (!prefix)
		return NULL;
	n = snprintf(buf, size, "%s%s", prefix, suffix);
	if (n < 0 || (size_t)n >= size) {
		warnmsg("%s%s: too long a file prefix: no files written",
			prefix, suffix);
		return NULL;
	}
	return buf;
}

void profile_write_files(const struct cpu_profile *p, const struct results *r,
			 const char *folded, const char *flamegraph)
{
	if (!p)
		return;
	if (folded && profile_write(p, r, folded, PROFILE_FOLDED))
		warnmsg("cannot write the folded stacks %s-*.folded", folded);
	if (flamegraph && profile_write(p, r, flamegraph, PROFILE_SVG))
		warnmsg("cannot write the flame graphs %s-*.svg", flamegraph);
}

static const char *profile_clock_name(const struct cpu_profile *p)
{
	return p->clock == FSLOAD_PROFILE_CLOCK_CYCLES ? "cycles" :
	       "cpu-clock";
}

/* @samples of phase @pr per op of @ops; NaN (JSON null) without ops. */
static double per_op(const struct cpu_profile *p,
		     const struct phase_result *pr, uint64_t samples,
		     uint64_t ops)
{
	return ops ? (double)samples * sample_cost(p, pr) / (double)ops :
		     __builtin_nan("");
}

void print_profile_json(const struct cpu_profile *p,
			const struct phase_result *pr)
{
	struct fold_view *views;
	unsigned int j;
	uint64_t ops;
	int n, i;

	if (!p || !RES_HAS(pr, FSLOAD_A_RES_PROFILE_SAMPLES))
		return;
	n = profile_fold(p, &views);
	open_json_object("cpu_profile");
	print_string(PRINT_JSON, "clock", NULL, profile_clock_name(p));
	print_string(PRINT_JSON, "unit", NULL, profile_unit(p));
	print_uint(PRINT_JSON, "hz", NULL, p->hz);
	print_uint(PRINT_JSON, "period", NULL, p->period);
	print_float(PRINT_JSON, "sample_cost", NULL, sample_cost(p, pr));
	print_uint(PRINT_JSON, "samples", NULL, pr->prof_samples);
	print_uint(PRINT_JSON, "dropped", NULL, pr->prof_dropped);
	print_uint(PRINT_JSON, "overhead_ns", NULL, pr->prof_ns);
	print_float(PRINT_JSON, "overhead_ns_per_op", NULL,
		    pr->ops ? (double)pr->prof_ns / (double)pr->ops :
			      __builtin_nan(""));
	open_json_array("by_op");
	for (i = 0; i < n; i++) {
		const struct fold_view *v = &views[i];

		if (v->phase != pr->index)
			continue;
		ops = phase_ops(pr, v->op);
		open_json_object(NULL);
		print_string(PRINT_JSON, "op", NULL, view_op(v->op));
		print_uint(PRINT_JSON, "ops", NULL, ops);
		print_uint(PRINT_JSON, "samples", NULL, v->samples);
		print_float(PRINT_JSON, "cost_per_op", NULL,
			    per_op(p, pr, v->samples, ops));
		open_json_array("functions");
		for (j = 0; j < v->nfns; j++) {
			const struct fold_fn *fn = &v->fns[j];

			open_json_object(NULL);
			print_string(PRINT_JSON, "function", NULL, fn->name);
			print_uint(PRINT_JSON, "self_samples", NULL, fn->self);
			print_float(PRINT_JSON, "self_per_op", NULL,
				    per_op(p, pr, fn->self, ops));
			print_uint(PRINT_JSON, "total_samples", NULL,
				   fn->total);
			print_float(PRINT_JSON, "total_per_op", NULL,
				    per_op(p, pr, fn->total, ops));
			close_json_object();
		}
		close_json_array();
		close_json_object();
	}
	close_json_array();
	close_json_object();
	if (n > 0)
		fold_free(views, n);
}

/* One phase and op type's top functions (text). */
static void print_view_table(const struct cpu_profile *p,
			     const struct phase_result *pr,
			     const struct fold_view *v)
{
	uint64_t ops = phase_ops(pr, v->op);
	unsigned int j;

	print_fp("\n%s, %s: %" PRIu64 " samples, %.1f %s/op",
		 pr ? pr->name : "?", view_op(v->op), v->samples,
		 per_op(p, pr, v->samples, ops), profile_unit(p));
	if (pr && pr->ops)
		print_fp("; sampling's own %.1f ns/op, %" PRIu64
			 " of %" PRIu64 " samples dropped (phase)",
			 (double)pr->prof_ns / (double)pr->ops,
			 pr->prof_dropped, pr->prof_samples);
	print_fp("\n%12s %6s %12s %6s  %s\n", "self/op", "self%", "total/op",
		 "total%", "function");
	for (j = 0; j < v->nfns && j < PROFILE_TOP; j++) {
		const struct fold_fn *fn = &v->fns[j];

		print_fp("%12.1f %5.1f%% %12.1f %5.1f%%  %s\n",
			 per_op(p, pr, fn->self, ops),
			 100.0 * (double)fn->self / (double)v->samples,
			 per_op(p, pr, fn->total, ops),
			 100.0 * (double)fn->total / (double)v->samples,
			 fn->name);
	}
}

void print_profile_tables(const struct results *r)
{
	const struct cpu_profile *p = r->profile;
	struct fold_view *views;
	int n, i;

	if (!p)
		return;
	n = profile_fold(p, &views);
	if (n <= 0)
		return;
	print_fp("\nCPU profile (%s, a sample every %" PRIu64 " %s; per op in %s%s)\n",
		 profile_clock_name(p), p->period, profile_unit(p),
		 profile_unit(p),
		 p->clock == FSLOAD_PROFILE_CLOCK_CYCLES ? "" :
		 ", instructions under the instruction clock, net of the sampling handler's time");
	for (i = 0; i < n; i++)
		print_view_table(p, results_phase(r, views[i].phase),
				 &views[i]);
	fold_free(views, n);
}
