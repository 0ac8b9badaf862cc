// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the engine code shared by the module and fsloadctl
 * (include/fsload/engine.h), and of the percentiles fsloadctl computes from its
 * histograms (ctl/nl/hist.c), against known inputs and against the kernel's
 * interval percentiles.  Runs on the host.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/kshim.h"
#include <fsload/engine.h>
#include "nl/hist.h"
#include "nl/results.h"

#include "kselftest_harness.h"

/* Every value falls in the bucket whose bounds hold it. */
TEST(hist_bucket_bounds)
{
	static const u64 edges[] = {
		0, 1, 15, 16, 17, 31, 32, 33, 1000, 1023, 1024, 1025,
		999999, 1000000, (1ULL << 40) - 1, 1ULL << 40, U64_MAX - 1,
		U64_MAX,
	};
	unsigned int i, b;
	u64 v;

	for (i = 0; i < ARRAY_SIZE(edges); i++) {
		v = edges[i];
		b = fsload_hist_bucket(v);
		ASSERT_LT(b, FSLOAD_HIST_BUCKETS);
		EXPECT_LE(fsload_hist_low(b), v);
		if (b + 1 < FSLOAD_HIST_BUCKETS) {
			EXPECT_LT(v, fsload_hist_high(b));
		}
	}
	/* Pseudo-random values over the whole range, all magnitudes. */
	for (i = 0, v = 1; i < 200000; i++) {
		u64 x = v >> (i % 64);

		v = v * 6364136223846793005ULL + 1442695040888963407ULL;
		b = fsload_hist_bucket(x);
		ASSERT_LT(b, FSLOAD_HIST_BUCKETS);
		ASSERT_LE(fsload_hist_low(b), x);
		if (b + 1 < FSLOAD_HIST_BUCKETS) {
			ASSERT_LT(x, fsload_hist_high(b));
		}
	}
}

/* Buckets tile the range: each starts where the previous ended. */
TEST(hist_buckets_contiguous)
{
	unsigned int b;

	EXPECT_EQ(0ULL, fsload_hist_low(0));
	for (b = 1; b < FSLOAD_HIST_BUCKETS; b++) {
		ASSERT_EQ(fsload_hist_high(b - 1), fsload_hist_low(b));
		ASSERT_LT(fsload_hist_low(b - 1), fsload_hist_low(b));
		ASSERT_EQ(b, fsload_hist_bucket(fsload_hist_low(b)));
		ASSERT_EQ(b - 1, fsload_hist_bucket(fsload_hist_low(b) - 1));
	}
	EXPECT_EQ(U64_MAX, fsload_hist_high(FSLOAD_HIST_BUCKETS - 1));
}

/* Resolution: 1 ns below 16 ns, then at most 12.5% of the value. */
TEST(hist_resolution)
{
	unsigned int b;
	u64 lo, hi;

	for (b = 0; b + 1 < FSLOAD_HIST_BUCKETS; b++) {
		lo = fsload_hist_low(b);
		hi = fsload_hist_high(b);
		if (lo < 16) {
			ASSERT_EQ(1ULL, hi - lo);
		} else {
			ASSERT_LE((hi - lo) * 8, lo);
		}
	}
}

/* Build an opstat from @n latencies, as the kernel would report it. */
static void opstat_from(struct opstat *os, const u64 *lat, unsigned int n)
{
	static u64 h[FSLOAD_HIST_BUCKETS];
	unsigned int i;

	memset(h, 0, sizeof(h));
	memset(os, 0, sizeof(*os));
	os->lat_min_ns = U64_MAX;
	for (i = 0; i < n; i++) {
		h[fsload_hist_bucket(lat[i])]++;
		os->ops++;
		os->lat_sum_ns += lat[i];
		os->lat_min_ns = min(os->lat_min_ns, lat[i]);
		os->lat_max_ns = max(os->lat_max_ns, lat[i]);
	}
	os->have = 1ULL << FSLOAD_A_OPSTAT_LAT_MIN_NS |
		   1ULL << FSLOAD_A_OPSTAT_LAT_MAX_NS;
	if (opstat_from_hist(os, h))
		abort();
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

/* The exact percentile: the value of rank ceil(q * n), q in ppm. */
static double exact(u64 *v, unsigned int n, u32 q_ppm)
{
	unsigned int r = ((u64)q_ppm * n + FSLOAD_PPM - 1) / FSLOAD_PPM;

	qsort(v, n, sizeof(*v), cmp_u64);
	return (double)v[r ? r - 1 : 0];
}

/*
 * Percentiles are within a bucket's width (12.5%) of the exact ones.
 * (The harness's comparisons are integer ones: floats go through
 * EXPECT_TRUE.)
 */
TEST(percentiles_known_inputs)
{
	static const u32 qs[] = { 500000, 900000, 990000, 999000 };
	static u64 v[100000];
	struct opstat os;
	unsigned int i, k, n = 100000;
	double p, e;
	u64 x = 42;

	/* Uniform 1..100000 ns. */
	for (i = 0; i < n; i++)
		v[i] = i + 1;
	opstat_from(&os, v, n);
	for (k = 0; k < ARRAY_SIZE(qs); k++) {
		p = opstat_percentile(&os, qs[k]);
		e = exact(v, n, qs[k]);
		TH_LOG("uniform p%g: %.1f, exact %.0f", qs[k] / 1e4, p, e);
		EXPECT_TRUE(fabs(p - e) <= e * 0.125);
	}
	free(os.buckets);

	/* Long tail: mostly ~2 us, 1% ~1 ms, 0.1% ~50 ms. */
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		v[i] = 2000 + (x >> 54);
		if (i % 100 == 7)
			v[i] = 1000000 + (x >> 44);
		if (i % 1000 == 3)
			v[i] = 50000000 + (x >> 40);
	}
	opstat_from(&os, v, n);
	for (k = 0; k < ARRAY_SIZE(qs); k++) {
		p = opstat_percentile(&os, qs[k]);
		e = exact(v, n, qs[k]);
		TH_LOG("tail p%g: %.1f, exact %.0f", qs[k] / 1e4, p, e);
		EXPECT_TRUE(fabs(p - e) <= e * 0.125);
	}
	free(os.buckets);
}

/* One value: every percentile is that value (clamped to min and max). */
TEST(percentiles_constant)
{
	static u64 v[1000];
	struct opstat os;
	unsigned int i;

	for (i = 0; i < 1000; i++)
		v[i] = 1503;
	opstat_from(&os, v, 1000);
	EXPECT_TRUE(opstat_percentile(&os, 500000) == 1503.0);
	EXPECT_TRUE(opstat_percentile(&os, 999000) == 1503.0);
	free(os.buckets);

	/* Values below 16 ns are exact. */
	for (i = 0; i < 1000; i++)
		v[i] = i < 500 ? 3 : 9;
	opstat_from(&os, v, 1000);
	EXPECT_TRUE(opstat_percentile(&os, 500000) == 3.0);
	EXPECT_TRUE(opstat_percentile(&os, 900000) == 9.0);
	free(os.buckets);

	/* Empty: no percentile. */
	memset(&os, 0, sizeof(os));
	EXPECT_TRUE(isnan(opstat_percentile(&os, 500000)));
}

typedef unsigned __int128 u128;

/*
 * The percentile rule written out in 128-bit arithmetic: rank
 * ceil(q x n), then low + floor(w x (2k - 1) / (2 count)) in its bucket,
 * w = high - 1 - low.
 */
static u64 percentile_128(const u64 *h, u32 q_ppm)
{
	u128 n = 0, rank, cum = 0, w;
	unsigned int b;

	for (b = 0; b < FSLOAD_HIST_BUCKETS; b++)
		n += h[b];
	rank = (n * q_ppm + FSLOAD_PPM - 1) / FSLOAD_PPM;
	if (!rank)
		rank = 1;
	for (b = 0; b < FSLOAD_HIST_BUCKETS; b++) {
		if (h[b] && cum + h[b] >= rank) {
			w = fsload_hist_high(b) - 1 - fsload_hist_low(b);
			return fsload_hist_low(b) +
			       (u64)(w * (2 * (rank - cum) - 1) / (2 * (u128)h[b]));
		}
		cum += h[b];
	}
	return 0;
}

static u64 rng_u64(struct fsload_rng *r)
{
	u64 hi = fsload_rng_u32(r);

	return hi << 32 | fsload_rng_u32(r);
}

/*
 * A random histogram's growth from @prev to @cur, into @d: a few to all
 * buckets, often the top ones (the last ends at U64_MAX), counts from 1
 * to a total near 2^64; some of @prev's counts above @cur's (they count
 * 0, as a worker's reset would).
 */
