// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl start --engine both: the report of the kernel's run and the
 * user engine's run of the same program, each in full, then side by side
 * per phase with the ratio user/kernel of the workers' CPU per operation
 * and of the mean latency: what the system-call boundary costs on this
 * filesystem.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "nl/results.h"
#include "nl/job.h"
#include "workload/profile.h"
#include "engine/run.h"
#include "report/engines.h"
#include "report/job.h"
#include "report/metric.h"
#include "report/results.h"

/* What the comparison takes from one run's phase. */
struct engine_side {
	const struct phase_result *pr;	/* NULL: the phase did not run */
	double cpu_per_op;		/* worker CPU ns per op; NAN */
	double lat_avg;			/* mean latency, ns; NAN */
};

static void side_of(const struct results *r, uint32_t index, struct engine_side *s)
{
	uint64_t n = 0, lat_sum = 0;
	unsigned int i;

	s->pr = results_phase(r, index);
	s->cpu_per_op = NAN;
	s->lat_avg = NAN;
	if (!s->pr)
		return;
	for (i = 0; i < s->pr->nopstats; i++) {
		n += s->pr->opstats[i].ops;
		lat_sum += s->pr->opstats[i].lat_sum_ns;
	}
	if (s->pr->ops && RES_HAS(s->pr, FSLOAD_A_RES_WORKER_CPU_NS))
		s->cpu_per_op = (double)s->pr->worker_cpu_ns / s->pr->ops;
	if (n)
		s->lat_avg = (double)lat_sum / n;
}

static double ratio(double user, double kernel)
{
	return isfinite(user) && isfinite(kernel) && kernel > 0 ?
	       user / kernel : NAN;
}

/* A number in a text column of @width, JSON null when not finite. */
static void print_col(const char *key, int width, int prec, double v)
{
	char fmt[16];

	if (isfinite(v)) {
		snprintf(fmt, sizeof(fmt), " %%%d.%df", width, prec);
		print_float(PRINT_ANY, key, fmt, v);
	} else {
		snprintf(fmt, sizeof(fmt), " %%%ds", width);
		print_null(PRINT_ANY, key, fmt);
	}
}

static void print_side(const char *key, const struct engine_side *s)
{
	open_json_object(key);
	if (s->pr) {
		print_uint(PRINT_JSON, "ops", NULL, s->pr->ops);
		print_uint(PRINT_JSON, "errors", NULL, s->pr->errors);
		print_uint(PRINT_JSON, "elapsed_ns", NULL, s->pr->elapsed_ns);
		print_uint(PRINT_JSON, "worker_cpu_ns", NULL,
			   s->pr->worker_cpu_ns);
	} else {
		print_null(PRINT_JSON, "ops", NULL);
	}
	print_float(PRINT_JSON, "cpu_ns_per_op", NULL, s->cpu_per_op);
	print_float(PRINT_JSON, "lat_avg_ns", NULL, s->lat_avg);
	close_json_object();
}

/* Per phase: ops, CPU/op and mean latency of each, and the ratios. */
static void print_comparison(const struct run *k, const struct run *u)
{
	const struct results *ref = k->r.nphases >= u->r.nphases ? &k->r :
				    &u->r;
	unsigned int i, same = 0;
	int name_w = 5;
	char fmt[16];

	for (i = 0; i < ref->nphases; i++)
		if ((int)strlen(ref->phases[i].name) > name_w)
			name_w = (int)strlen(ref->phases[i].name);
	print_fp("\nuser/kernel, per phase (cpu: worker CPU ns per op; lat: mean latency us):\n");
	print_fp("%-*s %11s %11s %10s %10s %8s %10s %10s %8s\n", name_w,
		 "phase", "ops_kernel", "ops_user", "cpu_kernel", "cpu_user",
		 "cpu_x", "lat_kernel", "lat_user", "lat_x");
	open_json_array("comparison");
	for (i = 0; i < ref->nphases; i++) {
		uint32_t index = ref->phases[i].index;
		struct engine_side ks, us;
		bool eq;

		side_of(&k->r, index, &ks);
		side_of(&u->r, index, &us);
		eq = ks.pr && us.pr && ks.pr->ops == us.pr->ops &&
		     ks.pr->errors == us.pr->errors;
		same += eq;
		open_json_object(NULL);
		print_uint(PRINT_JSON, "index", NULL, index);
		snprintf(fmt, sizeof(fmt), "%%-%ds", name_w);
		print_string(PRINT_ANY, "phase", fmt, ref->phases[i].name);
		if (ks.pr)
			print_fp(" %11" PRIu64, ks.pr->ops);
		else
			print_fp(" %11s", "-");
		if (us.pr)
			print_fp(" %11" PRIu64, us.pr->ops);
		else
			print_fp(" %11s", "-");
		print_col(NULL, 10, 0, ks.cpu_per_op);
		print_col(NULL, 10, 0, us.cpu_per_op);
		print_col("cpu_ratio", 8, 2, ratio(us.cpu_per_op,
						   ks.cpu_per_op));
		print_col(NULL, 10, 3, ks.lat_avg / 1000.0);
		print_col(NULL, 10, 3, us.lat_avg / 1000.0);
		print_col("lat_ratio", 8, 2, ratio(us.lat_avg, ks.lat_avg));
		print_fp("%s\n", eq ? "" : "  (ops differ)");
		print_bool(PRINT_JSON, "same_ops", NULL, eq);
		print_side("kernel", &ks);
		print_side("user", &us);
		close_json_object();
	}
	close_json_array();
	print_bool(PRINT_JSON, "same_ops", NULL,
		   same == ref->nphases && k->r.nphases == u->r.nphases);
	print_fp("identical operation counts: %s\n",
		 same == ref->nphases && k->r.nphases == u->r.nphases ?
		 "yes" : "no");
}

static void print_metric(const struct run *k, const struct run *u,
			 const struct profile *pf)
{
	struct metric mk, mu;

	profile_metric(pf, &k->r, &k->js, &mk);
	profile_metric(pf, &u->r, &u->js, &mu);
	open_json_object("summary");
	print_string(PRINT_ANY, "metric", "summary: %s", mk.label);
	print_col("kernel", 0, 1, mk.value);
	print_fp(" kernel,");
	print_col("user", 0, 1, mu.value);
	print_fp(" user,");
	print_col("ratio", 0, 2, ratio(mu.value, mk.value));
	print_fp(" user/kernel\n");
	close_json_object();
}

void report_both(const struct run *runs, unsigned int n,
		 const struct job_extra *x, const struct profile *pf, bool json)
{
	static const char *const names[] = { "kernel", "user" };
	unsigned int i;

	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	print_string(PRINT_JSON, "engine", NULL, "both");
	for (i = 0; i < n && i < 2; i++) {
		print_fp("%s== %s engine ==\n", i ? "\n" : "", names[i]);
		open_json_object(names[i]);
		print_job("job", &runs[i].js, x, JOB_VIEW_HEADER);
		print_results(&runs[i].r, &runs[i].js);
		close_json_object();
	}
	if (n >= 2) {
		print_comparison(&runs[0], &runs[1]);
		print_metric(&runs[0], &runs[1], pf);
	} else {
		print_fp("\nthe user engine did not run: no comparison\n");
	}
	print_end();
}
