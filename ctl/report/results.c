// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a job's results, as the per-phase tables (text) and the
 * "phases" array (JSON): rates, latency percentiles, progress, CPU.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "lib/print.h"
#include "nl/job.h"
#include "nl/names.h"
#include "nl/nl.h"
#include "nl/hist.h"
#include "nl/profile.h"
#include "nl/results.h"
#include "nl/series.h"
#include "nl/request.h"
#include "engine/sampler.h"
#include "report/job.h"
#include "report/profile.h"
#include "report/results.h"
#include "report/series.h"

#define HAS(s, attr)	(!!((s)->have & (1ULL << (attr))))

/* The table */


/* Column widths after the name column. */
#define W_THREADS	7
#define W_OPS		11
#define W_ERRORS	7
#define W_MIB		10
#define W_ELAPSED	11
#define W_OPSS		11
#define W_MIBS		9
#define W_LAT		10
#define W_COMPLETE	9

static double per_sec(double v, uint64_t ns)
{
	return ns ? v * 1e9 / (double)ns : NAN;
}

static void print_rate(enum output_type t, const char *key, int width,
		       int prec, double v)
{
	char fmt[16];

	if (isfinite(v)) {
		snprintf(fmt, sizeof(fmt), " %%%d.%df", width, prec);
		print_float(t, key, fmt, v);
	} else {
		snprintf(fmt, sizeof(fmt), " %%%ds", width);
		print_null(t, key, fmt);
	}
}

/* A latency column, in microseconds; JSON gets nanoseconds. */
static void print_lat(enum output_type t, const char *key, bool valid,
		      double ns)
{
	char fmt[16];

	if (valid) {
		snprintf(fmt, sizeof(fmt), " %%%d.3f", W_LAT);
		if (t & PRINT_FP)
			print_float(PRINT_FP, NULL, fmt, ns / 1000.0);
		if (t & PRINT_JSON)
			print_float(PRINT_JSON, key, NULL, ns);
	} else {
		snprintf(fmt, sizeof(fmt), " %%%ds", W_LAT);
		print_null(t, key, fmt);
	}
}

static void print_blank(bool text, int width)
{
	if (text)
		print_fp(" %*s", width, "");
}

static const struct {
	const char *key;
	const char *title;
	uint32_t q_ppm;		/* parts per million */
} pcts[] = {
	{ "p50_ns", "p50", 500000 },
	{ "p90_ns", "p90", 900000 },
	{ "p99_ns", "p99", 990000 },
	{ "p99_9_ns", "p99.9", 999000 },
};

/* JSON: an op type's percentiles and histogram. */
static void print_latency_json(const struct opstat *os)
{
	unsigned int i;

	open_json_object("latency");
	for (i = 0; i < ARRAY_SIZE(pcts); i++)
		print_rate(PRINT_JSON, pcts[i].key, 0, 1,
			   opstat_percentile(os, pcts[i].q_ppm));
	open_json_array("histogram");
	for (i = 0; i < os->nbuckets; i++) {
		open_json_array(NULL);
		print_uint(PRINT_JSON, NULL, NULL, os->buckets[i].low_ns);
		print_uint(PRINT_JSON, NULL, NULL, os->buckets[i].high_ns);
		print_uint(PRINT_JSON, NULL, NULL, os->buckets[i].count);
		close_json_array();
	}
	close_json_array();
	close_json_object();
}