static void random_hist(struct fsload_rng *r, u64 *cur, u64 *prev, u64 *d)
{
	unsigned int b, i, used = 1 + fsload_rng_u32(r) % 24, shift;
	u64 left = U64_MAX, c;

	memset(cur, 0, FSLOAD_HIST_BUCKETS * sizeof(*cur));
	memset(prev, 0, FSLOAD_HIST_BUCKETS * sizeof(*prev));
	if (fsload_rng_u32(r) % 8 == 0)
		used = FSLOAD_HIST_BUCKETS;
	/* counts of up to 2^(64 - shift): from a few to the whole u64 */
	shift = fsload_rng_u32(r) % 4 ? 40 + fsload_rng_u32(r) % 24 :
		fsload_rng_u32(r) % 8;
	for (i = 0; i < used; i++) {
		b = used == FSLOAD_HIST_BUCKETS ? i :
		    fsload_rng_u32(r) % 2 ? FSLOAD_HIST_BUCKETS - 1 -
		    fsload_rng_u32(r) % 16 : fsload_rng_u32(r) %
		    FSLOAD_HIST_BUCKETS;
		c = min(1 + (rng_u64(r) >> shift), left);
		left -= c;
		prev[b] = fsload_rng_u32(r) % 4 ? fsload_rng_u32(r) % 1000 :
			  rng_u64(r);
		cur[b] = prev[b] < U64_MAX - c ? prev[b] + c : prev[b] / 2;
	}
	for (b = 0; b < FSLOAD_HIST_BUCKETS; b++)
		d[b] = fsload_hist_grew(cur, prev, b);
}

/*
 * The kernel's interval percentiles (fsload_hist_quantile() over the
 * dense growth) and fsloadctl's (opstat_percentile() over the sparse
 * buckets of the same counts, unclamped) are one rule: they agree with
 * each other and with the rule written out in 128 bits, on random
 * histograms and quantiles, with huge counts and the last bucket.
 */
TEST(percentiles_kernel_and_ctl_agree)
{
	static const u32 fixed[] = {
		0, 1, 500000, 900000, 990000, 999000, 999999, FSLOAD_PPM,
	};
	static u64 cur[FSLOAD_HIST_BUCKETS], prev[FSLOAD_HIST_BUCKETS],
		   d[FSLOAD_HIST_BUCKETS];
	struct fsload_rng r;
	unsigned int i, k, top = 0, huge = 0;
	struct opstat os;
	u64 want, n;
	u32 q;

	fsload_rng_seed(&r, 14);
	for (i = 0; i < 20000; i++) {
		random_hist(&r, cur, prev, d);
		memset(&os, 0, sizeof(os));
		ASSERT_EQ(0, opstat_from_hist(&os, d));
		for (k = 0, n = 0; k < FSLOAD_HIST_BUCKETS; k++)
			n += d[k];
		huge += n > (1ULL << 62);
		top += !!d[FSLOAD_HIST_BUCKETS - 1];
		for (k = 0; k < ARRAY_SIZE(fixed) + 8; k++) {
			q = k < ARRAY_SIZE(fixed) ? fixed[k] :
			    fsload_rng_u32(&r) % (FSLOAD_PPM + 1);
			want = n ? percentile_128(d, q) : 0;
			ASSERT_EQ(want, fsload_hist_quantile(cur, prev, q)) {
				TH_LOG("histogram %u, q %u ppm", i, q);
			}
			if (!n) {
				ASSERT_TRUE(isnan(opstat_percentile(&os, q)));
				continue;
			}
			ASSERT_TRUE(opstat_percentile(&os, q) == (double)want) {
				TH_LOG("histogram %u, q %u ppm: %.0f, want %llu",
				       i, q, opstat_percentile(&os, q),
				       (unsigned long long)want);
			}
		}
		free(os.buckets);
	}
	TH_LOG("%u histograms over 2^62 values, %u with the last bucket",
	       huge, top);
	EXPECT_LT(1000U, huge);
	EXPECT_LT(1000U, top);
}

/* The rank is exact where a double's ceil(q x n) is not. */
TEST(percentile_rank_exact)
{
	EXPECT_EQ(99ULL, fsload_hist_rank(100, 990000));
	EXPECT_EQ(1ULL, fsload_hist_rank(1, 0));
	EXPECT_EQ(1ULL, fsload_hist_rank(1, 1));
	EXPECT_EQ(U64_MAX, fsload_hist_rank(U64_MAX, FSLOAD_PPM));
	/* ceil(0.5 x (2^64 - 1)) = 2^63 */
	EXPECT_EQ(1ULL << 63, fsload_hist_rank(U64_MAX, 500000));
	/* ceil(0.99 x 2^60); in doubles, 11 less */
	EXPECT_EQ(1141392289560778507ULL, fsload_hist_rank(1ULL << 60, 990000));
	/* the last of U64_MAX values in the last bucket: just below its top */
	EXPECT_EQ(U64_MAX - 2,
		  fsload_hist_value(fsload_hist_low(FSLOAD_HIST_BUCKETS - 1),
				    U64_MAX, U64_MAX, U64_MAX));
	/* the first of them: its bottom */
	EXPECT_EQ(fsload_hist_low(FSLOAD_HIST_BUCKETS - 1),
		  fsload_hist_value(fsload_hist_low(FSLOAD_HIST_BUCKETS - 1),
				    U64_MAX, 1, U64_MAX));
}

/* The shared random file order is a permutation of the file set. */
TEST(perm_is_permutation)
{
	static const u64 sizes[] = { 1, 2, 3, 1000, 4097, 100000 };
	static unsigned char seen[100000];
	struct fsload_perm pm;
	unsigned int i, k;
	u32 x;

	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		memset(seen, 0, sizeof(seen));
		fsload_perm_init(&pm, sizes[k], 12345 + k);
		for (i = 0; i < sizes[k]; i++) {
			x = fsload_perm_next(&pm);
			ASSERT_LT(x, sizes[k]);
			ASSERT_EQ(0, seen[x]);
			seen[x] = 1;
		}
	}
}

/*
 * Random offsets cover the whole region, also past 2^32 blocks (a bio
 * op's large device), block-aligned and inside it.
 */
TEST(random_offset_large_region)
{
	static const u64 sizes[] = { 4096ULL * 1000, 512ULL << 34,
				     4096ULL << 40 };
	struct fsload_opdesc op = { .type = FSLOAD_OP_BIO_READ, .block = 512 };
	struct fsload_engine e = { 0 };
	unsigned int i, k, high;
	u64 off, nblocks;

	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		op.size = sizes[k];
		op.block = k ? 512 : 4096;
		nblocks = op.size / op.block;
		fsload_rng_seed(&e.rnd, 7 + k);
		high = 0;
		for (i = 0; i < 4000; i++) {
			off = fsload_random_offset(&e, &op);
			ASSERT_EQ(0ULL, off % op.block);
			ASSERT_LT(off, op.size);
			/* In the upper half of the region. */
			if (off / op.block >= nblocks / 2)
				high++;
		}
		TH_LOG("%llu blocks: %u of 4000 in the upper half",
		       (unsigned long long)nblocks, high);
		EXPECT_LT(1700U, high);
		EXPECT_GT(2300U, high);
	}
}

/*
 * fsload_engine_init() for thread @index of a job of one group: the
 * setup's fields in the order the cases give them.
 */
static void engine_init(struct fsload_engine *e, unsigned int index,
			u32 threads, u32 rank, u32 ranks, u64 files,
			u32 files_per_dir, u32 branch, u32 first_dir, u64 seed,
			bool shared, const struct fsload_naming *nm,
			const struct fsload_slots *slots)
{
	struct fsload_setup s = {
		.flags = shared ? FSLOAD_JOB_F_SHARED_DIR : 0,
		.threads = threads,
		.rank = rank,
		.ranks = ranks,
		.files = files,
		.files_per_dir = files_per_dir,
		.branch = branch,
		.first_dir = first_dir,
		.naming = *nm,
		.seed = seed,
		.lat_sample = 1,
		.ngroups = 1,
		.group_threads = { threads },
	};

	fsload_engine_init(e, &s, slots, index);
}

static const struct fsload_naming fsload_names = {
	.scheme = FSLOAD_NAMES_FSLOAD,
};
static const struct fsload_naming mdtest_names = {
	.scheme = FSLOAD_NAMES_MDTEST,
};
static const struct fsload_naming fsmark_names = {
	.scheme = FSLOAD_NAMES_FSMARK,
	.bytes = FSLOAD_FSMARK_NAME_BYTES,
	.random = FSLOAD_FSMARK_RANDOM_BYTES,
};

/* Names advance incrementally and agree with a full formatting. */
TEST(names_incremental)
{
	static struct fsload_slots slots;
	struct fsload_engine e = { 0 };
	char want[32];
	u32 i;

	engine_init(&e, 7, 8, 0, 1, 2500, 1000, 0, 0, 1, false, &fsload_names,
		    &slots);
	for (i = 0; i < 2500; i++) {
		fsload_name_set(&e, i);
		snprintf(want, sizeof(want), "t007/d%05u/f%08u", i / 1000, i);
		ASSERT_STREQ(want, e.name);
		ASSERT_EQ(strlen(want), e.name_len);
		ASSERT_EQ('f', e.name[e.last_off]);
	}
	fsload_name_set(&e, 17);
	EXPECT_STREQ("t007/d00000/f00000017", e.name);
	EXPECT_EQ(3, e.ndirs);
}

