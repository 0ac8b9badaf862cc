// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz: the fuzz program's cases.  A case is a datagram of one or
 * more messages, each from a generator picked by weight (case_gens[]) as
 * the engine picks a phase's operations: valid and odd programs, programs
 * spoiled in one way, other invalid requests, valid queries, attribute
 * soup, byte mutations, control messages.  Everything comes from the
 * case's random numbers, so (seed, index) gives the same case again.
 */
#include "cases.h"

#include <stdlib.h>

#include "lib/kshim.h"
#include <fsload/engine.h>

/* ------------------------------------------------------------------ */
/* Programs, valid and spoiled                                         */
/* ------------------------------------------------------------------ */

/* Paths inside the chroot: valid directories, and ones that are not. */
static const char *const good_dirs[] = { "/", ".", "/sub", "sub",
	"/sub/deeper", "/link", "//sub/./", "/sub/../sub" };
static const char *const bad_dirs[] = { "/nonexistent", "/file",
	"/file/x", "nonexistent/", "/sub/nonexistent", "/brokenlink" };

struct fop {
	uint8_t type;
	bool h_weight, h_size, h_block, h_flags, h_prefix;
	uint32_t weight, block, flags;
	uint64_t size;
	uint8_t prefix;
};

struct fphase {
	char name[48];
	bool h_name, h_order, h_iter, h_dur, h_flags, h_prefix, h_first;
	uint8_t order, prefix;
	uint64_t iter, first;
	uint32_t dur, flags;
	int nops;
	struct fop ops[FSLOAD_PHASE_OPS_MAX + 2];
};

struct fjob {
	char dir[PATH_MAX + 8];
	bool h_dir, h_flags, h_threads, h_files, h_fpd, h_seed, h_profile,
	     h_progress;
	uint32_t flags, threads, fpd, progress;
	uint64_t files, seed;
	char profile[48];
	int nphases;
	struct fphase ph[FSLOAD_PHASES_MAX + 2];
};

/* How a serialised job differs from its spec (invalid by construction). */
enum mut {
	MUT_NONE,
	MUT_BADLEN,		/* a scalar attribute of the wrong length */
	MUT_NONUL,		/* a string without its NUL */
	MUT_UNKNOWN,		/* an attribute type past the policy */
	MUT_TYPE0,		/* attribute type 0 */
	MUT_OUTPUT,		/* a reply-only attribute in a request */
	MUT_NONEST,		/* a nest without NLA_F_NESTED */
	MUT_NESTFLAG,		/* NLA_F_NESTED on a scalar */
	MUT_TRAILING,		/* bytes after the attributes */
	MUT_NLALEN,		/* an attribute longer than the message */
	MUT_SHORTHDR,		/* shorter than the genl header */
	MUT_DEEP,		/* a deep nest where a scalar belongs */
	NMUT
};

struct emit {
	struct mbuf *m;
	struct rng *r;
	int mut;
	int target;		/* which scalar attribute to spoil */
	int count;		/* scalar attributes so far */
	bool done;		/* the mutation was applied */
	const char *why;
};

static void emit_scalar(struct emit *e, uint16_t type, const void *v,
			size_t len)
{
	static const size_t badlens[] = { 0, 1, 2, 3, 5, 6, 7, 9, 12, 16 };
	unsigned char junk[32] = { 0 };
	bool hit = e->count++ == e->target && !e->done;

	if (!hit) {
		attr(e->m, type, v, len);
		return;
	}
	switch (e->mut) {
	case MUT_BADLEN: {
		size_t l;

		do {
			l = PICK(e->r, badlens);
		} while (l == len);
		memcpy(junk, v, len < l ? len : l);
		attr(e->m, type, junk, l);
		e->why = "scalar of the wrong length";
		break;
	}
	case MUT_NESTFLAG:
		attr(e->m, type | NLA_F_NESTED, v, len);
		e->why = "NLA_F_NESTED on a scalar";
		break;
	case MUT_DEEP: {
		size_t offs[64];
		int d = range(e->r, 2, 64), i;

		for (i = 0; i < d; i++)
			offs[i] = nest_begin(e->m, (i ? 1 : type) | NLA_F_NESTED);
		attr(e->m, 1, v, len);
		while (i--)
			nest_end(e->m, offs[i]);
		e->why = "deep nest in place of a scalar";
		break;
	}
	case MUT_UNKNOWN:
	case MUT_TYPE0:
	case MUT_OUTPUT:
		/* Added next to the scalar, at its level (see emit_extra). */
		attr(e->m, type, v, len);
		e->count--;
		e->target = -2;	/* emit_extra() picks it up */
		return;
	default:
		attr(e->m, type, v, len);
		return;
	}
	e->done = true;
}

/* Strings: MUT_NONUL drops the NUL (and leaves no other). */
static void emit_str(struct emit *e, uint16_t type, const char *s)
{
	size_t l = strlen(s);
	bool hit = e->count++ == e->target && !e->done;

	if (hit && e->mut == MUT_NONUL && l) {
		attr(e->m, type, s, l);
		e->why = "string without NUL";
		e->done = true;
		return;
	}
	if (hit && e->mut != MUT_NONUL) {
		e->count--;
		e->target = e->count;	/* the next scalar takes it */
	}
	attr(e->m, type, s, l + 1);
}

/* Extra attributes for MUT_UNKNOWN/TYPE0/OUTPUT at the current level. */
static void emit_extra(struct emit *e, int level)
{
	static const uint16_t out_top[] = { FSLOAD_A_JOB_ID,
		FSLOAD_A_JOB_STATE, FSLOAD_A_JOB_ERRNO, FSLOAD_A_JOB_ERROR_MSG,
		FSLOAD_A_JOB_PHASE_INDEX, FSLOAD_A_JOB_PHASES,
		FSLOAD_A_JOB_ELAPSED_NS, FSLOAD_A_JOB_OPS, FSLOAD_A_JOB_BYTES,
		FSLOAD_A_JOB_WORKER_PID, FSLOAD_A_JOB_OWNER_PORTID,
		FSLOAD_A_JOB_RESULT, FSLOAD_A_JOB_PAD, FSLOAD_A_JOB_PHASE_ITEMS,
		FSLOAD_A_JOB_PHASE_ITEMS_DONE };
	uint32_t v = 1;
	uint16_t type;

	if (e->target != -2 || e->done)
		return;
	switch (e->mut) {
	case MUT_TYPE0:
		type = 0;
		e->why = "attribute type 0";
		break;
	case MUT_OUTPUT:
		type = level == 0 ? PICK(e->r, out_top) :
		       level == 1 ? FSLOAD_A_PHASE_PAD : FSLOAD_A_OP_PAD;
		e->why = "reply-only attribute in a request";
		break;
	default:
		type = (level == 0 ? FSLOAD_A_JOB_MAX : level == 1 ?
			FSLOAD_A_PHASE_MAX : FSLOAD_A_OP_MAX) +
		       range(e->r, 1, 3);
		if (pct(e->r, 20))
			type = range(e->r, 100, ATTR_TYPE_MAX);
		e->why = "unknown attribute type";
		break;
	}
	if (type == FSLOAD_A_JOB_RESULT && pct(e->r, 50)) {
		/* a result's opstat, as the replies carry it: misses */
		uint64_t misses = rnd(e->r);
		size_t res = nest_begin(e->m, type | NLA_F_NESTED);
		size_t os = nest_begin(e->m, FSLOAD_A_RES_OPSTAT |
					     NLA_F_NESTED);

		attr(e->m, FSLOAD_A_OPSTAT_MISSES, &misses, sizeof(misses));
		nest_end(e->m, os);
		nest_end(e->m, res);
		e->done = true;
		return;
	}
	if (type == FSLOAD_A_JOB_RESULT)
		type |= NLA_F_NESTED;
	attr(e->m, type, &v, sizeof(v));
	e->done = true;
}

