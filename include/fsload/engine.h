/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload: the part of the engine that the kernel's workers (module/) and
 * fsloadctl's userspace engine (ctl/engine/u*.c) share, compiled for both:
 * the program's types, the file names, the random file order, the choice
 * of an operation by weight, the per-operation statistics, the latency
 * histogram and its percentiles, and the op table (what each op type
 * takes).  The phase loop itself is in engine-loop.h, the job's
 * choreography around it in engine-job.h.  So both engines run the
 * identical operation sequence from one definition.
 *
 * Userspace includes ctl/lib/kshim.h first, which supplies the kernel types
 * and helpers used here.
 */
#ifndef _FSLOAD_ENGINE_H
#define _FSLOAD_ENGINE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/fcntl.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <uapi/linux/fsload.h>
#endif

/* One weighted operation of a phase, as validated. */
struct fsload_opdesc {
	u8 type;		/* enum fsload_op */
	u32 weight;		/* relative weight, >= 1 */
	u64 size;		/* bytes written per file */
	u32 block;		/* bytes per read/write call */
	u32 flags;		/* enum fsload_op_flags */
	char prefix;		/* rename: the new name's first letter */
	u32 depth;		/* bio ops: bios in flight, >= 1 */
	u8 group;		/* its group, or FSLOAD_GROUP_ALL */
};

struct fsload_phase {
	char name[FSLOAD_NAME_MAX];
	u8 order;		/* enum fsload_phase_order */
	char prefix;		/* first letter of file names */
	u32 flags;		/* enum fsload_phase_flags */
	u64 duration_ns;	/* stonewall; 0 = none */
	u64 first;		/* first file index, sequential order */
	u32 stride;		/* items of thread (index + stride) % threads */
	u64 iterations;		/* per thread */
	unsigned int nops;
	u32 weight_total;
	struct fsload_opdesc ops[FSLOAD_PHASE_OPS_MAX];
	/* Each group's ops (indices into ops[]) and their total weight. */
	u8 gops[FSLOAD_GROUPS_MAX][FSLOAD_PHASE_OPS_MAX];
	u8 gnops[FSLOAD_GROUPS_MAX];
	u32 gweight[FSLOAD_GROUPS_MAX];
};

/* Fill in @ph's per-group op lists, for @ngroups groups (>= 1). */
static inline void fsload_phase_groups(struct fsload_phase *ph,
				       unsigned int ngroups)
{
	unsigned int g, i;

	for (g = 0; g < ngroups; g++) {
		ph->gnops[g] = 0;
		ph->gweight[g] = 0;
		for (i = 0; i < ph->nops; i++) {
			if (ph->ops[i].group != FSLOAD_GROUP_ALL &&
			    ph->ops[i].group != g)
				continue;
			ph->gops[g][ph->gnops[g]++] = i;
			ph->gweight[g] += ph->ops[i].weight;
		}
	}
}

/* Statistics of one operation type; owned by one worker, or merged. */
struct fsload_opstat {
	u64 ops;		/* successful operations */
	u64 errors;		/* failed operations */
	u64 misses;		/* failed as the phase expects: not errors */
	u64 bytes;		/* bytes written and read */
	/*
	 * Successful operations not timed (the job's lat_sample): the
	 * latencies and the histogram are over the others, ops - untimed
	 * (fsload_opstat_timed()).  Counted for these, not for the timed
	 * ones, so that timing every op costs nothing more.
	 */
	u64 untimed;
	u64 lat_sum;		/* ns */
	u64 lat_min;		/* ns, U64_MAX when no operation */
	u64 lat_max;		/* ns */
};

/*
 * Latency histogram, log-linear: values below 16 ns have a bucket each;
 * above, every power of two is split into 8 buckets (12.5% wide), up to
 * 2^64 ns.  496 buckets of u64, 3968 bytes, cover every latency.
 */
#define FSLOAD_HIST_SUB_BITS	3
#define FSLOAD_HIST_SUB		BIT(FSLOAD_HIST_SUB_BITS)
#define FSLOAD_HIST_BUCKETS	((64 - FSLOAD_HIST_SUB_BITS + 1) * \
				 FSLOAD_HIST_SUB)

/*
 * Without a branch: k is 0 below 2 x FSLOAD_HIST_SUB (the OR leaves the
 * highest bit set at FSLOAD_HIST_SUB_BITS), where the bucket is v itself.
 * __fls(), not fls64(): the OR makes the value non-zero, and x86's
 * fls64() spends an instruction on a zero.
 */
static inline unsigned int fsload_hist_bucket(u64 v)
{
	unsigned int k = __fls(v | FSLOAD_HIST_SUB) - FSLOAD_HIST_SUB_BITS;

	return k * FSLOAD_HIST_SUB + (unsigned int)(v >> k);
}

/* The smallest value of bucket @b; the next bucket's is its end. */
static inline u64 fsload_hist_low(unsigned int b)
{
	unsigned int k;

	if (b < 2 * FSLOAD_HIST_SUB)
		return b;
	k = b / FSLOAD_HIST_SUB - 1;
	return (u64)(b % FSLOAD_HIST_SUB + FSLOAD_HIST_SUB) << k;
}

/* Exclusive end of bucket @b (U64_MAX for the last). */
static inline u64 fsload_hist_high(unsigned int b)
{
	return b + 1 < FSLOAD_HIST_BUCKETS ? fsload_hist_low(b + 1) : U64_MAX;
}

/*
 * A histogram's percentiles, one rule for the kernel's interval samples
 * (module/series.c, fsload_hist_quantile() below) and fsloadctl's figures
 * (ctl/nl/hist.c, over its sparse buckets): the value of rank
 * ceil(q x n) among the n values, each bucket's values taken as spread
 * evenly over it.  fsloadctl then clamps its figures to the phase's
 * measured minimum and maximum; the kernel's samples have none to clamp
 * to.  A quantile is given in parts per million, so that its rank is
 * exact in integers.
 */
#define FSLOAD_PPM		1000000U

/* The rank (from 1) of quantile @q_ppm (<= FSLOAD_PPM) among @n values. */
static inline u64 fsload_hist_rank(u64 n, u32 q_ppm)
{
	u32 rem;
	u64 rank = div_u64_rem(n, FSLOAD_PPM, &rem) * q_ppm +
		   div_u64((u64)rem * q_ppm + FSLOAD_PPM - 1, FSLOAD_PPM);

	return rank ? rank : 1;
}

/*
 * The value of the @k-th (1..@count) of the @count values in bucket
 * [@low, @high), the values taken as spread evenly over the integers
 * low .. high - 1, the k-th at (k - 1/2) / count of the way, floored:
 * low + floor(w x (2k - 1) / (2 count)), w = high - 1 - low.  Exact for
 * any u64 bounds and count without a 128-bit type: the numerator halved
 * and floored is w x (k - 1) + w / 2, that is (q + hq) x count + r + hr
 * with r and hr each below count.
 */
static inline u64 fsload_hist_value(u64 low, u64 high, u64 k, u64 count)
{
	u64 w = high - 1 - low, q, r, hq, hr;

	q = mul_u64_u64_div_u64(w, k - 1, count);
	/* The remainder, < count: exact in arithmetic modulo 2^64. */
	r = w * (k - 1) - q * count;
	hq = div64_u64_rem(w / 2, count, &hr);
	return low + q + hq + (r >= count - hr);
}

/* What bucket @b of a dense histogram grew by from @prev to @cur. */
static inline u64 fsload_hist_grew(const u64 *cur, const u64 *prev,
				   unsigned int b)
{
	return cur[b] > prev[b] ? cur[b] - prev[b] : 0;
}

/*
 * The value at quantile @q_ppm of the values a dense histogram
 * (FSLOAD_HIST_BUCKETS counts) gained from @prev to @cur (a count that
 * went back counts 0); 0 when it gained none.
 */
static inline u64 fsload_hist_quantile(const u64 *cur, const u64 *prev,
				       u32 q_ppm)
{
	u64 n = 0, rank, c;
	unsigned int b;

	for (b = 0; b < FSLOAD_HIST_BUCKETS; b++)
		n += fsload_hist_grew(cur, prev, b);
	if (!n)
		return 0;
	rank = fsload_hist_rank(n, q_ppm);
	for (b = 0; b < FSLOAD_HIST_BUCKETS; b++) {
		c = fsload_hist_grew(cur, prev, b);
		if (rank <= c)
			return fsload_hist_value(fsload_hist_low(b),
						 fsload_hist_high(b), rank, c);
		rank -= c;
	}
	return 0;
}