/* Directory k's path, by walking parents ((k - 1) / branch) up to 0. */
static void tree_path(char *buf, size_t len, u32 branch, u32 k)
{
	char tail[256];

	snprintf(buf, len, "d%05u", k);
	while (k) {
		k = (k - 1) / branch;
		snprintf(tail, sizeof(tail), "d%05u/%s", k, buf);
		snprintf(buf, len, "%s", tail);
	}
}

/*
 * In a directory tree (mdtest -b 3 -z 2: 13 directories), every file is in
 * directory idx / files_per_dir at its path; names, their lengths and the
 * last component's offset agree with a full formatting, incremental or
 * not, and directory names (F_DIRS phases) too.
 */
TEST(names_tree)
{
	static struct fsload_slots slots;
	struct fsload_engine e = { 0 };
	char want[300], path[256];
	u32 i, k;

	engine_init(&e, 2, 4, 0, 1, 13 * 5, 5, 3, 0, 1, false, &fsload_names,
		    &slots);
	EXPECT_EQ(13, e.ndirs);
	for (i = 0; i < 13 * 5; i++) {
		fsload_name_set(&e, i);
		tree_path(path, sizeof(path), 3, i / 5);
		snprintf(want, sizeof(want), "t002/%s/f%08u", path, i);
		ASSERT_STREQ(want, e.name);
		ASSERT_EQ(strlen(want), e.name_len);
		ASSERT_EQ('f', e.name[e.last_off]);
		ASSERT_EQ('/', e.name[e.last_off - 1]);
	}
	EXPECT_STREQ("t002/d00000/d00003/d00012/f00000064", e.name);
	EXPECT_EQ(2, fsload_dir_depth(3, 12));
	EXPECT_EQ(3, fsload_dir_depth(3, 13));
	for (k = 0; k < 13; k++) {
		fsload_name_set_dir(&e, k);
		tree_path(path, sizeof(path), 3, k);
		snprintf(want, sizeof(want), "t002/%s", path);
		ASSERT_STREQ(want, e.name);
		ASSERT_EQ('d', e.name[e.last_off]);
	}
	/* after a directory, a file's name is rebuilt, not incremented */
	fsload_name_set(&e, 1);
	fsload_name_set(&e, 2);
	EXPECT_STREQ("t002/d00000/f00000002", e.name);
	/* the deepest tree a name holds */
	fsload_name_set_dir(&e, 0);
	e.branch = 1;
	fsload_name_set(&e, 5 * FSLOAD_TREE_DEPTH_MAX);
	EXPECT_EQ(FSLOAD_NAME_TDIR_LEN + 1 + (FSLOAD_TREE_DEPTH_MAX + 1) *
		  (FSLOAD_NAME_DCOMP_LEN + 1) + FSLOAD_NAME_FILE_LEN,
		  e.name_len);
	/* a shared tree's directories are all thread 0's */
	engine_init(&e, 0, 4, 0, 1, 10, 5, 3, 0, 1, true, &fsload_names, &slots);
	EXPECT_EQ(8, e.ndirs);
	engine_init(&e, 1, 4, 0, 1, 10, 5, 3, 0, 1, true, &fsload_names, &slots);
	EXPECT_EQ(0, e.ndirs);
	EXPECT_EQ(10, e.file_base);
}

/*
 * mdtest's rename rotation, simulated on a map of names: in each
 * directory's run (5 items per directory, 12 items: runs of 5, 5 and 2),
 * the first moves aside to "-XX", each later one into the name before it,
 * and the first into the name before the last; the last stays.  No rename
 * leaves its directory, every name exists again at the end.
 */
/*
 * The workers are numbered group by group, and each takes the job's
 * lat_sample: one setup, as both engines hand it to fsload_engine_init().
 */
TEST(setup_groups)
{
	static const u8 want[] = { 0, 0, 1, 1, 1, 2 };
	struct fsload_setup s = {
		.threads = 6, .files = 4, .files_per_dir = 4, .seed = 1,
		.naming = { .scheme = FSLOAD_NAMES_FSLOAD },
		.lat_sample = 7, .ngroups = 3, .group_threads = { 2, 3, 1 },
	};
	struct fsload_slots slots = { 0 };
	struct fsload_engine e = { 0 };
	unsigned int i;

	for (i = 0; i < s.threads; i++) {
		fsload_engine_init(&e, &s, &slots, i);
		EXPECT_EQ(want[i], e.group);
		EXPECT_EQ(7, e.lat_sample);
		EXPECT_EQ(i, e.index);
	}
	s.lat_sample = 0;
	fsload_engine_init(&e, &s, &slots, 0);
	EXPECT_EQ(1, e.lat_sample);
}

/*
 * The top threads of a phase, as both engines count them: the
 * FSLOAD_TOP_THREADS that used most CPU, most first, a tie kept in the
 * order seen; a thread's time going back counts nothing.
 */
TEST(top_threads)
{
	static const u64 used[] = { 5, 9, 1, 7, 3, 9, 2, 8, 6, 4, 10 };
	static const u64 want[] = { 10, 9, 9, 8, 7, 6, 5, 4 };
	static const pid_t want_pid[] = { 110, 101, 105, 107, 103, 108, 100,
					  109 };
	struct fsload_top top[FSLOAD_TOP_THREADS], *slot;
	unsigned int n = 0, i;
	u64 old = 50;

	for (i = 0; i < ARRAY_SIZE(used); i++) {
		slot = fsload_top_add(top, &n, used[i]);
		if (slot)
			slot->pid = 100 + i;
	}
	ASSERT_EQ(FSLOAD_TOP_THREADS, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(want[i], top[i].cpu_ns);
		EXPECT_EQ(want_pid[i], top[i].pid);
	}
	EXPECT_EQ(NULL, fsload_top_add(top, &n, 4));
	EXPECT_EQ(0, fsload_top_delta(40, &old));
	EXPECT_EQ(10, fsload_top_delta(60, &old));
	EXPECT_EQ(60, fsload_top_delta(60, NULL));
}

TEST(rename_rotation)
{
	static struct fsload_slots slots;
	static const u32 runs[] = { 0, 5, 10, 12 };
	struct fsload_opdesc op = { .type = FSLOAD_OP_RENAME,
				    .flags = FSLOAD_OP_F_ROTATE };
	char names[13][FSLOAD_RENAME_LEN_MAX + 1];
	u32 held[13], i, j, n = 0, r, first, last, want;
	struct fsload_engine e = { 0 };

	engine_init(&e, 0, 1, 0, 1, 12, 5, 0, 0, 1, false, &fsload_names, &slots);
	e.iters = 12;
	for (i = 0; i < 12; i++) {
		fsload_name_set(&e, i);
		snprintf(names[n], sizeof(names[n]), "%s", e.name);
		held[n++] = i;		/* names[k] holds item held[k] */
	}
	for (i = 0; i < 12; i++) {
		fsload_name_set(&e, i);
		e.iter = i;
		fsload_rename_names(&e, &op);
		ASSERT_EQ(0, memcmp(e.ren_from, e.ren_to, e.last_off));
		for (j = 0; j < n; j++)
			if (!strcmp(names[j], e.ren_from))
				break;
		ASSERT_LT(j, n);
		snprintf(names[j], sizeof(names[j]), "%s", e.ren_to);
	}
	for (r = 0; r + 1 < ARRAY_SIZE(runs); r++) {
		first = runs[r];
		last = runs[r + 1] - 1;
		for (i = first; i <= last; i++) {
			fsload_name_set(&e, i);
			for (j = 0; j < n; j++)
				if (!strcmp(names[j], e.name))
					break;
			ASSERT_LT(j, n);
			want = i == last ? i : i == last - 1 ? first : i + 1;
			EXPECT_EQ(want, held[j]);
		}
	}
	/* a stride's owner: another tree, or other file numbers */
	fsload_engine_owner(&e, 3);
	fsload_name_set(&e, 1);
	EXPECT_STREQ("t003/d00000/f00000001", e.name);
	e.shared = true;
	fsload_engine_owner(&e, 3);
	fsload_name_set(&e, e.file_base + 1);
	EXPECT_STREQ("t000/d00007/f00000037", e.name);
}

/* mdtest's directory k below the test directory, as mdtest_stat() walks it. */
static void mdtest_path(char *buf, size_t len, const char *base, u32 branch,
			u32 k)
{
	u32 chain[FSLOAD_TREE_DEPTH_MAX + 1];
	unsigned int n = 0;
	size_t off = 0;

	chain[n++] = k;
	while (k) {
		k = (k - 1) / branch;
		chain[n++] = k;
	}
	buf[0] = '\0';
	while (n--)
		off += snprintf(buf + off, len - off, "%s%s.%u",
				off ? "/" : "", base, chain[n]);
}

/*
 * Ranks in one directory (ranks 2, 2 threads each): rank 1's thread t is
 * the run's thread 2 + t in every scheme, a shared tree's directories are
 * rank 0's thread 0's, and a stride reaches another rank's items.
 */