static size_t emit_nest(struct emit *e, uint16_t type)
{
	bool hit = e->mut == MUT_NONEST && !e->done && e->count >= e->target;

	if (hit) {
		e->done = true;
		e->why = "nest without NLA_F_NESTED";
		return nest_begin(e->m, type);
	}
	return nest_begin(e->m, type | NLA_F_NESTED);
}

static void emit_op(struct emit *e, const struct fop *o)
{
	size_t n = emit_nest(e, FSLOAD_A_PHASE_OP);

	emit_scalar(e, FSLOAD_A_OP_TYPE, &o->type, 1);
	if (o->h_weight)
		emit_scalar(e, FSLOAD_A_OP_WEIGHT, &o->weight, 4);
	if (o->h_size)
		emit_scalar(e, FSLOAD_A_OP_SIZE_BYTES, &o->size, 8);
	if (o->h_block)
		emit_scalar(e, FSLOAD_A_OP_BLOCK_BYTES, &o->block, 4);
	if (o->h_flags)
		emit_scalar(e, FSLOAD_A_OP_FLAGS, &o->flags, 4);
	if (o->h_prefix)
		emit_scalar(e, FSLOAD_A_OP_PREFIX, &o->prefix, 1);
	emit_extra(e, 2);
	nest_end(e->m, n);
}

static void emit_phase(struct emit *e, const struct fphase *p)
{
	size_t n = emit_nest(e, FSLOAD_A_JOB_PHASE);
	int i;

	if (p->h_name)
		emit_str(e, FSLOAD_A_PHASE_NAME, p->name);
	if (p->h_order)
		emit_scalar(e, FSLOAD_A_PHASE_ORDER, &p->order, 1);
	if (p->h_iter)
		emit_scalar(e, FSLOAD_A_PHASE_ITERATIONS, &p->iter, 8);
	if (p->h_dur)
		emit_scalar(e, FSLOAD_A_PHASE_DURATION_MS, &p->dur, 4);
	if (p->h_flags)
		emit_scalar(e, FSLOAD_A_PHASE_FLAGS, &p->flags, 4);
	if (p->h_prefix)
		emit_scalar(e, FSLOAD_A_PHASE_PREFIX, &p->prefix, 1);
	if (p->h_first)
		emit_scalar(e, FSLOAD_A_PHASE_FIRST, &p->first, 8);
	for (i = 0; i < p->nops; i++)
		emit_op(e, &p->ops[i]);
	emit_extra(e, 1);
	nest_end(e->m, n);
}

static void emit_job(struct emit *e, const struct fjob *j)
{
	int i;

	if (j->h_dir)
		emit_str(e, FSLOAD_A_JOB_DIR, j->dir);
	if (j->h_flags)
		emit_scalar(e, FSLOAD_A_JOB_FLAGS, &j->flags, 4);
	if (j->h_threads)
		emit_scalar(e, FSLOAD_A_JOB_THREADS, &j->threads, 4);
	if (j->h_files)
		emit_scalar(e, FSLOAD_A_JOB_FILES, &j->files, 8);
	if (j->h_fpd)
		emit_scalar(e, FSLOAD_A_JOB_FILES_PER_DIR, &j->fpd, 4);
	if (j->h_seed)
		emit_scalar(e, FSLOAD_A_JOB_SEED, &j->seed, 8);
	if (j->h_profile)
		emit_str(e, FSLOAD_A_JOB_PROFILE, j->profile);
	if (j->h_progress)
		emit_scalar(e, FSLOAD_A_JOB_PROGRESS_MS, &j->progress, 4);
	for (i = 0; i < j->nphases; i++)
		emit_phase(e, &j->ph[i]);
	emit_extra(e, 0);
}

static uint8_t rnd_prefix(struct rng *r)
{
	uint8_t c;

	do {
		c = 'a' + below(r, 26);
	} while (c == 'd' || c == 't');
	return c;
}

static void rnd_name(struct rng *r, char *buf, size_t maxlen)
{
	static const char *const names[] = { "create", "stat", "x", "phase",
		"%s%n%x", "..", "name with spaces", "\xff\xfe", "\t\n" };
	size_t l, i;

	if (pct(r, 60)) {
		snprintf(buf, maxlen + 1, "%s", PICK(r, names));
		return;
	}
	l = range(r, 1, maxlen);
	for (i = 0; i < l; i++)
		buf[i] = range(r, 1, 255);
	buf[l] = '\0';
}

/* A flag bit that the uapi does not define: not in @all. */
static uint32_t unknown_bit(struct rng *r, uint32_t all)
{
	uint32_t b;

	do {
		b = 1U << range(r, 0, 31);
	} while (b & all);
	return b;
}