/* Text: the latency percentiles of every phase and op type. */
static void print_latency_table(const struct results *r, int name_w)
{
	const struct phase_result *pr;
	const struct opstat *os;
	char name[FSLOAD_NAME_MAX + 24];
	unsigned int i, j, k;

	if (print_json())
		return;
	if (name_w < 10)
		name_w = 10;
	/* timed: the successful ops the percentiles summarise (1 in N) */
	print_fp("\n%-*s %*s", name_w, "latency_us", W_OPS, "timed");
	for (k = 0; k < ARRAY_SIZE(pcts); k++)
		print_fp(" %*s", W_LAT, pcts[k].title);
	print_fp(" %*s\n", W_LAT, "max");
	for (i = 0; i < r->nphases; i++) {
		pr = &r->phases[i];
		for (j = 0; j < pr->nopstats; j++) {
			os = &pr->opstats[j];
			if (!os->ops)
				continue;
			if (pr->nopstats > 1)
				snprintf(name, sizeof(name), "%s/%s", pr->name,
					 op_name(os->type));
			else
				snprintf(name, sizeof(name), "%s", pr->name);
			print_fp("%-*s %*" PRIu64, name_w, name, W_OPS,
				 opstat_sampled(os));
			for (k = 0; k < ARRAY_SIZE(pcts); k++)
				print_lat(PRINT_FP, NULL, os->nbuckets > 0,
					  opstat_percentile(os, pcts[k].q_ppm));
			print_lat(PRINT_FP, NULL, opstat_sampled(os) > 0,
				  (double)os->lat_max_ns);
			print_fp("\n");
		}
	}
}

/*
 * The rate of the tenth of a phase that ends at mark @k: iterations per
 * second between marks k - 1 and k (NAN when it had none, or no time).
 */
static double progress_rate(const struct phase_result *pr, unsigned int k)
{
	const struct progress_mark *m = &pr->progress[k];
	uint64_t items0 = k ? m[-1].items : 0, t0 = k ? m[-1].elapsed_ns : 0;

	if (m->items <= items0 || m->elapsed_ns <= t0)
		return NAN;
	return (m->items - items0) * 1e9 / (m->elapsed_ns - t0);
}

/* JSON: the phase's course, mark by mark. */
static void print_progress_json(const struct phase_result *pr)
{
	unsigned int k;

	open_json_array("progress");
	for (k = 0; k < pr->nprogress; k++) {
		open_json_object(NULL);
		print_uint(PRINT_JSON, "pct", NULL, pr->progress[k].pct);
		print_uint(PRINT_JSON, "workers", NULL,
			   pr->progress[k].workers);
		print_uint(PRINT_JSON, "items", NULL, pr->progress[k].items);
		print_uint(PRINT_JSON, "elapsed_ns", NULL,
			   pr->progress[k].elapsed_ns);
		print_rate(PRINT_JSON, "ops_per_sec", 0, 3,
			   progress_rate(pr, k));
		close_json_object();
	}
	close_json_array();
}

/*
 * Text: the rate of each tenth of the phases with at least ten
 * iterations, so that a phase slowing down as its directories grow shows.
 */
static void print_progress_table(const struct results *r, int name_w)
{
	const struct phase_result *pr;
	unsigned int i, k;
	bool title = false;

	if (print_json())
		return;
	if (name_w < 12)
		name_w = 12;
	for (i = 0; i < r->nphases; i++) {
		pr = &r->phases[i];
		if (!pr->nprogress ||
		    pr->progress[pr->nprogress - 1].items < FSLOAD_PROGRESS_MARKS)
			continue;
		if (!title) {
			print_fp("\n%-*s", name_w, "ops/s_tenth");
			for (k = 1; k <= FSLOAD_PROGRESS_MARKS; k++)
				print_fp(" %8u%%", k * 100 / FSLOAD_PROGRESS_MARKS);
			print_fp("\n");
			title = true;
		}
		print_fp("%-*s", name_w, pr->name);
		for (k = 0; k < FSLOAD_PROGRESS_MARKS; k++)
			print_rate(PRINT_FP, NULL, 9, 0,
				   k < pr->nprogress ? progress_rate(pr, k) : NAN);
		print_fp("\n");
	}
}

/*
 * CPU per operation of a phase: the workers' own, what other threads used
 * meanwhile beyond the idle baseline (background), the sync tail's, and
 * their total.  NAN where not measured.
 */
struct phase_cpu {
	double n;		/* operations, failed ones included */
	double worker;		/* ns per op */
	double background;
	double tail;
	double total;
	double insn;		/* per op; NAN without a PMU */
	double cycles;
	double ipc;
	double cpu_pct;		/* of the machine, over the phase */
};