TEST(names_ranks_one_dir)
{
	static struct fsload_slots slots;
	struct fsload_engine e = { 0 };

	/* per-thread trees: t002, t003; mdtest's rank 3 */
	engine_init(&e, 1, 2, 1, 2, 10, 5, 0, 0, 1, false,
		    &fsload_names, &slots);
	EXPECT_EQ(3, e.index);
	EXPECT_EQ(4, e.threads);
	EXPECT_EQ(0, e.rank_base);
	EXPECT_EQ(2, e.ndirs);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("t003/d00001/f00000007", e.name);
	engine_init(&e, 1, 2, 1, 2, 10, 5, 0, 0, 1, false,
		    &mdtest_names, &slots);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.3.1/file.mdtest.3.7", e.name);
	/* a stride of 1 from the run's last thread: rank 0's thread 0 */
	fsload_engine_owner(&e, (e.index + 1) % e.threads);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.0.1/file.mdtest.0.7", e.name);
	/* one shared tree: rank 1's files after rank 0's, no directory */
	engine_init(&e, 0, 2, 1, 2, 10, 5, 0, 0, 1, true,
		    &fsload_names, &slots);
	EXPECT_EQ(0, e.ndirs);
	EXPECT_EQ(20, e.file_base);
	fsload_name_set(&e, e.file_base);
	EXPECT_STREQ("t000/d00004/f00000020", e.name);
	engine_init(&e, 0, 2, 0, 2, 10, 5, 0, 0, 1, true,
		    &fsload_names, &slots);
	EXPECT_EQ(8, e.ndirs);
	/* what fits: rank below ranks, t000 to t999 for per-thread trees */
	EXPECT_TRUE(fsload_ranks_fit(1, 2, 500, false, FSLOAD_NAMES_FSLOAD));
	EXPECT_FALSE(fsload_ranks_fit(2, 2, 1, false, FSLOAD_NAMES_FSLOAD));
	EXPECT_FALSE(fsload_ranks_fit(0, 2, 501, false, FSLOAD_NAMES_FSLOAD));
	EXPECT_TRUE(fsload_ranks_fit(0, 2, 501, true, FSLOAD_NAMES_FSLOAD));
	EXPECT_TRUE(fsload_ranks_fit(0, 2, 501, false, FSLOAD_NAMES_MDTEST));
	EXPECT_FALSE(fsload_ranks_fit(0, 1002, 999, true, FSLOAD_NAMES_MDTEST));
	EXPECT_TRUE(fsload_ranks_fit(3, 1, 999, false, FSLOAD_NAMES_FSLOAD));
	EXPECT_TRUE(fsload_ranks_fit(0, 1, 999, false, FSLOAD_NAMES_FSLOAD));
}

/*
 * mdtest's names and tree (mdtest -u -b 2 -z 2 -I 4, rank 3): items
 * file.mdtest.3.<n> in directory n / 4 of mdtest_tree.3.<k>, below
 * test-dir.0-0; incremental past powers of ten; dir.mdtest.* for 'x'.
 */
TEST(names_mdtest)
{
	static struct fsload_slots slots;
	struct fsload_engine e = { 0 };
	char want[1200], path[1024], comp[FSLOAD_NAME_FILE_MAX + 1];
	u32 i;

	engine_init(&e, 3, 4, 0, 1, 28, 4, 2, 0, 1, false, &mdtest_names,
		    &slots);
	EXPECT_EQ(7, e.ndirs);
	EXPECT_EQ(0, e.file_base);
	EXPECT_EQ(12, e.root_len);
	for (i = 0; i < 28; i++) {
		fsload_name_set(&e, i);
		mdtest_path(path, sizeof(path), "mdtest_tree.3", 2, i / 4);
		snprintf(want, sizeof(want), "test-dir.0-0/%s/file.mdtest.3.%u",
			 path, i);
		ASSERT_STREQ(want, e.name);
		ASSERT_EQ(strlen(want), e.name_len);
		ASSERT_EQ('/', e.name[e.last_off - 1]);
	}
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.3.0/mdtest_tree.3.2/mdtest_tree.3.6/file.mdtest.3.27",
		     e.name);
	fsload_name_set_dir(&e, 5);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.3.0/mdtest_tree.3.2/mdtest_tree.3.5",
		     e.name);
	EXPECT_STREQ("mdtest_tree.3.5", &e.name[e.last_off]);
	/* one directory of 1000 items: counting carries past 9 and 99 */
	engine_init(&e, 0, 1, 0, 1, 1000, 1000, 0, 0, 1, false, &mdtest_names,
		    &slots);
	for (i = 0; i < 1000; i++) {
		fsload_name_set(&e, i);
		snprintf(want, sizeof(want),
			 "test-dir.0-0/mdtest_tree.0.0/file.mdtest.0.%u", i);
		ASSERT_STREQ(want, e.name);
		ASSERT_EQ(strlen(want), e.name_len);
	}
	/* another phase's prefix: mdtest's directories, and any letter */
	e.prefix = 'x';
	fsload_name_reprefix(&e);
	fsload_name_set(&e, 1000 - 1);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.0.0/dir.mdtest.0.999", e.name);
	EXPECT_EQ(14, fsload_name_renamed(&e, comp, 'y'));
	EXPECT_STREQ("y.mdtest.0.999", comp);
	/* a shared tree: mdtest_tree.<k>, each thread's items from 0 */
	engine_init(&e, 1, 4, 0, 1, 10, 5, 0, 0, 1, true, &mdtest_names,
		    &slots);
	EXPECT_EQ(0, e.ndirs);
	EXPECT_EQ(0, e.file_base);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.1/file.mdtest.1.7", e.name);
	engine_init(&e, 0, 4, 0, 1, 10, 5, 0, 0, 1, true, &mdtest_names,
		    &slots);
	EXPECT_EQ(2, e.ndirs);
	/* the longest: every level at the most threads and directories */
	engine_init(&e, FSLOAD_THREADS_MAX - 1, FSLOAD_THREADS_MAX, 0, 1,
		    FSLOAD_FILES_MAX, 1, 1, 0, 1, false, &mdtest_names,
		    &slots);
	fsload_name_set(&e, FSLOAD_DIRS_MAX - 1);
	EXPECT_GE(FSLOAD_NAME_LEN_MAX, e.name_len);
	/* and at the highest rank's number */
	engine_init(&e, 0, 1, FSLOAD_RANK_MAX, 1, FSLOAD_FILES_MAX, 1, 1,
		    0, 1, false, &mdtest_names, &slots);
	fsload_name_set(&e, FSLOAD_DIRS_MAX - 1);
	EXPECT_GE(FSLOAD_NAME_LEN_MAX, e.name_len);
	EXPECT_STREQ("file.mdtest.999999.99999", &e.name[e.last_off]);
	EXPECT_EQ(FSLOAD_NAME_DCOMP_MAX, strlen("mdtest_tree.999999.99999"));
	fsload_name_set(&e, FSLOAD_FILES_MAX - 1);
	EXPECT_EQ(27, e.name_len - e.last_off);
}

/*
 * A job of rank R (of T threads) is threads R x T .. R x T + T - 1 of a
 * run: mdtest's names carry that number (file, directory, tree; a
 * stride's owner counts from 0 within the job and is shown with the
 * base), its random numbers are those thread R x T + t of one job would
 * draw; fsload's and fs_mark's names stay the job's own.  Rank 0 is a
 * job without a rank.
 */
