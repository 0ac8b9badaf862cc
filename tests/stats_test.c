// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of what fsloadctl compare and the result files rest on
 * (ctl/report/stats.c, ctl/lib/json.c, ctl/report/env.c's SHA-256),
 * against known values:
 * closed forms of the t distribution, identities of the incomplete beta
 * function, published Welch's t-test examples, FIPS 180-2 test vectors.
 * Runs on the host.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/flamediff.h"
#include "report/stats.h"
#include "lib/json.h"
#include "lib/print.h"
#include "report/env.h"
#include "report/geometry.h"
#include "lib/sha256.h"

#include "kselftest_harness.h"

#define NEAR(a, b, tol)	EXPECT_LE(fabs((a) - (b)), (tol))

/* I_x(a, 1) = x^a, I_x(1, b) = 1 - (1 - x)^b, I_1/2(a, a) = 1/2. */
TEST(incbeta_identities)
{
	static const double xs[] = { 0.001, 0.1, 0.3, 0.5, 0.77, 0.999 };
	static const double as[] = { 0.5, 1, 2.5, 7, 40 };
	unsigned int i, j;

	for (i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
		for (j = 0; j < sizeof(as) / sizeof(as[0]); j++) {
			NEAR(incbeta(as[j], 1, xs[i]), pow(xs[i], as[j]), 1e-12);
			NEAR(incbeta(1, as[j], xs[i]),
			     1 - pow(1 - xs[i], as[j]), 1e-12);
			NEAR(incbeta(as[j], as[j], 0.5), 0.5, 1e-12);
			/* symmetry: I_x(a, b) = 1 - I_{1-x}(b, a) */
			NEAR(incbeta(as[j], 3.5, xs[i]),
			     1 - incbeta(3.5, as[j], 1 - xs[i]), 1e-12);
		}
	EXPECT_EQ(incbeta(2, 3, 0), 0);
	EXPECT_EQ(incbeta(2, 3, 1), 1);
	EXPECT_TRUE(isnan(incbeta(-1, 3, 0.5)));
	EXPECT_TRUE(isnan(incbeta(2, 3, 1.5)));
}

/* df 1 is Cauchy, df 2 has a closed form too. */
TEST(t_cdf_closed_forms)
{
	double t;

	for (t = -30; t <= 30; t += 0.37) {
		NEAR(t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		NEAR(t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	EXPECT_EQ(t_cdf(0, 7), 0.5);
	EXPECT_EQ(t_cdf(INFINITY, 3), 1);
	/* a large df approaches the normal distribution */
	NEAR(t_cdf(1.959963985, 1e7), 0.975, 1e-6);
}

/* Critical values of Student's t, as printed in every table. */
TEST(t_quantile_tables)
{
	NEAR(t_quantile(0.975, 1), 12.7062047, 1e-6);
	NEAR(t_quantile(0.975, 2), 4.30265273, 1e-6);
	NEAR(t_quantile(0.975, 5), 2.57058184, 1e-6);
	NEAR(t_quantile(0.975, 10), 2.22813885, 1e-6);
	NEAR(t_quantile(0.95, 4), 2.13184679, 1e-6);
	NEAR(t_quantile(0.995, 30), 2.7499957, 1e-6);
	NEAR(t_quantile(0.8, 8), 0.889, 5e-4);
	NEAR(t_quantile(0.8, 18), 0.862, 5e-4);
	NEAR(t_quantile(0.025, 10), -2.22813885, 1e-6);
}

static void sample(const double *x, size_t n, struct stat_sample *s)
{
	sample_of(x, n, s);
}

/*
 * The three examples of Wikipedia's "Welch's t-test" article: t, the
 * Welch-Satterthwaite df and p as published (two or three digits), and to
 * 1e-5 as computed independently (means and variances by hand, p by
 * Simpson's rule over the t density: 2.455356, 24.988529, 0.021378;
 * 1.565434, 9.904741, 0.148842; 2.225512, 24.524635, 0.035485).
 */
TEST(welch_published_examples)
{
	static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9,
		20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8,
		22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	static const double b1[] = { 17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5,
		24.2, 14.7, 21.8 };
	static const double b2[] = { 21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5,
		20.7, 23.4, 21.8, 20.7, 21.7, 21.5, 22.5, 23.6, 21.5, 22.5,
		23.5, 21.5, 21.8 };
	static const double c1[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3,
		18.9, 19.5, 22.0 };
	static const double c2[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7,
		27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3,
		20.4, 23.9, 13.3 };
	struct stat_sample sa, sb;
	struct welch w;

	/* welch_test gives new - base: the article's A1 - A2 negated */
	sample(a1, 15, &sa);
	sample(a2, 15, &sb);
	ASSERT_EQ(welch_test(&sa, &sb, &w), 0);
	NEAR(w.t, 2.46, 0.01);
	NEAR(w.p, 0.021, 0.001);
	NEAR(w.t, 2.455356, 1e-5);
	NEAR(w.df, 24.988529, 1e-5);
	NEAR(w.p, 0.021378, 1e-5);

	sample(b1, 10, &sa);
	sample(b2, 20, &sb);
	ASSERT_EQ(welch_test(&sa, &sb, &w), 0);
	NEAR(w.t, 1.57, 0.01);
	NEAR(w.df, 9.9, 0.05);
	NEAR(w.p, 0.149, 0.001);
	NEAR(w.t, 1.565434, 1e-5);
	NEAR(w.df, 9.904741, 1e-5);
	NEAR(w.p, 0.148842, 1e-5);

	sample(c1, 10, &sa);
	sample(c2, 20, &sb);
	ASSERT_EQ(welch_test(&sa, &sb, &w), 0);
	NEAR(w.t, 2.22, 0.01);
	NEAR(w.df, 24.5, 0.05);
	NEAR(w.p, 0.036, 0.001);
	NEAR(w.t, 2.225512, 1e-5);
	NEAR(w.df, 24.524635, 1e-5);
	NEAR(w.p, 0.035485, 1e-5);
}

/*
 * By hand: a = {1, 2, 3} (mean 2, var 1), b = {4, 5, 6} (mean 5, var 1):
 * se = sqrt(1/3 + 1/3), t = 3 / 0.8165 = 3.6742, df = 4 and
 * p = 2 (1 - T_4(3.6742)) = 0.021312 (T_4 has a closed form:
 * 1/2 + t (t^2 + 6) / (2 (t^2 + 4)^(3/2))).
 */
TEST(welch_by_hand)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct stat_sample sa, sb;
	struct welch w;
	double t, cdf4;

	sample(a, 3, &sa);
	sample(b, 3, &sb);
	NEAR(sa.mean, 2, 1e-12);
	NEAR(sa.sd, 1, 1e-12);
	ASSERT_EQ(welch_test(&sa, &sb, &w), 0);
	t = 3 / sqrt(2.0 / 3);
	NEAR(w.t, t, 1e-12);
	NEAR(w.df, 4, 1e-12);
	cdf4 = 0.5 + t * (t * t + 6) / (2 * pow(t * t + 4, 1.5));
	NEAR(w.p, 2 * (1 - cdf4), 1e-10);
	NEAR(w.p, 0.021312, 1e-6);
}

/* No variance or a single run: no test; the caller's exact mode. */
TEST(welch_degenerate)
{
	static const double a[] = { 5, 5, 5 }, b[] = { 6, 6, 6 }, c[] = { 7 };
	struct stat_sample sa, sb, sc;
	struct welch w;

	sample(a, 3, &sa);
	sample(b, 3, &sb);
	sample(c, 1, &sc);
	EXPECT_EQ(sa.sd, 0);
	EXPECT_EQ(welch_test(&sa, &sb, &w), -1);
	EXPECT_TRUE(isnan(w.p));
	EXPECT_EQ(welch_test(&sa, &sc, &w), -1);
	EXPECT_EQ(sc.sd, 0);
}

/* F-test: equal variances give p = 1; the F(2, 2) cdf is f / (1 + f). */
TEST(variance_test_known)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 10, 20, 30 };
	struct stat_sample sa, sb;
	double f;

	for (f = 0.1; f < 20; f *= 1.7)
		NEAR(f_cdf(f, 2, 2), f / (1 + f), 1e-12);
	sample(a, 3, &sa);
	NEAR(variance_test(&sa, &sa), 1, 1e-12);
	/* F = 100 with (2, 2) df: p = 2 (1 - 100/101) */
	sample(b, 3, &sb);
	NEAR(variance_test(&sa, &sb), 2.0 / 101, 1e-12);
	NEAR(variance_test(&sb, &sa), 2.0 / 101, 1e-12);
}

/* Documentation/results.rst's table of the smallest detectable change rests on this. */
TEST(detectable_change)
{
	/* n = 10, CoV 1 %: (t_.975,18 + t_.8,18) * 1 * sqrt(0.2) */
	NEAR(detectable_change_pct(1, 10, 0.05, 0.8),
	     (2.100922 + 0.862049) * sqrt(0.2), 1e-4);
	/* more runs, smaller changes */
	EXPECT_LT(detectable_change_pct(1, 20, 0.05, 0.8),
		  detectable_change_pct(1, 5, 0.05, 0.8));
	EXPECT_TRUE(isnan(detectable_change_pct(1, 1, 0.05, 0.8)));
}

/* compare's noise mode rests on this: the prediction interval of boots */
TEST(noise_band)
{
	static const double b[] = { 1000, 1002, 998 };
	struct stat_sample sb;

	sample(b, 3, &sb);
	/* t_.975,2 = 4.302653, sd 2: 4.302653 * 2 * sqrt(1/3 + 1) / 1000 */
	NEAR(noise_band_pct(&sb, 1, 0.05), 4.302653 * 2 * sqrt(4.0 / 3) / 10, 1e-4);
	/* two new boots: a narrower band; a lower alpha: a wider one */
	EXPECT_LT(noise_band_pct(&sb, 2, 0.05), noise_band_pct(&sb, 1, 0.05));
	EXPECT_LT(noise_band_pct(&sb, 1, 0.05), noise_band_pct(&sb, 1, 0.01));
	sample(b, 1, &sb);
	EXPECT_TRUE(isnan(noise_band_pct(&sb, 1, 0.05)));
}

TEST(sha256_vectors)
{
	char h[65];
	char *mil = malloc(1000000);

	sha256_hex("", 0, h);
	EXPECT_STREQ(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha256_hex("abc", 3, h);
	EXPECT_STREQ(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, h);
	EXPECT_STREQ(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	ASSERT_NE(mil, NULL);
	memset(mil, 'a', 1000000);
	sha256_hex(mil, 1000000, h);
	EXPECT_STREQ(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(mil);
}

TEST(json_reader)
{
	char err[128];
	struct jval *v;
	const struct jval *x;
	char *t;

	v = json_parse("{\"a\": [1, 2.5e3, -0, 18446744073709551615],"
		       " \"b\": {\"c\": \"x\\u00e9\\ud83d\\ude00\\n\"},"
		       " \"d\": true, \"e\": null}", err, sizeof(err));
	ASSERT_NE(v, NULL);
	x = json_get(v, "a");
	ASSERT_NE(x, NULL);
	EXPECT_EQ(x->n, 4);
	EXPECT_EQ(json_at(x, 1)->num, 2500);
	/* u64 values keep their digits */
	EXPECT_STREQ(json_at(x, 3)->str, "18446744073709551615");
	EXPECT_STREQ(json_str(json_path(v, "b"), "c"), "x\xc3\xa9\xf0\x9f\x98\x80\n");
	EXPECT_TRUE(json_get(v, "d")->b);
	EXPECT_EQ(json_get(v, "e")->type, J_NULL);
	EXPECT_EQ(json_path(v, "b.nope"), NULL);
	t = json_text(json_get(v, "b"));
	EXPECT_STREQ(t, "{\"c\":\"x\xc3\xa9\xf0\x9f\x98\x80\\n\"}");
	free(t);
	json_free(v);

	EXPECT_EQ(json_parse("{\"a\": 1,}", err, sizeof(err)), NULL);
	EXPECT_NE(strstr(err, "offset"), NULL);
	EXPECT_EQ(json_parse("[1 2]", err, sizeof(err)), NULL);
	EXPECT_EQ(json_parse("\"abc", err, sizeof(err)), NULL);
	EXPECT_EQ(json_parse("{} x", err, sizeof(err)), NULL);
	EXPECT_EQ(json_parse("", err, sizeof(err)), NULL);
}

/*
 * compare --flamegraph: the folded stacks of several runs added, every
 * call path's samples, and a box's colour: grey within the sampling
 * error, red for more, blue for less, deeper the larger the change.
 */
TEST(flame_diff)
{
	char path[] = "/tmp/fsload-flamediff-XXXXXX";
	struct path_table t;
	struct folded f;
	double z;
	int fd;
	FILE *o;

	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	o = fdopen(fd, "w");
	ASSERT_NE(o, NULL);
	/* two runs' files concatenated: a;b twice */
	fputs("a;b 3\na;c 2\na;b 4\nd 1\n", o);
	fclose(o);
	ASSERT_EQ(folded_read(path, &f), 0);
	EXPECT_EQ(f.n, 3);
	EXPECT_EQ(f.samples, 10);
	EXPECT_STREQ(f.stacks[0].frames, "a;b");
	EXPECT_EQ(f.stacks[0].samples, 7);
	ASSERT_EQ(path_table_build(&f, &t), 0);
	EXPECT_EQ(path_samples(&t, "a", 1), 9);
	EXPECT_EQ(path_samples(&t, "a;b;x", 3), 7);
	EXPECT_EQ(path_samples(&t, "a;c", 3), 2);
	EXPECT_EQ(path_samples(&t, "d", 1), 1);
	/* whole frames only: "a;" is no path, "e" none sampled */
	EXPECT_EQ(path_samples(&t, "a;", 2), 0);
	EXPECT_EQ(path_samples(&t, "e", 1), 0);
	path_table_free(&t);
	folded_free(&f);

	o = fopen(path, "w");
	ASSERT_NE(o, NULL);
	fputs("a;b\n", o);
	fclose(o);
	EXPECT_EQ(folded_read(path, &f), -EINVAL);
	unlink(path);
	EXPECT_EQ(folded_read(path, &f), -ENOENT);

	/* 100 samples of 10 per op against 144: (1440 - 1000) / sqrt(100 * 100 + 144 * 100) */
	z = flame_diff_z(100, 10, 144, 10);
	NEAR(z, 440 / sqrt(24400), 1e-9);
	EXPECT_TRUE(isnan(flame_diff_z(0, 10, 0, 10)));
	/* within 1.96 standard errors: grey, whichever way */
	EXPECT_EQ(flame_diff_colour(1000, 1100, 1.5, 1.96), 0xd8d8d8);
	EXPECT_EQ(flame_diff_colour(1000, 900, -1.9, 1.96), 0xd8d8d8);
	EXPECT_EQ(flame_diff_colour(0, 0, NAN, 1.96), 0xd8d8d8);
	/* beyond it: red for more (full red), blue for less (full blue) */
	EXPECT_EQ(flame_diff_colour(1000, 1440, z, 1.96) >> 16, 0xff);
	EXPECT_LT(flame_diff_colour(1000, 1440, z, 1.96) & 0xff, 0xff);
	EXPECT_EQ(flame_diff_colour(1440, 1000, -z, 1.96) & 0xff, 0xff);
	EXPECT_LT(flame_diff_colour(1440, 1000, -z, 1.96) >> 16, 0xff);
	/* deeper for a larger change; a path only NEW has: the deepest */
	EXPECT_LT(flame_diff_colour(1000, 2000, 9, 1.96) & 0xff,
		  flame_diff_colour(1000, 1100, 9, 1.96) & 0xff);
	EXPECT_EQ(flame_diff_colour(0, 500, 9, 1.96), 0xff0000);
	EXPECT_EQ(flame_diff_colour(500, 0, -9, 1.96), 0x0000ff);
}

/*
 * xfs_info's output (xfsprogs 6.1.0, mkfs.xfs defaults on a 320 MiB image)
 * as the "geometry" object: each line's values under its own section (a
 * line with a blank section continues the one above), no key twice, so
 * that compare, which looks each key up in the other result, finds two
 * results of the same filesystem alike (issue 31).
 */
static const char xfs_info_text[] =
"meta-data=/dev/vdb               isize=512    agcount=4, agsize=20480 blks\n"
"         =                       sectsz=512   attr=2, projid32bit=1\n"
"         =                       crc=1        finobt=1, sparse=1, rmapbt=0\n"
"         =                       reflink=1    bigtime=1 inobtcount=1 nrext64=0\n"
"data     =                       bsize=4096   blocks=81920, imaxpct=25\n"
"         =                       sunit=0      swidth=0 blks\n"
"naming   =version 2              bsize=4096   ascii-ci=0, ftype=1\n"
"log      =internal log           bsize=4096   blocks=16384, version=2\n"
"         =                       sectsz=512   sunit=0 blks, lazy-count=1\n"
"realtime =none                   extsz=4096   blocks=0, rtextents=0\n";

static struct jval *xfs_geometry(void)
{
	char *text = strdup(xfs_info_text), *out = NULL, err[128];
	struct jval *v = NULL;
	size_t len;
	FILE *f;

	f = open_memstream(&out, &len);
	if (!f || !text)
		goto out;
	print_redirect(f);
	print_begin(true);
	env_print_geometry("xfs", text);
	print_end();
	print_redirect(NULL);
	fclose(f);
	v = json_parse(out, err, sizeof(err));
out:
	free(text);
	free(out);
	return v;
}

TEST(xfs_info_geometry)
{
	static const char *const want[][2] = {
		{ "meta-data.isize", "512" }, { "meta-data.agcount", "4" },
		{ "meta-data.agsize", "20480" }, { "meta-data.sectsz", "512" },
		{ "meta-data.attr", "2" }, { "meta-data.projid32bit", "1" },
		{ "meta-data.crc", "1" }, { "meta-data.finobt", "1" },
		{ "meta-data.sparse", "1" }, { "meta-data.rmapbt", "0" },
		{ "meta-data.reflink", "1" }, { "meta-data.bigtime", "1" },
		{ "meta-data.inobtcount", "1" }, { "meta-data.nrext64", "0" },
		{ "data.bsize", "4096" }, { "data.blocks", "81920" },
		{ "data.imaxpct", "25" }, { "data.sunit", "0" },
		{ "data.swidth", "0" },
		{ "naming", "version 2" }, { "naming.bsize", "4096" },
		{ "naming.ascii-ci", "0" }, { "naming.ftype", "1" },
		{ "log", "internal log" }, { "log.bsize", "4096" },
		{ "log.blocks", "16384" }, { "log.version", "2" },
		{ "log.sectsz", "512" }, { "log.sunit", "0" },
		{ "log.lazy-count", "1" },
		{ "realtime", "none" }, { "realtime.extsz", "4096" },
		{ "realtime.blocks", "0" }, { "realtime.rtextents", "0" },
	};
	const struct jval *ga, *gb, *x;
	struct jval *a = xfs_geometry(), *b = xfs_geometry();
	size_t i, k;

	ASSERT_NE(a, NULL);
	ASSERT_NE(b, NULL);
	ga = json_get(a, "geometry");
	gb = json_get(b, "geometry");
	ASSERT_NE(ga, NULL);
	ASSERT_NE(gb, NULL);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		x = json_get(ga, want[i][0]);
		EXPECT_NE(x, NULL) TH_LOG("no %s", want[i][0]);
		if (x)
			EXPECT_STREQ(x->str, want[i][1]) TH_LOG("%s", want[i][0]);
	}
	/* 34 values, the device not among them, and no key twice */
	EXPECT_EQ(ga->n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < ga->n; i++) {
		EXPECT_EQ(strchr(ga->items[i]->str, '/'), NULL);
		for (k = i + 1; k < ga->n; k++)
			EXPECT_STRNE(ga->keys[i], ga->keys[k]);
	}
	/* compare's rule (env_diff()): each member against json_get()'s */
	for (i = 0; i < ga->n; i++) {
		x = json_get(gb, ga->keys[i]);
		ASSERT_NE(x, NULL);
		EXPECT_STREQ(x->str, ga->items[i]->str) TH_LOG("%s differs",
							       ga->keys[i]);
	}
	json_free(a);
	json_free(b);
}

TEST_HARNESS_MAIN