static void phase_cpu(const struct phase_result *pr,
		      const struct job_status *js, struct phase_cpu *c)
{
	double idle_rate = 0, bg, tail;

	/* every op tried costs CPU: those that failed, as expected or not */
	c->n = (double)(pr->ops + pr->errors + phase_misses(pr));
	c->worker = c->background = c->tail = c->total = NAN;
	c->insn = c->cycles = c->ipc = c->cpu_pct = NAN;
	if (!c->n)
		return;
	if (js && JS_HAS(js, FSLOAD_A_JOB_IDLE_NS) && js->idle_ns)
		idle_rate = (double)js->idle_busy_ns / (double)js->idle_ns;
	if (RES_HAS(pr, FSLOAD_A_RES_WORKER_CPU_NS))
		c->worker = pr->worker_cpu_ns / c->n;
	if (RES_HAS(pr, FSLOAD_A_RES_INSTRUCTIONS)) {
		c->insn = pr->instructions / c->n;
		c->cycles = pr->cycles / c->n;
		c->ipc = pr->cycles ? (double)pr->instructions / pr->cycles :
				      NAN;
	}
	if (!RES_HAS(pr, FSLOAD_A_RES_SYSTEM_CPU_NS) ||
	    !RES_HAS(pr, FSLOAD_A_RES_WORKER_CPU_NS))
		return;
	bg = (double)pr->system_cpu_ns - (double)pr->worker_cpu_ns -
	     idle_rate * (double)pr->elapsed_ns;
	c->background = (bg > 0 ? bg : 0) / c->n;
	tail = 0;
	if (RES_HAS(pr, FSLOAD_A_RES_TAIL_NS)) {
		tail = (double)pr->tail_cpu_ns - idle_rate * (double)pr->tail_ns;
		tail = tail > 0 ? tail : 0;
	}
	c->tail = tail / c->n;
	c->total = c->worker + c->background + c->tail;
	if (js && js->cpus && pr->elapsed_ns)
		c->cpu_pct = 100.0 * pr->system_cpu_ns /
			     ((double)pr->elapsed_ns * js->cpus);
}

double phase_cpu_ns(const struct phase_result *pr,
		    const struct job_status *js)
{
	struct phase_cpu c;

	phase_cpu(pr, js, &c);
	return c.total * c.n;
}

#define W_CPU	12

/* JSON: a phase's CPU figures. */
static void print_cpu_json(const struct phase_result *pr,
			   const struct job_status *js)
{
	struct phase_cpu c;
	unsigned int i;

	phase_cpu(pr, js, &c);
	open_json_object("cpu");
	print_uint(PRINT_JSON, "worker_ns", NULL, pr->worker_cpu_ns);
	if (RES_HAS(pr, FSLOAD_A_RES_SYSTEM_CPU_NS))
		print_uint(PRINT_JSON, "system_ns", NULL, pr->system_cpu_ns);
	else
		print_null(PRINT_JSON, "system_ns", NULL);
	if (RES_HAS(pr, FSLOAD_A_RES_INSTRUCTIONS)) {
		print_uint(PRINT_JSON, "instructions", NULL, pr->instructions);
		print_uint(PRINT_JSON, "cycles", NULL, pr->cycles);
	} else {
		print_null(PRINT_JSON, "instructions", NULL);
		print_null(PRINT_JSON, "cycles", NULL);
	}
	if (RES_HAS(pr, FSLOAD_A_RES_TAIL_NS)) {
		print_uint(PRINT_JSON, "tail_ns", NULL, pr->tail_ns);
		print_uint(PRINT_JSON, "tail_cpu_ns", NULL, pr->tail_cpu_ns);
	} else {
		print_null(PRINT_JSON, "tail_ns", NULL);
		print_null(PRINT_JSON, "tail_cpu_ns", NULL);
	}
	print_rate(PRINT_JSON, "worker_ns_per_op", 0, 1, c.worker);
	print_rate(PRINT_JSON, "background_ns_per_op", 0, 1, c.background);
	print_rate(PRINT_JSON, "tail_ns_per_op", 0, 1, c.tail);
	print_rate(PRINT_JSON, "total_ns_per_op", 0, 1, c.total);
	print_rate(PRINT_JSON, "instructions_per_op", 0, 1, c.insn);
	print_rate(PRINT_JSON, "cycles_per_op", 0, 1, c.cycles);
	print_rate(PRINT_JSON, "ipc", 0, 3, c.ipc);
	print_rate(PRINT_JSON, "cpu_percent", 0, 2, c.cpu_pct);
	close_json_object();
	open_json_array("top_threads");
	for (i = 0; i < pr->ntop; i++) {
		open_json_object(NULL);
		/* Without privilege, whose they are is not said. */
		print_string(PRINT_JSON, "name", NULL,
			     pr->top[i].named ? pr->top[i].name : NULL);
		if (pr->top[i].named)
			print_uint(PRINT_JSON, "pid", NULL, pr->top[i].pid);
		else
			print_null(PRINT_JSON, "pid", NULL);
		print_bool(PRINT_JSON, "kernel", NULL, pr->top[i].kernel);
		print_uint(PRINT_JSON, "cpu_ns", NULL, pr->top[i].cpu_ns);
		close_json_object();
	}
	close_json_array();
}