TEST(names_rank)
{
	static struct fsload_slots slots;
	struct fsload_engine e = { 0 }, o = { 0 };
	char comp[FSLOAD_NAME_FILE_MAX + 1];

	engine_init(&e, 0, 2, 3, 1, 12, 3, 2, 0, 1, false, &mdtest_names,
		    &slots);
	EXPECT_EQ(6, e.rank_base);
	EXPECT_EQ(0, e.owner);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.6.0/mdtest_tree.6.2/file.mdtest.6.7",
		     e.name);
	fsload_name_set(&e, 8);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.6.0/mdtest_tree.6.2/file.mdtest.6.8",
		     e.name);
	fsload_name_set_dir(&e, 3);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.6.0/mdtest_tree.6.1/mdtest_tree.6.3",
		     e.name);
	/* thread 1: number 7; a stride onto it from thread 0 names the same */
	engine_init(&o, 1, 2, 3, 1, 12, 3, 2, 0, 1, false, &mdtest_names,
		    &slots);
	fsload_name_set(&o, 0);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.7.0/file.mdtest.7.0", o.name);
	fsload_engine_owner(&e, 1);
	EXPECT_EQ(1, e.owner);
	fsload_name_set(&e, 0);
	EXPECT_STREQ(o.name, e.name);
	/* a rename's new name and a shared tree's items */
	fsload_name_set(&o, 11);
	EXPECT_EQ(15, fsload_name_renamed(&o, comp, 'x'));
	EXPECT_STREQ("dir.mdtest.7.11", comp);
	engine_init(&e, 1, 2, 3, 1, 10, 5, 0, 0, 1, true, &mdtest_names,
		    &slots);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.1/file.mdtest.7.7", e.name);
	/* fsload's and fs_mark's names: the job's own thread */
	engine_init(&e, 1, 2, 3, 1, 10, 5, 0, 0, 1, false, &fsload_names,
		    &slots);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("t001/d00001/f00000007", e.name);
	engine_init(&e, 1, 2, 3, 1, 10, 10, 0, 0, 42, false,
		    &fsmark_names, &slots);
	engine_init(&o, 1, 2, 0, 1, 10, 10, 0, 0, 42, false,
		    &fsmark_names, &slots);
	fsload_name_set(&e, 7);
	fsload_name_set(&o, 7);
	EXPECT_STREQ(o.name, e.name);
	/* rank 0: the seeds of a job without a rank, bit for bit */
	engine_init(&e, 1, 2, 0, 1, 10, 5, 0, 0, 42, false, &mdtest_names,
		    &slots);
	EXPECT_EQ(42 + 1, e.rnd.s);
	EXPECT_EQ(~(u64)(42 + 1), e.lat_rnd.s);
	/* rank 3's thread 1 of 2 draws as thread 7 of one job of 8 */
	engine_init(&o, 1, 2, 3, 1, 10, 5, 0, 0, 42, false, &mdtest_names,
		    &slots);
	EXPECT_NE(e.rnd.s, o.rnd.s);
	EXPECT_NE(e.lat_rnd.s, o.lat_rnd.s);
	engine_init(&e, 7, 8, 0, 1, 10, 5, 0, 0, 42, false, &mdtest_names,
		    &slots);
	EXPECT_EQ(e.rnd.s, o.rnd.s);
	EXPECT_EQ(e.lat_rnd.s, o.lat_rnd.s);
}

/* The limit: rank x threads + thread at most FSLOAD_RANK_MAX. */
TEST(rank_fits)
{
	EXPECT_TRUE(fsload_rank_fits(0, FSLOAD_THREADS_MAX));
	EXPECT_TRUE(fsload_rank_fits(FSLOAD_RANK_MAX, 1));
	EXPECT_FALSE(fsload_rank_fits(FSLOAD_RANK_MAX, 2));
	EXPECT_TRUE(fsload_rank_fits(1000, FSLOAD_THREADS_MAX));
	EXPECT_FALSE(fsload_rank_fits(1001, FSLOAD_THREADS_MAX));
	EXPECT_TRUE(fsload_rank_fits(499999, 2));
	EXPECT_FALSE(fsload_rank_fits(500000, 2));
	EXPECT_FALSE(fsload_rank_fits(U32_MAX, FSLOAD_THREADS_MAX));
}

/*
 * mdtest -L -b 2 -z 2 -I 3 (first-dir 3, the first of the 4 leaves): the
 * items are in the leaves only, numbered as mdtest's stat and read phases
 * number them, item i + I x (dirs - B^Z) in directory item / I; the tree
 * has all 7 directories; a rotation's runs end at the leaves' boundaries;
 * a stride keeps the offset; a shared tree of fsload names adds it too.
 */
TEST(names_leaf_only)
{
	static struct fsload_slots slots;
	struct fsload_opdesc op = { .type = FSLOAD_OP_RENAME,
				    .flags = FSLOAD_OP_F_ROTATE };
	struct fsload_engine e = { 0 };
	char want[1200], path[1024];
	u32 i, item;

	engine_init(&e, 0, 1, 0, 1, 12, 3, 2, 3, 1, false, &mdtest_names,
		    &slots);
	EXPECT_EQ(7, e.ndirs);
	EXPECT_EQ(9, e.file_base);
	for (i = 0; i < 12; i++) {
		item = i + 3 * (7 - 4);
		fsload_name_set(&e, e.file_base + i);
		mdtest_path(path, sizeof(path), "mdtest_tree.0", 2, item / 3);
		snprintf(want, sizeof(want), "test-dir.0-0/%s/file.mdtest.0.%u",
			 path, item);
		ASSERT_STREQ(want, e.name);
		ASSERT_EQ(strlen(want), e.name_len);
		ASSERT_GE(fsload_dir_depth(2, item / 3), 2);
	}
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.2/mdtest_tree.0.6/file.mdtest.0.20",
		     e.name);
	/* the rotation's last of a run: the last item of leaf 3 (item 11) */
	e.iters = 12;
	for (i = 0; i < 3; i++) {
		fsload_name_set(&e, e.file_base + i);
		e.iter = i;
		fsload_rename_names(&e, &op);
	}
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.1/mdtest_tree.0.3/file.mdtest.0.10",
		     e.ren_to);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.0.0/mdtest_tree.0.1/mdtest_tree.0.3/file.mdtest.0.9-XX",
		     e.ren_from);
	/* a stride's owner: its rank, the same offset */
	engine_init(&e, 0, 2, 0, 1, 12, 3, 2, 3, 1, false, &mdtest_names,
		    &slots);
	fsload_engine_owner(&e, 1);
	EXPECT_EQ(9, e.file_base);
	fsload_name_set(&e, e.file_base);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.1.0/mdtest_tree.1.1/mdtest_tree.1.3/file.mdtest.1.9",
		     e.name);
	/* a shared tree of fsload names: thread 1's files after thread 0's */
	engine_init(&e, 1, 2, 0, 1, 6, 3, 2, 3, 1, true, &fsload_names,
		    &slots);
	EXPECT_EQ(0, e.ndirs);
	EXPECT_EQ(9 + 6, e.file_base);
	fsload_name_set(&e, e.file_base);
	EXPECT_STREQ("t000/d00000/d00002/d00005/f00000015", e.name);
	engine_init(&e, 0, 2, 0, 1, 6, 3, 2, 3, 1, true, &fsload_names,
		    &slots);
	EXPECT_EQ(7, e.ndirs);
	EXPECT_EQ(7, fsload_tree_dirs(2, 6, 3, 3, true, FSLOAD_NAMES_FSLOAD));
}

/*
 * fs_mark's names (fs_mark -n 10 with one directory, then -D): 40 bytes,
 * an 8-digit hex time stamp padded with '~' to 16, 24 of [0-9A-Z]; the
 * same for a seed, thread and index whatever the order, other for others.
 */
TEST(names_fsmark)
{
	static struct fsload_slots slots;
	struct fsload_engine e = { 0 };
	struct fsload_naming nm = fsmark_names;
	char first[FSLOAD_NAME_LEN_MAX + 1], comp[FSLOAD_NAME_FILE_MAX + 1];
	const char *n;
	u32 i, j;

	engine_init(&e, 0, 1, 0, 1, 10, 10, 0, 0, 42, false, &fsmark_names,
		    &slots);
	EXPECT_TRUE(e.in_root);
	EXPECT_EQ(0, e.ndirs);
	/* pinned: the names of seed 42 do not change between versions */
	EXPECT_STREQ("t000/6f519f86~~~~~~~~12SX8EG4WV40SL6TYQXC8V59", e.name);
	snprintf(first, sizeof(first), "%s", e.name);
	for (i = 0; i < 10; i++) {
		fsload_name_set(&e, i);
		n = &e.name[e.last_off];
		ASSERT_EQ(5, e.last_off);
		ASSERT_EQ(40, strlen(n));
		for (j = 0; j < 8; j++)
			ASSERT_TRUE(isxdigit((unsigned char)n[j]) &&
				    !isupper((unsigned char)n[j]));
		for (; j < 16; j++)
			ASSERT_EQ('~', n[j]);
		for (; j < 40; j++)
			ASSERT_TRUE(isdigit((unsigned char)n[j]) ||
				    isupper((unsigned char)n[j]));
		ASSERT_EQ(0, memcmp(n, &first[5], 16));
		if (i)
			ASSERT_STRNE(&first[5], n);
	}
	fsload_name_set(&e, 0);
	EXPECT_STREQ(first, e.name);
	/* another seed, another stamp and other names */
	engine_init(&e, 0, 1, 0, 1, 10, 10, 43, 0, 43, false, &fsmark_names,
		    &slots);
	EXPECT_STRNE(first, e.name);
	/* -D: directories 00, 01, 02 of 4 files each */
	engine_init(&e, 1, 1, 0, 1, 10, 4, 0, 0, 42, false, &fsmark_names,
		    &slots);
	EXPECT_FALSE(e.in_root);
	EXPECT_EQ(3, e.ndirs);
	fsload_name_set(&e, 9);
	EXPECT_EQ(0, strncmp("t001/02/6f519f86~~~~~~~~", e.name, 24));
	EXPECT_EQ(48, e.name_len);
	fsload_name_set_dir(&e, 1);
	EXPECT_STREQ("t001/01", e.name);
	/* -p 16 -r 12: the stamp's last 4 digits; -p 20: all 8 */
	nm.bytes = 16;
	nm.random = 12;
	engine_init(&e, 0, 1, 0, 1, 10, 10, 0, 0, 42, false, &nm, &slots);
	EXPECT_EQ(0, strncmp("t000/9f86", e.name, 9));
	EXPECT_EQ(5 + 16, e.name_len);
	nm.bytes = 20;
	engine_init(&e, 0, 1, 0, 1, 10, 10, 0, 0, 42, false, &nm, &slots);
	EXPECT_EQ(0, strncmp("t000/6f519f86", e.name, 13));
	/* a prefix other than 'f' is the first character */
	EXPECT_EQ(20, fsload_name_renamed(&e, comp, 'y'));
	EXPECT_EQ('y', comp[0]);
	EXPECT_EQ(0, strcmp(&comp[1], &e.name[e.last_off + 1]));
	/* the longest name fits */
	nm.bytes = FSLOAD_NAME_BYTES_MAX;
	engine_init(&e, 0, 1, 0, 1, FSLOAD_FILES_MAX, 1, 1, 0, 42, false, &nm,
		    &slots);
	fsload_name_set(&e, FSLOAD_DIRS_MAX - 1);
	EXPECT_GE(FSLOAD_NAME_LEN_MAX, e.name_len);
}

