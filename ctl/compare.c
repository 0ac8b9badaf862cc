// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl compare BASE.json NEW.json: per phase and metric, both means
 * with their standard deviations, the change, Welch's t-test over the
 * iterations and a verdict; the differences between the two runs'
 * environments.  Exit status 0: no significant regression, 1: a
 * regression, 2: usage (or a comparison refused: debug vs production).
 *
 * Runs under QEMU's instruction clock repeat exactly: when neither side
 * varies, any difference beyond --threshold is real ("exact" mode).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsloadctl.h"
#include "cmds.h"
#include "json.h"
#include "parse.h"
#include "print.h"
#include "stats.h"

#define LIST_MAX	32

struct compare_opts {
	const char *metric;	/* parsed by hand: repeatable, lists */
	const char *phase;
	double threshold;	/* % */
	const char *alpha;
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
	{ "force", ARG_FLAG, COPT(force), NULL,
	  "compare a debug kernel's result with a production kernel's" },
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
		"verdicts: improved, regressed, no significant change; exact mode (neither\n"
		"side varies, e.g. the instruction clock): beyond --threshold is a change.\n"
		"exit status: 0 no significant regression, 1 a regression, 2 usage error or\n"
		"a refused comparison (debug vs production kernel without --force).\n");
}

const struct cmd_desc compare_cmd = {
	.name = "compare",
	.fn = cmd_compare,
	.synopsis = "BASE.json NEW.json [OPTIONS]",
	.desc = "Compare two result files: means, stddevs, change, Welch's t-test, verdicts.",
	.args = compare_args,
	.help_extra = compare_help,
};

/* One side: its runs, each {"job": ..., "phases": [...]}. */
struct side {
	const char *path;
	struct jval *doc;
	const struct jval *runs[1024];
	const char *group[1024];	/* engine of "both": kernel/user */
	size_t nruns;
};

static int load_side(struct side *s, const char *path)
{
	const struct jval *it, *g;
	size_t i;
	static const char *const engines[] = { "kernel", "user" };

	s->path = path;
	s->doc = json_load(path);
	if (!s->doc)
		return EXIT_USAGE;
	it = json_get(s->doc, "iterations");
	if (it && it->type == J_ARR) {
		for (i = 0; i < it->n && i < ARRAY_SIZE(s->runs); i++) {
			s->group[s->nruns] = NULL;
			s->runs[s->nruns++] = it->items[i];
		}
	} else if (json_get(s->doc, "phases")) {
		s->group[0] = NULL;
		s->runs[s->nruns++] = s->doc;
	} else if (json_get(s->doc, "sweep")) {
		errmsg("%s: a thread sweep; compare results of one thread count (--iterations)",
		       path);
		return EXIT_USAGE;
	} else {
		for (i = 0; i < ARRAY_SIZE(engines); i++) {
			g = json_get(s->doc, engines[i]);
			if (g && json_get(g, "phases")) {
				s->group[s->nruns] = engines[i];
				s->runs[s->nruns++] = g;
			}
		}
	}
	if (!s->nruns) {
		errmsg("%s: no results (no \"phases\" or \"iterations\")", path);
		return EXIT_USAGE;
	}
	return 0;
}

static const struct jval *find_phase(const struct jval *run, const char *name)
{
	const struct jval *ph = json_get(run, "phases");
	size_t i;

	for (i = 0; ph && ph->type == J_ARR && i < ph->n; i++) {
		const char *n = json_str(ph->items[i], "name");

		if (n && !strcmp(n, name))
			return ph->items[i];
	}
	return NULL;
}