static void print_cpu_cell(double v, int prec)
{
	if (isfinite(v))
		print_fp(" %*.*f", W_CPU, prec, v);
	else
		print_fp(" %*s", W_CPU, "n/a");
}

/* Text: CPU per op of every phase, and the busiest other threads. */
static void print_cpu_table(const struct results *r,
			    const struct job_status *js, int name_w)
{
	const struct phase_result *pr;
	bool pmu = js && JS_HAS(js, FSLOAD_A_JOB_PMU) && js->pmu;
	/* the columns of the busy time of all CPUs, marked when in ticks */
	const char *mark = js && js->busy_ticks ? "*" : "";
	char bg[16], tl[16], tot[16], pct[16];
	struct phase_cpu c;
	unsigned int i, k;

	if (print_json() || !r->nphases)
		return;
	if (name_w < 10)
		name_w = 10;
	snprintf(bg, sizeof(bg), "backgr_ns%s", mark);
	snprintf(tl, sizeof(tl), "tail_ns%s", mark);
	snprintf(tot, sizeof(tot), "total_ns%s", mark);
	snprintf(pct, sizeof(pct), "cpu_%%%s", mark);
	print_fp("\n%-*s %*s %*s %*s %*s %*s %*s %*s %*s %*s\n", name_w,
		 "cpu_per_op", W_CPU, "worker_ns", W_CPU, bg, W_CPU, tl,
		 W_CPU, tot, W_CPU, "insn", W_CPU, "cycles", W_CPU, "IPC",
		 W_CPU, pct, W_CPU, "tail_ms");
	for (i = 0; i < r->nphases; i++) {
		pr = &r->phases[i];
		phase_cpu(pr, js, &c);
		print_fp("%-*s", name_w, pr->name);
		print_cpu_cell(c.worker, 1);
		print_cpu_cell(c.background, 1);
		print_cpu_cell(c.tail, 1);
		print_cpu_cell(c.total, 1);
		print_cpu_cell(c.insn, 1);
		print_cpu_cell(c.cycles, 1);
		print_cpu_cell(c.ipc, 3);
		print_cpu_cell(c.cpu_pct, 1);
		print_cpu_cell(RES_HAS(pr, FSLOAD_A_RES_TAIL_NS) ?
			       pr->tail_ns / 1e6 : NAN, 1);
		print_fp("\n");
	}
	if (!pmu)
		print_fp("insn, cycles, IPC: n/a (no PMU)\n");
	if (*mark)
		print_fp("*: from /proc/stat's %ld ms ticks (no /proc/schedstat: CONFIG_SCHEDSTATS): coarse for short phases\n",
			 1000 / sysconf(_SC_CLK_TCK));
	for (i = 0; i < r->nphases; i++) {
		pr = &r->phases[i];
		if (!pr->ntop)
			continue;
		print_fp("busiest other threads in %s:", pr->name);
		for (k = 0; k < pr->ntop && k < 4; k++)
			print_fp("%s %s %.1f ms", k ? "," : "",
				 pr->top[k].named ? pr->top[k].name :
				 pr->top[k].kernel ? "(a kernel thread)" :
				 "(a process)", pr->top[k].cpu_ns / 1e6);
		print_fp("\n");
	}
}