/* A valid, possibly odd, op for a phase of @iter iterations x @threads. */
static void gen_op(struct rng *r, struct fop *o, uint64_t total_iters)
{
	static const uint32_t blocks[] = { 1, 7, 512, 4096, 4097, 65536 };
	uint32_t allowed;
	uint64_t maxsize = 1 << 20;

	memset(o, 0, sizeof(*o));
	/* The fuzzer's jobs have a dir: bio ops are for block jobs only. */
	do {
		o->type = range(r, 1, FSLOAD_OP_MAX);
	} while (op_is_bio(o->type));
	if (pct(r, 40)) {
		o->h_weight = true;
		o->weight = pct(r, 20) ? PICK(r, ((const uint32_t[]){ 1, 1000000 }))
				       : range(r, 1, 1000);
	}
	/*
	 * A rotating rename must be its sequential phase's only op, rdwr
	 * and trunc exclude each other, and mknod goes alone, with no
	 * size: keep to what any phase takes.
	 */
	allowed = op_allowed_flags(o->type) & ~FSLOAD_OP_F_ROTATE;
	if (allowed && pct(r, 40)) {
		o->flags = rnd(r) & allowed;
		if (o->flags & FSLOAD_OP_F_TRUNC)
			o->flags &= ~FSLOAD_OP_F_RDWR;
		if (o->flags & FSLOAD_OP_F_MKNOD)
			o->flags = FSLOAD_OP_F_MKNOD;
		o->h_flags = true;
	}
	if (pct(r, 50) || (o->flags & FSLOAD_OP_F_DIRECT)) {
		o->h_block = true;
		o->block = PICK(r, blocks);
		if (o->block > prm.max_block)
			o->block = prm.max_block;
	}
	if (o->flags & FSLOAD_OP_F_DIRECT) {
		o->block = 512 * range(r, 1, 16);
		if (o->block > prm.max_block)
			o->block = 512;
	}
	/* Keep size x iterations x threads from overflowing. */
	if (total_iters && maxsize > UINT64_MAX / total_iters)
		maxsize = UINT64_MAX / total_iters;
	if (maxsize > prm.max_file)
		maxsize = prm.max_file;
	/*
	 * A read takes a size with the sized flag only (else to EOF), a
	 * mknod create none.
	 */
	if (op_sized(o->type) && !(o->flags & FSLOAD_OP_F_MKNOD) &&
	    (o->type != FSLOAD_OP_READ || (o->flags & FSLOAD_OP_F_SIZED))) {
		uint32_t blk = o->h_block ? o->block : 4096;
		uint64_t sz;
		bool need = o->type != FSLOAD_OP_CREATE;

		if (!need && pct(r, 30)) {
			sz = 0;
		} else if (o->type == FSLOAD_OP_WRITE_RANDOM ||
			   o->type == FSLOAD_OP_READ_RANDOM ||
			   (o->flags & FSLOAD_OP_F_DIRECT)) {
			uint64_t nb = range(r, 1, 16);

			if (blk * nb > maxsize) {
				/* Too big with this many iterations: no size. */
				o->type = FSLOAD_OP_STAT;
				o->h_flags = false;
				o->flags = 0;
				return;
			}
			sz = (uint64_t)blk * nb;
		} else {
			sz = range(r, 1, maxsize < 65536 ? maxsize : 65536);
		}
		if (sz) {
			o->h_size = true;
			o->size = sz;
		}
		if (need && !sz) {
			o->h_size = true;
			o->size = blk;
		}
	}
	if (o->type == FSLOAD_OP_RENAME) {
		o->h_prefix = true;
		o->prefix = rnd_prefix(r);
	}
}

/* A valid program, small enough to run in a guest, odd where it can be. */
static void gen_job(struct rng *r, struct fjob *j)
{
	int i, k;
	uint64_t dirs;

	memset(j, 0, sizeof(*j));
	j->h_dir = true;
	snprintf(j->dir, sizeof(j->dir), "%s", PICK(r, good_dirs));
	j->h_threads = pct(r, 80);
	j->threads = j->h_threads ? range(r, 1, 4) : 1;
	if (j->h_threads && pct(r, 3))
		j->threads = prm.max_threads < 16 ? prm.max_threads : 16;
	j->h_files = pct(r, 85);
	j->files = !j->h_files ? 1000 :
		   pct(r, 10) ? FSLOAD_FILES_MAX / j->threads :
		   pct(r, 20) ? 1 : range(r, 1, 2000);
	j->h_fpd = j->h_files ? pct(r, 80) : false;
	j->fpd = 1000;
	if (j->h_fpd)
		j->fpd = pct(r, 20) ? 1 : pct(r, 10) ? (uint32_t)FSLOAD_FILES_MAX
						    : range(r, 1, 5000);
	j->h_flags = pct(r, 60);
	/* hold-end would hold at the end with nobody to resume it */
	if (j->h_flags)
		j->flags = rnd(r) & FSLOAD_JOB_F_MASK & ~FSLOAD_JOB_F_HOLD_END;
	/* Respect the tree limits the kernel enforces. */
	if ((j->flags & FSLOAD_JOB_F_SHARED_DIR) &&
	    j->files * j->threads > FSLOAD_FILES_MAX)
		j->flags &= ~FSLOAD_JOB_F_SHARED_DIR;
	dirs = (j->files * ((j->flags & FSLOAD_JOB_F_SHARED_DIR) ? j->threads : 1) +
		j->fpd - 1) / j->fpd;
	/* Few subdirectories, mostly: workers make them all up front. */
	if (dirs > FSLOAD_DIRS_MAX || (dirs > 200 && !pct(r, 5))) {
		uint64_t tree = j->files *
			((j->flags & FSLOAD_JOB_F_SHARED_DIR) ? j->threads : 1);

		j->h_fpd = true;
		j->fpd = (tree + 199) / 200;
	}
	j->h_seed = pct(r, 50);
	j->seed = pct(r, 20) ? UINT64_MAX : rnd(r);
	j->h_profile = pct(r, 70);
	if (pct(r, 50))
		snprintf(j->profile, sizeof(j->profile), "%s", PROFILE);
	else
		rnd_name(r, j->profile, FSLOAD_NAME_MAX - 1);
	j->h_progress = pct(r, 70);
	j->progress = pct(r, 50) ? 0 : pct(r, 20) ? 10 :
		      pct(r, 10) ? 3600000 : range(r, 10, 1000);
	if (!j->h_progress)
		j->progress = 1000;

	j->nphases = pct(r, 10) ? FSLOAD_PHASES_MAX :
		     pct(r, 30) ? range(r, 1, FSLOAD_PHASES_MAX) :
		     range(r, 1, 4);
	for (i = 0; i < j->nphases; i++) {
		struct fphase *p = &j->ph[i];
		uint64_t iters;

		p->h_name = true;
		rnd_name(r, p->name, FSLOAD_NAME_MAX - 1);
		p->h_order = pct(r, 40);
		p->order = range(r, FSLOAD_ORDER_SEQUENTIAL, FSLOAD_ORDER_RANDOM);
		p->h_iter = pct(r, 60);
		/* Huge iterations end by their time limit. */
		if (p->h_iter && pct(r, 30)) {
			p->iter = pct(r, 30) ? UINT64_MAX / j->threads :
				  range(r, 1000000, 1000000000000ULL);
			p->h_dur = true;
			p->dur = range(r, 1, 200);
		} else {
			p->iter = pct(r, 30) ? 1 : range(r, 1, 300);
			p->h_dur = pct(r, 30);
			p->dur = pct(r, 30) ? 0 : range(r, 1, 500);
		}
		iters = (p->h_iter ? p->iter : j->files) * j->threads;
		p->h_flags = pct(r, 60);
		p->flags = pct(r, 80) ? FSLOAD_PHASE_F_CONTINUE : 0;
		if (pct(r, 20))
			p->flags |= FSLOAD_PHASE_F_FILL;
		p->h_prefix = pct(r, 30);
		p->prefix = rnd_prefix(r);
		p->h_first = pct(r, 20);
		p->first = pct(r, 30) ? UINT64_MAX : rnd(r);
		p->nops = pct(r, 15) ? FSLOAD_PHASE_OPS_MAX :
			  range(r, 1, 4);
		for (k = 0; k < p->nops; k++)
			gen_op(r, &p->ops[k], iters);
	}
}