/*
 * A stride with each scheme: thread 1 of 4 on thread 3's items has thread
 * 3's names exactly (mdtest: the rank in the directory and file names;
 * fsload, fs_mark: the tree root; a shared tree: mdtest's rank, fsload's
 * file numbers), and its own again after.
 */
TEST(stride_names)
{
	static struct fsload_slots slots;
	struct fsload_engine e = { 0 }, o = { 0 };

	engine_init(&e, 1, 4, 0, 1, 10, 5, 0, 0, 1, false, &mdtest_names,
		    &slots);
	fsload_engine_owner(&e, 3);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.3.1/file.mdtest.3.7", e.name);
	fsload_name_set(&e, 8);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.3.1/file.mdtest.3.8", e.name);
	fsload_name_set_dir(&e, 1);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.3.1", e.name);
	fsload_engine_owner(&e, 1);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.1.1/file.mdtest.1.7", e.name);
	/* a shared tree: every thread's items in mdtest_tree.<k>, from 0 */
	engine_init(&e, 1, 4, 0, 1, 10, 5, 0, 0, 1, true, &mdtest_names,
		    &slots);
	fsload_engine_owner(&e, 3);
	EXPECT_EQ(0, e.file_base);
	fsload_name_set(&e, e.file_base + 7);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.1/file.mdtest.3.7", e.name);
	/* fsload's: the other thread's tree root; shared: its numbers */
	engine_init(&e, 1, 4, 0, 1, 10, 5, 0, 0, 1, false, &fsload_names,
		    &slots);
	fsload_engine_owner(&e, 3);
	fsload_name_set(&e, 7);
	EXPECT_STREQ("t003/d00001/f00000007", e.name);
	engine_init(&e, 1, 4, 0, 1, 10, 5, 0, 0, 1, true, &fsload_names,
		    &slots);
	fsload_engine_owner(&e, 3);
	fsload_name_set(&e, e.file_base + 7);
	EXPECT_STREQ("t000/d00007/f00000037", e.name);
	/* fs_mark's: the names thread 3 makes, in its directory */
	engine_init(&e, 1, 4, 0, 1, 10, 10, 0, 0, 42, false, &fsmark_names,
		    &slots);
	engine_init(&o, 3, 4, 0, 1, 10, 10, 0, 0, 42, false, &fsmark_names,
		    &slots);
	fsload_engine_owner(&e, 3);
	fsload_name_set(&e, 7);
	fsload_name_set(&o, 7);
	EXPECT_STREQ(o.name, e.name);
	EXPECT_EQ(0, strncmp("t003/", e.name, 5));
	EXPECT_EQ(45, e.name_len);
}

/*
 * Rotate 12 items with mdtest's names in directories of @fpd: item i goes
 * from dir.mdtest.0.<want[i][1]> to dir.mdtest.0.<want[i][2]> in
 * mdtest_tree.0.<want[i][0]>.
 */
static void rotate_mdtest(struct __test_metadata *_metadata,
			  struct fsload_engine *e, u32 fpd,
			  const char *const want[12][3])
{
	static struct fsload_slots slots;
	struct fsload_opdesc op = { .type = FSLOAD_OP_RENAME,
				    .flags = FSLOAD_OP_F_ROTATE };
	char name[FSLOAD_RENAME_LEN_MAX + 1];
	u32 i;

	engine_init(e, 0, 1, 0, 1, 12, fpd, 0, 0, 1, false, &mdtest_names,
		    &slots);
	e->prefix = 'x';
	fsload_name_reprefix(e);
	e->iters = 12;
	for (i = 0; i < 12; i++) {
		fsload_name_set(e, i);
		e->iter = i;
		fsload_rename_names(e, &op);
		snprintf(name, sizeof(name),
			 "test-dir.0-0/mdtest_tree.0.%s/dir.mdtest.0.%s",
			 want[i][0], want[i][1]);
		ASSERT_STREQ(name, e->ren_from);
		snprintf(name, sizeof(name),
			 "test-dir.0-0/mdtest_tree.0.%s/dir.mdtest.0.%s",
			 want[i][0], want[i][2]);
		ASSERT_STREQ(name, e->ren_to);
	}
}

/*
 * mdtest's rotation of mdtest's directory names, exactly: 12 items in one
 * directory (the names grow a digit at 10), then in directories of 5 (runs
 * of 5, 5 and 2); a prefix rename gives the builder's "y.mdtest" name.
 */
TEST(rename_rotation_mdtest)
{
	static const char *const one[12][3] = {
		{ "0", "0", "0-XX" }, { "0", "1", "0" }, { "0", "2", "1" },
		{ "0", "3", "2" }, { "0", "4", "3" }, { "0", "5", "4" },
		{ "0", "6", "5" }, { "0", "7", "6" }, { "0", "8", "7" },
		{ "0", "9", "8" }, { "0", "10", "9" }, { "0", "0-XX", "10" },
	};
	static const char *const runs[12][3] = {
		{ "0", "0", "0-XX" }, { "0", "1", "0" }, { "0", "2", "1" },
		{ "0", "3", "2" }, { "0", "0-XX", "3" },
		{ "1", "5", "5-XX" }, { "1", "6", "5" }, { "1", "7", "6" },
		{ "1", "8", "7" }, { "1", "5-XX", "8" },
		{ "2", "10", "10-XX" }, { "2", "10-XX", "10" },
	};
	struct fsload_opdesc op = { .type = FSLOAD_OP_RENAME, .prefix = 'y' };
	struct fsload_engine e = { 0 };

	rotate_mdtest(_metadata, &e, 12, one);
	rotate_mdtest(_metadata, &e, 5, runs);
	fsload_rename_names(&e, &op);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.0.2/dir.mdtest.0.11", e.ren_from);
	EXPECT_STREQ("test-dir.0-0/mdtest_tree.0.2/y.mdtest.0.11", e.ren_to);
}

/*
 * The phase loop (engine-loop.h) over null ops, on a fake clock that
 * advances CLOCK_STEP ns per read: every timed op is CLOCK_STEP ns.
 */
struct fsload_worker {
	struct fsload_engine e;	/* a rename's names (none here) */
};

#define CLOCK_STEP	7
static u64 clock_ns, clock_reads;

static u64 fsload_now(void)
{
	clock_reads++;
	return clock_ns += CLOCK_STEP;
}

/*
 * The cycle counter, when cycles_on: CYCLES_PER_NS counts per ns of the
 * same fake clock (each read advances it), so that fsload_clock() must
 * give fsload_now()'s figures exactly.  It misbehaves when told: its
 * read number cycles_jump_at (from 1) and every later one are off by
 * cycles_jump (a u64: below 0 steps it back), and from read number
 * cycles_off_at the engine no longer trusts it (the kernel marked it
 * unstable).
 */
#define CYCLES_PER_NS	4
static bool cycles_on;
static u64 cycle_reads, cycles_jump_at, cycles_jump, cycles_off_at;

static bool fsload_cycles_ok(void)
{
	return cycles_on && (!cycles_off_at || cycle_reads < cycles_off_at);
}

static u64 fsload_cycles(void)
{
	clock_reads++;
	clock_ns += CLOCK_STEP;
	cycle_reads++;
	return clock_ns * CYCLES_PER_NS +
	       (cycles_jump_at && cycle_reads >= cycles_jump_at ?
		cycles_jump : 0);
}

static u32 fsload_cycles_mult(void)
{
	return (1u << FSLOAD_CLOCK_SHIFT) / CYCLES_PER_NS;
}

static void fsload_yield(void)
{
}

static bool fsload_stopping(struct fsload_worker *w)
{
	(void)w;
	return false;
}

static s64 fsload_drain(struct fsload_worker *w, u64 *last_ns)
{
	(void)w;
	*last_ns = 0;
	return 0;
}

static void fsload_trace_op(struct fsload_worker *w,
			    const struct fsload_opdesc *op, s64 ret, u64 lat)
{
	(void)w;
	(void)op;
	(void)ret;
	(void)lat;
}

