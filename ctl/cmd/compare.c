// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl compare BASE.json NEW.json: per phase and metric, both means
 * with their standard deviations, the change, Welch's t-test over the
 * iterations and a verdict; the differences between the two runs'
 * environments.  Exit status 0: no significant regression, 1: a
 * regression, 2: usage (or a comparison refused: other workloads, debug
 * vs production kernel, instruction clock vs wall clock, another CPU
 * identity or string-op flags), 7 (EXIT_UNMEASURED): no regression, but
 * changes beyond --threshold between single wall-clock runs, whose noise
 * nothing measured ("noise not measured": repeat with --iterations).
 *
 * A result file may hold several boots ("boots": scripts/bisect-step
 * --boots): then the noise is measured, and a change counts only beyond
 * it (the prediction interval of the base's boot means).  Runs under
 * QEMU's instruction clock repeat within a boot, not across boots: two
 * single-boot results without variation are judged by --threshold alone
 * ("threshold" mode), never called exact.  On the wall clock, a side's
 * iterations measure the noise; with one run a side nothing does.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/json.h"
#include "lib/parse.h"
#include "lib/print.h"
#include "lib/msg.h"
#include "engine/job.h"
#include "report/envdiff.h"
#include "report/profdiff.h"
#include "report/resultset.h"
#include "report/stats.h"
#include "report/verdict.h"
#include "cmd/cmds.h"

#define LIST_MAX	32

struct compare_opts {
	const char *metric;	/* parsed by hand: repeatable, lists */
	const char *phase;
	double threshold;	/* % */
	const char *alpha;
	uint32_t functions;
	const char *folded;
	const char *flamegraph;
	const char *function_error;
	bool force;
};

#define COPT(f)	offsetof(struct compare_opts, f)

static const struct arg_desc compare_args[] = {
	{ "metric", ARG_STR, COPT(metric), "M[,M...]",
	  "metrics to compare, repeatable (default ops_per_sec,lat_avg_ns,cpu_ns_per_op; see below)" },
	{ "phase", ARG_STR, COPT(phase), "NAME[,NAME...]",
	  "only these phases, repeatable (default: every phase of BASE)" },
	{ "threshold", ARG_SECONDS, COPT(threshold), "PCT",
	  "smallest change in % that counts (default 1); in exact mode the only test" },
	{ "alpha", ARG_STR, COPT(alpha), "A",
	  "significance level of the t-test (default 0.05)" },
	{ "functions", ARG_U32, COPT(functions), "N",
	  "of results with CPU profiles (start --cpu-profile): the N functions whose cost per op changed most, per phase and op type (default 10; 0: none)" },
	{ "folded", ARG_STR, COPT(folded), "BASE,NEW",
	  "with --flamegraph: the folded stacks of BASE and NEW (start --folded PREFIX; the files of several runs concatenated), as their two PREFIXes" },
	{ "flamegraph", ARG_STR, COPT(flamegraph), "PREFIX",
	  "with --folded: a differential flame graph per phase and op type of the functions, PREFIX-<index>-<phase>-<op>.svg: as wide as NEW's samples, red where the cost per op grew beyond the sampling error, blue where it fell, grey within it" },
	{ "function-error", ARG_STR, COPT(function_error), "boots|sampling",
	  "the functions' noise: the rows' rules and beyond the sampling error (boots, the default), or the sampling error over every boot's samples and --threshold alone (sampling: a function's band from a few boots is itself noisy)" },
	{ "force", ARG_FLAG, COPT(force), NULL,
	  "compare anyway: other workloads (parameters), a debug kernel with a production one, icount with wall clock, another --lat-sample, another CPU (identity, string-op flags)" },
	{ NULL },
};

/* A metric: where its value is in a phase object, which way is better. */
struct metric_desc {
	const char *name;
	const char *path;	/* in the phase; NULL: computed */
	bool higher_better;
	const char *what;
};

static const struct metric_desc metrics[] = {
	{ "ops_per_sec", "ops_per_sec", true, "operations per second" },
	{ "mib_per_sec", "mib_per_sec", true, "MiB written and read per second" },
	{ "elapsed_ns", "elapsed_ns", false, "the phase's wall time" },
	{ "lat_avg_ns", NULL, false, "mean latency, all op types" },
	{ "p50_ns", "latency.p50_ns", false, "median latency (one op type)" },
	{ "p90_ns", "latency.p90_ns", false, "90th percentile latency" },
	{ "p99_ns", "latency.p99_ns", false, "99th percentile latency" },
	{ "p99_9_ns", "latency.p99_9_ns", false, "99.9th percentile latency" },
	{ "cpu_ns_per_op", "cpu.worker_ns_per_op", false,
	  "workers' CPU per op (instructions under --icount)" },
	{ "total_ns_per_op", "cpu.total_ns_per_op", false,
	  "workers' + background + tail CPU per op" },
	{ "instructions_per_op", "cpu.instructions_per_op", false,
	  "PMU instructions per op" },
	{ "cycles_per_op", "cpu.cycles_per_op", false, "PMU cycles per op" },
};

static void compare_help(FILE *f)
{
	unsigned int i;

	fprintf(f, "metrics (per phase):\n");
	for (i = 0; i < ARRAY_SIZE(metrics); i++)
		fprintf(f, "  %-24s %s (%s is better)\n", metrics[i].name,
			metrics[i].what,
			metrics[i].higher_better ? "higher" : "lower");
	fprintf(f,
		"verdicts: improved, regressed, no significant change, noise not measured.\n"
		"Modes: noise (BASE holds several boots, or on the wall clock one side has\n"
		"one run and the other several: beyond --threshold and outside the 1-alpha\n"
		"prediction interval of those), welch (t-test over the iterations),\n"
		"threshold (neither side varies: one boot each under the instruction clock,\n"
		"noise not measured), unmeasured (one wall-clock run a side: a change\n"
		"beyond --threshold is \"noise not measured\", never a regression; repeat\n"
		"both runs with start --iterations N, or give BASE several boots), untested.\n"
		"exit status: 0 no significant regression, 1 a regression, 2 usage error,\n"
		"nothing compared, or a refused comparison (other workload parameters, debug\n"
		"vs production kernel, QEMU's instruction clock vs the wall clock, another\n"
		"--lat-sample, another CPU: vendor, family, model, stepping or the string-op\n"
		"flags rep_good, erms, fsrm, fsrs; --force), 7 no regression but changes\n"
		"whose noise was not measured (verdict \"noise not measured\").\n");
}

const struct cmd_desc compare_cmd = {
	.name = "compare",
	.fn = cmd_compare,
	.synopsis = "BASE.json NEW.json [OPTIONS]",
	.desc = "Compare two result files: means, stddevs, change, Welch's t-test, verdicts.",
	.args = compare_args,
	.help_extra = compare_help,
};

static double metric_value(const struct jval *phase, const void *arg)
{
	const struct metric_desc *m = arg;
	const struct jval *types = json_get(phase, "ops_by_type"), *v;
	double sum = 0, cnt = 0;
	size_t i;

	if (!m->path) {
		/*
		 * lat_avg_ns over every op type: the latency sum covers the
		 * successful operations timed only (sampled; every one in
		 * an older result), so it is divided by those.
		 */
		for (i = 0; types && types->type == J_ARR && i < types->n; i++) {
			double ls = json_num(types->items[i], "lat_sum_ns");
			double o = json_num(types->items[i], "sampled");

			if (isnan(o))
				o = json_num(types->items[i], "ops");

			if (isnan(ls) || isnan(o))
				return NAN;
			sum += ls;
			cnt += o;
		}
		return cnt > 0 ? sum / cnt : NAN;
	}
	if (!strncmp(m->path, "latency.", 8)) {
		/* percentiles: of the phase's only op type */
		if (!types || types->type != J_ARR || types->n != 1)
			return NAN;
		phase = types->items[0];
	}
	v = json_path(phase, m->path);
	return v && v->type == J_NUM ? v->num : NAN;
}

/* "a,b" lists from every --NAME of argv, into @out. */
static int collect_list(int argc, char **argv, const char *name,
			const char **out, unsigned int *n, char **bufs)
{
	size_t len = strlen(name);
	char *tok, *save;
	int i;

	*n = 0;
	for (i = 1; i < argc; i++) {
		const char *v = NULL;

		if (!strncmp(argv[i], "--", 2) && !strncmp(argv[i] + 2, name, len)) {
			if (argv[i][2 + len] == '=')
				v = argv[i] + 3 + len;
			else if (!argv[i][2 + len] && i + 1 < argc)
				v = argv[++i];
		}
		if (!v)
			continue;
		bufs[i] = strdup(v);
		for (tok = strtok_r(bufs[i], ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (*n == LIST_MAX)
				return usage_error("--%s: at most %d", name,
						   LIST_MAX);
			out[(*n)++] = tok;
		}
	}
	return 0;
}

/* --- the table ------------------------------------------------------------------------ */

static void fmt_ms(char *buf, size_t len, const struct stat_sample *s)
{
	int prec = fabs(s->mean) >= 1e6 ? 0 : fabs(s->mean) >= 100 ? 1 : 3;

	snprintf(buf, len, "%.*f ± %.*f", prec, s->mean, prec, s->sd);
}

/* One compare command: what it compares and what it found. */
struct compare {
	struct compare_opts o;
	double alpha;
	const char *mnames[LIST_MAX], *pnames[LIST_MAX];
	const struct metric_desc *mlist[LIST_MAX];
	unsigned int nm, np;
	/* rows per metric and per phase of the lists, rows in all */
	unsigned int mrows[LIST_MAX], prows[LIST_MAX], nrows;
	unsigned int ndiff, nreg, nimp, nunm;
	bool wall;		/* not both timed by the instruction clock */
	struct result_side a, b;
	struct flame_files ff;		/* --folded, --flamegraph */
	char *folded_base;
};

/* One row: a metric of a phase in both results, and its verdict. */
struct compare_row {
	const char *group, *pname;
	const struct metric_desc *m;
	double va[RUNS_MAX], vb[RUNS_MAX];
	size_t na, nb;
	struct verdict v;
};

/* --metric's names into c->mlist; the default three without one. */
static int compare_metrics(struct compare *c)
{
	unsigned int i, j;

	if (!c->nm) {
		c->mnames[c->nm++] = "ops_per_sec";
		c->mnames[c->nm++] = "lat_avg_ns";
		c->mnames[c->nm++] = "cpu_ns_per_op";
	}
	for (i = 0; i < c->nm; i++) {
		char names[512];
		size_t used = 0;

		c->mlist[i] = NULL;
		for (j = 0; j < ARRAY_SIZE(metrics); j++)
			if (!strcmp(c->mnames[i], metrics[j].name))
				c->mlist[i] = &metrics[j];
		if (c->mlist[i])
			continue;
		names[0] = '\0';
		for (j = 0; j < ARRAY_SIZE(metrics) && used < sizeof(names); j++)
			used += snprintf(names + used, sizeof(names) - used,
					 "%s%s", j ? ", " : "", metrics[j].name);
		return usage_error("unknown metric '%s'; the metrics: %s",
				   c->mnames[i], names);
	}
	return 0;
}

/* The options; the two files in @pos; @bufs holds the lists' copies. */
static int compare_parse(struct compare *c, struct cmd_ctx *ctx, int argc,
			 char **argv, const char **pos, char **bufs)
{
	int npos, ret;
	char *end;

	ret = parse_args(&compare_cmd, ctx, &c->o, NULL, argc, argv,
			 (char **)pos, 2, &npos);
	if (ret)
		return ret;
	if (npos != 2)
		return usage_error("two result files are needed: BASE.json NEW.json");
	if (c->o.alpha) {
		c->alpha = strtod(c->o.alpha, &end);
		if (*end || end == c->o.alpha || !(c->alpha > 0) ||
		    !(c->alpha < 1))
			return usage_error("--alpha: '%s' is not between 0 and 1",
					   c->o.alpha);
	}
	if (!c->o.folded != !c->o.flamegraph)
		return usage_error("--folded and --flamegraph go together");
	if (c->o.folded) {
		const char *comma = strchr(c->o.folded, ',');

		if (!comma || comma == c->o.folded || !comma[1] ||
		    strchr(comma + 1, ','))
			return usage_error("--folded: BASE,NEW (two prefixes), not '%s'",
					   c->o.folded);
		if (!c->o.functions)
			return usage_error("--flamegraph: not with --functions 0");
		c->folded_base = strndup(c->o.folded,
					 (size_t)(comma - c->o.folded));
		if (!c->folded_base)
			return EXIT_SYSERR;
		c->ff.base = c->folded_base;
		c->ff.new = comma + 1;
		c->ff.out = c->o.flamegraph;
	}
	if (c->o.function_error) {
		if (!strcmp(c->o.function_error, "sampling"))
			c->ff.sampling_only = true;
		else if (strcmp(c->o.function_error, "boots"))
			return usage_error("--function-error: boots or sampling, not '%s'",
					   c->o.function_error);
	}
	if (collect_list(argc, argv, "metric", c->mnames, &c->nm, bufs) ||
	    collect_list(argc, argv, "phase", c->pnames, &c->np, bufs))
		return EXIT_USAGE;
	return compare_metrics(c);
}

/* Both files, and whether they may be compared: phases, workload, kernel. */
static int compare_load(struct compare *c, const char *const *pos)
{
	struct result_side *a = &c->a, *b = &c->b;
	unsigned int i, nwork = 0;
	const char *clk_a, *clk_b;
	bool dbg_a, dbg_b, ka, kb, one;
	char what[512];
	int ret;

	ret = load_side(a, pos[0]);
	if (!ret)
		ret = load_side(b, pos[1]);
	if (ret)
		return ret;
	for (i = 0; i < c->np; i++) {
		char names[2048];

		if (side_has_phase(a, c->pnames[i]))
			continue;
		side_phase_names(a, names, sizeof(names));
		return usage_error("unknown phase '%s': %s has %s",
				   c->pnames[i], a->path, names);
	}
	if (!c->o.force) {
		envdiff_workload(a->doc, b->doc, true, &nwork);
		if (nwork) {
			errmsg("refusing to compare other workloads: repeat BASE's (start --rerun %s), or --force",
			       a->path);
			return EXIT_USAGE;
		}
	}
	dbg_a = envdiff_debug_kernel(a->doc, &ka);
	dbg_b = envdiff_debug_kernel(b->doc, &kb);
	if (ka && kb && dbg_a != dbg_b && !c->o.force) {
		errmsg("refusing to compare a debug kernel's result (%s) with a production kernel's (%s): use --force",
		       dbg_a ? a->path : b->path, dbg_a ? b->path : a->path);
		return EXIT_USAGE;
	}
	clk_a = envdiff_clock(a->doc);
	clk_b = envdiff_clock(b->doc);
	if (clk_a && clk_b && strcmp(clk_a, clk_b) && !c->o.force) {
		errmsg("refusing to compare a result timed by the %s clock (%s) with one timed by the %s clock (%s): under QEMU's instruction clock (icount) ns are instructions; use --force",
		       clk_a, a->path, clk_b, b->path);
		return EXIT_USAGE;
	}
	c->wall = !clk_a || !clk_b || strcmp(clk_a, "icount") ||
		  strcmp(clk_b, "icount");
	if (envdiff_lat_sample(a->doc) != envdiff_lat_sample(b->doc) && !c->o.force) {
		errmsg("refusing to compare a result that timed 1 op in %g (%s) with one that timed 1 op in %g (%s): the latencies are of other samples, the engine's cost per op differs; use --force",
		       envdiff_lat_sample(a->doc), a->path, envdiff_lat_sample(b->doc),
		       b->path);
		return EXIT_USAGE;
	}
	if (envdiff_cpu(a->doc, b->doc, what, sizeof(what), &one) &&
	    !c->o.force) {
		errmsg("refusing to compare results taken on different CPUs (%s, %s: %s): another identity or string-op flags make the kernel run other string routines (memset, memcpy, copy_*_user), and QEMU's instruction clock counts a rep string instruction once per iteration; use --force",
		       a->path, b->path, what);
		return EXIT_USAGE;
	}
	return 0;
}

/* What is compared, the warnings about the results, their environments. */
static void compare_header(struct compare *c, bool json)
{
	const struct result_side *a = &c->a, *b = &c->b;
	bool dbg_a, dbg_b, ka, kb, one;
	const char *clock;
	char what[512];

	print_begin(json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	open_json_object("compare");
	print_string(PRINT_JSON, "base", NULL, a->path);
	print_string(PRINT_JSON, "new", NULL, b->path);
	print_float(PRINT_JSON, "threshold_pct", NULL, c->o.threshold);
	print_float(PRINT_JSON, "alpha", NULL, c->alpha);
	close_json_object();
	print_fp("base: %s (%zu run%s, %u boot%s)\nnew:  %s (%zu run%s, %u boot%s)\n",
		 a->path, a->nruns, a->nruns == 1 ? "" : "s", a->nboots,
		 a->nboots == 1 ? "" : "s", b->path, b->nruns,
		 b->nruns == 1 ? "" : "s", b->nboots, b->nboots == 1 ? "" : "s");
	clock = envdiff_clock(a->doc);
	if (a->nboots < 2 && clock && !strcmp(clock, "icount"))
		warnmsg("%s is one boot under the instruction clock: the noise between boots is not measured (a boot's runs repeat, boots do not); verdicts rest on --threshold",
			a->path);
	if (!json_get(a->doc, "environment") || !json_get(b->doc, "environment"))
		warnmsg("%s has no environment: not a result file of start -o/--json",
			json_get(a->doc, "environment") ? b->path : a->path);
	dbg_a = envdiff_debug_kernel(a->doc, &ka);
	dbg_b = envdiff_debug_kernel(b->doc, &kb);
	if (ka != kb)
		warnmsg("only one result says whether its kernel is a debug kernel");
	else if (dbg_a != dbg_b)
		warnmsg("comparing a debug kernel with a production kernel (--force)");
	if (!clock != !envdiff_clock(b->doc))
		warnmsg("only one result says which clock timed it (harness.clock): an older result file");
	if (envdiff_lat_sample(a->doc) != envdiff_lat_sample(b->doc))
		warnmsg("comparing a result that timed 1 op in %g with one that timed 1 op in %g (--force): latencies of other samples",
			envdiff_lat_sample(a->doc), envdiff_lat_sample(b->doc));
	if (envdiff_cpu(a->doc, b->doc, what, sizeof(what), &one))
		warnmsg("comparing results taken on different CPUs (--force): %s",
			what);
	else if (one)
		warnmsg("only %s records its CPU's identity and string-op flags (environment.cpu.id, string_ops): the other is an older result file, the CPUs are not checked",
			json_path(a->doc, "environment.cpu.id") ? a->path :
			b->path);
	envdiff_taint_note(a);
	envdiff_taint_note(b);
	open_json_array("environment_differences");
	envdiff_environment(a->doc, b->doc, &c->ndiff);
	close_json_array();
	print_fp("\n%-12s %-15s %24s %24s %9s %8s  %s\n", "phase", "metric",
		 "base mean ± sd", "new mean ± sd", "change", "p", "verdict");
}

/* The statistics of @row and its verdict: noise band, threshold or t-test. */
static void compare_verdict(const struct compare *c, struct compare_row *row)
{
	const struct verdict_rule rule = {
		.threshold = c->o.threshold,
		.alpha = c->alpha,
		.higher_better = row->m->higher_better,
		.base_boots = c->a.nboots,
		.new_boots = c->b.nboots,
		.wall = c->wall,
	};

	judge(row->va, row->na, row->vb, row->nb, &rule, &row->v);
}

static void print_row(const struct compare_row *row, const char *label)
{
	const struct verdict *v = &row->v;
	const struct compare_row *r = row;
	char ca[64], cb[64];

	open_json_object(NULL);
	print_string(PRINT_JSON, "phase", NULL, r->pname);
	print_string(PRINT_JSON, "engine", NULL, r->group);
	print_string(PRINT_JSON, "metric", NULL, r->m->name);
	print_string(PRINT_JSON, "better", NULL,
		     r->m->higher_better ? "higher" : "lower");
	print_sample_json("base", &v->sa, r->va);
	print_sample_json("new", &v->sb, r->vb);
	print_float(PRINT_JSON, "change_pct", NULL, v->change);
	print_string(PRINT_JSON, "mode", NULL, v->mode);
	if (isnan(v->noise))
		print_null(PRINT_JSON, "noise_pct", NULL);
	else
		print_float(PRINT_JSON, "noise_pct", NULL, v->noise);
	print_float(PRINT_JSON, "t", NULL, v->w.t);
	print_float(PRINT_JSON, "df", NULL, v->w.df);
	/* small p-values keep their digits */
	if (isnan(v->w.p)) {
		print_null(PRINT_JSON, "p", NULL);
	} else {
		char pb[32];

		snprintf(pb, sizeof(pb), "%.4g", v->w.p);
		print_float(PRINT_JSON, "p", NULL, strtod(pb, NULL));
		print_string(PRINT_JSON, "p_text", NULL, pb);
	}
	if (isnan(v->vp))
		print_null(PRINT_JSON, "variance_p", NULL);
	else
		print_float(PRINT_JSON, "variance_p", NULL, v->vp);
	print_string(PRINT_JSON, "verdict", NULL, v->verdict);
	print_string(PRINT_JSON, "note", NULL, v->note);
	close_json_object();

	fmt_ms(ca, sizeof(ca), &v->sa);
	fmt_ms(cb, sizeof(cb), &v->sb);
	print_fp("%-12s %-15s %25s %25s %+8.2f%% ", label, r->m->name, ca, cb,
		 v->change);
	if (isnan(v->w.p))
		print_fp("%8s", "-");
	else if (v->w.p < 0.0001)
		print_fp("%8.1e", v->w.p);
	else
		print_fp("%8.4f", v->w.p);
	print_fp("  %s%s%s%s\n", v->verdict, v->note ? " (" : "",
		 v->note ? v->note : "", v->note ? ")" : "");
}

/* Whether --phase asks for @pname (every phase without --phase). */
static bool phase_wanted(const struct compare *c, const char *pname)
{
	unsigned int i;

	for (i = 0; i < c->np; i++)
		if (!strcmp(c->pnames[i], pname))
			return true;
	return !c->np;
}

/* Every metric of phase @pname of engine @group (NULL: not "both"). */
static void compare_phase(struct compare *c, const char *group,
			  const char *pname)
{
	static struct compare_row row;
	unsigned int i, j;
	char label[96];

	snprintf(label, sizeof(label), "%s%s%s", group ? group : "",
		 group ? ":" : "", pname);
	for (i = 0; i < c->nm; i++) {
		row.group = group;
		row.pname = pname;
		row.m = c->mlist[i];
		row.na = side_values(&c->a, group, pname, metric_value, row.m,
				     row.va);
		row.nb = side_values(&c->b, group, pname, metric_value, row.m,
				     row.vb);
		if (!row.na || !row.nb)
			continue;
		c->mrows[i]++;
		for (j = 0; j < c->np; j++)
			c->prows[j] += !strcmp(c->pnames[j], pname);
		c->nrows++;
		compare_verdict(c, &row);
		if (!strcmp(row.v.verdict, "regressed"))
			c->nreg++;
		else if (!strcmp(row.v.verdict, "improved"))
			c->nimp++;
		else if (!strcmp(row.v.mode, "unmeasured") &&
			 strcmp(row.v.verdict, "no significant change"))
			c->nunm++;
		print_row(&row, label);
	}
}

/* The functions that changed most in phase @pname of engine @group. */
static void compare_phase_functions(struct compare *c, const char *group,
				    const char *pname)
{
	const struct verdict_rule rule = {
		.threshold = c->o.threshold,
		.alpha = c->alpha,
		.higher_better = false,
		.base_boots = c->a.nboots,
		.new_boots = c->b.nboots,
	};

	compare_functions(&c->a, &c->b, group, pname, &rule,
			  c->o.functions,
			  c->ff.out || c->ff.sampling_only ? &c->ff : NULL);
}

/*
 * @fn for every phase asked for: per engine of a list (or none), per
 * phase of BASE's first run.
 */
static void for_each_phase(struct compare *c,
			   void (*fn)(struct compare *c, const char *group,
				      const char *pname))
{
	const struct jval *ref, *phs;
	const char *pname, *group;
	size_t r;
	int g;

	/* -1: no engine's (one run, iterations) */
	for (g = -1; g < ENGINE_COUNT; g++) {
		group = g < 0 ? NULL : engine_name(g);
		ref = NULL;
		for (r = 0; r < c->a.nruns; r++)
			if (same_group(c->a.group[r], group)) {
				ref = c->a.runs[r];
				break;
			}
		phs = json_get(ref, "phases");
		for (r = 0; phs && phs->type == J_ARR && r < phs->n; r++) {
			pname = json_str(phs->items[r], "name");
			if (pname && phase_wanted(c, pname))
				fn(c, group, pname);
		}
	}
}

/* The rows, then the functions that changed (results with profiles). */
static void compare_rows(struct compare *c)
{
	open_json_array("rows");
	for_each_phase(c, compare_phase);
	close_json_array();
	if (!c->o.functions)
		return;
	open_json_array("functions");
	for_each_phase(c, compare_phase_functions);
	close_json_array();
}

/* The totals; EXIT_USAGE when a metric or phase asked for had no row. */
static int compare_summary(struct compare *c)
{
	unsigned int i, j;

	for (i = 0; i < c->nm; i++)
		if (!c->mrows[i])
			break;
	for (j = 0; j < c->np; j++)
		if (!c->prows[j])
			break;
	if (!c->nrows || i < c->nm || j < c->np) {
		close_json_array();
		print_end();
		if (j < c->np)
			errmsg("nothing compared for phase %s: NEW lacks it, or the metrics",
			       c->pnames[j]);
		else if (i < c->nm)
			errmsg("nothing compared for metric %s: no phase has it in both results",
			       c->mnames[i]);
		else
			errmsg("nothing compared: no phase and metric has a value in both results");
		return EXIT_USAGE;
	}
	print_uint(PRINT_JSON, "environment_differences_count", NULL, c->ndiff);
	print_uint(PRINT_JSON, "regressions", NULL, c->nreg);
	print_uint(PRINT_JSON, "improvements", NULL, c->nimp);
	print_uint(PRINT_JSON, "noise_not_measured", NULL, c->nunm);
	print_fp("\n%u regression%s, %u improvement%s (threshold %.2f%%, alpha %g)%s\n",
		 c->nreg, c->nreg == 1 ? "" : "s", c->nimp,
		 c->nimp == 1 ? "" : "s", c->o.threshold, c->alpha,
		 c->ndiff ? "; the environments differ (warnings above)" : "");
	print_end();
	if (c->nunm)
		warnmsg("%u change%s beyond --threshold between single wall-clock runs: the noise is not measured, so %s neither a regression nor an improvement; repeat both with start --iterations N (5 or more), or give each side several boots (scripts/merge-boots, scripts/bisect-step --boots)",
			c->nunm, c->nunm == 1 ? "" : "s",
			c->nunm == 1 ? "it is" : "they are");
	if (c->nreg)
		return 1;
	return c->nunm ? EXIT_UNMEASURED : EXIT_OK;
}

int cmd_compare(struct cmd_ctx *ctx, int argc, char **argv)
{
	/* large: every run's figures of both files */
	static struct compare c = {
		.o = { .threshold = 1.0, .functions = 10 },
		.alpha = 0.05,
	};
	char **bufs = calloc((size_t)argc + 1, sizeof(char *));
	const char *pos[2];
	unsigned int i;
	int ret;

	if (!bufs)
		return EXIT_SYSERR;
	ret = compare_parse(&c, ctx, argc, argv, pos, bufs);
	if (!ret)
		ret = compare_load(&c, pos);
	if (!ret) {
		compare_header(&c, ctx->json);
		compare_rows(&c);
		ret = compare_summary(&c);
	}
	for (i = 0; i < (unsigned int)argc + 1; i++)
		free(bufs[i]);
	free(bufs);
	json_free(c.a.doc);
	json_free(c.b.doc);
	free(c.folded_base);
	return ret;
}