/* Make the valid program @j invalid by a value; describe it, its errno. */
static const char *spoil_value(struct rng *r, struct fjob *j, int *err)
{
	struct fphase *p = &j->ph[below(r, j->nphases)];
	struct fop *o = &p->ops[below(r, p->nops)];
	int which = below(r, 34);

	*err = 0;
	switch (which) {
	case 0:
		j->h_threads = true;
		j->threads = PICK(r, ((const uint32_t[]){ 0, 1000, UINT32_MAX }));
		return "threads out of range";
	case 1:
		if (prm.max_threads >= FSLOAD_THREADS_MAX)
			return spoil_value(r, j, err);
		j->h_threads = true;
		j->threads = prm.max_threads + 1;
		*err = ERANGE;
		return "threads above max_threads";
	case 2:
		j->h_files = true;
		j->files = PICK(r, ((const uint64_t[]){ 0, FSLOAD_FILES_MAX + 1,
						       UINT64_MAX }));
		*err = ERANGE;
		return "files out of range";
	case 3:
		j->h_fpd = true;
		j->fpd = 0;
		return "files_per_dir 0";
	case 4:
		j->h_progress = true;
		j->progress = range(r, 1, 9);
		*err = ERANGE;
		return "progress_ms 1..9";
	case 5:
		j->h_progress = true;
		j->progress = PICK(r, ((const uint32_t[]){ FSLOAD_PROGRESS_MS_MAX + 1, UINT32_MAX }));
		return "progress_ms too large";
	case 6:
		j->h_flags = true;
		j->flags |= unknown_bit(r, FSLOAD_JOB_F_MASK);
		return "unknown job flag";
	case 7:
		o->h_weight = true;
		o->weight = PICK(r, ((const uint32_t[]){ 0, FSLOAD_WEIGHT_MAX + 1, UINT32_MAX }));
		return "weight out of range";
	case 8:
		o->h_block = true;
		o->block = PICK(r, ((const uint32_t[]){ 0, FSLOAD_BLOCK_MAX + 1,
						       UINT32_MAX }));
		return "block out of range";
	case 9:
		if (prm.max_block >= FSLOAD_BLOCK_MAX)
			return spoil_value(r, j, err);
		o->h_block = true;
		o->block = prm.max_block + 1;
		if (o->flags & FSLOAD_OP_F_DIRECT)
			o->block = (o->block + 511) / 512 * 512;
		*err = ERANGE;
		return "block above max_block_bytes";
	case 10:
		o->type = PICK(r, ((const uint8_t[]){ 0, FSLOAD_OP_MAX + 1, 255 }));
		return "op type out of range";
	case 11:
		p->h_order = true;
		p->order = PICK(r, ((const uint8_t[]){ 0, 3, 255 }));
		return "order out of range";
	case 12:
		p->h_prefix = true;
		p->prefix = PICK(r, ((const uint8_t[]){ 'd', 't', 'A', 0, '{' }));
		return "phase prefix invalid";
	case 13:
		p->h_flags = true;
		p->flags |= unknown_bit(r, FSLOAD_PHASE_F_MASK);
		return "unknown phase flag";
	case 14:
		o->h_flags = true;
		o->flags |= unknown_bit(r, FSLOAD_OP_F_MASK);
		return "unknown op flag";
	case 15:
		if (prm.max_file >= UINT64_MAX || !op_sized(o->type))
			return spoil_value(r, j, err);
		o->h_size = true;
		o->size = prm.max_file + 1;
		*err = ERANGE;
		return "size above max_file_bytes";
	case 16:
		p->h_iter = true;
		p->iter = 0;
		*err = EINVAL;
		return "iterations 0";
	case 17: {
		/* A flag this op type does not take. */
		uint32_t bad = FSLOAD_OP_F_MASK & ~op_allowed_flags(o->type);

		if (!bad)
			return spoil_value(r, j, err);
		o->h_flags = true;
		o->flags |= bad & -bad;
		*err = EINVAL;
		return "op flag not valid for the type";
	}
	case 18:
		if (op_sized(o->type))
			return spoil_value(r, j, err);
		o->h_size = true;
		o->size = range(r, 1, 1 << 20);
		*err = EINVAL;
		return "size on an op type without one";
	case 19:
		o->type = FSLOAD_OP_APPEND;
		o->h_size = pct(r, 50);
		o->size = 0;
		o->h_flags = false;
		o->flags = 0;
		o->h_prefix = false;
		*err = EINVAL;
		return "append without size";
	case 20:
		o->type = pct(r, 50) ? FSLOAD_OP_READ_RANDOM : FSLOAD_OP_WRITE_RANDOM;
		o->h_block = true;
		o->block = 4096;
		o->h_size = true;
		o->size = range(r, 1, 4095);
		o->h_flags = false;
		o->flags = 0;
		o->h_prefix = false;
		*err = EINVAL;
		return "random I/O in a file smaller than a block";
	case 21:
		o->type = FSLOAD_OP_CREATE;
		o->h_flags = true;
		o->flags = FSLOAD_OP_F_DIRECT;
		o->h_block = true;
		o->block = PICK(r, ((const uint32_t[]){ 1, 1000, 4097 }));
		o->h_size = false;
		o->h_prefix = false;
		*err = EINVAL;
		return "direct I/O with an unaligned block";
	case 22:
		o->type = FSLOAD_OP_RENAME;
		o->h_prefix = false;
		o->h_size = o->h_flags = false;
		*err = EINVAL;
		return "rename without prefix";
	case 23:
		o->type = FSLOAD_OP_RENAME;
		o->h_prefix = true;
		o->prefix = PICK(r, ((const uint8_t[]){ 'd', 't', '0', 'Z' }));
		o->h_size = o->h_flags = false;
		return "rename prefix invalid";
	case 24:
		if (o->type == FSLOAD_OP_RENAME)
			return spoil_value(r, j, err);
		o->h_prefix = true;
		o->prefix = rnd_prefix(r);
		*err = EINVAL;
		return "prefix on an op other than rename";
	case 25:
		p->h_name = false;
		*err = EINVAL;
		return "phase without name";
	case 26:
		p->nops = 0;
		*err = EINVAL;
		return "phase without ops";
	case 27:
		j->nphases = 0;
		*err = EINVAL;
		return "no phase";
	case 28:
		j->h_dir = false;
		*err = EINVAL;
		return "no dir";
	case 29:
		snprintf(j->dir, sizeof(j->dir), "%s", PICK(r, bad_dirs));
		return "dir that is no directory";
	case 30:
		/* 33 phases, or 17 ops. */
		if (pct(r, 50)) {
			for (; j->nphases < FSLOAD_PHASES_MAX + 1; j->nphases++)
				j->ph[j->nphases] = j->ph[0];
		} else {
			for (; p->nops < FSLOAD_PHASE_OPS_MAX + 1; p->nops++)
				p->ops[p->nops] = p->ops[0];
		}
		*err = E2BIG;
		return "too many phases or ops";
	case 31:
		/* Names one byte too long; a path one too long. */
		if (pct(r, 50)) {
			memset(p->name, 'n', FSLOAD_NAME_MAX);
			p->name[FSLOAD_NAME_MAX] = '\0';
			p->h_name = true;
		} else {
			memset(j->dir, 'p', PATH_MAX);
			j->dir[PATH_MAX] = '\0';
		}
		return "string one byte too long";
	case 32:
		/* iterations x threads overflows u64. */
		j->h_threads = true;
		j->threads = 2 + below(r, 3);
		j->flags &= ~FSLOAD_JOB_F_SHARED_DIR;
		p->h_iter = true;
		p->iter = UINT64_MAX / 2 + 1;
		p->h_dur = true;
		p->dur = 1;
		*err = EOVERFLOW;
		return "iterations x threads overflows";
	default:
		/* A shared tree or subdirectories past the protocol limits. */
		if (pct(r, 50)) {
			j->h_threads = j->h_files = j->h_flags = true;
			j->threads = 2;
			j->files = FSLOAD_FILES_MAX;
			j->flags |= FSLOAD_JOB_F_SHARED_DIR;
			j->h_fpd = true;
			j->fpd = 1000000;
		} else {
			j->h_files = j->h_fpd = true;
			j->files = FSLOAD_DIRS_MAX + 1;
			j->fpd = 1;
		}
		*err = ERANGE;
		return "tree beyond the protocol's limits";
	}
}