/* One ops_by_type member; a text row too when @text. */
static void print_opstat(const struct opstat *os, uint64_t elapsed_ns,
			 int name_w, bool text)
{
	enum output_type t = text ? PRINT_ANY : PRINT_JSON;
	/* latencies (sum, min, max) cover the successful operations timed */
	uint64_t n = opstat_sampled(os);
	char fmt[32];

	open_json_object(NULL);
	snprintf(fmt, sizeof(fmt), "  %%-%ds", name_w - 2);
	print_string(t, "op", fmt, op_name(os->type));
	print_blank(text, W_THREADS);
	snprintf(fmt, sizeof(fmt), " %%%d" PRIu64, W_OPS);
	print_uint(t, "ops", fmt, os->ops);
	snprintf(fmt, sizeof(fmt), " %%%d" PRIu64, W_ERRORS);
	print_uint(t, "errors", fmt, os->errors);
	print_uint(PRINT_JSON, "misses", NULL, os->misses);
	if (text)
		print_fp(" %*.2f", W_MIB, os->bytes / MIB);
	print_uint(PRINT_JSON, "bytes", NULL, os->bytes);
	print_blank(text, W_ELAPSED);
	if (text) {
		print_rate(PRINT_FP, NULL, W_OPSS, 1,
			   per_sec((double)os->ops, elapsed_ns));
		print_rate(PRINT_FP, NULL, W_MIBS, 2,
			   per_sec(os->bytes / MIB, elapsed_ns));
	}
	print_uint(PRINT_JSON, "sampled", NULL, n);
	print_uint(PRINT_JSON, "lat_sum_ns", NULL, os->lat_sum_ns);
	if (n) {
		print_uint(PRINT_JSON, "lat_min_ns", NULL, os->lat_min_ns);
		print_uint(PRINT_JSON, "lat_max_ns", NULL, os->lat_max_ns);
	} else {
		print_null(PRINT_JSON, "lat_min_ns", NULL);
		print_null(PRINT_JSON, "lat_max_ns", NULL);
	}
	print_lat(t, "lat_avg_ns", n > 0, n ? (double)os->lat_sum_ns / n : 0);
	if (text) {
		print_lat(PRINT_FP, NULL, n > 0, (double)os->lat_min_ns);
		print_lat(PRINT_FP, NULL, n > 0, (double)os->lat_max_ns);
		print_fp("\n");
	}
	print_latency_json(os);
	close_json_object();
}

const char *phase_completion(const struct phase_result *pr)
{
	if (!pr->complete)
		return pr->target ? "target" : "no";
	return pr->stonewalled ? "time" : "yes";
}

uint64_t phase_misses(const struct phase_result *pr)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < pr->nopstats; i++)
		n += pr->opstats[i].misses;
	return n;
}

/*
 * Under the phase table, the phases' misses (if any): failures a phase
 * expects (flag continue: a name another op took or removed; fill: a full
 * filesystem), counted apart from errors.
 */
static void print_miss_notes(const struct results *r)
{
	unsigned int i, j;
	uint64_t n;

	for (i = 0; i < r->nphases; i++) {
		const struct phase_result *pr = &r->phases[i];

		n = phase_misses(pr);
		if (!n)
			continue;
		print_fp("misses %s %" PRIu64 " (", pr->name, n);
		for (j = 0; j < pr->nopstats; j++)
			print_fp("%s%s %" PRIu64, j ? ", " : "",
				 op_name(pr->opstats[j].type),
				 pr->opstats[j].misses);
		print_fp("): failures the phase expects, not errors\n");
	}
}