/* Only null ops run here: the others are never called. */
static s64 fsload_op_none(struct fsload_worker *w)
{
	(void)w;
	return -EOPNOTSUPP;
}

/*
 * loop_names' stat: the name the loop gave the op must be the one
 * fsload_name_set() builds for the item that the phase's order names
 * next (name_ref: the same job's engine; name_next: that item).
 */
static struct fsload_engine name_ref;
static u32 name_next, name_files, name_bad;
/* rank_random_order's: the items in the order the stats named them */
static u32 *order_rec, order_n;

static s64 fsload_op_name_check(struct fsload_worker *w)
{
	if (order_rec) {
		order_rec[order_n++] = (u32)w->e.name_idx;
		return 0;
	}
	fsload_name_set(&name_ref, name_next);
	if (strcmp(w->e.name, name_ref.name) ||
	    w->e.name_idx != name_next || w->e.last_off != name_ref.last_off)
		name_bad++;
	if (++name_next == name_files)
		name_next = 0;
	return 0;
}

#define fsload_op_create(w, op)		fsload_op_none(w)
#define fsload_op_append(w, op)		fsload_op_none(w)
#define fsload_op_read(w, op)		fsload_op_none(w)
#define fsload_op_random(w, op, write)	fsload_op_none(w)
#define fsload_op_stat(w)		fsload_op_name_check(w)
#define fsload_op_fsync(w)		fsload_op_none(w)
#define fsload_op_dirent(w, op)		fsload_op_none(w)
#define fsload_op_syncfs(w)		fsload_op_none(w)
#define fsload_op_drop_cache(w)		fsload_op_none(w)
#define fsload_op_bio(w, op)		fsload_op_none(w)

/* As in ctl/engine/uloop.h: the random order's state is set before use. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <fsload/engine-loop.h>
#pragma GCC diagnostic pop

#define LOOP_OPS	200000

/*
 * Make @ph a sequential phase of @iterations over @weights (@nops of
 * them) ops of @type, in every group.
 */
static void loop_phase(struct fsload_phase *ph, u8 type, const u32 *weights,
		       unsigned int nops, u64 iterations)
{
	unsigned int i;

	memset(ph, 0, sizeof(*ph));
	ph->order = FSLOAD_ORDER_SEQUENTIAL;
	ph->prefix = 'f';
	ph->nops = nops;
	for (i = 0; i < nops; i++) {
		ph->ops[i].type = type;
		ph->ops[i].weight = weights[i];
		ph->ops[i].group = FSLOAD_GROUP_ALL;
		ph->weight_total += weights[i];
	}
	ph->iterations = iterations;
	fsload_phase_groups(ph, 1);
}

/*
 * Run a phase of LOOP_OPS null ops of two weights (so that the pick draws
 * random numbers) timing 1 op in @n; @e's statistics and random state
 * after it, the clock reads in @reads.
 */
static enum fsload_run_end loop_run(struct fsload_engine *e, u32 n,
				    u64 duration_ns, u64 *reads)
{
	static const struct fsload_slots slots = {
		.slot[FSLOAD_OP_NULL] = 1,
		.n = 1,
	};
	static const u32 weights[] = { 1, 3 };
	static u64 hist[FSLOAD_HIST_BUCKETS];
	static struct fsload_phase ph;
	struct fsload_worker w = { 0 };
	enum fsload_run_end end;
	u64 end_ns;

	loop_phase(&ph, FSLOAD_OP_NULL, weights, ARRAY_SIZE(weights),
		   LOOP_OPS);
	ph.duration_ns = duration_ns;
	memset(e, 0, sizeof(*e));
	e->hist = hist;
	engine_init(e, 0, 1, 0, 1, 1000, 1000, 0, 0, 42, false, &fsload_names,
		    &slots);
	e->lat_sample = n;
	clock_reads = 0;
	end = fsload_engine_run(&w, e, &ph, 0, clock_ns, &end_ns);
	*reads = clock_reads;
	/* the phase's end is exact: the last clock read */
	if (end_ns != clock_ns)
		abort();
	return end;
}

/*
 * The loop on a cycle counter (fsload_clock()): the same latencies, sums
 * and phase end (loop_run() checks it) as on fsload_now(), every op timed
 * and 1 in 16.
 */
TEST(cycle_clock_loop)
{
	static const u32 ns[] = { 1, 16 };
	struct fsload_engine e;
	const struct fsload_opstat *st = &e.acc[FSLOAD_OP_NULL].st;
	u64 reads;
	unsigned int i;

	cycles_on = true;
	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		ASSERT_EQ(FSLOAD_RUN_DONE, loop_run(&e, ns[i], 0, &reads));
		EXPECT_EQ(LOOP_OPS, st->ops);
		EXPECT_EQ(fsload_opstat_timed(st) * CLOCK_STEP, st->lat_sum);
		EXPECT_EQ(CLOCK_STEP, st->lat_min);
		EXPECT_EQ(CLOCK_STEP, st->lat_max);
	}
	cycles_on = false;
}

/*
 * A counter that steps back (issue 28): by a few counts below the
 * phase's anchor (its first reading after it), a few below the last
 * reading in the middle of a phase (a CPU whose TSC lags), and by a lot
 * (a TSC reset across a suspend), every op timed and 1 in 16, in a
 * phase of a time limit it never reaches.  Every latency is the fake
 * clock's step or two (none 2^64 ns less a few), the latency sum adds
 * up (it does not wrap), the phase is not
 * ended early as stonewalled, the step is counted and the engine reads
 * the counter no more (fsload_now() instead), in this phase and the
 * next.
 */
TEST(cycle_clock_steps_back)
{
	/* each read is 28 counts after the one before */
	static const struct {
		u64 at, back;
	} steps[] = {
		/* 3 below the anchor: the midpoint of reads 1 and 2 */
		{ 3, 2 * CLOCK_STEP * CYCLES_PER_NS + 3 },
		{ 1000, CLOCK_STEP * CYCLES_PER_NS + 3 },
		{ 5000, 1ULL << 50 },
	};
	static const u32 ns[] = { 1, 16 };
	struct fsload_engine e;
	const struct fsload_opstat *st = &e.acc[FSLOAD_OP_NULL].st;
	struct fsload_phase_sum sum;
	struct fsload_worker w = { 0 };
	static struct fsload_phase ph;
	u64 reads, end_ns;
	unsigned int i, j;

	cycles_on = true;
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		for (j = 0; j < ARRAY_SIZE(ns); j++) {
			cycle_reads = 0;
			cycles_jump_at = steps[i].at;
			cycles_jump = -steps[i].back;
			/* 10 times as long as the phase takes */
			ASSERT_EQ(FSLOAD_RUN_DONE,
				  loop_run(&e, ns[j],
					   10ULL * LOOP_OPS * 2 * CLOCK_STEP,
					   &reads));
			EXPECT_EQ(LOOP_OPS, st->ops);
			EXPECT_GE(2 * CLOCK_STEP, st->lat_max);
			EXPECT_GE(reads * CLOCK_STEP, st->lat_sum);
			EXPECT_LT(0, st->lat_sum);
			/* the step's read was the counter's last */
			EXPECT_EQ(steps[i].at, cycle_reads);
			memset(&sum, 0, sizeof(sum));
			fsload_phase_sum_add(&sum, &e, FSLOAD_RUN_DONE, 0);
			EXPECT_EQ(1, sum.clk_back);
			EXPECT_EQ(0, sum.clk_tsc);
			/* the job's next phase: not on the counter */
			ASSERT_EQ(FSLOAD_RUN_DONE,
				  fsload_engine_run(&w, &e, &ph, 0, clock_ns,
						    &end_ns));
			EXPECT_EQ(steps[i].at, cycle_reads);
			EXPECT_EQ(0, e.clk_back);
			EXPECT_FALSE(e.clk_tsc);
		}
	}
	cycles_jump_at = 0;
	cycles_on = false;
}

/*
 * The engine stops trusting the counter in a phase (the kernel marked
 * the TSC unstable) after it ran ahead of fsload_now() (by its rate
 * error): the loop goes on on fsload_now(), its times never below the
 * counter's last, so that no latency is negative (2^64 - a few ns); it
 * is no step back.  On a counter that stays sane, every op's phase sum
 * says so.
 */