/* Boundary values. */
static uint64_t rnd_value(struct rng *r, int bytes)
{
	const uint64_t pool[] = { 0, 1, 2, 3, 9, 10, 31, 32, 255, 256, 511, 512,
		999, 1000, 4095, 4096, 65535, 65536, 100000, 100001, 1000000,
		1000001, 3600000, 3600001, FSLOAD_BLOCK_MAX, FSLOAD_BLOCK_MAX + 1,
		prm.max_block, prm.max_block + 1, prm.max_threads,
		prm.max_threads + 1, prm.max_jobs, FSLOAD_FILES_MAX,
		FSLOAD_FILES_MAX + 1, prm.max_file, prm.max_file + 1,
		0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
		0x100000000ULL, 1ULL << 63, UINT64_MAX - 1, UINT64_MAX };
	uint64_t v = pct(r, 70) ? PICK(r, pool) : rnd(r);

	if (bytes < 8)
		v &= (1ULL << (bytes * 8)) - 1;
	return v;
}

/* Attribute soup at @level (0 top, 1 phase, 2 op, 3+ nowhere). */
static void soup(struct rng *r, struct mbuf *m, int level, int depth)
{
	int nattrs = below(r, level == 0 ? 12 : 8), i;
	uint16_t last = 1;

	for (i = 0; i < nattrs && !m->overflow; i++) {
		uint16_t type;
		int kind;	/* 0 u8 1 u32 2 u64 3 str 4 nest */

		if (pct(r, 10))
			type = last;	/* a duplicate */
		else if (pct(r, 85))
			type = range(r, 1, level == 0 ? FSLOAD_A_JOB_MAX :
					   level == 1 ? FSLOAD_A_PHASE_MAX :
					   FSLOAD_A_OP_MAX);
		else
			type = pct(r, 50) ? 0 : range(r, 1, ATTR_TYPE_MAX);
		last = type;
		/* The type's proper kind, mostly. */
		if (level == 0)
			kind = type == FSLOAD_A_JOB_DIR || type == FSLOAD_A_JOB_PROFILE ? 3 :
			       type == FSLOAD_A_JOB_PHASE ? 4 :
			       type == FSLOAD_A_JOB_FILES || type == FSLOAD_A_JOB_SEED ? 2 : 1;
		else if (level == 1)
			kind = type == FSLOAD_A_PHASE_NAME ? 3 :
			       type == FSLOAD_A_PHASE_OP ? 4 :
			       type == FSLOAD_A_PHASE_ORDER || type == FSLOAD_A_PHASE_PREFIX ? 0 :
			       type == FSLOAD_A_PHASE_ITERATIONS || type == FSLOAD_A_PHASE_FIRST ? 2 : 1;
		else
			kind = type == FSLOAD_A_OP_TYPE || type == FSLOAD_A_OP_PREFIX ? 0 :
			       type == FSLOAD_A_OP_SIZE_BYTES ? 2 : 1;
		if (pct(r, 12))
			kind = below(r, 5);
		if (depth > 3 && kind == 4 && pct(r, 50))
			kind = 1;
		switch (kind) {
		case 0: case 1: case 2: {
			static const int sz[] = { 1, 4, 8 };
			int len = sz[kind];
			uint64_t v = rnd_value(r, len);
			uint16_t t = type;

			if (kind == 0 && pct(r, 50))
				v = level == 2 && type == FSLOAD_A_OP_TYPE ?
				    range(r, 0, FSLOAD_OP_MAX + 1) :
				    PICK(r, ((const uint8_t[]){ 'a', 'd', 'f', 't', 'z', 0, 1, 2, 3 }));
			if (pct(r, 8))
				len = below(r, 17);
			if (pct(r, 4))
				t |= pct(r, 50) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
			attr(m, t, &v, len > 8 ? 8 : len);
			if (len > 8)
				mb_room(m, len - 8);
			break;
		}
		case 3: {
			char s[PATH_MAX + 16];

			if (level == 0 && type == FSLOAD_A_JOB_DIR && pct(r, 70))
				snprintf(s, sizeof(s), "%s", pct(r, 60) ?
					 PICK(r, good_dirs) : PICK(r, bad_dirs));
			else if (pct(r, 5)) {
				size_t l = PICK(r, ((const size_t[]){ 31, 32, 33, PATH_MAX - 1, PATH_MAX }));

				memset(s, 'a', l);
				s[l] = '\0';
			} else {
				rnd_name(r, s, 40);
			}
			if (pct(r, 8))
				attr(m, type, s, strlen(s));	/* no NUL */
			else if (pct(r, 5))
				attr(m, type, s, strlen(s) + 1 + below(r, 4));
			else
				attr(m, type, s, strlen(s) + 1);
			break;
		}
		default: {
			size_t off;

			if (pct(r, 3)) {
				/* Deep nesting: a chain of nests. */
				size_t offs[256];
				int d = range(r, 8, 256), k;

				for (k = 0; k < d && !m->overflow; k++)
					offs[k] = nest_begin(m, (k ? range(r, 0, 12) : type) |
							     (pct(r, 95) ? NLA_F_NESTED : 0));
				soup(r, m, 3, depth + d);
				while (k--)
					nest_end(m, offs[k]);
				break;
			}
			off = nest_begin(m, type | (pct(r, 90) ? NLA_F_NESTED : 0));
			soup(r, m, level + 1, depth + 1);
			nest_end(m, off);
			break;
		}
		}
	}
}

/* Spoil the length fields of an attribute soup (after building). */
static void mangle_attr_lens(struct rng *r, struct mbuf *m, size_t start)
{
	size_t pos = start;
	int n = 0;

	while (pos + NLA_HDRLEN <= m->len && n < 64) {
		struct nlattr *a = (void *)(m->b + pos);

		if (a->nla_len < NLA_HDRLEN)
			break;
		if (pct(r, 10)) {
			a->nla_len = PICK(r, ((const uint16_t[]){ 0, 1, 3, 4, 5,
				a->nla_len + 1, a->nla_len + 4, 0xffff }));
			return;
		}
		pos += NLA_ALIGN(a->nla_len);
		n++;
	}
}

/* ------------------------------------------------------------------ */
/* Cases                                                               */
/* ------------------------------------------------------------------ */