static void print_phase(const struct phase_result *pr,
			const struct job_status *js, const struct results *r,
			int name_w)
{
	uint64_t n = 0, lat_sum = 0, lat_min = UINT64_MAX, lat_max = 0;
	char fmt[32], nbuf[24];
	const char *name = pr->name;
	unsigned int i;

	for (i = 0; i < pr->nopstats; i++) {
		const struct opstat *os = &pr->opstats[i];

		if (!opstat_sampled(os))
			continue;
		n += opstat_sampled(os);
		lat_sum += os->lat_sum_ns;
		if (os->lat_min_ns < lat_min)
			lat_min = os->lat_min_ns;
		if (os->lat_max_ns > lat_max)
			lat_max = os->lat_max_ns;
	}
	if (!HAS(pr, FSLOAD_A_RES_PHASE_NAME)) {
		snprintf(nbuf, sizeof(nbuf), "#%" PRIu32, pr->index);
		name = nbuf;
	}

	open_json_object(NULL);
	print_uint(PRINT_JSON, "index", NULL, pr->index);
	snprintf(fmt, sizeof(fmt), "%%-%ds", name_w);
	print_string(PRINT_ANY, "name", fmt,
		     HAS(pr, FSLOAD_A_RES_PHASE_NAME) ? name : NULL);
	snprintf(fmt, sizeof(fmt), " %%%d" PRIu64, W_THREADS);
	print_uint(PRINT_ANY, "threads", fmt, pr->threads);
	print_bool(PRINT_JSON, "complete", NULL, pr->complete);
	print_bool(PRINT_JSON, "stonewalled", NULL, pr->stonewalled);
	print_string(PRINT_JSON, "completion", NULL, phase_completion(pr));
	print_uint(PRINT_JSON, "elapsed_ns", NULL, pr->elapsed_ns);
	if (HAS(pr, FSLOAD_A_RES_START_NS))
		print_uint(PRINT_JSON, "start_ns", NULL, pr->start_ns);
	else
		print_null(PRINT_JSON, "start_ns", NULL);
	if (HAS(pr, FSLOAD_A_RES_OP_CLOCK))
		print_string(PRINT_JSON, "op_clock", NULL,
			     op_clock_name(pr->op_clock));
	else
		print_null(PRINT_JSON, "op_clock", NULL);
	if (HAS(pr, FSLOAD_A_RES_OP_CLOCK_BACK_STEPS))
		print_uint(PRINT_JSON, "op_clock_back_steps", NULL,
			   pr->op_clock_back_steps);
	else
		print_null(PRINT_JSON, "op_clock_back_steps", NULL);
	snprintf(fmt, sizeof(fmt), " %%%d" PRIu64, W_OPS);
	print_uint(PRINT_ANY, "ops", fmt, pr->ops);
	snprintf(fmt, sizeof(fmt), " %%%d" PRIu64, W_ERRORS);
	print_uint(PRINT_ANY, "errors", fmt, pr->errors);
	print_uint(PRINT_JSON, "misses", NULL, phase_misses(pr));
	print_uint(PRINT_JSON, "bytes", NULL, pr->bytes);
	print_fp(" %*.2f", W_MIB, pr->bytes / MIB);
	print_fp(" %*.1f", W_ELAPSED, pr->elapsed_ns / 1e6);
	print_rate(PRINT_ANY, "ops_per_sec", W_OPSS, 1,
		   per_sec((double)pr->ops, pr->elapsed_ns));
	print_rate(PRINT_ANY, "mib_per_sec", W_MIBS, 2,
		   per_sec(pr->bytes / MIB, pr->elapsed_ns));
	print_lat(PRINT_FP, NULL, n > 0, n ? (double)lat_sum / n : 0);
	print_lat(PRINT_FP, NULL, n > 0, (double)lat_min);
	print_lat(PRINT_FP, NULL, n > 0, (double)lat_max);
	print_fp(" %*s\n", W_COMPLETE, phase_completion(pr));

	print_cpu_json(pr, js);
	print_progress_json(pr);
	print_series_json(r->series, pr);
	print_profile_json(r->profile, pr);
	open_json_array("ops_by_type");
	for (i = 0; i < pr->nopstats; i++)
		print_opstat(&pr->opstats[i], pr->elapsed_ns, name_w,
			     pr->nopstats > 1);
	close_json_array();
	close_json_object();
}

/*
 * Under the table, a line per phase whose ops the job's op clock did not
 * time all of (the TSC stepped back, or was no longer a clock): which
 * clock did, and the TSC's steps back.
 */