/*
 * Operation types a program uses get consecutive slots: a worker keeps one
 * histogram per slot, not one per type.
 */
struct fsload_slots {
	u8 slot[FSLOAD_OP_MAX + 1];	/* slot + 1; 0: type not used */
	unsigned int n;
};

static inline void fsload_slots_init(struct fsload_slots *s,
				     const struct fsload_phase *ph,
				     unsigned int nphases)
{
	unsigned int p, i;
	u8 t;

	memset(s, 0, sizeof(*s));
	for (p = 0; p < nphases; p++) {
		for (i = 0; i < ph[p].nops; i++) {
			t = ph[p].ops[i].type;
			if (!s->slot[t])
				s->slot[t] = ++s->n;
		}
	}
}

/* u64 words of a set of histograms, one per slot. */
static inline size_t fsload_hist_words(const struct fsload_slots *s)
{
	return (size_t)s->n * FSLOAD_HIST_BUCKETS;
}

/*
 * The engine's random numbers (splitmix64): the same sequence for a seed
 * in the kernel and in userspace.
 */
struct fsload_rng {
	u64 s;
};

static inline void fsload_rng_seed(struct fsload_rng *r, u64 seed)
{
	r->s = seed;
}

static inline u32 fsload_rng_u32(struct fsload_rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) >> 32;
}

/*
 * A permutation of [0, n) without memory: a full-period LCG over the
 * next power of two, each value scrambled by a bijection of that range
 * (xorshift and odd multiply), values >= n skipped.
 */
struct fsload_perm {
	u64 x, a, c, mask;
	unsigned int shift;
	u64 n;
};

static inline void fsload_perm_init(struct fsload_perm *pm, u64 n, u64 seed)
{
	unsigned int bits = n > 1 ? fls64(n - 1) : 1;

	pm->n = n;
	pm->mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
	pm->shift = (bits + 1) / 2;
	pm->a = 6364136223846793005ULL;		/* == 1 mod 4: full period */
	pm->c = (seed * 1442695040888963407ULL) | 1;
	pm->x = (seed >> 7) & pm->mask;
}

static inline u32 fsload_perm_next(struct fsload_perm *pm)
{
	u64 y;

	do {
		pm->x = (pm->a * pm->x + pm->c) & pm->mask;
		y = pm->x;
		y ^= y >> pm->shift;
		y = (y * 0x9e3779b97f4a7c15ULL) & pm->mask;
		y ^= y >> pm->shift;
	} while (y >= pm->n);
	return y;
}

/*
 * A file's name, in the job's name scheme (enum fsload_names):
 *	fsload	"t000/d00000/f00000000": its tree root (thread 0), its
 *		directory (0) and the file (0)
 *	mdtest	"test-dir.0-0/mdtest_tree.0.0/file.mdtest.0.0", mdtest's
 *	fsmark	"t000/6a3f09c1~~~~~~~~K2Q...": fs_mark's, the files in the
 *		root while there is one directory, else in "t000/00/..."
 * In a directory tree (TREE_BRANCH) the directory is a path of up to
 * FSLOAD_TREE_DEPTH_MAX + 1 components, "d00000/d00001/d00004", so names
 * vary in length.
 */
#define FSLOAD_NAME_TDIR_LEN	4	/* "t000" */
#define FSLOAD_NAME_DCOMP_LEN	6	/* "d00000" */
#define FSLOAD_NAME_FILE_LEN	9	/* "f00000000" */
#define FSLOAD_NAME_ROOT_MAX	12	/* "test-dir.0-0" */
#define FSLOAD_NAME_DCOMP_MAX	24	/* "mdtest_tree.999999.99999" */
/* A file's own component: fsmark's longest (mdtest's is 27 at most) */
#define FSLOAD_NAME_FILE_MAX	FSLOAD_NAME_BYTES_MAX
#define FSLOAD_NAME_LEN_MAX	(FSLOAD_NAME_ROOT_MAX + 1 + \
				 (FSLOAD_TREE_DEPTH_MAX + 1) * \
				 (FSLOAD_NAME_DCOMP_MAX + 1) + \
				 FSLOAD_NAME_FILE_MAX)

/*
 * A job's failure message, "phase NAME, thread N: OP NAME: error E", with
 * the longest name, at most.
 */
#define FSLOAD_ERRMSG_MAX	(FSLOAD_NAME_MAX + FSLOAD_NAME_LEN_MAX + 64)

/* fs_mark's default name: 40 bytes, the last 24 random. */
#define FSLOAD_FSMARK_NAME_BYTES	40
#define FSLOAD_FSMARK_RANDOM_BYTES	24

/* A job's name scheme, as requested. */
struct fsload_naming {
	u8 scheme;		/* enum fsload_names */
	u8 bytes;		/* fsmark: a file name's length */
	u8 random;		/* fsmark: its random characters, the last */
};

/* mdtest's suffix for the first item of a rename rotation, moved aside. */
#define FSLOAD_ROTATE_SUFFIX	"-XX"
#define FSLOAD_ROTATE_SUFFIX_LEN	3
#define FSLOAD_RENAME_LEN_MAX	(FSLOAD_NAME_LEN_MAX + FSLOAD_ROTATE_SUFFIX_LEN)

/*
 * One worker's (or userspace thread's) engine state.  Everything in it is
 * the worker's own: no shared counters.
 */
/*
 * fsload_cycles_mult()'s unit (engine-loop.h): 2^-24 ns a count, 0.06 ppm
 * of a 1 GHz counter's period.
 */
#define FSLOAD_CLOCK_SHIFT	24

/*
 * An op type's statistics in a phase, and its histogram in the engine's
 * (NULL: type not used), so that an op finds its own without the slot
 * lookup (set by fsload_engine_reset() from slots): what an op writes,
 * 64 bytes found by a shift of its type.
 */
struct fsload_opacc {
	struct fsload_opstat st;
	u64 *hist;
};

struct fsload_engine {
	/* The job's parameters. */
	u64 files;		/* per thread */
	u32 files_per_dir;
	u64 seed;
	unsigned int index;	/* thread index */
	unsigned int threads;
	/* the thread whose items the names are (a stride's; else index) */
	unsigned int owner;
	/*
	 * The job's rank x threads: its thread t is thread rank_base + t of
	 * a run of several jobs, in mdtest's names and the random seeds.
	 */
	u32 rank_base;
	bool shared;		/* one tree for all threads */
	u8 group;		/* thread group */
	u32 file_base;		/* first file index (shared tree, first_dir) */
	u32 branch;		/* directory tree's branching; 0 flat */
	u32 first_dir;		/* the first directory holding files */
	u32 ndirs;		/* directories a FSLOAD_PHASE_F_DIRS phase
				 * visits, from 0
				 */
	const struct fsload_slots *slots;
	struct fsload_rng rnd;
	/*
	 * Time 1 op in lat_sample (>= 1), the gaps between timed ops drawn
	 * from lat_rnd (fsload_lat_gap()), apart from rnd: the op sequence
	 * does not depend on lat_sample.
	 */
	u32 lat_sample;
	struct fsload_rng lat_rnd;

	/*
	 * The current name, name_len bytes, its last component at last_off:
	 * file name_idx, or a directory after fsload_name_set_dir().
	 */
	u64 name_idx;
	/* files from name_idx on that fsload_name_set() reaches by counting */
	u32 name_dir_left;
	u16 name_len;
	u16 last_off;
	char prefix;		/* the phase's first letter of file names */
	struct fsload_naming naming;
	bool in_root;		/* fsmark, one directory: the files in the root */
	u8 root_len;		/* the tree root's bytes at the name's start */
	u32 stamp;		/* fsmark: the names' time stamp, from the seed */

	/*
	 * A rename's source and target (fsload_rename_names()): ren_from is
	 * name or rot_first.  A rotation (FSLOAD_OP_F_ROTATE) keeps its run's
	 * first item's new name and the previous item's name.
	 */
	char *ren_from;
	char ren_to[FSLOAD_RENAME_LEN_MAX + 1];
	char rot_first[FSLOAD_RENAME_LEN_MAX + 1];
	char rot_prev[FSLOAD_NAME_LEN_MAX + 1];
	u16 rot_prev_len;	/* rot_prev's name_len */
	u16 rot_prev_off;	/* rot_prev's last_off */

	/*
	 * Progress, all phases; read by others with READ_ONCE().  Beside the
	 * name and the iteration: what every op writes, in as few cache
	 * lines as the name allows (the op type's statistics apart).
	 */
	u64 ops_done;
	u64 bytes_done;
	bool uncounted;		/* ops not progress (the overhead runs) */
	u8 op_type;		/* the op being done, or last done: what a
				 * CPU profile's sample is booked to;
				 * WRITE_ONCE
				 */