static const uint16_t odd_flags[] = { NLM_F_ROOT, NLM_F_MATCH, NLM_F_ATOMIC,
	NLM_F_ECHO, NLM_F_EXCL, NLM_F_CREATE, NLM_F_APPEND, NLM_F_DUMP_INTR,
	NLM_F_MULTI, NLM_F_DUMP_FILTERED, 0x8000, 0x4000 };

static uint16_t rnd_flags(struct rng *r)
{
	uint16_t f = 0;

	if (pct(r, 95))
		f |= NLM_F_REQUEST;
	if (pct(r, 80))
		f |= NLM_F_ACK;
	if (pct(r, 15))
		f |= NLM_F_DUMP;
	if (pct(r, 10))
		f |= PICK(r, odd_flags);
	if (pct(r, 2))
		f = rnd(r);
	return f;
}

/* What a case generator appends to: the datagram, the expectations. */
struct gen {
	struct tctx *t;
	struct rng *r;
	struct mbuf *m;		/* t->dg */
	uint32_t seq;		/* the message's */
	struct expect *ex;
	int *nex;
};

static struct expect *gen_expect(struct gen *g, size_t off, uint16_t type,
				 int want, const char *what)
{
	add_expect(g->ex, g->nex, off, g->seq, type, want, what);
	return &g->ex[*g->nex - 1];
}

/* A valid, odd program. */
static void case_valid_program(struct gen *g)
{
	struct rng *r = g->r;
	struct mbuf *m = g->m;
	size_t off;
	struct fjob *jj = malloc(sizeof(*jj));
	struct emit em = { .m = m, .r = r, .mut = MUT_NONE, .target = -1 };
	uint16_t flags = NLM_F_REQUEST | (pct(r, 90) ? NLM_F_ACK : 0);

	if (!jj)
		return;
	gen_job(r, jj);
	off = msg_begin(m, family, flags, g->seq, FSLOAD_CMD_JOB_START,
			pct(r, 95) ? FSLOAD_FAMILY_VERSION : rnd(r));
	emit_job(&em, jj);
	msg_end(m, off);
	free(jj);
	gen_expect(g, off, family, W_START, "valid program")->cmd =
		FSLOAD_CMD_JOB_START;
	g->t->st.valid_starts++;
}

/* A valid program, made invalid in one way. */
static void case_invalid_program(struct gen *g)
{
	struct rng *r = g->r;
	struct mbuf *m = g->m;
	struct expect *e;
	size_t off;
	struct fjob *jj = malloc(sizeof(*jj));
	struct emit em = { .m = m, .r = r, .target = -1 };
	int err = 0, mut;
	const char *why;
	bool msg = true;

	if (!jj)
		return;
	gen_job(r, jj);
	mut = below(r, NMUT + 6);
	if (mut >= NMUT)
		mut = MUT_NONE;	/* a bad value instead */
	if (mut == MUT_NONE) {
		why = spoil_value(r, jj, &err);
	} else {
		/* Count the scalars, then spoil one of them. */
		struct mbuf *dry = malloc(sizeof(*dry));
		struct emit d = { .m = dry, .r = r, .target = -1 };

		if (!dry) {
			free(jj);
			return;
		}
		dry->len = 0;
		dry->overflow = false;
		emit_job(&d, jj);
		free(dry);
		em.mut = mut;
		em.target = below(r, d.count ? d.count : 1);
		why = "mutation";
		err = EINVAL;
	}
	off = msg_begin(m, family, NLM_F_REQUEST | (pct(r, 85) ? NLM_F_ACK : 0),
			g->seq, FSLOAD_CMD_JOB_START, FSLOAD_FAMILY_VERSION);
	if (mut == MUT_SHORTHDR) {
		/* Cut inside the genl header. */
		m->len = off + NLMSG_HDRLEN + below(r, GENL_HDRLEN);
		msg_hdr(m, off)->nlmsg_len = m->len - off;
		why = "shorter than the genl header";
		msg = false;
	} else {
		emit_job(&em, jj);
		if (mut == MUT_TRAILING) {
			unsigned char *p = mb_room(m, 4);
			size_t keep = below(r, 4) + 1;

			if (p)
				memset(p, 0xa5, 4);
			m->len -= 4 - keep;
			why = "bytes after the attributes";
		} else if (mut == MUT_NLALEN) {
			size_t a = attr(m, FSLOAD_A_JOB_SEED,
					&jj->seed, 8);

			((struct nlattr *)(m->b + a))->nla_len =
				PICK(r, ((const uint16_t[]){ 16, 200, 0xffff }));
			why = "attribute longer than the message";
		} else if (mut != MUT_NONE) {
			if (!em.done && mut != MUT_SHORTHDR) {
				/* Nothing to spoil: no scalars. */
				em.target = -2;
				emit_extra(&em, 0);
			}
			why = em.why ? em.why : "mutation";
			if (!em.done)
				why = "no phase";
		}
		msg_end(m, off);
		if (mut == MUT_TRAILING)
			msg_hdr(m, off)->nlmsg_len = m->len - off;
	}
	free(jj);
	e = gen_expect(g, off, family, W_ERROR, why);
	e->cmd = FSLOAD_CMD_JOB_START;
	e->want_err = mut == MUT_NONE ? err : 0;
	e->want_msg = msg;
	g->t->st.invalid_sent++;
}