TEST(cycle_clock_untrusted)
{
	static const u32 ns[] = { 1, 16 };
	/* counts ahead from read 500: 250 ns, 35 reads of the clock */
	const u64 ahead = 1000;
	struct fsload_engine e;
	const struct fsload_opstat *st = &e.acc[FSLOAD_OP_NULL].st;
	struct fsload_phase_sum sum;
	u64 reads;
	unsigned int j;

	cycles_on = true;
	for (j = 0; j < ARRAY_SIZE(ns); j++) {
		cycle_reads = 0;
		ASSERT_EQ(FSLOAD_RUN_DONE, loop_run(&e, ns[j], 0, &reads));
		memset(&sum, 0, sizeof(sum));
		fsload_phase_sum_add(&sum, &e, FSLOAD_RUN_DONE, 0);
		EXPECT_EQ(0, sum.clk_back);
		EXPECT_EQ(1, sum.clk_tsc);

		cycle_reads = 0;
		cycles_jump_at = 500;
		cycles_jump = ahead;
		cycles_off_at = 1000;
		ASSERT_EQ(FSLOAD_RUN_DONE, loop_run(&e, ns[j], 0, &reads));
		EXPECT_EQ(LOOP_OPS, st->ops);
		EXPECT_EQ(0, st->lat_min);
		EXPECT_GE(2 * CLOCK_STEP + ahead / CYCLES_PER_NS, st->lat_max);
		EXPECT_GE(reads * CLOCK_STEP + ahead / CYCLES_PER_NS,
			  st->lat_sum);
		EXPECT_EQ(cycles_off_at, cycle_reads);
		memset(&sum, 0, sizeof(sum));
		fsload_phase_sum_add(&sum, &e, FSLOAD_RUN_DONE, 0);
		EXPECT_EQ(0, sum.clk_back);
		EXPECT_EQ(0, sum.clk_tsc);
		cycles_jump_at = 0;
		cycles_off_at = 0;
	}
	cycles_on = false;
}

/*
 * 1 op timed in N: the counts stay exact, the histogram holds the timed
 * ops (sampled, ~ops / N), the latency sum is theirs, the clock is read
 * about twice per timed op, and the op sequence does not depend on N.
 */
TEST(lat_sample_loop)
{
	static const u32 ns[] = { 1, 2, 16, 64, 1000, FSLOAD_LAT_SAMPLE_MAX };
	struct fsload_engine e;
	const struct fsload_opstat *st = &e.acc[FSLOAD_OP_NULL].st;
	u64 reads, rnd = 0, hsum;
	unsigned int i, b;
	double expect;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		ASSERT_EQ(FSLOAD_RUN_DONE, loop_run(&e, ns[i], 0, &reads));
		EXPECT_EQ(LOOP_OPS, st->ops);
		EXPECT_EQ(0, st->errors);
		EXPECT_EQ(LOOP_OPS, e.ops_done);
		for (b = 0, hsum = 0; b < FSLOAD_HIST_BUCKETS; b++)
			hsum += e.hist[b];
		EXPECT_EQ(fsload_opstat_timed(st), hsum);
		EXPECT_EQ(fsload_opstat_timed(st) * CLOCK_STEP, st->lat_sum);
		if (fsload_opstat_timed(st)) {
			EXPECT_EQ(CLOCK_STEP, st->lat_min);
			EXPECT_EQ(CLOCK_STEP, st->lat_max);
		}
		if (ns[i] == 1) {
			/* as without sampling: one read per op, one to start */
			EXPECT_EQ(LOOP_OPS, fsload_opstat_timed(st));
			EXPECT_EQ(LOOP_OPS + 1, reads);
			rnd = e.rnd.s;
		} else {
			/* ~ops / N, within 5 standard deviations */
			expect = (double)LOOP_OPS / ns[i];
			EXPECT_TRUE(fabs(fsload_opstat_timed(st) - expect) <=
				    5 * sqrt(expect) + 1)
				TH_LOG("N %u: %llu timed, expected ~%.0f",
				       ns[i], (unsigned long long)fsload_opstat_timed(st),
				       expect);
			/* two per timed op, the marks, the start and end */
			EXPECT_LE(reads, 2 * fsload_opstat_timed(st) +
					 FSLOAD_PROGRESS_MARKS + 2);
		}
		/* the picks drew the same numbers */
		EXPECT_EQ(rnd, e.rnd.s);
		EXPECT_EQ(FSLOAD_PROGRESS_MARKS, e.nmarks);
	}
}

/*
 * The loop names most files by adding one to the last digit
 * (fsload_name_digits()): every name is still the one fsload_name_set()
 * builds, over the carries, the directories (of 100), the wrap of the set
 * (from item 995 of 1000) and a phase that ends in the middle of a run of
 * digits, whose next phase goes on from the name where it was; in
 * fsload's and mdtest's names (whose digits grow).
 */
TEST(loop_names)
{
	static const struct fsload_slots slots = {
		.slot[FSLOAD_OP_STAT] = 1,
		.n = 1,
	};
	static const struct fsload_naming *nms[] = {
		&fsload_names, &mdtest_names,
	};
	static const struct { u64 first, iterations; } runs[] = {
		{ 995, 2503 }, { 498, 7 }, { 505, 1 }, { 506, 14 }, { 0, 1000 },
	};
	static const u32 weight = 1;
	static u64 hist[FSLOAD_HIST_BUCKETS];
	static struct fsload_phase ph;
	struct fsload_worker w = { 0 };
	struct fsload_engine *e = &w.e;
	unsigned int n, r;
	u64 end_ns;

	for (n = 0; n < ARRAY_SIZE(nms); n++) {
		memset(e, 0, sizeof(*e));
		e->hist = hist;
		engine_init(e, 2, 4, 0, 1, 1000, 100, 0, 0, 42, false, nms[n],
			    &slots);
		memset(&name_ref, 0, sizeof(name_ref));
		engine_init(&name_ref, 2, 4, 0, 1, 1000, 100, 0, 0, 42, false,
			    nms[n], &slots);
		name_files = 1000;
		name_bad = 0;
		for (r = 0; r < ARRAY_SIZE(runs); r++) {
			loop_phase(&ph, FSLOAD_OP_STAT, &weight, 1,
				   runs[r].iterations);
			ph.first = runs[r].first;
			name_next = runs[r].first;
			ASSERT_EQ(FSLOAD_RUN_DONE,
				  fsload_engine_run(&w, e, &ph, r, 0, &end_ns));
			EXPECT_EQ(runs[r].iterations,
				  e->acc[FSLOAD_OP_STAT].st.ops);
			EXPECT_EQ(0, name_bad)
				TH_LOG("names %u, run %u: %u names wrong", n,
				       r, name_bad);
			/* where a phase left the run is where the next finds it */
			EXPECT_EQ(name_ref.name_dir_left, e->name_dir_left);
		}
	}
}

/*
 * The random order of thread @index of @threads of rank @rank (seed 42,
 * 100 files, phase 3) into @order.
 */
static void rank_order(u32 index, u32 threads, u32 rank, u32 *order)
{
	static const struct fsload_slots slots = {
		.slot[FSLOAD_OP_STAT] = 1,
		.n = 1,
	};
	static const u32 weight = 1;
	static u64 hist[FSLOAD_HIST_BUCKETS];
	static struct fsload_phase ph;
	struct fsload_worker w = { 0 };
	u64 end_ns;

	w.e.hist = hist;
	engine_init(&w.e, index, threads, rank, 1, 100, 100, 0, 0, 42,
		    false, &mdtest_names, &slots);
	loop_phase(&ph, FSLOAD_OP_STAT, &weight, 1, 100);
	ph.order = FSLOAD_ORDER_RANDOM;
	order_rec = order;
	order_n = 0;
	fsload_engine_run(&w, &w.e, &ph, 3, 0, &end_ns);
	order_rec = NULL;
}

/*
 * A random order: rank 0's is a job's without a rank (the permutation of
 * seed ^ (thread << 32 | phase)); rank 3's thread 1 of 2 visits the items
 * in another order, rank 4's in a third.
 */
TEST(rank_random_order)
{
	u32 r0[100], r3[100], r4[100], want[100], i;
	struct fsload_perm pm;

	rank_order(1, 2, 0, r0);
	ASSERT_EQ(100, order_n);
	fsload_perm_init(&pm, 100, 42 ^ (1ULL << 32 | 3));
	for (i = 0; i < 100; i++)
		want[i] = fsload_perm_next(&pm);
	EXPECT_EQ(0, memcmp(want, r0, sizeof(r0)));
	rank_order(1, 2, 3, r3);
	ASSERT_EQ(100, order_n);
	EXPECT_NE(0, memcmp(r0, r3, sizeof(r0)));
	rank_order(1, 2, 4, r4);
	EXPECT_NE(0, memcmp(r3, r4, sizeof(r3)));
	EXPECT_NE(0, memcmp(r0, r4, sizeof(r0)));
}

/*
 * Sampling, the stonewall is seen at the rescheduling points: a phase of
 * 1000 ns on a clock of CLOCK_STEP per read ends within FSLOAD_YIELD_OPS
 * ops of the first point past it.
 */
TEST(lat_sample_stonewall)
{
	struct fsload_engine e;
	u64 reads;

	ASSERT_EQ(FSLOAD_RUN_STONEWALLED, loop_run(&e, 64, 1000, &reads));
	EXPECT_GT(e.acc[FSLOAD_OP_NULL].st.ops, 0);
	EXPECT_EQ(0, e.acc[FSLOAD_OP_NULL].st.ops % FSLOAD_YIELD_OPS);
	EXPECT_LT(e.acc[FSLOAD_OP_NULL].st.ops, LOOP_OPS);
}

TEST_HARNESS_MAIN