static double metric_value(const struct jval *phase,
			   const struct metric_desc *m)
{
	const struct jval *types = json_get(phase, "ops_by_type"), *v;
	double sum = 0, cnt = 0;
	size_t i;

	if (!m->path) {	/* lat_avg_ns over every op type */
		for (i = 0; types && types->type == J_ARR && i < types->n; i++) {
			double ls = json_num(types->items[i], "lat_sum_ns");
			double o = json_num(types->items[i], "ops") +
				   json_num(types->items[i], "errors");

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

static bool same_group(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* @m of phase @pname in each of @s's runs of engine @group, into @out. */
static size_t side_values(const struct side *s, const char *group,
			  const char *pname, const struct metric_desc *m,
			  double *out)
{
	const struct jval *ph;
	size_t k, n = 0;
	double v;

	for (k = 0; k < s->nruns; k++) {
		if (!same_group(s->group[k], group))
			continue;
		ph = find_phase(s->runs[k], pname);
		v = ph ? metric_value(ph, m) : NAN;
		if (!isnan(v))
			out[n++] = v;
	}
	return n;
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

/* --- environments -------------------------------------------------------------------- */

struct env_key {
	const char *path;	/* under "environment", or "fsload."/"run." */
	const char *label;
};

static const struct env_key env_keys[] = {
	{ "environment.kernel.release", "kernel release" },
	{ "environment.kernel.version", "kernel build" },
	{ "environment.kernel.cmdline", "kernel command line" },
	{ "environment.kernel.config_sha256", "kernel config" },
	{ "environment.kernel.kaslr", "KASLR" },
	{ "environment.cpu.model", "CPU model" },
	{ "environment.cpu.online", "CPUs online" },
	{ "environment.cpu.freq_driver", "CPU frequency driver" },
	{ "environment.cpu.governor", "CPU governor" },
	{ "environment.memory.total_kib", "memory" },
	{ "environment.mitigations", "CPU vulnerability mitigations" },
	{ "environment.filesystem.type", "filesystem" },
	{ "environment.filesystem.mount_options", "mount options" },
	{ "environment.filesystem.super_options", "filesystem options" },
	{ "environment.filesystem.barrier", "barriers" },
	{ "environment.filesystem.mkfs", "mkfs command" },
	{ "environment.filesystem.geometry_tool.version", "filesystem tool version" },
	{ "environment.filesystem.geometry", "filesystem geometry" },
	{ "environment.filesystem.block_device.model", "device model" },
	{ "environment.filesystem.block_device.size_bytes", "device size" },
	{ "environment.filesystem.block_device.queue", "device queue settings" },
	{ "environment.harness.clock", "clock" },
	{ "fsload.version", "fsload version" },
	{ "fsload.git", "fsload revision" },
	{ "run.engine", "engine" },
};

static char *shorten(const char *s)
{
	char *r;

	if (strlen(s) <= 72)
		return strdup(s);
	if (asprintf(&r, "%.69s...", s) < 0)
		return NULL;
	return r;
}

static void env_diff_one(const char *label, const struct jval *a,
			 const struct jval *b, unsigned int *ndiff)
{
	char *ta = json_text(a), *tb = json_text(b), *sa, *sb;

	if (ta && tb && strcmp(ta, tb)) {
		sa = shorten(ta);
		sb = shorten(tb);
		open_json_object(NULL);
		print_string(PRINT_JSON, "what", NULL, label);
		print_string(PRINT_JSON, "base", NULL, ta);
		print_string(PRINT_JSON, "new", NULL, tb);
		close_json_object();
		print_fp("warning: %s differs: %s -> %s\n", label,
			 sa ? sa : ta, sb ? sb : tb);
		free(sa);
		free(sb);
		(*ndiff)++;
	}
	free(ta);
	free(tb);
}

/* Objects are compared member by member (geometry: which line differs). */
static void env_diff(const struct jval *a, const struct jval *b,
		     unsigned int *ndiff)
{
	const struct jval *va, *vb;
	char label[256];
	unsigned int i;
	size_t k;

	for (i = 0; i < ARRAY_SIZE(env_keys); i++) {
		va = json_path(a, env_keys[i].path);
		vb = json_path(b, env_keys[i].path);
		if (va && vb && va->type == J_OBJ && vb->type == J_OBJ) {
			for (k = 0; k < va->n; k++) {
				snprintf(label, sizeof(label), "%s: %s",
					 env_keys[i].label, va->keys[k]);
				env_diff_one(label, va->items[k],
					     json_get(vb, va->keys[k]), ndiff);
			}
			for (k = 0; k < vb->n; k++)
				if (!json_get(va, vb->keys[k])) {
					snprintf(label, sizeof(label), "%s: %s",
						 env_keys[i].label, vb->keys[k]);
					env_diff_one(label, NULL, vb->items[k],
						     ndiff);
				}
			continue;
		}
		if (!va && !vb)
			continue;
		env_diff_one(env_keys[i].label, va, vb, ndiff);
	}
	/* the parameters, but for the seed and where the output went */
	va = json_path(a, "run.params");
	vb = json_path(b, "run.params");
	for (k = 0; va && va->type == J_OBJ && k < va->n; k++) {
		static const char *const skip[] = {
			"seed", "output", "rerun", "quiet", "progress-ms",
			"dir", "detach",
		};
		bool s = false;

		for (i = 0; i < ARRAY_SIZE(skip); i++)
			s |= !strcmp(va->keys[k], skip[i]);
		if (s)
			continue;
		snprintf(label, sizeof(label), "parameter --%s", va->keys[k]);
		env_diff_one(label, va->items[k], json_get(vb, va->keys[k]),
			     ndiff);
	}
}

static bool debug_kernel(const struct jval *doc, bool *known)
{
	const struct jval *d =
		json_path(doc, "environment.kernel.debug.debug_kernel");

	*known = d && d->type == J_BOOL;
	return *known && d->b;
}

static void taint_note(const struct side *s)
{
	double before = json_num(json_path(s->doc,
				"environment.kernel.taint_before"), "value");
	double after = json_num(json_path(s->doc,
				"environment.kernel.taint_after"), "value");
	const char *flags = json_str(json_path(s->doc,
				"environment.kernel.taint_after"), "flags");

	if (!isnan(before) && !isnan(after) && before != after)
		warnmsg("%s: the kernel became tainted during the run (%s): its log has warnings",
			s->path, flags ? flags : "?");
}

/* --- the table ------------------------------------------------------------------------ */

static void print_side(const char *key, const struct sample *s,
		       const double *v)
{
	size_t i;

	open_json_object(key);
	print_uint(PRINT_JSON, "n", NULL, s->n);
	print_float(PRINT_JSON, "mean", NULL, s->mean);
	print_float(PRINT_JSON, "stddev", NULL, s->sd);
	open_json_array("values");
	for (i = 0; i < s->n; i++)
		print_float(PRINT_JSON, NULL, NULL, v[i]);
	close_json_array();
	close_json_object();
}

static void fmt_ms(char *buf, size_t len, const struct sample *s)
{
	int prec = fabs(s->mean) >= 1e6 ? 0 : fabs(s->mean) >= 100 ? 1 : 3;

	snprintf(buf, len, "%.*f ± %.*f", prec, s->mean, prec, s->sd);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { .threshold = 1.0 };
	const char *mnames[LIST_MAX], *pnames[LIST_MAX], *pos[2];
	unsigned int nm = 0, np = 0, i, j, ndiff = 0, nreg = 0, nimp = 0;
	char **bufs = calloc((size_t)argc + 1, sizeof(char *));
	const struct metric_desc *mlist[LIST_MAX];
	struct side a = { 0 }, b = { 0 };
	bool dbg_a, dbg_b, ka, kb;
	double alpha = 0.05;
	int npos, ret;
	size_t g, r;
	static const char *const groups[] = { NULL, "kernel", "user" };

	if (!bufs)
		return EXIT_SYSERR;
	ret = parse_args(&compare_cmd, &o, NULL, argc, argv, (char **)pos, 2,
			 &npos);
	if (ret)
		goto out;
	ret = EXIT_USAGE;
	if (npos != 2) {
		ret = usage_error("two result files are needed: BASE.json NEW.json");
		goto out;
	}
	if (o.alpha) {
		char *end;

		alpha = strtod(o.alpha, &end);
		if (*end || end == o.alpha || !(alpha > 0) || !(alpha < 1)) {
			ret = usage_error("--alpha: '%s' is not between 0 and 1",
					  o.alpha);
			goto out;
		}
	}
	if (collect_list(argc, argv, "metric", mnames, &nm, bufs) ||
	    collect_list(argc, argv, "phase", pnames, &np, bufs))
		goto out;
	if (!nm) {
		mnames[nm++] = "ops_per_sec";
		mnames[nm++] = "lat_avg_ns";
		mnames[nm++] = "cpu_ns_per_op";
	}
	for (i = 0; i < nm; i++) {
		mlist[i] = NULL;
		for (j = 0; j < ARRAY_SIZE(metrics); j++)
			if (!strcmp(mnames[i], metrics[j].name))
				mlist[i] = &metrics[j];
		if (!mlist[i]) {
			ret = usage_error("unknown metric '%s' (fsloadctl help compare)",
					  mnames[i]);
			goto out;
		}
	}
	ret = load_side(&a, pos[0]);
	if (!ret)
		ret = load_side(&b, pos[1]);
	if (ret)
		goto out;

	dbg_a = debug_kernel(a.doc, &ka);
	dbg_b = debug_kernel(b.doc, &kb);
	if (ka && kb && dbg_a != dbg_b && !o.force) {
		errmsg("refusing to compare a debug kernel's result (%s) with a production kernel's (%s): use --force",
		       dbg_a ? a.path : b.path, dbg_a ? b.path : a.path);
		ret = EXIT_USAGE;
		goto out;
	}

	print_begin(opt_json);
	print_uint(PRINT_JSON, "fsload_json_version", NULL, 1);
	open_json_object("compare");
	print_string(PRINT_JSON, "base", NULL, a.path);
	print_string(PRINT_JSON, "new", NULL, b.path);
	print_float(PRINT_JSON, "threshold_pct", NULL, o.threshold);
	print_float(PRINT_JSON, "alpha", NULL, alpha);
	close_json_object();
	print_fp("base: %s (%zu run%s)\nnew:  %s (%zu run%s)\n", a.path,
		 a.nruns, a.nruns == 1 ? "" : "s", b.path, b.nruns,
		 b.nruns == 1 ? "" : "s");
	if (!json_get(a.doc, "environment") || !json_get(b.doc, "environment"))
		warnmsg("%s has no environment: not a result file of start -o/--json",
			json_get(a.doc, "environment") ? b.path : a.path);
	if (ka != kb)
		warnmsg("only one result says whether its kernel is a debug kernel");
	else if (dbg_a != dbg_b)
		warnmsg("comparing a debug kernel with a production kernel (--force)");
	taint_note(&a);
	taint_note(&b);
	open_json_array("environment_differences");
	env_diff(a.doc, b.doc, &ndiff);
	close_json_array();
	print_fp("\n%-12s %-15s %24s %24s %9s %8s  %s\n", "phase", "metric",
		 "base mean ± sd", "new mean ± sd", "change", "p", "verdict");

	open_json_array("rows");
	for (g = 0; g < ARRAY_SIZE(groups); g++) {
		const struct jval *ref = NULL, *phs;

		for (r = 0; r < a.nruns; r++)
			if (same_group(a.group[r], groups[g])) {
				ref = a.runs[r];
				break;
			}
		phs = json_get(ref, "phases");
		for (r = 0; phs && phs->type == J_ARR && r < phs->n; r++) {
			const char *pname = json_str(phs->items[r], "name");
			char label[96];

			if (!pname)
				continue;
			if (np) {
				bool want = false;

				for (i = 0; i < np; i++)
					want |= !strcmp(pnames[i], pname);
				if (!want)
					continue;
			}
			snprintf(label, sizeof(label), "%s%s%s",
				 groups[g] ? groups[g] : "", groups[g] ? ":" : "",
				 pname);
			for (i = 0; i < nm; i++) {
				const struct metric_desc *m = mlist[i];
				double va[1024], vb[1024], change;
				struct sample sa, sb;
				struct welch w;
				const char *verdict, *mode, *note = NULL;
				char ca[64], cb[64];
				size_t na, nb;
				double vp;
				bool worse, beyond;

				na = side_values(&a, groups[g], pname, m, va);
				nb = side_values(&b, groups[g], pname, m, vb);
				if (!na || !nb)
					continue;
				sample_of(va, na, &sa);
				sample_of(vb, nb, &sb);
				change = sa.mean ? (sb.mean - sa.mean) / fabs(sa.mean) * 100 :
					 (sb.mean ? INFINITY : 0);
				worse = m->higher_better ? change < 0 : change > 0;
				beyond = fabs(change) > o.threshold;
				vp = variance_test(&sa, &sb);
				if (sa.sd == 0 && sb.sd == 0) {
					mode = "exact";
					welch_test(&sa, &sb, &w);
					w.p = NAN;
					verdict = !beyond ? "no significant change" :
						  worse ? "regressed" : "improved";
				} else if (welch_test(&sa, &sb, &w)) {
					/* one side has a single run: no test */
					mode = "untested";
					verdict = !beyond ? "no significant change" :
						  worse ? "regressed" : "improved";
					note = "a single run on one side: threshold only";
				} else {
					mode = "welch";
					verdict = w.p < alpha && beyond ?
						  (worse ? "regressed" : "improved") :
						  "no significant change";
				}
				if (!note && vp < alpha)
					note = sb.sd > sa.sd ? "noisier" : "steadier";
				if (!strcmp(verdict, "regressed"))
					nreg++;
				else if (!strcmp(verdict, "improved"))
					nimp++;

				open_json_object(NULL);
				print_string(PRINT_JSON, "phase", NULL, pname);
				print_string(PRINT_JSON, "engine", NULL, groups[g]);
				print_string(PRINT_JSON, "metric", NULL, m->name);
				print_string(PRINT_JSON, "better", NULL,
					     m->higher_better ? "higher" : "lower");
				print_side("base", &sa, va);
				print_side("new", &sb, vb);
				print_float(PRINT_JSON, "change_pct", NULL, change);
				print_string(PRINT_JSON, "mode", NULL, mode);
				print_float(PRINT_JSON, "t", NULL, w.t);
				print_float(PRINT_JSON, "df", NULL, w.df);
				/* small p-values keep their digits */
				if (isnan(w.p))
					print_null(PRINT_JSON, "p", NULL);
				else {
					char pb[32];

					snprintf(pb, sizeof(pb), "%.4g", w.p);
					print_float(PRINT_JSON, "p", NULL,
						    strtod(pb, NULL));
					print_string(PRINT_JSON, "p_text", NULL, pb);
				}
				if (isnan(vp))
					print_null(PRINT_JSON, "variance_p", NULL);
				else
					print_float(PRINT_JSON, "variance_p", NULL, vp);
				print_string(PRINT_JSON, "verdict", NULL, verdict);
				print_string(PRINT_JSON, "note", NULL, note);
				close_json_object();

				fmt_ms(ca, sizeof(ca), &sa);
				fmt_ms(cb, sizeof(cb), &sb);
				print_fp("%-12s %-15s %25s %25s %+8.2f%% ", label,
					 m->name, ca, cb, change);
				if (isnan(w.p))
					print_fp("%8s", !strcmp(mode, "exact") ?
						 "exact" : "-");
				else if (w.p < 0.0001)
					print_fp("%8.1e", w.p);
				else
					print_fp("%8.4f", w.p);
				print_fp("  %s%s%s%s\n", verdict, note ? " (" : "",
					 note ? note : "", note ? ")" : "");
			}
		}
	}
	close_json_array();
	print_uint(PRINT_JSON, "environment_differences_count", NULL, ndiff);
	print_uint(PRINT_JSON, "regressions", NULL, nreg);
	print_uint(PRINT_JSON, "improvements", NULL, nimp);
	print_fp("\n%u regression%s, %u improvement%s (threshold %.2f%%, alpha %g)%s\n",
		 nreg, nreg == 1 ? "" : "s", nimp, nimp == 1 ? "" : "s",
		 o.threshold, alpha,
		 ndiff ? "; the environments differ (warnings above)" : "");
	print_end();
	ret = nreg ? 1 : EXIT_OK;
out:
	for (i = 0; i < (unsigned int)argc + 1; i++)
		free(bufs[i]);
	free(bufs);
	json_free(a.doc);
	json_free(b.doc);
	return ret;
}