/* Invalid requests of other kinds. */
static void case_invalid_request(struct gen *g)
{
	struct rng *r = g->r;
	struct mbuf *m = g->m;
	struct expect *e;
	size_t off;
	int which = below(r, 12);
	uint8_t cmd = FSLOAD_CMD_JOB_GET;
	uint16_t flags = NLM_F_REQUEST | (pct(r, 85) ? NLM_F_ACK : 0);
	uint16_t type = family;
	const char *why;
	int err = EINVAL;
	bool msg = true;
	uint32_t id = 0;

	switch (which) {
	case 0:
		cmd = PICK(r, ((const uint8_t[]){ FSLOAD_CMD_JOB_STOP,
						  FSLOAD_CMD_JOB_GET }));
		why = "stop/get without id";
		break;
	case 1:
		cmd = PICK(r, ((const uint8_t[]){ FSLOAD_CMD_JOB_STOP,
						  FSLOAD_CMD_JOB_GET }));
		id = 0;
		why = "id 0";
		break;
	case 2:
		cmd = PICK(r, ((const uint8_t[]){ FSLOAD_CMD_RESULT_GET,
						  FSLOAD_CMD_WORKER_GET }));
		flags |= NLM_F_DUMP;
		why = "result or worker dump without id";
		break;
	case 3:
		cmd = PICK(r, ((const uint8_t[]){ FSLOAD_CMD_RESULT_GET,
						  FSLOAD_CMD_WORKER_GET }));
		id = 1;
		err = EOPNOTSUPP;
		msg = false;
		why = "result_get or worker_get without NLM_F_DUMP";
		break;
	case 4:
		cmd = PICK(r, ((const uint8_t[]){ 0, FSLOAD_CMD_JOB_PROGRESS_NTF,
			FSLOAD_CMD_JOB_DONE_NTF, FSLOAD_CMD_MAX + 1, 255,
			(uint8_t)range(r, FSLOAD_CMD_MAX + 1, 255) }));
		if (pct(r, 50))
			flags |= NLM_F_DUMP;
		err = EOPNOTSUPP;
		msg = false;
		why = "notification or unknown command";
		break;
	case 5:
		cmd = PICK(r, ((const uint8_t[]){ FSLOAD_CMD_JOB_START,
						  FSLOAD_CMD_JOB_STOP }));
		flags |= NLM_F_DUMP;
		err = EOPNOTSUPP;
		msg = false;
		why = "dump of a do-only command";
		break;
	case 6:
		type = bad_family;
		cmd = range(r, 0, 8);
		err = ENOENT;
		msg = false;
		why = "unknown family";
		break;
	case 7:
		cmd = PICK(r, ((const uint8_t[]){ FSLOAD_CMD_JOB_STOP,
						  FSLOAD_CMD_JOB_GET }));
		id = PICK(r, ((const uint32_t[]){ 0x7fffffff, UINT32_MAX,
						  0x12345678 }));
		err = ENOENT;
		why = "no such job";
		break;
	default:
		why = "extra attributes on an id command";
		cmd = PICK(r, ((const uint8_t[]){ FSLOAD_CMD_JOB_STOP,
			FSLOAD_CMD_JOB_GET, FSLOAD_CMD_RESULT_GET }));
		if (cmd == FSLOAD_CMD_RESULT_GET)
			flags |= NLM_F_DUMP;
		break;
	}
	off = msg_begin(m, type, flags, g->seq, cmd, FSLOAD_FAMILY_VERSION);
	if (which == 1 || which == 3 || which == 7)
		attr(m, FSLOAD_A_JOB_ID, &id, 4);
	if (which >= 8) {
		uint32_t v = job_pick(r) ?: 1;

		switch (which) {
		case 8:
			attr(m, FSLOAD_A_JOB_ID, &v, 4);
			attr(m, range(r, 2, FSLOAD_A_JOB_MAX), &v, 4);
			break;
		case 9:
			attr(m, FSLOAD_A_JOB_ID, &v, below(r, 4));
			why = "id of the wrong length";
			break;
		case 10:
			attr(m, FSLOAD_A_JOB_ID | NLA_F_NESTED, &v, 4);
			why = "id with NLA_F_NESTED";
			break;
		default:
			attr(m, FSLOAD_A_JOB_ID, &v, 4);
			attr(m, 0, &v, 4);
			why = "attribute type 0";
			break;
		}
	}
	msg_end(m, off);
	e = gen_expect(g, off, type, W_ERROR, why);
	e->cmd = cmd;
	e->want_err = which <= 7 && which != 1 ? err : 0;
	e->want_msg = msg;
	g->t->st.invalid_sent++;
}

/* A valid query or stop of a job of ours. */
static void case_query(struct gen *g)
{
	struct rng *r = g->r;
	struct mbuf *m = g->m;
	struct expect *e;
	size_t off;
	int which = below(r, 5);
	uint32_t id = job_pick(r);
	uint8_t cmd;
	uint16_t flags = NLM_F_REQUEST | (pct(r, 80) ? NLM_F_ACK : 0);
	const char *why;

	if (!id)
		which = 1;
	switch (which) {
	case 0:
		cmd = FSLOAD_CMD_JOB_GET;
		why = "get of a job";
		break;
	case 1:
		cmd = FSLOAD_CMD_JOB_GET;
		flags |= NLM_F_DUMP;
		why = "list dump";
		break;
	case 2:
	case 3:
		cmd = FSLOAD_CMD_RESULT_GET;
		flags |= NLM_F_DUMP;
		why = "results dump";
		break;
	default:
		cmd = FSLOAD_CMD_JOB_STOP;
		why = "stop of a job";
		g->t->st.stops++;
		break;
	}
	off = msg_begin(m, family, flags, g->seq, cmd, FSLOAD_FAMILY_VERSION);
	if (which != 1)
		attr(m, FSLOAD_A_JOB_ID, &id, 4);
	msg_end(m, off);
	e = gen_expect(g, off, family, W_QUERY, why);
	e->cmd = cmd;
	e->ok_err[0] = ENOENT;	/* forgotten: max_finished */
	e->ok_err[1] = cmd == FSLOAD_CMD_JOB_STOP ? EALREADY : 0;
}

/*
 * --uid: a query of one of root's jobs, as anyone may send (the reads),
 * or a stop or resume of it, which must be refused (W_ADMIN, set by the
 * exchange).
 */
static void case_query_user(struct gen *g)
{
	static const uint8_t cmds[] = { FSLOAD_CMD_JOB_GET,
		FSLOAD_CMD_JOB_GET, FSLOAD_CMD_RESULT_GET,
		FSLOAD_CMD_SERIES_GET, FSLOAD_CMD_WORKER_GET,
		FSLOAD_CMD_PROFILE_GET, FSLOAD_CMD_JOB_STOP,
		FSLOAD_CMD_JOB_RESUME };
	struct rng *r = g->r;
	struct mbuf *m = g->m;
	struct expect *e;
	uint8_t cmd = PICK(r, cmds);
	uint16_t flags = NLM_F_REQUEST | (pct(r, 80) ? NLM_F_ACK : 0);
	uint32_t id = job_pick(r);
	bool list = cmd == FSLOAD_CMD_JOB_GET && pct(r, 40);
	size_t off;

	if (list || (cmd != FSLOAD_CMD_JOB_GET && cmd != FSLOAD_CMD_JOB_STOP &&
		     cmd != FSLOAD_CMD_JOB_RESUME))
		flags |= NLM_F_DUMP;
	off = msg_begin(m, family, flags, g->seq, cmd, FSLOAD_FAMILY_VERSION);
	if (!list)
		attr(m, FSLOAD_A_JOB_ID, &id, 4);
	if (cmd == FSLOAD_CMD_SERIES_GET && pct(r, 50)) {
		uint64_t from = pct(r, 50) ? below(r, 5000) : rnd(r);

		attr(m, FSLOAD_A_JOB_SERIES_FROM, &from, 8);
	}
	if (cmd == FSLOAD_CMD_JOB_RESUME && pct(r, 50)) {
		uint32_t held = below(r, 4);

		attr(m, FSLOAD_A_JOB_HELD, &held, 4);
	}
	msg_end(m, off);
	e = gen_expect(g, off, family, W_QUERY, list ? "list dump" :
		       "query of root's job");
	e->cmd = cmd;
	e->ok_err[0] = ENOENT;	/* an id no job has */
	/* Root's job: its CPU profile only to its starter or an admin. */
	if (cmd == FSLOAD_CMD_PROFILE_GET)
		e->ok_err[1] = EPERM;
}