static void print_clock_notes(const struct results *r,
			      const struct job_status *js)
{
	const struct phase_result *pr;
	unsigned int i;

	for (i = 0; i < r->nphases; i++) {
		pr = &r->phases[i];
		if (!HAS(pr, FSLOAD_A_RES_OP_CLOCK) ||
		    !JS_HAS(js, FSLOAD_A_JOB_OP_CLOCK) ||
		    pr->op_clock == js->op_clock)
			continue;
		print_fp("phase %s: the op clock fell back from %s to %s",
			 pr->name, op_clock_name(js->op_clock),
			 op_clock_name(pr->op_clock));
		if (pr->op_clock_back_steps)
			print_fp(": the TSC stepped back %" PRIu64
				 " time%s (readings not used)\n",
				 pr->op_clock_back_steps,
				 pr->op_clock_back_steps == 1 ? "" : "s");
		else
			print_fp(": the TSC was no longer a clock\n");
	}
}

void print_results(const struct results *r, const struct job_status *js)
{
	int name_w = 5;
	unsigned int i, j;

	for (i = 0; i < r->nphases; i++) {
		int w = (int)strlen(r->phases[i].name);

		if (w > name_w)
			name_w = w;
		for (j = 0; r->phases[i].nopstats > 1 &&
			    j < r->phases[i].nopstats; j++) {
			w = 2 + (int)strlen(op_name(r->phases[i].opstats[j].type));
			if (w > name_w)
				name_w = w;
		}
	}

	print_fp("\n");
	if (!r->nphases)
		print_fp("no phase has started\n");
	else
		print_fp("%-*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s\n",
			 name_w, "phase", W_THREADS, "threads", W_OPS, "ops",
			 W_ERRORS, "errors", W_MIB, "MiB", W_ELAPSED,
			 "elapsed_ms", W_OPSS, "ops/s", W_MIBS, "MiB/s",
			 W_LAT, "avg_us", W_LAT, "min_us", W_LAT, "max_us",
			 W_COMPLETE, "complete");
	open_json_array("phases");
	for (i = 0; i < r->nphases; i++)
		print_phase(&r->phases[i], js, r, name_w);
	close_json_array();
	print_miss_notes(r);
	print_clock_notes(r, js);
	print_stall_reports(r->series);
	print_latency_table(r, name_w);
	print_progress_table(r, name_w);
	print_cpu_table(r, js, name_w);
	print_profile_tables(r);
	if (r->series_table)
		print_series_table(r->series, r);
}

int show_job_results(struct nl_ctx *nl, uint32_t id,
		     const struct job_status *final,
		     const struct job_extra *x, bool json,
		     const char *folded, const char *flamegraph)
{
	struct job_status js = { 0 };
	const struct job_status *use = &js;
	struct series s = { 0 };
	struct cpu_profile prof = { 0 };
	struct results r;
	bool refused = false;
	int ret;

	ret = job_get(nl, id, &js, NL_QUIET);
	if (ret == EXIT_KERNEL && final && nl->err == ENOENT) {
		use = final;	/* the job is gone; its DONE status is final */
	} else if (ret) {
		if (ret == EXIT_KERNEL)
			nl_print_error(nl);
		goto out;
	}
	ret = results_get(nl, id, &r);
	if (ret)
		goto out;
	if (JS_HAS(use, FSLOAD_A_JOB_SAMPLE_MS) && use->sample_ms) {
		s.sample_ms = use->sample_ms;
		if (!series_drain(nl, id, &s))
			r.series = &s;
	}
	if (JS_HAS(use, FSLOAD_A_JOB_CPU_PROFILE_HZ) &&
	    state_is_final(use->state)) {
		profile_from_status(&prof, use);
		/* The kernel's refusal is told (not the starter's job). */
		if (!profile_get(nl, id, &prof))
			r.profile = &prof;
		else
			refused = nl->err == EPERM;
	}
	if ((folded || flamegraph) && !r.profile)
		warnmsg("job %u has no CPU profile%s: no %s written", id,
			refused ? " that you may read" :
			state_is_final(use->state) ? "" : " yet (it runs)",
			folded ? "folded stacks" : "flame graphs");
	profile_write_files(r.profile, &r, folded, flamegraph);

	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	print_job("job", use, x, JOB_VIEW_HEADER);
	print_results(&r, use);
	print_end();
	results_free(&r);
	series_free(&s);
	profile_free(&prof);

	ret = state_is_final(use->state) ? state_exit_code(use->state) :
		EXIT_OK;
out:
	job_status_free(&js);
	return ret;
}