	/*
	 * The current phase's iteration, and its iterations per thread;
	 * WRITE_ONCE, read by others for progress (fsload_engine_items()).
	 */
	u64 iter;
	u64 iters;
	/*
	 * The loop's clock (fsload_clock()): while clk_tsc, the cycle
	 * counter's reading clk_cyc was fsload_now()'s clk_ns, clk_mult ns
	 * per count << FSLOAD_CLOCK_SHIFT, and clk_last its last reading
	 * (none below it is used).  clk_floor: the counter was left in the
	 * phase, no later time is below its last (0: none).
	 */
	u64 clk_cyc;
	u64 clk_ns;
	u64 clk_last;
	u32 clk_mult;
	bool clk_tsc;		/* the phase's ops are timed on the counter */
	bool clk_off;		/* it stepped back: never again in the job */
	u64 clk_floor;
	u64 clk_back;		/* the phase's steps back, each clamped */
	/*
	 * After what every op writes: the bytes a name uses are its first
	 * (fsload's: 77 at most).
	 */
	char name[FSLOAD_NAME_LEN_MAX + 1];
	/* The phase's course: when iteration next_mark was done (marks). */
	u64 mark_ns[FSLOAD_PROGRESS_MARKS];
	unsigned int nmarks;
	u64 next_mark;

	/* The current phase's statistics, per op type. */
	struct fsload_opacc acc[FSLOAD_OP_MAX + 1];
	u64 *hist;		/* slots->n x FSLOAD_HIST_BUCKETS */

	/* How the last phase run ended. */
	const struct fsload_opdesc *failed_op;
	int err;		/* negative errno of failed_op */

	/*
	 * Items 0..reached-1 of the file set exist: a stonewall stopped the
	 * phase that made them (or renamed them) there; U64_MAX: all.
	 */
	u64 reached;
};

/* Write @v as exactly @width decimal digits at @p. */
static inline void fsload_put_dec(char *p, unsigned int width, u32 v)
{
	while (width--) {
		p[width] = '0' + v % 10;
		v /= 10;
	}
}

/* Write @v in decimal at @p, without padding; returns its digits. */
static inline unsigned int fsload_put_udec(char *p, u32 v)
{
	unsigned int n = 1, i;
	u32 t;

	for (t = v; t >= 10; t /= 10)
		n++;
	for (i = n; i--; v /= 10)
		p[i] = '0' + v % 10;
	return n;
}

/* Write @v in lower-case hex, at least 2 digits (fs_mark's "%02x"). */
static inline unsigned int fsload_put_hex2(char *p, u32 v)
{
	unsigned int n = 2, i;
	u32 t;

	for (t = v >> 8; t; t >>= 4)
		n++;
	for (i = n; i--; v >>= 4)
		p[i] = "0123456789abcdef"[v & 15];
	return n;
}

/* Write directory @k's own component at @p; returns its length. */
static inline unsigned int fsload_dir_comp(const struct fsload_engine *e,
					   char *p, u32 k)
{
	unsigned int len;

	switch (e->naming.scheme) {
	case FSLOAD_NAMES_MDTEST:
		/* mdtest -u: mdtest_tree.<rank>.<k>; shared: mdtest_tree.<k> */
		memcpy(p, "mdtest_tree.", 12);
		len = 12;
		if (!e->shared) {
			len += fsload_put_udec(&p[len],
					       e->rank_base + e->owner);
			p[len++] = '.';
		}
		return len + fsload_put_udec(&p[len], k);
	case FSLOAD_NAMES_FSMARK:
		return fsload_put_hex2(p, k);
	default:
		p[0] = 'd';
		fsload_put_dec(&p[1], 5, k);
		return FSLOAD_NAME_DCOMP_LEN;
	}
}

/*
 * Write directory @k's path below the tree root at @p, "d00000" when flat,
 * "d00000/d00001/d00004" in a tree of branching factor e->branch
 * (directory k's parent is (k - 1) / branch); returns its length, and
 * where its last component starts in *@last.
 */
static inline unsigned int fsload_dir_path(const struct fsload_engine *e,
					   char *p, u32 k, unsigned int *last)
{
	u32 chain[FSLOAD_TREE_DEPTH_MAX + 1];
	unsigned int n = 0, len = 0;

	chain[n++] = k;
	while (e->branch && k && n < ARRAY_SIZE(chain)) {
		k = (k - 1) / e->branch;
		chain[n++] = k;
	}
	while (n--) {
		*last = len;
		len += fsload_dir_comp(e, &p[len], chain[n]);
		if (n)
			p[len++] = '/';
	}
	return len;
}

/* Levels below directory 0 of directory @k in a tree of @branch. */
static inline unsigned int fsload_dir_depth(u32 branch, u32 k)
{
	unsigned int depth = 0;

	while (branch && k) {
		k = (k - 1) / branch;
		depth++;
	}
	return depth;
}

/*
 * fs_mark's name of file @idx at @p, e->naming.bytes long: the time
 * stamp's last hex digits, or all 8 padded with '~', then the random
 * characters, [0-9A-Z] as fs_mark draws them, here from the seed, the
 * thread and the index (so that every phase finds the name again); a
 * prefix other than 'f' replaces the first character.
 */