/* Attribute soup. */
static void case_soup(struct gen *g)
{
	struct rng *r = g->r;
	struct mbuf *m = g->m;
	size_t off;
	uint16_t flags = rnd_flags(r);
	uint8_t cmd = pct(r, 80) ? range(r, 1, FSLOAD_CMD_MAX) :
		      (uint8_t)rnd(r);
	size_t start;

	off = msg_begin(m, family, flags, g->seq, cmd,
			pct(r, 90) ? FSLOAD_FAMILY_VERSION : rnd(r));
	if (pct(r, 5))
		((struct genlmsghdr *)NLMSG_DATA(msg_hdr(m, off)))->reserved = rnd(r);
	start = m->len;
	soup(r, m, 0, 0);
	if (pct(r, 10))
		mangle_attr_lens(r, m, start);
	msg_end(m, off);
	gen_expect(g, off, family, W_SOME, "attribute soup")->cmd = cmd;
}

/* A valid message, then byte-level mutations. */
static void case_byte_mutation(struct gen *g)
{
	struct rng *r = g->r;
	struct mbuf *m = g->m;
	size_t off;
	struct fjob *jj = malloc(sizeof(*jj));
	struct emit em = { .m = m, .r = r, .target = -1 };
	struct nlmsghdr *h;
	int nmut = range(r, 1, 8), i;
	size_t len;

	if (!jj)
		return;
	gen_job(r, jj);
	off = msg_begin(m, family, NLM_F_REQUEST | NLM_F_ACK, g->seq,
			pct(r, 85) ? FSLOAD_CMD_JOB_START :
			range(r, 0, FSLOAD_CMD_MAX + 1),
			FSLOAD_FAMILY_VERSION);
	emit_job(&em, jj);
	msg_end(m, off);
	free(jj);
	len = m->len - off;
	for (i = 0; i < nmut && len > NLMSG_HDRLEN; i++) {
		/* Never the type, g->seq or port of the header. */
		size_t p = NLMSG_HDRLEN - 12 + below(r, len - NLMSG_HDRLEN + 12);

		if (p >= 4 && p < 6)
			continue;
		if (p >= 8 && p < NLMSG_HDRLEN)
			p = NLMSG_HDRLEN + below(r, len - NLMSG_HDRLEN);
		switch (below(r, 4)) {
		case 0:
			m->b[off + p] ^= 1 << below(r, 8);
			break;
		case 1:
			m->b[off + p] = rnd(r);
			break;
		case 2:
			m->b[off + p] = PICK(r, ((const uint8_t[]){ 0, 0xff, 0x7f, 0x80, 1 }));
			break;
		default:
			if (p + 4 <= len && p >= NLMSG_HDRLEN) {
				uint32_t v = rnd_value(r, 4);

				memcpy(m->b + off + p, &v, 4);
			}
			break;
		}
	}
	h = msg_hdr(m, off);
	if (pct(r, 30)) {
		/* Truncate the message and say so, or not. */
		size_t cut = below(r, len - NLMSG_HDRLEN + 1) + NLMSG_HDRLEN;

		m->len = off + cut;
		if (pct(r, 70))
			h->nlmsg_len = cut;
	}
	gen_expect(g, off, family, W_SOME, "byte mutation")->cmd =
		((struct genlmsghdr *)NLMSG_DATA(h))->cmd;
}

/* Control messages and non-requests. */
static void case_control(struct gen *g)
{
	struct rng *r = g->r;
	struct mbuf *m = g->m;
	size_t off;
	uint16_t type = PICK(r, ((const uint16_t[]){ NLMSG_NOOP,
		NLMSG_ERROR, NLMSG_DONE, NLMSG_OVERRUN, 5, 15 }));
	uint16_t flags = pct(r, 50) ? NLM_F_ACK : 0;

	if (pct(r, 50)) {
		type = family;
		flags |= pct(r, 50) ? NLM_F_DUMP : 0;	/* no REQUEST */
	} else if (pct(r, 50)) {
		flags |= NLM_F_REQUEST;
	}
	off = msg_begin(m, type, flags, g->seq, range(r, 0, 8), 1);
	if (pct(r, 50))
		soup(r, m, 0, 0);
	msg_end(m, off);
	gen_expect(g, off, type, W_SOME, "control or non-request");
}

/*
 * The generators and their weights.  Valid programs are --start-permille
 * of the messages (starting and reaping a job costs the guest as much as
 * ~30 messages); the rest keep their proportions, in percent: 30 invalid
 * programs, 12 other invalid requests, 15 valid queries, 20 attribute
 * soup, 12 byte mutations, 3 control messages and non-requests.
 */
static const struct case_gen {
	void (*gen)(struct gen *g);
	unsigned int pct;	/* of the messages that start no job */
	bool starts;		/* a valid program: --start-permille */
} case_gens[] = {
	{ .gen = case_valid_program, .starts = true },
	{ .gen = case_invalid_program, .pct = 30 },
	{ .gen = case_invalid_request, .pct = 12 },
	{ .gen = case_query, .pct = 15 },
	{ .gen = case_soup, .pct = 20 },
	{ .gen = case_byte_mutation, .pct = 12 },
	{ .gen = case_control, .pct = 3 },
};
_Static_assert(ARRAY_SIZE(case_gens) <= FSLOAD_PHASE_OPS_MAX,
	       "more case generators than a phase has ops");

/*
 * --uid: queries of root's jobs take the valid programs' share (they
 * cost the guest nothing now: refused), the rest as above.
 */
static const struct case_gen case_gens_user[] = {
	{ .gen = case_valid_program, .pct = 8 },
	{ .gen = case_invalid_program, .pct = 15 },
	{ .gen = case_invalid_request, .pct = 10 },
	{ .gen = case_query_user, .pct = 35 },
	{ .gen = case_soup, .pct = 17 },
	{ .gen = case_byte_mutation, .pct = 12 },
	{ .gen = case_control, .pct = 3 },
};
_Static_assert(ARRAY_SIZE(case_gens_user) <= FSLOAD_PHASE_OPS_MAX,
	       "more case generators than a phase has ops");

static const struct case_gen *gens = case_gens;
static size_t ngens = ARRAY_SIZE(case_gens);

/* case_gens[] as a phase of weighted ops, for the engine's fsload_pick(). */
static struct fsload_phase case_table;

void cases_init(void)
{
	unsigned int i, rest = 0;

	if (opt.uid >= 0) {
		gens = case_gens_user;
		ngens = ARRAY_SIZE(case_gens_user);
	}
	for (i = 0; i < ngens; i++)
		rest += gens[i].pct;
	case_table.nops = ngens;
	for (i = 0; i < ngens; i++) {
		struct fsload_opdesc *op = &case_table.ops[i];

		op->group = FSLOAD_GROUP_ALL;
		op->weight = gens[i].starts ? opt.start_permille * rest :
			     gens[i].pct * (1000 - opt.start_permille);
	}
	fsload_phase_groups(&case_table, 1);
}

void gen_message(struct tctx *t, struct rng *r, struct nsock *s,
		 struct expect *ex, int *nex)
{
	struct gen g = {
		.t = t, .r = r, .m = &t->dg, .seq = ++s->seq & 0x7fffffff,
		.ex = ex, .nex = nex,
	};
	struct fsload_engine e = { .group = 0 };

	/* The engine's generator, seeded from the case's. */
	fsload_rng_seed(&e.rnd, rnd(r));
	gens[fsload_pick(&e, &case_table) - case_table.ops].gen(&g);
}
