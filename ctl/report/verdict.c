// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the verdict on one figure of two results (report/verdict.h).
 */
#include <math.h>
#include <stdio.h>

#include "lib/print.h"
#include "report/verdict.h"

void judge(const double *va, size_t na, const double *vb, size_t nb,
	   const struct verdict_rule *r, struct verdict *v)
{
	const struct stat_sample *sa = &v->sa, *sb = &v->sb;
	bool worse, beyond;

	sample_of(va, na, &v->sa);
	sample_of(vb, nb, &v->sb);
	v->change = sa->mean ? (sb->mean - sa->mean) / fabs(sa->mean) * 100 :
		    (sb->mean ? INFINITY : 0);
	worse = r->higher_better ? v->change < 0 : v->change > 0;
	beyond = fabs(v->change) > r->threshold;
	v->vp = variance_test(sa, sb);
	v->noise = NAN;
	v->note = NULL;
	if (r->base_boots > 1 && na > 1) {
		/* BASE's boots measured the noise */
		v->mode = "noise";
		welch_test(sa, sb, &v->w);
		v->w.p = NAN;
		v->noise = noise_band_pct(sa, r->new_boots > 1 ? nb : 1,
					  r->alpha);
		beyond = beyond && fabs(v->change) > v->noise;
		v->verdict = !beyond ? "no significant change" :
			     worse ? "regressed" : "improved";
		snprintf(v->nbuf, sizeof(v->nbuf),
			 "noise ±%.3f%% over %zu boots", v->noise, na);
		v->note = v->nbuf;
	} else if (r->wall && na < 2 && nb < 2) {
		/* one wall-clock run a side: a 1% change is a coin toss */
		v->mode = "unmeasured";
		welch_test(sa, sb, &v->w);
		v->w.p = NAN;
		v->verdict = beyond ? "noise not measured" :
			     "no significant change";
		v->note = "one run a side: repeat with start --iterations N";
	} else if (r->wall && (na < 2 || nb < 2)) {
		/* the side with several runs measures the noise */
		const struct stat_sample *many = na > 1 ? sa : sb;

		v->mode = "noise";
		welch_test(sa, sb, &v->w);
		v->w.p = NAN;
		v->noise = noise_band_pct(many, 1, r->alpha);
		beyond = beyond && !(fabs(v->change) <= v->noise);
		v->verdict = !beyond ? "no significant change" :
			     worse ? "regressed" : "improved";
		snprintf(v->nbuf, sizeof(v->nbuf),
			 "noise ±%.3f%% over %zu runs of %s", v->noise,
			 many->n, many == sa ? "BASE" : "NEW");
		v->note = v->nbuf;
	} else if (sa->sd == 0 && sb->sd == 0) {
		v->mode = "threshold";
		welch_test(sa, sb, &v->w);
		v->w.p = NAN;
		v->verdict = !beyond ? "no significant change" :
			     worse ? "regressed" : "improved";
		v->note = "no variation: noise not measured, threshold only";
	} else if (welch_test(sa, sb, &v->w)) {
		/* one side has a single run: no test */
		v->mode = "untested";
		v->verdict = !beyond ? "no significant change" :
			     worse ? "regressed" : "improved";
		v->note = "a single run on one side: threshold only";
	} else {
		v->mode = "welch";
		v->verdict = v->w.p < r->alpha && beyond ?
			     (worse ? "regressed" : "improved") :
			     "no significant change";
	}
	if (!v->note && v->vp < r->alpha)
		v->note = sb->sd > sa->sd ? "noisier" : "steadier";
}


void print_sample_json(const char *key, const struct stat_sample *s,
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
