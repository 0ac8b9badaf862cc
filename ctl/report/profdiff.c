// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl compare: the functions whose cost per op changed most
 * (report/profdiff.h).
 *
 * A result's phase object carries "cpu_profile": {"unit", "by_op": [{"op",
 * "ops", "samples", "cost_per_op", "functions": [{"function",
 * "self_samples", "self_per_op", "total_samples", "total_per_op"}]}]}
 * (report/profile.c).  Per op type profiled on both sides, every function
 * of either side gets one value per run (per boot of a side with several
 * boots, as compare's rows): its self cost per op, 0 in a run that never
 * sampled it.  The values are judged like the rows (report/verdict.h).
 * Between single runs nothing measured the noise; a sampled profile then
 * still has its own error: a function's self cost per op is its samples
 * times the cost of one sample, Poisson-distributed, so a change also has
 * to exceed the normal quantile of 1 - alpha/2 times its standard error
 * (the sampling z) to count.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/json.h"
#include "lib/msg.h"
#include "lib/print.h"
#include "report/flamediff.h"
#include "report/profdiff.h"
#include "report/profile.h"
#include "report/resultset.h"
#include "report/verdict.h"

/* One side's runs of a phase and op type: their "by_op" entries. */
struct op_runs {
	const struct jval *view[RUNS_MAX];
	unsigned int vidx[RUNS_MAX];	/* the value it counts in */
	size_t n;
	unsigned int nvals;		/* values: runs, or boots with runs */
	unsigned int cnt[RUNS_MAX];	/* runs per value */
	double samples, ops;		/* summed over the runs */
	double cost;			/* mean cost per op of the values */
	double per_sample;		/* mean cost of one sample */
	const char *unit;
};

/* A function of either side. */
struct fn_row {
	const char *name;		/* in one of the documents */
	double *self[2];		/* [side][value] */
	double *tot[2];			/* [side][value]: with children */
	double total[2];		/* mean total (with children) per op */
	double z, zt;			/* the sampling z of self, total; NAN */
	struct verdict v, vt;		/* self, total */
};

static const struct jval *op_view(const struct jval *phase, const char *op)
{
	return json_find(json_path(phase, "cpu_profile.by_op"), "op", op);
}

/* @s's runs of engine @group whose phase @pname profiled op type @op. */
static void collect_runs(const struct result_side *s, const char *group,
			 const char *pname, const char *op, struct op_runs *r)
{
	unsigned int last_boot = ~0u;
	double cost = 0, per = 0, c, smp;
	const struct jval *ph, *v;
	size_t k, i;

	memset(r, 0, sizeof(*r));
	for (k = 0; k < s->nruns; k++) {
		if (!same_group(s->group[k], group))
			continue;
		ph = find_phase(s->runs[k], pname);
		v = ph ? op_view(ph, op) : NULL;
		if (!v)
			continue;
		if (!r->unit)
			r->unit = json_str(json_get(ph, "cpu_profile"), "unit");
		/* one value per run; per boot with several boots */
		if (s->nboots == 1 || s->boot[k] != last_boot)
			r->nvals++;
		last_boot = s->boot[k];
		r->view[r->n] = v;
		r->vidx[r->n] = r->nvals - 1;
		r->cnt[r->nvals - 1]++;
		r->n++;
	}
	for (i = 0; i < r->n; i++) {
		c = json_num(r->view[i], "cost_per_op");
		smp = json_num(r->view[i], "samples");
		r->samples += isnan(smp) ? 0 : smp;
		r->ops += fmax(json_num(r->view[i], "ops"), 0);
		if (isnan(c))
			continue;
		cost += c / r->cnt[r->vidx[i]];
		per += smp > 0 ? c / smp / (double)r->n : 0;
	}
	r->cost = r->nvals ? cost / r->nvals : NAN;
	r->per_sample = per;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct function names of both sides, sorted; -1 out of memory. */
static int fn_names(const struct op_runs *r, const char ***names)
{
	const char **all = NULL, **tmp;
	size_t n = 0, cap = 0, i, j, u;
	const struct jval *fns;

	for (j = 0; j < 2; j++) {
		for (i = 0; i < r[j].n; i++) {
			fns = json_get(r[j].view[i], "functions");
			for (u = 0; fns && fns->type == J_ARR && u < fns->n; u++) {
				const char *f = json_str(fns->items[u],
							 "function");

				if (!f)
					continue;
				if (n == cap) {
					cap = cap ? 2 * cap : 256;
					tmp = realloc(all, cap * sizeof(*all));
					if (!tmp) {
						free(all);
						return -1;
					}
					all = tmp;
				}
				all[n++] = f;
			}
		}
	}
	if (!n) {
		free(all);
		*names = NULL;
		return 0;
	}
	qsort(all, n, sizeof(*all), cmp_name);
	for (i = 1, u = 1; i < n; i++)
		if (strcmp(all[i], all[u - 1]))
			all[u++] = all[i];
	*names = all;
	return (int)u;
}

/* Each function's self values and mean total per op, from both sides. */
static void fill_values(const struct op_runs *r, const char **names, int nf,
			struct fn_row *rows)
{
	const struct jval *fns, *fn;
	const char **hit, *f;
	size_t i, u;
	int j;

	for (j = 0; j < 2; j++) {
		for (i = 0; i < r[j].n; i++) {
			unsigned int vi = r[j].vidx[i];
			double w = 1.0 / r[j].cnt[vi];

			fns = json_get(r[j].view[i], "functions");
			for (u = 0; fns && fns->type == J_ARR && u < fns->n; u++) {
				fn = fns->items[u];
				f = json_str(fn, "function");
				hit = f ? bsearch(&f, names, nf, sizeof(*names),
						  cmp_name) : NULL;
				if (!hit)
					continue;
				rows[hit - names].self[j][vi] +=
					w * fmax(json_num(fn, "self_per_op"), 0);
				rows[hit - names].tot[j][vi] +=
					w * fmax(json_num(fn, "total_per_op"), 0);
				rows[hit - names].total[j] +=
					w / r[j].nvals *
					fmax(json_num(fn, "total_per_op"), 0);
			}
		}
	}
}

/*
 * A change also has to exceed the sampling error to count: of verdict @v
 * (self or total), whose sampling z goes to @z.  Between single runs
 * (the threshold and untested modes) nothing else measured the noise;
 * with a few boots, a function of a few samples a boot may have had the
 * same count in each by chance, a noise band of 0.
 */
static void sampling_rule(const struct op_runs *r, double zc,
			  struct verdict *v, double *z)
{
	double ma = v->sa.mean, mb = v->sb.mean, var;

	var = ma * r[0].per_sample / (double)r[0].n +
	      mb * r[1].per_sample / (double)r[1].n;
	*z = var > 0 ? (mb - ma) / sqrt(var) : NAN;
	if (!strcmp(v->verdict, "no significant change"))
		return;
	if (isnan(*z) || fabs(*z) <= zc) {
		v->verdict = "no significant change";
		snprintf(v->nbuf, sizeof(v->nbuf),
			 "within the sampling error (|z| %.2f <= %.2f)",
			 fabs(*z), zc);
	} else {
		snprintf(v->nbuf, sizeof(v->nbuf),
			 "beyond the sampling error (|z| %.1f > %.2f)",
			 fabs(*z), zc);
	}
	v->note = v->nbuf;
}

/*
 * --function-error sampling: judged by the sampling error and the
 * threshold alone.  Under the instruction clock a boot's run differs
 * from another's by a fraction of the phase's noise band, while a
 * function's samples a boot are Poisson counts: the boots' band of a
 * function, from two or three values, is itself a noisy estimate of
 * that count's error (a chi-square of one or two degrees of freedom),
 * which the sampling z over every boot's samples is not.
 */
static void sampling_only(struct verdict *v, double z, double zc,
			  double threshold)
{
	bool beyond = fabs(v->change) > threshold && !isnan(z) &&
		      fabs(z) > zc;

	v->mode = "sampling";
	v->verdict = !beyond ? "no significant change" :
		     v->change > 0 ? "regressed" : "improved";
	snprintf(v->nbuf, sizeof(v->nbuf),
		 "sampling error: |z| %.1f %s %.2f", fabs(z),
		 fabs(z) > zc ? ">" : "<=", zc);
	v->note = v->nbuf;
}

static double change_of(const struct fn_row *row)
{
	return fabs(row->v.sb.mean - row->v.sa.mean);
}

/* Sorts pointers: a row's verdict note may point into the row. */
static int cmp_change(const void *a, const void *b)
{
	const struct fn_row *ra = *(const struct fn_row *const *)a;
	const struct fn_row *rb = *(const struct fn_row *const *)b;
	double ca = change_of(ra), cb = change_of(rb);

	if (ca != cb)
		return ca < cb ? 1 : -1;
	return strcmp(ra->name, rb->name);
}

static const char *short_verdict(const struct verdict *v)
{
	return strcmp(v->verdict, "no significant change") ? v->verdict : "-";
}

static void print_fn_row(const struct fn_row *row)
{
	const struct verdict *v = &row->v;
	double d = v->sb.mean - v->sa.mean;

	open_json_object(NULL);
	print_string(PRINT_JSON, "function", NULL, row->name);
	print_sample_json("base_self_per_op", &v->sa, row->self[0]);
	print_sample_json("new_self_per_op", &v->sb, row->self[1]);
	print_float(PRINT_JSON, "change_per_op", NULL, d);
	print_float(PRINT_JSON, "change_pct", NULL, v->change);
	print_float(PRINT_JSON, "base_total_per_op", NULL, row->total[0]);
	print_float(PRINT_JSON, "new_total_per_op", NULL, row->total[1]);
	print_float(PRINT_JSON, "total_change_per_op", NULL,
		    row->total[1] - row->total[0]);
	print_string(PRINT_JSON, "mode", NULL, v->mode);
	print_float(PRINT_JSON, "sampling_z", NULL, row->z);
	print_string(PRINT_JSON, "verdict", NULL, v->verdict);
	print_string(PRINT_JSON, "note", NULL, v->note);
	print_float(PRINT_JSON, "total_change_pct", NULL, row->vt.change);
	print_float(PRINT_JSON, "total_sampling_z", NULL, row->zt);
	print_string(PRINT_JSON, "total_verdict", NULL, row->vt.verdict);
	print_string(PRINT_JSON, "total_note", NULL, row->vt.note);
	close_json_object();
	print_fp("%14.1f %14.1f %+12.1f ", v->sa.mean, v->sb.mean, d);
	/* a function only NEW sampled */
	if (isinf(v->change))
		print_fp("%9s", "new");
	else
		print_fp("%+8.1f%%", v->change);
	print_fp(" %+13.1f  %-10s %-10s %s\n", row->total[1] - row->total[0],
		 short_verdict(&row->vt), short_verdict(v), row->name);
}

/*
 * The differential flame graph of phase @pname (@index), op type @op,
 * from the folded stacks of @ff; its file name in the JSON, or null.
 */
static void flame_diff(const struct op_runs *r, const struct flame_files *ff,
		       uint32_t index, const char *pname, const char *op,
		       double zc)
{
	struct folded fb, fn;
	char pb[4096], pn[4096], po[4096], title[512];
	int err;

	profile_file_name(pb, sizeof(pb), ff->base, index, pname, op, "folded");
	profile_file_name(pn, sizeof(pn), ff->new, index, pname, op, "folded");
	profile_file_name(po, sizeof(po), ff->out, index, pname, op, "svg");
	err = folded_read(pb, &fb);
	if (err) {
		warnmsg("--flamegraph: cannot read %s: %s", pb, strerror(-err));
		print_null(PRINT_JSON, "flamegraph", NULL);
		return;
	}
	err = folded_read(pn, &fn);
	if (err) {
		warnmsg("--flamegraph: cannot read %s: %s", pn, strerror(-err));
		folded_free(&fb);
		print_null(PRINT_JSON, "flamegraph", NULL);
		return;
	}
	snprintf(title, sizeof(title), "%s, %s: %.1f -> %.1f %s per op", pname,
		 op, r[0].cost, r[1].cost, r[0].unit);
	/* the folded files hold every run's samples: a sample is 1/n of one run's */
	err = flame_diff_write(po, title, &fb, &fn, r[0].per_sample / r[0].n,
			       r[1].per_sample / r[1].n, zc, r[0].unit);
	if (err)
		warnmsg("--flamegraph: cannot write %s: %s", po, strerror(-err));
	print_string(PRINT_JSON, "flamegraph", NULL, err ? NULL : po);
	if (!err)
		print_fp("differential flame graph: %s\n", po);
	folded_free(&fn);
	folded_free(&fb);
}

/* One op type of the phase: its function rows, the @top first. */
static int compare_op(const struct op_runs *r, const char *group,
		      const char *pname, const char *op,
		      const struct verdict_rule *rule, unsigned int top,
		      const struct flame_files *ff, uint32_t index)
{
	struct fn_row *rows, **order;
	const char **names;
	double *vals;
	unsigned int shown, i;
	const char *mode;
	double zc;
	int nf, f;

	nf = fn_names(r, &names);
	if (nf <= 0)
		return nf;
	rows = calloc(nf, sizeof(*rows));
	order = calloc(nf, sizeof(*order));
	vals = calloc((size_t)nf * 2 * (r[0].nvals + r[1].nvals),
		      sizeof(*vals));
	if (!rows || !order || !vals) {
		free(order);
		free(rows);
		free(vals);
		free(names);
		return -1;
	}
	for (f = 0; f < nf; f++) {
		rows[f].name = names[f];
		rows[f].self[0] = vals + (size_t)f * 2 * (r[0].nvals + r[1].nvals);
		rows[f].self[1] = rows[f].self[0] + r[0].nvals;
		rows[f].tot[0] = rows[f].self[1] + r[1].nvals;
		rows[f].tot[1] = rows[f].tot[0] + r[0].nvals;
	}
	fill_values(r, names, nf, rows);
	/* the normal quantile of 1 - alpha/2 (t with unbounded df) */
	zc = t_quantile(1 - rule->alpha / 2, 1e9);
	for (f = 0; f < nf; f++) {
		judge(rows[f].self[0], r[0].nvals, rows[f].self[1],
		      r[1].nvals, rule, &rows[f].v);
		judge(rows[f].tot[0], r[0].nvals, rows[f].tot[1],
		      r[1].nvals, rule, &rows[f].vt);
		sampling_rule(r, zc, &rows[f].v, &rows[f].z);
		sampling_rule(r, zc, &rows[f].vt, &rows[f].zt);
		if (ff && ff->sampling_only) {
			sampling_only(&rows[f].v, rows[f].z, zc,
				      rule->threshold);
			sampling_only(&rows[f].vt, rows[f].zt, zc,
				      rule->threshold);
		}
		order[f] = &rows[f];
	}
	qsort(order, nf, sizeof(*order), cmp_change);

	mode = order[0]->v.mode;
	open_json_object(NULL);
	print_string(PRINT_JSON, "phase", NULL, pname);
	print_string(PRINT_JSON, "engine", NULL, group);
	print_string(PRINT_JSON, "op", NULL, op);
	print_string(PRINT_JSON, "unit", NULL, r[0].unit);
	print_float(PRINT_JSON, "base_cost_per_op", NULL, r[0].cost);
	print_float(PRINT_JSON, "new_cost_per_op", NULL, r[1].cost);
	print_float(PRINT_JSON, "base_samples", NULL, r[0].samples);
	print_float(PRINT_JSON, "new_samples", NULL, r[1].samples);
	print_string(PRINT_JSON, "mode", NULL, mode);
	print_fp("\n%s%s%s, %s: %.1f -> %.1f %s per op sampled (%+.2f%%; %.0f and %.0f samples; verdicts: %s and the sampling error)\n",
		 group ? group : "", group ? ":" : "", pname, op, r[0].cost, r[1].cost, r[0].unit ? r[0].unit : "?",
		 r[0].cost > 0 ? (r[1].cost - r[0].cost) / r[0].cost * 100 : NAN,
		 r[0].samples, r[1].samples, mode);
	print_fp("%14s %14s %12s %9s %13s  %-10s %-10s %s\n", "base self/op",
		 "new self/op", "change/op", "change", "total chg/op", "total",
		 "self", "function");
	open_json_array("functions");
	for (i = 0, shown = 0; i < (unsigned int)nf && shown < top; i++, shown++)
		print_fn_row(order[i]);
	close_json_array();
	if (ff && ff->out)
		flame_diff(r, ff, index, pname, op, zc);
	close_json_object();
	free(vals);
	free(order);
	free(rows);
	free(names);
	return 1;
}

unsigned int compare_functions(const struct result_side *a,
			       const struct result_side *b, const char *group,
			       const char *pname,
			       const struct verdict_rule *rule,
			       unsigned int top, const struct flame_files *ff)
{
	/* large: a view per run of both sides */
	static struct op_runs r[2];
	const struct jval *ph = NULL, *by;
	unsigned int done = 0;
	char label[96];
	size_t k, i;
	double idx;

	for (k = 0; k < a->nruns && !ph; k++)
		if (same_group(a->group[k], group))
			ph = find_phase(a->runs[k], pname);
	by = json_path(ph, "cpu_profile.by_op");
	idx = json_num(ph, "index");
	snprintf(label, sizeof(label), "%s%s%s", group ? group : "",
		 group ? ":" : "", pname);
	for (i = 0; top && by && by->type == J_ARR && i < by->n; i++) {
		const char *op = json_str(by->items[i], "op");

		if (!op)
			continue;
		collect_runs(a, group, pname, op, &r[0]);
		collect_runs(b, group, pname, op, &r[1]);
		if (!r[0].n || !r[1].n)
			continue;
		if (!r[0].unit || !r[1].unit || strcmp(r[0].unit, r[1].unit)) {
			print_fp("\n%s, %s: profiles in other units (%s, %s): functions not compared\n",
				 label, op, r[0].unit ? r[0].unit : "?",
				 r[1].unit ? r[1].unit : "?");
			continue;
		}
		if (compare_op(r, group, pname, op, rule, top, ff,
			       isnan(idx) ? 0 : (uint32_t)idx) > 0)
			done++;
	}
	return done;
}