static inline unsigned int fsload_fsmark_name(const struct fsload_engine *e,
					      char *p, char prefix, u32 idx)
{
	static const char chars[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	unsigned int seq = e->naming.bytes - e->naming.random, i, d;
	struct fsload_rng r;

	d = seq < 8 ? 8 - seq : 0;
	for (i = 0; i < seq; i++, d++)
		p[i] = d < 8 ? "0123456789abcdef"[(e->stamp >> (28 - 4 * d)) &
						  15] : '~';
	fsload_rng_seed(&r, e->seed * 0x9e3779b97f4a7c15ULL +
			    ((u64)e->owner << 32 | idx));
	for (; i < e->naming.bytes; i++)
		p[i] = chars[((u64)fsload_rng_u32(&r) * 36) >> 32];
	if (prefix != 'f')
		p[0] = prefix;
	return e->naming.bytes;
}

/* Write file @idx's own component, of prefix @prefix, at @p: its length. */
static inline unsigned int fsload_file_comp(const struct fsload_engine *e,
					    char *p, char prefix, u32 idx)
{
	unsigned int len = 1;

	switch (e->naming.scheme) {
	case FSLOAD_NAMES_MDTEST:
		/* file.mdtest.<rank>.<n>, dir.mdtest... (mdtest's items) */
		if (prefix == 'f') {
			memcpy(p, "file", 4);
			len = 4;
		} else if (prefix == 'x') {
			memcpy(p, "dir", 3);
			len = 3;
		} else {
			p[0] = prefix;
		}
		memcpy(&p[len], ".mdtest.", 8);
		len += 8;
		len += fsload_put_udec(&p[len], e->rank_base + e->owner);
		p[len++] = '.';
		return len + fsload_put_udec(&p[len], idx);
	case FSLOAD_NAMES_FSMARK:
		return fsload_fsmark_name(e, p, prefix, idx);
	default:
		p[0] = prefix;
		fsload_put_dec(&p[1], 8, idx);
		return FSLOAD_NAME_FILE_LEN;
	}
}

/* Point e->name at directory @k; the next fsload_name_set() rebuilds. */
static noinline __maybe_unused void
fsload_name_set_dir(struct fsload_engine *e, u32 k)
{
	unsigned int off = e->root_len + 1, len, last = 0;

	e->name_dir_left = 0;
	if (e->in_root) {
		/* the one directory is the root, whose parent is the job's */
		e->name_len = e->root_len;
		e->name[e->name_len] = '\0';
		e->last_off = 0;
		return;
	}
	len = fsload_dir_path(e, &e->name[off], k, &last);
	e->name_len = off + len;
	e->name[e->name_len] = '\0';
	e->last_off = off + last;
}

/*
 * Files from @idx on whose names differ from the one before only by a
 * count in their last digits: all of the directory's for fsload's
 * fixed-width counters, up to the next power of ten for mdtest's, none
 * for fs_mark's random names.
 */
static inline u32 fsload_name_run(const struct fsload_engine *e, u32 idx)
{
	u32 left = e->files_per_dir - idx % e->files_per_dir, p10 = 10;

	switch (e->naming.scheme) {
	case FSLOAD_NAMES_MDTEST:
		while (p10 <= idx && p10 <= U32_MAX / 10)
			p10 *= 10;
		return p10 > idx ? min(left, p10 - idx) : 0;
	case FSLOAD_NAMES_FSMARK:
		return 0;
	default:
		return left;
	}
}

/*
 * fsload_name_set()'s slow path, out of line so that the per-operation
 * loop keeps only the increment (the tree walk made it too big to inline).
 */
static noinline __maybe_unused void
fsload_name_build(struct fsload_engine *e, u32 idx)
{
	unsigned int off;

	fsload_name_set_dir(e, idx / e->files_per_dir);
	off = e->name_len;
	e->name[off++] = '/';
	e->last_off = off;
	e->name_len = off + fsload_file_comp(e, &e->name[off], e->prefix, idx);
	e->name[e->name_len] = '\0';
	e->name_dir_left = fsload_name_run(e, idx);
}

/*
 * Point e->name at file @idx of the worker's file set.  Consecutive files
 * in one directory only increment the file digits: no division and no
 * vsnprintf() in the common case.
 */
static __always_inline void fsload_name_set(struct fsload_engine *e, u32 idx)
{
	char *p;

	if (likely(idx == e->name_idx + 1 && e->name_dir_left > 1)) {
		p = e->name + e->name_len - 1;	/* no int index to extend */
		while (*p == '9')
			*p-- = '0';
		(*p)++;
		e->name_dir_left--;
	} else {
		fsload_name_build(e, idx);
	}
	e->name_idx = idx;
}

/*
 * After fsload_name_set(): how many of the files that follow, at most
 * @max, are named by adding one to the last digit alone (*@last: no
 * carry, the same directory).  The phase loop names them so, a few
 * instructions each; they are taken from e->name_dir_left now, and the
 * loop gives back (adds to it) those it did not name.
 */
static inline u32 fsload_name_digits(struct fsload_engine *e, u32 max,
				     char **last)
{
	char *p = &e->name[e->name_len - 1];
	u32 n = 0;

	/* a run's names end in a count (fsload_name_run()) */
	if (e->name_dir_left > 1)
		n = min_t(u32, min_t(u32, e->name_dir_left - 1, '9' - *p), max);
	e->name_dir_left -= n;
	*last = p;
	return n;
}

/*
 * A phase of prefix e->prefix begins: the current file's name takes it
 * (fsload's names: its first letter; the others are rebuilt).
 */
static inline void fsload_name_reprefix(struct fsload_engine *e)
{
	if (!e->name_dir_left)
		return;
	if (e->naming.scheme == FSLOAD_NAMES_FSLOAD)
		e->name[e->last_off] = e->prefix;
	else
		e->name_dir_left = 0;
}

/*
 * Write at @p the last component e->name's file would have with prefix
 * @c (a rename's new name), NUL-terminated; returns its length.
 */
static inline unsigned int fsload_name_renamed(const struct fsload_engine *e,
					       char *p, char c)
{
	unsigned int len = e->name_len - e->last_off;

	if (e->naming.scheme == FSLOAD_NAMES_FSLOAD) {
		memcpy(p, &e->name[e->last_off], len);
		p[0] = c;
	} else {
		len = fsload_file_comp(e, p, c, e->name_idx);
	}
	p[len] = '\0';
	return len;
}

/* The tree root at e->name's start, as the scheme names it. */
static inline void fsload_name_root(struct fsload_engine *e)
{
	if (e->naming.scheme == FSLOAD_NAMES_MDTEST) {
		/* mdtest's test directory, of iteration 0: every rank's */
		memcpy(e->name, "test-dir.0-0/", FSLOAD_NAME_ROOT_MAX + 1);
		e->root_len = FSLOAD_NAME_ROOT_MAX;
		return;
	}
	memcpy(e->name, "t000/", FSLOAD_NAME_TDIR_LEN + 1);
	fsload_put_dec(&e->name[1], 3, e->shared ? 0 : e->owner);
	e->root_len = FSLOAD_NAME_TDIR_LEN;
}

/*
 * Whether every thread's tree root is one directory (the first to make it
 * makes it): a shared tree's, and mdtest's test directory.
 */
static inline bool fsload_root_shared(const struct fsload_engine *e)
{
	return e->shared || e->naming.scheme == FSLOAD_NAMES_MDTEST;
}

/*
 * The directories a job's tree has: those before @first_dir, then those
 * that hold its files.  A shared tree holds every thread's files, but
 * with mdtest's names each thread's own from 0 (in every directory).
 */
static inline u64 fsload_tree_dirs(unsigned int threads, u64 files,
				   u32 files_per_dir, u32 first_dir,
				   bool shared, u8 scheme)
{
	u64 tree_files = shared && scheme != FSLOAD_NAMES_MDTEST ?
			 (u64)threads * files : files;

	return first_dir + div_u64(tree_files + files_per_dir - 1,
				   files_per_dir);
}

/*
 * Make the items of thread @owner (of e->threads) the ones e->name points
 * at (a phase's stride): the tree root and mdtest's rank in the names, or
 * in a shared tree fsload's and fs_mark's file numbers.  The next
 * fsload_name_set() rebuilds the name.  The numbers start at directory
 * e->first_dir's first (mdtest -L: item k x I + i in directory k).
 */
static inline void fsload_engine_owner(struct fsload_engine *e,
				       unsigned int owner)
{
	e->owner = owner;
	e->file_base = e->first_dir * e->files_per_dir;
	if (e->shared && e->naming.scheme != FSLOAD_NAMES_MDTEST)
		e->file_base += owner * (u32)e->files;
	fsload_name_root(e);
	e->name_dir_left = 0;
}

/*
 * Whether a job of rank @rank numbers its @threads threads within
 * FSLOAD_RANK_MAX (rank x threads + thread: 6 digits in mdtest's names).
 * Both engines refuse a job whose do not, in these words.
 */
static inline bool fsload_rank_fits(u32 rank, u32 threads)
{
	return (u64)rank * threads + threads - 1 <= FSLOAD_RANK_MAX;
}

#define FSLOAD_RANK_RANGE \
	"rank: rank x threads + thread (mdtest's rank in the names) passes " \
	__stringify(FSLOAD_RANK_MAX)

/*
 * Whether a job of rank @rank of a run of @ranks ranks in one directory
 * (ranks > 1: every rank's threads are one job's) fits: its rank below
 * @ranks, the run's ranks x @threads threads numbered within
 * FSLOAD_RANK_MAX, and within t000 to t999 where each thread has its own
 * tree named by fsload's or fs_mark's scheme.  Both engines refuse a job
 * whose do not, in these words.
 */
static inline bool fsload_ranks_fit(u32 rank, u32 ranks, u32 threads,
				    bool shared, u8 scheme)
{
	u64 run = (u64)ranks * threads;

	if (ranks <= 1)
		return true;
	return rank < ranks && run - 1 <= FSLOAD_RANK_MAX &&
	       (shared || scheme == FSLOAD_NAMES_MDTEST ||
		run <= FSLOAD_THREADS_MAX + 1);
}

/*
 * Whether @name is one entry's name in a directory (join-dir): not empty,
 * no '/', not '.' or '..'.  Both engines refuse another.
 */
static inline bool fsload_one_name(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

/**
 * struct fsload_dir_id - what a job directory is, beyond its name: what
 *	rank 0's job reports of the one it made, and what a joining job
 *	finds under that name (dir-*, join-* attributes)
 * @ino: st_ino
 * @mode: st_mode
 * @uid: its owner, as the one who looks sees it ((u32)-1: unmapped)
 * @has_btime: the filesystem records a birth time
 * @btime_ns: stx_btime, in ns since the epoch
 * @handle_type: the file handle's handle_type
 * @handle_bytes: its bytes (0: the filesystem gives no file handle)
 * @handle: the handle, as name_to_handle_at(2) gives it
 *
 * An inode number is reused: a directory another user makes after rank
 * 0's was removed can get it.  The inode's generation (in the file handle
 * of ext4, xfs, btrfs, tmpfs ...) and its birth time are not repeated,
 * and its owner is whoever made it.  Both engines fill it the same way:
 * vfs_getattr() and exportfs_encode_fh() in the module, statx(2) and
 * name_to_handle_at(2) (which call them) in fsloadctl.
 */
struct fsload_dir_id {
	u64 ino;
	u32 mode;
	u32 uid;
	bool has_btime;
	u64 btime_ns;
	u32 handle_type;
	u32 handle_bytes;
	u8 handle[FSLOAD_JOIN_HANDLE_MAX];
};

/* How a directory differs from the one a job joins (fsload_dir_differs()). */
enum fsload_dir_diff {
	FSLOAD_DIR_SAME,
	FSLOAD_DIR_OTHER_INO,
	FSLOAD_DIR_NOT_OWNER,
	FSLOAD_DIR_OTHER_MODE,
	FSLOAD_DIR_OTHER_BTIME,
	FSLOAD_DIR_OTHER_HANDLE,
};

/* What each engine says of it, naming the attribute that differs. */
#define FSLOAD_JOIN_MSG_INO \
	"join_ino: another inode than rank 0's job directory (moved or replaced)"
#define FSLOAD_JOIN_MSG_OWNER \
	"join_dir: not owned by this job's starter, so not rank 0's job directory (removed, and its name taken)"
#define FSLOAD_JOIN_MSG_MODE \
	"join_mode: another mode than rank 0's job directory (removed, and its name taken)"
#define FSLOAD_JOIN_MSG_BTIME \
	"join_btime: born at another time than rank 0's job directory (removed, and its inode number reused)"
#define FSLOAD_JOIN_MSG_HANDLE \
	"join_handle: another file handle than rank 0's job directory (removed, and its inode number reused)"

/*
 * Whether @got, the directory a joining job found under rank 0's job
 * directory's name, is the one rank 0's job made and reported (@want),
 * for a starter whose fsuid is @fsuid: its inode number and mode; its
 * owner the starter (rank 0's starter made it); its file handle and
 * birth time where both have one (a handle of another type: the
 * filesystem seen another way, as through NFS).  FSLOAD_DIR_SAME, or what differs.
 */
static inline enum fsload_dir_diff
fsload_dir_differs(const struct fsload_dir_id *want,
		   const struct fsload_dir_id *got, u32 fsuid)
{
	if (got->ino != want->ino)
		return FSLOAD_DIR_OTHER_INO;
	if (got->uid == (u32)-1 || got->uid != fsuid)
		return FSLOAD_DIR_NOT_OWNER;
	if (got->mode != want->mode)
		return FSLOAD_DIR_OTHER_MODE;
	if (want->handle_bytes && got->handle_bytes &&
	    got->handle_type == want->handle_type &&
	    (got->handle_bytes != want->handle_bytes ||
	     memcmp(got->handle, want->handle, got->handle_bytes)))
		return FSLOAD_DIR_OTHER_HANDLE;
	if (want->has_btime && got->has_btime &&
	    got->btime_ns != want->btime_ns)
		return FSLOAD_DIR_OTHER_BTIME;
	return FSLOAD_DIR_SAME;
}

#define FSLOAD_RANKS_RANGE \
	"ranks: rank below ranks, and ranks x threads at most " \
	__stringify(FSLOAD_RANK_MAX) " + 1 (1000 for per-thread trees t000 to t999)"

/*
 * The threads of the run a job is part of: ranks x @threads when its
 * ranks share its directory (@ranks > 1), else its own.
 */
static inline u32 fsload_run_threads(u32 threads, u32 ranks)
{
	return ranks > 1 ? ranks * threads : threads;
}

/*
 * What a job's workers are set up from (fsload_engine_init()): the part of
 * the program that says who each thread is, which files it has and how
 * they are named.  Each engine's program holds one (module/fsload.h's
 * struct fsload_program, ctl/engine/uengine-int.h's struct ujob), filled
 * as the program is parsed.
 */
struct fsload_setup {
	u32 flags;		/* enum fsload_job_flags */
	u32 threads;
	u32 rank;		/* of a run of several jobs: thread t is its
				 * rank x threads + t
				 */
	u32 ranks;		/* > 1: the run's ranks share one directory */
	u64 files;		/* per thread */
	u32 files_per_dir;
	u32 branch;		/* directory tree's branching; 0 flat */
	u32 first_dir;		/* the first directory holding files */
	struct fsload_naming naming;	/* the name scheme */
	u64 seed;
	u32 lat_sample;		/* time 1 op in lat_sample, >= 1 */
	unsigned int ngroups;	/* >= 1; thread groups, or one of all */
	u32 group_threads[FSLOAD_GROUPS_MAX];
};

/* The group of thread @index: the threads are numbered group by group. */
static inline u8 fsload_setup_group(const struct fsload_setup *s,
				    unsigned int index)
{
	unsigned int g = 0;
	u32 end = s->group_threads[0];

	while (index >= end && g + 1 < s->ngroups)
		end += s->group_threads[++g];
	return g;
}

/*
 * Set up @e for thread @index of a job set up as @s says, its histograms
 * in @slots' slots; the caller sets e->hist.  mdtest's names carry the
 * thread, so that in a shared tree (FSLOAD_JOB_F_SHARED_DIR) each thread
 * numbers its items from 0 and puts its share of them in every
 * directory, as mdtest's ranks do; fsload's and fs_mark's number every
 * thread's files in one range there.  The files are in the directories
 * from first_dir on (fsload_tree_dirs()).  A job of rank s->rank
 * (fsload_rank_fits()) is one of a run of several: its thread t is the
 * run's thread rank x threads + t in mdtest's names and the random seeds;
 * rank 0 runs as a job without a rank.  When the s->ranks ranks of the
 * run share one directory (ranks > 1, fsload_ranks_fit()), the job is a
 * slice of one job of ranks x threads threads: thread t is that job's
 * thread rank x threads + t in everything, its tree and file numbers, a
 * stride's owner and the seeds.
 */
static inline void fsload_engine_init(struct fsload_engine *e,
				      const struct fsload_setup *s,
				      const struct fsload_slots *slots,
				      unsigned int index)
{
	const struct fsload_naming *nm = &s->naming;
	bool shared = s->flags & FSLOAD_JOB_F_SHARED_DIR;
	unsigned int threads = s->threads;
	u32 rank = s->rank;
	u32 dirs;

	e->group = fsload_setup_group(s, index);
	if (s->ranks > 1) {
		index += rank * threads;
		threads *= s->ranks;
		rank = 0;
	}
	dirs = (u32)fsload_tree_dirs(threads, s->files, s->files_per_dir,
				     s->first_dir, shared, nm->scheme);
	e->index = index;
	e->threads = threads;
	e->rank_base = rank * threads;
	e->shared = shared;
	e->files = s->files;
	e->files_per_dir = s->files_per_dir;
	e->branch = s->branch;
	e->first_dir = s->first_dir;
	e->seed = s->seed;
	e->slots = slots;
	e->naming = *nm;
	/* fs_mark without -D: the files are in the thread's directory */
	e->in_root = nm->scheme == FSLOAD_NAMES_FSMARK && dirs <= 1;
	/* A shared tree's directories are thread 0's to make and remove. */
	e->ndirs = (shared && index) || e->in_root ? 0 : dirs;
	/* fs_mark's clock in hex, 8 digits: a time of 2021 to 2029 */
	e->stamp = 0x60000000U | (u32)(s->seed * 0x9e3779b97f4a7c15ULL >> 36);
	fsload_rng_seed(&e->rnd, s->seed + e->rank_base + index);
	e->lat_sample = s->lat_sample ? s->lat_sample : 1;
	fsload_rng_seed(&e->lat_rnd, ~(s->seed + e->rank_base + index));
	fsload_engine_owner(e, index);
	e->prefix = 'f';
	e->reached = U64_MAX;
	e->clk_off = false;
	fsload_name_set(e, 0);
}

/*
 * The seed of the worker's random order in phase @p: the job's seed, the
 * thread and the phase; a job of a rank (rank_base > 0) adds 64 random
 * bits drawn from rank_base, for a small set's permutation takes only
 * the seed's low bits.
 */
static inline u64 fsload_order_seed(const struct fsload_engine *e,
				    unsigned int p)
{
	struct fsload_rng r = { .s = e->rank_base };
	u64 s = e->seed ^ ((u64)e->index << 32 | p), hi;

	if (e->rank_base) {
		hi = fsload_rng_u32(&r);
		s += hi << 32 | fsload_rng_u32(&r);
	}
	return s;
}

/* Whether @ph has an op of @type. */
static inline bool fsload_phase_has(const struct fsload_phase *ph,
				    unsigned int type)
{
	unsigned int i;

	for (i = 0; i < ph->nops; i++)
		if (ph->ops[i].type == type)
			return true;
	return false;
}

/*
 * A rotating rename is the only op of a sequential phase: its names are
 * its neighbours' in the phase's order.
 */
static inline bool fsload_phase_rotate_ok(const struct fsload_phase *ph)
{
	unsigned int i;

	for (i = 0; i < ph->nops; i++)
		if (ph->ops[i].flags & FSLOAD_OP_F_ROTATE)
			return ph->nops == 1 &&
			       ph->order == FSLOAD_ORDER_SEQUENTIAL;
	return true;
}

/*
 * Set e->ren_from and e->ren_to for a rename of the current item, e->iter
 * of e->iters: its name of the op's prefix (fsload_name_renamed()), or
 * mdtest's rotation (the rotate flag's doc in the protocol spec) within
 * each directory's run of items.  All are in the item's directory: the
 * kernel's rename locks one.  Names differ in length (mdtest's grow a
 * digit at 10, 100...): each is copied with its NUL.
 */
static inline void fsload_rename_names(struct fsload_engine *e,
				       const struct fsload_opdesc *op)
{
	/* bounds the compiler sees (fortify): a name is never longer */
	unsigned int len = min_t(unsigned int, e->name_len, FSLOAD_NAME_LEN_MAX);
	unsigned int off = min_t(unsigned int, e->last_off, len);
	bool first, last;
	u32 rem;

	e->ren_from = e->name;
	memcpy(e->ren_to, e->name, off);
	if (!(op->flags & FSLOAD_OP_F_ROTATE)) {
		fsload_name_renamed(e, &e->ren_to[off], op->prefix);
		return;
	}
	memcpy(&e->ren_to[off], &e->name[off], len - off + 1);
	first = !e->iter || e->rot_prev_off != off ||
		memcmp(e->rot_prev, e->name, off);
	/* the last item of its directory: directory k holds k's indexes */
	div_u64_rem(e->name_idx + 1, e->files_per_dir, &rem);
	last = e->iter + 1 == e->iters || !rem;
	if (first && !last) {
		memcpy(&e->ren_to[len], FSLOAD_ROTATE_SUFFIX,
		       FSLOAD_ROTATE_SUFFIX_LEN + 1);
		memcpy(e->rot_first, e->ren_to,
		       len + FSLOAD_ROTATE_SUFFIX_LEN + 1);
	} else if (!first) {
		/* into the name the item before vacated */
		memcpy(e->ren_to, e->rot_prev,
		       min_t(unsigned int, e->rot_prev_len,
			     FSLOAD_NAME_LEN_MAX) + 1);
		if (last)
			e->ren_from = e->rot_first;
	}
	memcpy(e->rot_prev, e->name, len + 1);
	e->rot_prev_len = len;
	e->rot_prev_off = off;
}

/* Whether every op of @ph is of @type or @type2. */
static inline bool fsload_phase_only(const struct fsload_phase *ph,
				     unsigned int type, unsigned int type2)
{
	unsigned int i;

	for (i = 0; i < ph->nops; i++)
		if (ph->ops[i].type != type && ph->ops[i].type != type2)
			return false;
	return ph->nops > 0;
}

/* A FSLOAD_PHASE_F_DIRS phase has only mkdir, rmdir and stat, one of each. */
static inline bool fsload_phase_dirs_ok(const struct fsload_phase *ph)
{
	unsigned int n = fsload_phase_has(ph, FSLOAD_OP_MKDIR) +
			 fsload_phase_has(ph, FSLOAD_OP_RMDIR) +
			 fsload_phase_has(ph, FSLOAD_OP_STAT);

	return !(ph->flags & FSLOAD_PHASE_F_DIRS) || n == ph->nops;
}

/*
 * Whether a program's FSLOAD_PHASE_F_DIRS phase makes the directories (so
 * that workers start with only their tree root).
 */
static inline bool fsload_phases_make_dirs(const struct fsload_phase *ph,
					   unsigned int nphases)
{
	unsigned int p;

	for (p = 0; p < nphases; p++)
		if ((ph[p].flags & FSLOAD_PHASE_F_DIRS) &&
		    fsload_phase_has(&ph[p], FSLOAD_OP_MKDIR))
			return true;
	return false;
}

static inline const struct fsload_opdesc *
fsload_pick(struct fsload_engine *e, const struct fsload_phase *ph)
{
	const u8 *idx = ph->gops[e->group];
	unsigned int i, n = ph->gnops[e->group];
	u32 r;

	if (n == 1)
		return &ph->ops[idx[0]];
	r = fsload_rng_u32(&e->rnd) % ph->gweight[e->group];
	for (i = 0; i < n - 1; i++) {
		if (r < ph->ops[idx[i]].weight)
			break;
		r -= ph->ops[idx[i]].weight;
	}
	return &ph->ops[idx[i]];
}

/* A random block-aligned offset of a block inside op->size bytes. */
static inline u64 fsload_random_offset(struct fsload_engine *e,
				       const struct fsload_opdesc *op)
{
	u64 nblocks = div_u64(op->size, op->block);
	u64 r = fsload_rng_u32(&e->rnd);

	/* Multiply-shift: uniform over nblocks < 2^32 without a divide. */
	if (nblocks <= U32_MAX)
		return ((nblocks * r) >> 32) * op->block;
	/* A larger region (a bio op's device): 64 random bits. */
	r = r << 32 | fsload_rng_u32(&e->rnd);
	return mul_u64_u64_shr(nblocks, r, 64) * op->block;
}

/*
 * fsload_do_op()'s answer for an operation that accounted for itself
 * (asynchronous: each completion is accounted with fsload_account() when
 * it is reaped).  No errno is this negative.
 */
#define FSLOAD_RET_ACCOUNTED	(-0x7fffffffffffffffLL - 1)

/* Count a successful operation's @bytes in the worker's progress. */
static inline void fsload_progress_count(struct fsload_engine *e, u64 bytes)
{
	if (e->uncounted)
		return;
	WRITE_ONCE(e->ops_done, e->ops_done + 1);
	WRITE_ONCE(e->bytes_done, e->bytes_done + bytes);
}

/*
 * Account one successful operation of @type, timed: @lat ns, @bytes moved.
 * In this order: timing every op costs what it did before lat_sample.
 */
static inline void fsload_account(struct fsload_engine *e, u8 type, u64 lat,
				  u64 bytes)
{
	struct fsload_opacc *acc = &e->acc[type];
	struct fsload_opstat *st;

	/* computed once: the compiler would compute it again per field */
	OPTIMIZER_HIDE_VAR(acc);
	st = &acc->st;
	st->ops++;
	st->bytes += bytes;
	st->lat_sum += lat;
	if (lat < st->lat_min)
		st->lat_min = lat;
	if (lat > st->lat_max)
		st->lat_max = lat;
	acc->hist[fsload_hist_bucket(lat)]++;
	fsload_progress_count(e, bytes);
}

/* Count one successful operation of @type that was not timed. */
static inline void fsload_count_untimed(struct fsload_engine *e, u8 type,
					u64 bytes)
{
	struct fsload_opstat *st = &e->acc[type].st;

	st->ops++;
	st->untimed++;
	st->bytes += bytes;
	fsload_progress_count(e, bytes);
}

/* The successful operations of @st that were timed. */
static inline u64 fsload_opstat_timed(const struct fsload_opstat *st)
{
	return st->ops - st->untimed;
}

/*
 * Ops from one timed op to the next with lat_sample N: uniform in 1 ..
 * 2N - 1, mean N.  At random, not every Nth: a fixed period would alias
 * with periodic work (a rescheduling point every FSLOAD_YIELD_OPS ops, a
 * new directory every files_per_dir files, a weighted mix's cycle) and
 * time always the same kind of op.  Drawn once per timed op, not per op.
 */
static inline u32 fsload_lat_gap(struct fsload_engine *e)
{
	return 1 + (u32)(((u64)fsload_rng_u32(&e->lat_rnd) *
			  (2 * e->lat_sample - 1)) >> 32);
}

/*
 * The offset of a bio op's next block: sequential (thread t's iteration i
 * of N: block t x N + i, modulo the region's blocks) or random.
 */
static inline u64 fsload_bio_offset(struct fsload_engine *e,
				    const struct fsload_opdesc *op)
{
	u64 nblocks, blk;

	if (op->flags & FSLOAD_OP_F_RANDOM)
		return fsload_random_offset(e, op);
	nblocks = div_u64(op->size, op->block);
	div64_u64_rem(e->index * e->iters + e->iter, nblocks, &blk);
	return blk * op->block;
}

/* Progress mark @k (1..FSLOAD_PROGRESS_MARKS): ceil(k x iters / 10). */
static inline u64 fsload_mark_at(u64 iters, unsigned int k)
{
	u32 rem;
	u64 q = div_u64_rem(iters, FSLOAD_PROGRESS_MARKS, &rem);

	return q * k + div_u64((u64)rem * k + FSLOAD_PROGRESS_MARKS - 1,
			       FSLOAD_PROGRESS_MARKS);
}

/* Iteration @done has ended at @now: record the marks it reaches. */
static inline void fsload_mark(struct fsload_engine *e, u64 done, u64 now)
{
	while (e->nmarks < FSLOAD_PROGRESS_MARKS && done >= e->next_mark) {
		e->mark_ns[e->nmarks++] = now;
		e->next_mark = fsload_mark_at(e->iters, e->nmarks + 1);
	}
}

/* The phase's course, merged over the workers. */
struct fsload_progress {
	u32 workers;		/* that reached the mark */
	u64 items;		/* their iterations at the mark */
	u64 end_ns;		/* the last of them to get there */
};

/*
 * What the threads' runs of a phase add up to, in its result
 * (fsload_phase_sum_add()).
 */
struct fsload_phase_sum {
	u32 threads;		/* threads that merged into it */
	u32 complete;		/* threads that finished every iteration */
	u32 stonewalled;	/* threads stopped by the time limit */
	u32 clk_tsc;		/* threads that timed every op on the counter */
	u64 clk_back;		/* the op clock's steps back, each clamped */
	u64 end_ns;		/* latest end of any thread's last op */
	struct fsload_opstat op[FSLOAD_OP_MAX + 1];
	struct fsload_progress progress[FSLOAD_PROGRESS_MARKS];
};

/* From @start_ns to @end_ns: 0 unless @end_ns is after it. */
static inline u64 fsload_elapsed(u64 start_ns, u64 end_ns)
{
	return end_ns > start_ns ? end_ns - start_ns : 0;
}

/*
 * A phase's elapsed time: from its opening at @start_ns to its last op's
 * end (both engines' results, and the machine's busy time over it).
 */
static inline u64 fsload_phase_elapsed(const struct fsload_phase_sum *sum,
				       u64 start_ns)
{
	return fsload_elapsed(start_ns, sum->end_ns);
}

/* The threads other than the workers a phase's result lists, at most. */
#define FSLOAD_TOP_THREADS	8
/* A thread's name, as the kernel's TASK_COMM_LEN. */
#define FSLOAD_COMM_LEN		16

/* A thread other than the workers, by CPU time used during a phase. */
struct fsload_top {
	char comm[FSLOAD_COMM_LEN];
	pid_t pid;
	bool kthread;
	u64 cpu_ns;
};

/*
 * The CPU time a thread used since a phase opened: @now_ns less its time
 * then, @old_ns (NULL: it started since, and counts from zero); 0 when
 * its time went back (another thread reused its id).
 */
static inline u64 fsload_top_delta(u64 now_ns, const u64 *old_ns)
{
	if (!old_ns)
		return now_ns;
	return now_ns >= *old_ns ? now_ns - *old_ns : 0;
}

/*
 * Count a thread that used @cpu_ns (> 0) among the @n threads that used
 * most CPU in @top (FSLOAD_TOP_THREADS entries, most first): the entry to
 * describe it in, its cpu_ns set, or NULL when it is not among them.
 */
static inline struct fsload_top *fsload_top_add(struct fsload_top *top,
						unsigned int *n, u64 cpu_ns)
{
	unsigned int i;

	if (*n == FSLOAD_TOP_THREADS && cpu_ns <= top[*n - 1].cpu_ns)
		return NULL;
	/* Insert in place, most CPU first. */
	i = *n < FSLOAD_TOP_THREADS ? (*n)++ : *n - 1;
	while (i && top[i - 1].cpu_ns < cpu_ns) {
		top[i] = top[i - 1];
		i--;
	}
	memset(&top[i], 0, sizeof(top[i]));
	top[i].cpu_ns = cpu_ns;
	return &top[i];
}

/*
 * The merged result of one phase, both engines': the workers' runs and
 * histograms, their CPU time, the machine's busy time over the phase and
 * its sync tail, and the threads that used most CPU meanwhile.  The
 * module alone has hardware counters and a CPU profile: the user engine
 * leaves those zero.
 */
struct fsload_result {
	bool started;
	u64 start_ns;		/* the engine's clock when the barrier opened */
	struct fsload_phase_sum sum;	/* the workers' runs, as merged */
	u64 *hist;		/* slots.n histograms */

	/* CPU, summed over the workers. */
	u64 worker_cpu_ns;	/* scheduler runtime */
	u64 instructions;	/* kernel mode, with a PMU */
	u64 cycles;

	/* The machine over the phase and its tail; valid if measured. */
	bool measured;
	bool tail;		/* FSLOAD_PHASE_F_SYNC ran */
	u64 sys_busy_ns;	/* busy time of all CPUs during the phase */
	u64 tail_ns;
	u64 tail_busy_ns;
	unsigned int ntop;
	struct fsload_top top[FSLOAD_TOP_THREADS];

	/* The module's CPU profile of the workers (module/profile.c). */
	u64 prof_samples;	/* taken, dropped ones included */
	u64 prof_dropped;	/* no slot or no stack */
	u64 prof_ns;		/* the handler's own time */
};

/* @res's elapsed time: from the phase's opening to its last op's end. */
static inline u64 fsload_result_elapsed(const struct fsload_result *res)
{
	return fsload_phase_elapsed(&res->sum, res->start_ns);
}

/* Null operations timed before the first phase: the engine's own cost. */
#define FSLOAD_OVERHEAD_OPS	16384

static inline void fsload_progress_add(struct fsload_progress *pg,
				       const struct fsload_engine *e)
{
	unsigned int k;

	for (k = 0; k < e->nmarks; k++) {
		pg[k].workers++;
		pg[k].items += fsload_mark_at(e->iters, k + 1);
		pg[k].end_ns = max(pg[k].end_ns, e->mark_ns[k]);
	}
}

/*
 * Add the items of @e's current phase to *@items and those it has begun
 * to *@done: a phase's progress, read while the worker runs it (the
 * status's phase-items and phase-items-done, both engines).
 */
static inline void fsload_engine_items(const struct fsload_engine *e,
				       u64 *items, u64 *done)
{
	u64 n = READ_ONCE(e->iters), i = READ_ONCE(e->iter);

	*items += n;
	*done += min(i, n);
}

/* Zero the phase statistics of @e (histograms as e->slots has them). */
static inline void fsload_engine_reset(struct fsload_engine *e)
{
	unsigned int i, slot;

	for (i = 0; i <= FSLOAD_OP_MAX; i++) {
		memset(&e->acc[i].st, 0, sizeof(e->acc[i].st));
		e->acc[i].st.lat_min = U64_MAX;
		slot = e->slots ? e->slots->slot[i] : 0;
		e->acc[i].hist = e->hist && slot ?
				e->hist + (slot - 1) * FSLOAD_HIST_BUCKETS :
				NULL;
	}
	if (e->hist)
		memset(e->hist, 0, fsload_hist_words(e->slots) *
		       sizeof(*e->hist));
}

/* Whether an op of the type was tried: reported, and added. */
static inline bool fsload_opstat_ran(const struct fsload_opstat *s)
{
	return s->ops || s->errors || s->misses;
}

/* Add @s into @d (statistics of one type). */
static inline void fsload_opstat_add(struct fsload_opstat *d,
				     const struct fsload_opstat *s)
{
	if (!fsload_opstat_ran(d))
		d->lat_min = U64_MAX;
	d->ops += s->ops;
	d->errors += s->errors;
	d->misses += s->misses;
	d->bytes += s->bytes;
	d->untimed += s->untimed;
	d->lat_sum += s->lat_sum;
	d->lat_min = min(d->lat_min, s->lat_min);
	d->lat_max = max(d->lat_max, s->lat_max);
}

enum fsload_run_end {
	FSLOAD_RUN_DONE,	/* every iteration was done */
	FSLOAD_RUN_STONEWALLED,	/* the phase's time limit was reached */
	FSLOAD_RUN_STOPPED,	/* a stop was requested */
	FSLOAD_RUN_FAILED,	/* e->failed_op failed with e->err */
};

/*
 * Add a thread's run of a phase, which ended as @end with its last op at
 * @end_ns, into the phase's sum (the histograms apart).
 */
static inline void fsload_phase_sum_add(struct fsload_phase_sum *sum,
					const struct fsload_engine *e,
					enum fsload_run_end end, u64 end_ns)
{
	unsigned int t;

	sum->threads++;
	if (end == FSLOAD_RUN_DONE || end == FSLOAD_RUN_STONEWALLED)
		sum->complete++;
	if (end == FSLOAD_RUN_STONEWALLED)
		sum->stonewalled++;
	if (e->clk_tsc)
		sum->clk_tsc++;
	sum->clk_back += e->clk_back;
	sum->end_ns = max(sum->end_ns, end_ns);
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		if (fsload_opstat_ran(&e->acc[t].st))
			fsload_opstat_add(&sum->op[t], &e->acc[t].st);
	}
	fsload_progress_add(sum->progress, e);
}

/* What an op type takes besides its weight (struct fsload_op_type). */
#define FSLOAD_OPP_SIZE		BIT(0)	/* size_bytes is meaningful */
#define FSLOAD_OPP_NEED_SIZE	BIT(1)	/* size_bytes > 0 is required */
#define FSLOAD_OPP_FILE_SIZE	BIT(2)	/* size_bytes is the file size */
#define FSLOAD_OPP_BLOCK	BIT(3)	/* block_bytes is meaningful */
#define FSLOAD_OPP_BIO		BIT(4)	/* a bio op: block jobs only, depth */
#define FSLOAD_OPP_ANY		BIT(5)	/* in either kind of job */

/*
 * The op types, the one table of what each is: its name, the parameters it
 * takes, the flags it accepts.  The module's request parser, fsloadctl's
 * request builder and its user engine all read it; each engine only does
 * the op (engine-loop.h's fsload_do_op()).
 */
struct fsload_op_type {
	const char *name;	/* as fsloadctl and the kernel's messages
				 * spell it
				 */
	u8 params;		/* FSLOAD_OPP_* */
	u32 flags;		/* the enum fsload_op_flags it accepts */
};

/* Op type @type's entry; an all-zero one named "unknown" if none. */
static inline const struct fsload_op_type *fsload_op_type(unsigned int type)
{
	static const struct fsload_op_type types[FSLOAD_OP_MAX + 1] = {
		[FSLOAD_OP_NULL] = {
			.name = "null",
			.params = FSLOAD_OPP_ANY,
		},
		[FSLOAD_OP_CREATE] = {
			.name = "create",
			.params = FSLOAD_OPP_SIZE | FSLOAD_OPP_BLOCK,
			.flags = FSLOAD_OP_F_FSYNC | FSLOAD_OP_F_FALLOCATE |
				 FSLOAD_OP_F_DIRECT | FSLOAD_OP_F_RDWR |
				 FSLOAD_OP_F_TRUNC | FSLOAD_OP_F_MKNOD,
		},
		[FSLOAD_OP_STAT] = { .name = "stat" },
		[FSLOAD_OP_READ] = {
			.name = "read",
			/* size_bytes: with the sized flag, bytes to read */
			.params = FSLOAD_OPP_SIZE | FSLOAD_OPP_BLOCK,
			.flags = FSLOAD_OP_F_DIRECT | FSLOAD_OP_F_SIZED,
		},
		[FSLOAD_OP_UNLINK] = { .name = "unlink" },
		[FSLOAD_OP_APPEND] = {
			.name = "append",
			.params = FSLOAD_OPP_SIZE | FSLOAD_OPP_NEED_SIZE |
				  FSLOAD_OPP_BLOCK,
			.flags = FSLOAD_OP_F_FSYNC | FSLOAD_OP_F_DIRECT,
		},
		[FSLOAD_OP_WRITE_RANDOM] = {
			.name = "write_random",
			.params = FSLOAD_OPP_SIZE | FSLOAD_OPP_FILE_SIZE |
				  FSLOAD_OPP_BLOCK,
			.flags = FSLOAD_OP_F_FSYNC | FSLOAD_OP_F_DIRECT,
		},
		[FSLOAD_OP_READ_RANDOM] = {
			.name = "read_random",
			.params = FSLOAD_OPP_SIZE | FSLOAD_OPP_FILE_SIZE |
				  FSLOAD_OPP_BLOCK,
			.flags = FSLOAD_OP_F_DIRECT,
		},
		[FSLOAD_OP_FSYNC] = { .name = "fsync" },
		[FSLOAD_OP_MKDIR] = { .name = "mkdir" },
		[FSLOAD_OP_RMDIR] = { .name = "rmdir" },
		[FSLOAD_OP_RENAME] = {
			.name = "rename",
			.flags = FSLOAD_OP_F_ROTATE,
		},
		[FSLOAD_OP_SYNCFS] = { .name = "syncfs" },
		/* size_bytes: the region of the device, 0 for all of it */
		[FSLOAD_OP_BIO_WRITE] = {
			.name = "bio_write",
			.params = FSLOAD_OPP_SIZE | FSLOAD_OPP_BLOCK |
				  FSLOAD_OPP_BIO,
			.flags = FSLOAD_OP_F_RANDOM,
		},
		[FSLOAD_OP_BIO_READ] = {
			.name = "bio_read",
			.params = FSLOAD_OPP_SIZE | FSLOAD_OPP_BLOCK |
				  FSLOAD_OPP_BIO,
			.flags = FSLOAD_OP_F_RANDOM,
		},
		[FSLOAD_OP_DROP_CACHE] = { .name = "drop_cache" },
	};
	static const struct fsload_op_type unknown = { .name = "unknown" };

	return type <= FSLOAD_OP_MAX && types[type].name ? &types[type] :
	       &unknown;
}

/*
 * The create op's open flags (O_DIRECT and O_LARGEFILE apart) and its mode
 * in *@mode, in every engine: O_CREAT|O_EXCL|O_WRONLY by default; with the
 * rdwr flag mdtest's O_CREAT|O_RDWR; with trunc fs_mark's
 * O_CREAT|O_TRUNC|O_RDWR, an existing file emptied, never through a symlink
 * planted in the tree (O_NOFOLLOW: O_EXCL's guarantee otherwise).  With
 * the mknod flag the file is made with S_IFREG | *@mode, not opened.
 */
static inline int fsload_create_flags(const struct fsload_opdesc *op,
				      unsigned int *mode)
{
	*mode = 0644;
	if (op->flags & FSLOAD_OP_F_TRUNC) {
		*mode = 0666;
		return O_CREAT | O_TRUNC | O_RDWR | O_NOFOLLOW;
	}
	if (op->flags & FSLOAD_OP_F_RDWR)
		return O_CREAT | O_RDWR;
	return O_CREAT | O_EXCL | O_WRONLY;
}

/*
 * A create with the mknod flag (mdtest -k) makes the file and nothing else;
 * both engines refuse another flag with it, or a size, in these words.
 */
#define FSLOAD_MKNOD_ALONE	"flags: mknod makes the file only, with no other flag"
#define FSLOAD_MKNOD_NO_DATA	"size_bytes: mknod writes no data (mdtest: -k not with -w)"

/* The op type's name, as fsloadctl and the kernel's messages spell it. */
static inline const char *fsload_op_name(unsigned int type)
{
	return fsload_op_type(type)->name;
}

/* Errors that weighted operations on one file set make normal. */
static inline bool fsload_tolerable(int err)
{
	return err == -ENOENT || err == -EEXIST || err == -ENOTEMPTY ||
	       err == -ENOTDIR || err == -EISDIR;
}

/*
 * A failure @ph expects (a miss, not an error): with the phase flag
 * continue, one of fsload_tolerable(); with fill, ENOSPC (the filesystem
 * is full: the fill's end, fsload_run_phase()).
 */
static inline bool fsload_expected(const struct fsload_phase *ph, int err)
{
	return ((ph->flags & FSLOAD_PHASE_F_CONTINUE) &&
		fsload_tolerable(err)) ||
	       ((ph->flags & FSLOAD_PHASE_F_FILL) && err == -ENOSPC);
}

/* Count a failed op of @type in @e: a miss if @ph expects it, else an error. */
static inline void fsload_count_failure(struct fsload_engine *e,
					const struct fsload_phase *ph,
					unsigned int type, int err)
{
	if (fsload_expected(ph, err))
		e->acc[type].st.misses++;
	else
		e->acc[type].st.errors++;
}

/*
 * How an operation ends when a stop interrupts it: the kernel's stop sends
 * its workers SIGKILL to end sleeps only a signal ends (fsload_job_stop()),
 * and the op in hand fails with one of these.  Not an error of the
 * filesystem's: the job was stopped, as asked.
 */
static inline bool fsload_interrupted(int err)
{
#ifdef ERESTARTSYS
	if (err == -ERESTARTSYS || err == -ERESTARTNOINTR ||
	    err == -ERESTARTNOHAND || err == -ERESTART_RESTARTBLOCK)
		return true;
#endif
	return err == -EINTR;
}

#endif /* _FSLOAD_ENGINE_H */
