// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: profiles.
 *
 * A profile is a named preset: default start options (data, applied
 * before the command line so that every knob can be overridden) and a
 * builder that turns the parameters into the generic program of phases
 * of weighted operations the kernel executes.  To add a profile, add an
 * entry to profiles[]; the kernel needs no change.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fsloadctl.h"
#include "lib/parse.h"
#include "lib/kshim.h"
#include <fsload/engine.h>
#include "nl/fsload-nl-gen.h"
#include "nl/results.h"
#include "workload/profile.h"
#include "workload/untar-sizes.h"

#define SEQ	FSLOAD_ORDER_SEQUENTIAL
#define RND	FSLOAD_ORDER_RANDOM

struct profile {
	const char *name;
	const char *desc;
	const char *tool;	/* the classic tool it stands for */
	const char *defaults;	/* start options */
	const char *options;	/* its own options, for the help */
	const char *phases;	/* for the help */
	unsigned int flags;	/* PF_* */
	int (*build)(const struct params *p, uint32_t threads,
		     struct program *prog);
	void (*fixup)(struct params *p,
		      bool (*given)(const char *name, void *arg), void *arg);
	struct metric_spec metric;
};

/* Program building helpers */

struct prog_phase *program_add_phase(struct program *prog, const char *name)
{
	struct prog_phase *ph;

	if (prog->nphases >= FSLOAD_PHASES_MAX)
		return NULL;
	ph = &prog->phases[prog->nphases];
	memset(ph, 0, sizeof(*ph));
	snprintf(ph->name, sizeof(ph->name), "%s", name);
	ph->order = SEQ;
	prog->phase_names[prog->nphases++] = ph->name;
	return ph;
}

struct prog_op *phase_add_op(struct prog_phase *ph, uint8_t type,
			     uint32_t weight)
{
	struct prog_op *op;

	if (ph->nops >= FSLOAD_PHASE_OPS_MAX)
		return NULL;
	op = &ph->ops[ph->nops++];
	memset(op, 0, sizeof(*op));
	op->type = type;
	op->weight = weight;
	op->block = 4096;
	return op;
}

/* Add a phase or say that the program has too many. */
static struct prog_phase *add_phase(struct program *prog, const char *name)
{
	struct prog_phase *ph = program_add_phase(prog, name);

	if (!ph)
		usage_error("%s: more than %d phases", prog->profile,
			    FSLOAD_PHASES_MAX);
	return ph;
}

/* A one-op phase. */
static struct prog_phase *add_phase1(struct program *prog, const char *name,
				     uint8_t type, struct prog_op **opp)
{
	struct prog_phase *ph = add_phase(prog, name);
	struct prog_op *op;

	if (!ph)
		return NULL;
	op = phase_add_op(ph, type, 1);
	if (opp)
		*opp = op;
	return ph;
}

static uint32_t write_flags(const struct params *p)
{
	return (p->fsync ? FSLOAD_OP_F_FSYNC : 0) |
	       (p->direct ? FSLOAD_OP_F_DIRECT : 0);
}

/* smallfiles (fs_mark) */

enum sync_mode { SYNC_NONE, SYNC_FSYNC, SYNC_BATCH, SYNC_FINAL };

static int sync_mode(const char *s, enum sync_mode *m)
{
	static const char *const names[] = { "none", "fsync", "batch",
					     "final" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*m = i;
			return 0;
		}
	return usage_error("--sync: '%s' is not none, fsync, batch or final",
			   s);
}

static int build_smallfiles(const struct params *p, uint32_t threads,
			    struct program *prog)
{
	enum sync_mode mode = SYNC_NONE;
	struct prog_phase *ph;
	struct prog_op *op;
	char name[FSLOAD_NAME_MAX];
	uint64_t round, start, rounds;

	(void)threads;
	if (p->sync && sync_mode(p->sync, &mode))
		return EXIT_USAGE;
	if (mode == SYNC_BATCH) {
		round = p->files_per_round ? p->files_per_round :
			p->files_per_dir;
		rounds = (p->files + round - 1) / round;
		if (2 * rounds + 2 + !p->keep > FSLOAD_PHASES_MAX)
			return usage_error("--sync batch: %llu rounds of %llu files need %llu phases, the kernel runs at most %d: raise --files-per-round",
					   (unsigned long long)rounds,
					   (unsigned long long)round,
					   (unsigned long long)(2 * rounds + 2 + !p->keep),
					   FSLOAD_PHASES_MAX);
		for (start = 0; start < p->files; start += round) {
			uint64_t n = p->files - start < round ?
				     p->files - start : round;

			snprintf(name, sizeof(name), "create-%llu",
				 (unsigned long long)(start / round));
			ph = add_phase1(prog, name, FSLOAD_OP_CREATE, &op);
			ph->first = start;
			ph->iterations = n;
			op->size = p->size;
			op->block = p->block;
			op->flags = write_flags(p);
			snprintf(name, sizeof(name), "fsync-%llu",
				 (unsigned long long)(start / round));
			ph = add_phase1(prog, name, FSLOAD_OP_FSYNC, NULL);
			ph->first = start;
			ph->iterations = n;
		}
	} else {
		add_phase1(prog, "create", FSLOAD_OP_CREATE, &op);
		op->size = p->size;
		op->block = p->block;
		op->flags = write_flags(p) |
			    (mode == SYNC_FSYNC ? FSLOAD_OP_F_FSYNC : 0);
		if (mode == SYNC_FINAL) {
			ph = add_phase1(prog, "sync", FSLOAD_OP_SYNCFS, NULL);
			ph->iterations = 1;
		}
	}
	add_phase1(prog, "stat", FSLOAD_OP_STAT, NULL);
	add_phase1(prog, "read", FSLOAD_OP_READ, &op);
	op->block = p->block;
	op->flags = p->direct ? FSLOAD_OP_F_DIRECT : 0;
	if (!p->keep)
		add_phase1(prog, "unlink", FSLOAD_OP_UNLINK, NULL);
	return 0;
}

/* mdtest's and fs_mark's default: all of a thread's files in one directory */
static void one_directory(struct params *p)
{
	p->files_per_dir = p->files > UINT32_MAX ? UINT32_MAX :
			   (uint32_t)p->files;
}

/* fsmark (fs_mark itself) */

/*
 * fs_mark -S: what follows its loop of creat(O_RDWR | O_CREAT | O_TRUNC),
 * write()s, [fsync()], close(): sync(), an fsync of every file in order,
 * of the first file only (fs_mark.h's FSYNC_* bits).
 */
static const struct {
	bool fsync;		/* 1: fsync before close, in the loop */
	bool sync;		/* sync() after the loop */
	bool post;		/* then open, fsync, close each file in order */
	bool reverse;		/* ... in reverse order: not supported */
	bool first;		/* then the first file only */
} fsmark_sync[] = {
	[0] = { 0 },
	[1] = { .fsync = true },
	[2] = { .sync = true, .first = true },
	[3] = { .reverse = true },
	[4] = { .sync = true, .reverse = true },
	[5] = { .post = true },
	[6] = { .sync = true, .post = true },
};

/* fs_mark without -D: one directory holds every file of a thread. */
static void fixup_fsmark(struct params *p,
			 bool (*given)(const char *name, void *arg), void *arg)
{
	if (!given("files-per-dir", arg))
		one_directory(p);
}

static int build_fsmark(const struct params *p, uint32_t threads,
			struct program *prog)
{
	const char *s = p->sync ? p->sync : "1";
	struct prog_phase *ph;
	struct prog_op *op;
	unsigned int m;

	(void)threads;
	if (s[0] < '0' || s[0] > '6' || s[1])
		return usage_error("fsmark: --sync '%s' is not fs_mark's -S, 0 to 6",
				   s);
	m = s[0] - '0';
	if (fsmark_sync[m].reverse)
		return usage_error("fsmark: --sync %u: fs_mark's fsync of every file in reverse order is not supported (phases visit the files in index or random order); --sync 5 and 6 fsync them in order",
				   m);
	if (p->shared_dir)
		prog->job_flags |= FSLOAD_JOB_F_SHARED_DIR;
	add_phase1(prog, "create", FSLOAD_OP_CREATE, &op);
	op->size = p->size;
	op->block = p->block;
	op->flags = FSLOAD_OP_F_TRUNC | write_flags(p) |
		    (fsmark_sync[m].fsync ? FSLOAD_OP_F_FSYNC : 0);
	if (fsmark_sync[m].sync) {
		ph = add_phase1(prog, "sync", FSLOAD_OP_SYNCFS, NULL);
		ph->iterations = 1;
	}
	if (fsmark_sync[m].post)
		add_phase1(prog, "fsync", FSLOAD_OP_FSYNC, NULL);
	if (fsmark_sync[m].first) {
		ph = add_phase1(prog, "fsync-first", FSLOAD_OP_FSYNC, NULL);
		ph->iterations = 1;
	}
	if (!p->keep)
		add_phase1(prog, "unlink", FSLOAD_OP_UNLINK, NULL);
	return 0;
}

/* null */

static int build_null(const struct params *p, uint32_t threads,
		      struct program *prog)
{
	(void)p;
	(void)threads;
	add_phase1(prog, "null", FSLOAD_OP_NULL, NULL);
	return 0;
}

/* metadata (mdtest) */

/* Directories in a tree of @branch, @depth levels below its root. */
static uint64_t tree_dirs(uint32_t branch, uint32_t depth)
{
	uint64_t n = 1, level = 1;

	while (depth-- && n <= FSLOAD_DIRS_MAX) {
		level *= branch;
		n += level;
	}
	return n;
}

static void fixup_metadata(struct params *p,
			   bool (*given)(const char *name, void *arg),
			   void *arg)
{
	bool fpd = given("files-per-dir", arg) || given("items-per-dir", arg);
	uint64_t dirs, items;

	if (p->tree_branch && p->tree_depth) {
		/*
		 * mdtest -b B -z Z: items spread over the tree's directories,
		 * or -I items in each of them; with -L over its B^Z leaves,
		 * the last directories, only.
		 */
		dirs = tree_dirs(p->tree_branch, p->tree_depth);
		if (dirs > FSLOAD_DIRS_MAX)
			return;		/* the kernel says why */
		if (p->leaf_only) {
			p->first_dir = (uint32_t)tree_dirs(p->tree_branch,
							   p->tree_depth - 1);
			dirs -= p->first_dir;
		}
		if (fpd && !given("files", arg) && !given("items", arg)) {
			p->files = dirs * p->files_per_dir;
			return;
		}
		items = p->files;
		/* a shared tree holds every thread's items (mdtest: each's) */
		if (p->shared_dir && p->threads && !strchr(p->threads, ',') &&
		    p->scheme != FSLOAD_NAMES_MDTEST)
			items *= strtoull(p->threads, NULL, 10) ?: 1;
		p->files_per_dir = (uint32_t)((items + dirs - 1) / dirs);
		return;
	}
	/* mdtest: all of a task's items in one directory by default */
	if (!fpd)
		one_directory(p);
}

/* mdtest's item phases, as --phases names them (mdtest -C -T -E -U -r) */
enum md_phase {
	MD_CREATE = 1 << 0,
	MD_STAT = 1 << 1,
	MD_READ = 1 << 2,
	MD_RENAME = 1 << 3,
	MD_REMOVE = 1 << 4,
};

static int md_phases(const char *list, unsigned int *set)
{
	static const char *const names[] = {
		"create", "stat", "read", "rename", "remove",
	};
	char buf[128], *tok, *save = NULL;
	unsigned int i;

	*set = MD_CREATE | MD_STAT | MD_READ | MD_RENAME | MD_REMOVE;
	if (!list)
		return 0;
	if (strlen(list) >= sizeof(buf))
		return usage_error("--phases: too long");
	snprintf(buf, sizeof(buf), "%s", list);
	*set = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strcmp(tok, names[i]))
				break;
		if (i == ARRAY_SIZE(names))
			return usage_error("--phases: '%s' is not create, stat, read, rename or remove",
					   tok);
		*set |= 1U << i;
	}
	if (!*set)
		return usage_error("--phases: at least one of create, stat, read, rename, remove");
	return 0;
}

static int build_metadata(const struct params *p, uint32_t threads,
			  struct program *prog)
{
	/*
	 * mdtest's phases, in its order; @shift: the phase's stride in
	 * units of -N (mdtest's mk, stat, read and rm names).
	 */
	static const struct {
		const char *name;
		uint8_t type;
		char prefix;		/* of the phase's names */
		unsigned int md;	/* enum md_phase */
		unsigned int shift;
		bool random;		/* mdtest -R shuffles it */
	} md[] = {
		{ "dir-create", FSLOAD_OP_MKDIR, 'x', MD_CREATE, 0, false },
		{ "dir-stat", FSLOAD_OP_STAT, 'x', MD_STAT, 1, true },
		{ "dir-rename", FSLOAD_OP_RENAME, 'x', MD_RENAME, 1, false },
		{ "dir-remove", FSLOAD_OP_RMDIR, 'x', MD_REMOVE, 3, false },
		{ "file-create", FSLOAD_OP_CREATE, 'f', MD_CREATE, 0, false },
		{ "file-stat", FSLOAD_OP_STAT, 'f', MD_STAT, 1, true },
		{ "file-read", FSLOAD_OP_READ, 'f', MD_READ, 2, true },
		{ "file-remove", FSLOAD_OP_UNLINK, 'f', MD_REMOVE, 3, false },
	};
	bool removes;
	struct prog_phase *ph;
	struct prog_op *op;
	unsigned int i, set;

	(void)threads;
	if (p->tree_depth && !p->tree_branch)
		return usage_error("--tree-depth: needs --tree-branch");
	if (p->leaf_only && !p->tree_branch)
		return usage_error("--leaf-only: needs --tree-branch and --tree-depth");
	/* mdtest: "-k not compatible with -w" (and -y has nothing to sync) */
	if (p->mknod && (p->size || p->fsync || p->direct))
		return usage_error("--mknod: makes empty files, not with --size, --fsync or --direct");
	if (tree_dirs(p->tree_branch, p->tree_depth) > FSLOAD_DIRS_MAX)
		return usage_error("--tree-branch %u --tree-depth %u: more than %d directories",
				   p->tree_branch, p->tree_depth,
				   FSLOAD_DIRS_MAX);
	if (md_phases(p->phases, &set))
		return EXIT_USAGE;
	removes = (set & MD_REMOVE) && !p->keep;
	if (p->shared_dir)
		prog->job_flags |= FSLOAD_JOB_F_SHARED_DIR;
	/* mdtest's tree creation: timed, as it is */
	ph = add_phase1(prog, "tree-create", FSLOAD_OP_MKDIR, NULL);
	ph->flags |= FSLOAD_PHASE_F_DIRS;
	for (i = 0; i < ARRAY_SIZE(md); i++) {
		if (!(set & md[i].md) ||
		    (md[i].md == MD_REMOVE && !removes) ||
		    /* as mdtest, no rename of a single item */
		    (md[i].md == MD_RENAME && p->files < 2))
			continue;
		ph = add_phase1(prog, md[i].name, md[i].type, &op);
		ph->prefix = md[i].prefix;
		ph->stride = md[i].shift * p->stride;
		if (md[i].random && p->random)
			ph->order = RND;
		if (p->phase_sync)
			ph->flags |= FSLOAD_PHASE_F_TIMED_SYNC;
		op->block = p->block;
		if (md[i].type == FSLOAD_OP_CREATE && p->mknod) {
			op->flags = FSLOAD_OP_F_MKNOD;
		} else if (md[i].type == FSLOAD_OP_CREATE) {
			op->size = p->size;
			op->flags = write_flags(p) | FSLOAD_OP_F_RDWR;
		} else if (md[i].type == FSLOAD_OP_READ) {
			/*
			 * mdtest -e: one read of that many bytes, one block
			 * (start refuses more than the largest block)
			 */
			op->size = p->read_bytes;
			op->flags = FSLOAD_OP_F_SIZED;
			if (p->read_bytes)
				op->block = (uint32_t)p->read_bytes;
		} else if (md[i].type == FSLOAD_OP_RENAME) {
			op->flags = FSLOAD_OP_F_ROTATE;
		}
		/* as mdtest's -W, not on a rotation: it would lose its item */
		if (p->stonewall > 0 && md[i].type != FSLOAD_OP_RENAME) {
			/* later phases meet the items a stonewall left out */
			ph->duration_ms = (uint32_t)(p->stonewall * 1000 + 0.5);
			ph->flags |= FSLOAD_PHASE_F_CONTINUE;
		}
	}
	if (removes) {
		ph = add_phase1(prog, "tree-remove", FSLOAD_OP_RMDIR, NULL);
		ph->flags |= FSLOAD_PHASE_F_DIRS;
		/* a stonewalled phase may have left items in them */
		if (p->stonewall > 0)
			ph->flags |= FSLOAD_PHASE_F_CONTINUE;
	}
	return 0;
}

/* largefile (ffsb large file create, dd) */

static int build_largefile(const struct params *p, uint32_t threads,
			   struct program *prog)
{
	struct prog_op *op;

	(void)threads;
	add_phase1(prog, "write", FSLOAD_OP_CREATE, &op);
	op->size = p->size;
	op->block = p->block;
	op->flags = write_flags(p) |
		    (p->fallocate ? FSLOAD_OP_F_FALLOCATE : 0);
	add_phase1(prog, "read", FSLOAD_OP_READ, &op);
	op->block = p->block;
	op->flags = p->direct ? FSLOAD_OP_F_DIRECT : 0;
	/*
	 * No unlink phase: fsloadctl counts the files' extents after the
	 * job and then removes them itself (unless --keep).
	 */
	return 0;
}

/* randrw (ffsb random readwrite) */

/* Preallocation block: the I/O block doubled while it divides the size. */
static uint32_t prealloc_block(const struct params *p)
{
	uint32_t b = p->block ? p->block : 4096;

	while (b <= (1U << 19) && p->size % ((uint64_t)b * 2) == 0)
		b *= 2;
	return b;
}

static int build_randrw(const struct params *p, uint32_t threads,
			struct program *prog)
{
	struct prog_phase *ph;
	struct prog_op *op;

	if (!p->read_weight && !p->write_weight)
		return usage_error("randrw: --read-weight and --write-weight are both 0");
	if (p->size < p->block)
		return usage_error("randrw: --size (the file size) is smaller than --block");
	add_phase1(prog, "prealloc", FSLOAD_OP_CREATE, &op);
	op->size = p->size;
	op->block = prealloc_block(p);
	op->flags = p->direct ? FSLOAD_OP_F_DIRECT : 0;
	ph = add_phase(prog, "rw");
	ph->order = RND;
	if (p->read_weight) {
		op = phase_add_op(ph, FSLOAD_OP_READ_RANDOM, p->read_weight);
		op->size = p->size;
		op->block = p->block;
		op->flags = p->direct ? FSLOAD_OP_F_DIRECT : 0;
	}
	if (p->write_weight) {
		op = phase_add_op(ph, FSLOAD_OP_WRITE_RANDOM, p->write_weight);
		op->size = p->size;
		op->block = p->block;
		op->flags = write_flags(p);
	}
	if (p->time > 0) {
		ph->duration_ms = (uint32_t)(p->time * 1000 + 0.5);
		ph->iterations = p->ops ? p->ops :
				 program_unbounded_iterations(prog, threads);
	} else {
		ph->iterations = p->ops ? p->ops : 10000;
	}
	if (!p->keep)
		add_phase1(prog, "unlink", FSLOAD_OP_UNLINK, NULL);
	return 0;
}

/* age (ffsb agefs) */

int profile_build_age(const struct params *p, uint32_t threads,
		      struct program *prog)
{
	struct prog_phase *ph;
	struct prog_op *op;

	if (!prog->profile[0])
		snprintf(prog->profile, sizeof(prog->profile), "age");
	ph = add_phase(prog, "age");
	ph->order = RND;
	/* its misses: names picked at random, and a full filesystem */
	ph->flags = FSLOAD_PHASE_F_CONTINUE | FSLOAD_PHASE_F_FILL;
	op = phase_add_op(ph, FSLOAD_OP_CREATE, 10);
	op->size = p->size;
	op->block = p->block;
	op = phase_add_op(ph, FSLOAD_OP_APPEND, 10);
	op->size = p->size;
	op->block = p->block;
	phase_add_op(ph, FSLOAD_OP_UNLINK, 1);
	/* fsloadctl stops the job when the filesystem is full enough */
	ph->iterations = program_unbounded_iterations(prog, threads);
	return 0;
}

static int build_age(const struct params *p, uint32_t threads,
		     struct program *prog)
{
	return profile_build_age(p, threads, prog);
}

/* mix (ffsb mixed workload) */

static int build_mix(const struct params *p, uint32_t threads,
		     struct program *prog)
{
	struct prog_phase *ph;
	struct prog_op *op;

	if (p->size < p->block)
		return usage_error("mix: --size (the file size) is smaller than --block");
	add_phase1(prog, "populate", FSLOAD_OP_CREATE, &op);
	op->size = p->size;
	op->block = p->block;
	op->flags = write_flags(p);
	ph = add_phase(prog, "mix");
	ph->order = RND;
	ph->flags = FSLOAD_PHASE_F_CONTINUE;
	op = phase_add_op(ph, FSLOAD_OP_READ, 4);
	op->block = p->block;
	phase_add_op(ph, FSLOAD_OP_STAT, 4);
	op = phase_add_op(ph, FSLOAD_OP_APPEND, 2);
	op->size = p->block;
	op->block = p->block;
	op->flags = write_flags(p);
	op = phase_add_op(ph, FSLOAD_OP_WRITE_RANDOM, 2);
	op->size = p->size;
	op->block = p->block;
	op->flags = write_flags(p);
	op = phase_add_op(ph, FSLOAD_OP_CREATE, 1);
	op->size = p->size;
	op->block = p->block;
	op->flags = write_flags(p);
	phase_add_op(ph, FSLOAD_OP_UNLINK, 1);
	phase_add_op(ph, FSLOAD_OP_FSYNC, 1);
	if (p->time > 0) {
		ph->duration_ms = (uint32_t)(p->time * 1000 + 0.5);
		ph->iterations = p->ops ? p->ops :
				 program_unbounded_iterations(prog, threads);
	} else {
		ph->iterations = p->ops ? p->ops : 10000;
	}
	if (!p->keep) {
		ph = add_phase1(prog, "cleanup", FSLOAD_OP_UNLINK, NULL);
		ph->flags = FSLOAD_PHASE_F_CONTINUE;	/* the mix unlinked some */
	}
	return 0;
}

/* untar (a Linux source tree copied, read, removed) */

/* untar, age: files per thread derived (from --scale, from statfs) */
static void fixup_derived_files(struct params *p,
				bool (*given)(const char *name, void *arg),
				void *arg)
{
	if (!given("files", arg) && !given("items", arg))
		p->files = 0;
}

uint64_t untar_files(const struct params *p, uint32_t threads)
{
	double total = UNTAR_FILES * p->scale;
	uint64_t n;

	if (p->files)
		return p->files;
	n = (uint64_t)ceil(total / (threads ? threads : 1));
	return n ? n : 1;
}

static int build_untar(const struct params *p, uint32_t threads,
		       struct program *prog)
{
	struct prog_phase *ph;
	struct prog_op *op;
	unsigned int i;

	if (!(p->scale > 0))
		return usage_error("untar: --scale must be more than 0");
	prog->files = untar_files(p, threads);
	ph = add_phase(prog, "create");
	for (i = 0; i < ARRAY_SIZE(untar_sizes); i++) {
		op = phase_add_op(ph, FSLOAD_OP_CREATE, untar_sizes[i].weight);
		op->size = untar_sizes[i].size;
		op->block = p->block;
		op->flags = p->fsync ? FSLOAD_OP_F_FSYNC : 0;
	}
	/*
	 * --sync-between: the job holds before reading and before removing
	 * while fsloadctl runs "sync; echo 3 > /proc/sys/vm/drop_caches", so
	 * that each phase starts cold (page cache, dentries, inodes).
	 */
	ph = add_phase1(prog, "read", FSLOAD_OP_READ, &op);
	op->block = p->block;
	if (p->sync_between)
		ph->flags |= FSLOAD_PHASE_F_HOLD;
	if (!p->keep) {
		ph = add_phase1(prog, "unlink", FSLOAD_OP_UNLINK, NULL);
		if (p->sync_between)
			ph->flags |= FSLOAD_PHASE_F_HOLD;
	}
	return 0;
}

/* block (dd to the raw device) */

static int build_block(const struct params *p, uint32_t threads,
		       struct program *prog)
{
	static const struct {
		const char *name;
		uint8_t type;
		bool random;
	} modes[] = {
		{ "write", FSLOAD_OP_BIO_WRITE, false },
		{ "read", FSLOAD_OP_BIO_READ, false },
		{ "randwrite", FSLOAD_OP_BIO_WRITE, true },
		{ "randread", FSLOAD_OP_BIO_READ, true },
	};
	const char *rw = p->rw ? p->rw : "write";
	uint64_t region = p->size ? p->size : p->device_bytes;
	struct prog_phase *ph;
	struct prog_op *op;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(modes); i++)
		if (!strcmp(rw, modes[i].name))
			break;
	if (i == ARRAY_SIZE(modes))
		return usage_error("--rw: '%s' is not read, write, randread or randwrite",
				   rw);
	if (!p->device)
		return usage_error("block: --device is required");
	if (!p->block || p->block % 512)
		return usage_error("block: --block must be a multiple of 512 bytes");
	if (!p->depth || p->depth > FSLOAD_BIO_DEPTH_MAX)
		return usage_error("block: --depth must be 1 to %d",
				   FSLOAD_BIO_DEPTH_MAX);
	prog->block = true;
	/* one job, one block's worth of files: names are not used */
	prog->files = 1;
	ph = add_phase1(prog, modes[i].name, modes[i].type, &op);
	op->block = p->block;
	op->depth = p->depth;
	op->flags = modes[i].random ? FSLOAD_OP_F_RANDOM : 0;
	/* --size: the region of the device; 0: all of it */
	op->size = p->size;
	/* by default each thread moves its share of the region once */
	if (p->ops)
		ph->iterations = p->ops;
	else
		ph->iterations = region / p->block / (threads ? threads : 1);
	if (!ph->iterations)
		return usage_error("block: the region (--size, or the device's %llu bytes) holds less than one --block per thread",
				   (unsigned long long)p->device_bytes);
	if (p->time > 0) {
		ph->duration_ms = (uint32_t)(p->time * 1000 + 0.5);
		if (!p->ops)
			ph->iterations = program_unbounded_iterations(prog,
								      threads);
	}
	return 0;
}

static const struct profile profiles[] = {
	{
		.name = "smallfiles",
		.desc = "small files: create, stat, read, unlink (--keep: no unlink); fs_mark's own semantics: --profile fsmark",
		.tool = "fs_mark-like, in fsload's layout (1000 files a directory, O_EXCL create, pwrite)",
		.defaults = "",
		.options = "--sync none|fsync|batch|final, --files-per-round N, --fsync, --direct, --threads LIST",
		.phases = "create (batch: create-K, fsync-K per round; final: sync), stat, read, unlink",
		.build = build_smallfiles,
		.metric = { "files/s", "files_per_sec", FSLOAD_OP_CREATE, false,
			    { "create", "fsync", "sync" } },
	},
	{
		.name = "fsmark",
		.desc = "fs_mark itself: its names, one directory, creat(O_TRUNC) + write() [+ fsync], its -S sync modes, unlink",
		.tool = "fs_mark -d DIR -n FILES -s SIZE -w BLOCK -S 0|1|2|5|6 [-D DIRS -N FILES-PER-DIR] [-p BYTES -r RANDOM] [-t THREADS] [-k]",
		.defaults = "--files 1000 --size 51200 --block 16384 --names fsmark",
		.options = "--sync 0-6 (fs_mark -S; default 1; 3 and 4 are not supported), --files-per-dir N (fs_mark -D/-N; default: one directory), --name-bytes N, --name-random-bytes N, --shared-dir (-t N with one -d), --keep",
		.phases = "create (fsync per file with --sync 1), sync (2, 6), fsync (5, 6), fsync-first (2), unlink",
		.build = build_fsmark,
		.fixup = fixup_fsmark,
		.metric = { "files/s", "files_per_sec", FSLOAD_OP_CREATE, false,
			    { "create", "sync", "fsync" } },
	},
	{
		.name = "metadata",
		.desc = "mdtest: directory create/stat/rename/remove, file create/stat/read/remove",
		.tool = "mdtest -n ITEMS -u|(shared) -I ITEMS-PER-DIR -b BRANCH -z DEPTH -w SIZE -e BYTES -W STONEWALL -i ITERATIONS -U [-R] [-Y] [-N STRIDE] [-y] [-L] [-k]",
		.defaults = "--files 1000 --size 0 --names mdtest",
		.options = "--items N, --items-per-dir N (default: items), --tree-branch B --tree-depth Z, --shared-dir, --stonewall SEC, --iterations N, --size BYTES, --read-bytes BYTES, --random, --phases LIST, --phase-sync, --stride N, --fsync, --leaf-only, --mknod",
		.phases = "tree-create, dir-create, dir-stat, dir-rename, dir-remove, file-create, file-stat, file-read, file-remove, tree-remove",
		.build = build_metadata,
		.fixup = fixup_metadata,
		.metric = { "creates/s", "file_creates_per_sec",
			    FSLOAD_OP_CREATE, false, { "file-create" } },
	},
	{
		.name = "largefile",
		.desc = "ffsb large file create, dd: write files, read them back, count extents",
		.tool = "dd if=/dev/zero of=FILE bs=512K count=2048 [oflag=direct] [conv=fsync]",
		.defaults = "--files 1 --size 1G --block 512K",
		.options = "--direct, --fallocate, --fsync (before close)",
		.phases = "write, read (files removed by fsloadctl after counting extents)",
		.flags = PF_EXTENTS,
		.build = build_largefile,
		.metric = { "write_MiB/s", "write_mib_per_sec",
			    FSLOAD_OP_CREATE, true, { "write" } },
	},
	{
		.name = "randrw",
		.desc = "ffsb random readwrite: preallocated files, random block reads and writes",
		.tool = "ffsb: random_read + random_write on a preallocated file set",
		.defaults = "--files 4 --size 64M --block 4K",
		.options = "--read-weight R, --write-weight W (1/1), --ops N (10000) or --time SEC, --direct, --fsync",
		.phases = "prealloc, rw, unlink",
		.build = build_randrw,
		.metric = { "transactions/s", "transactions_per_sec", 0, false,
			    { "rw" } },
	},
	{
		.name = "age",
		.desc = "ffsb agefs: fill the filesystem to --age PCT with create/append/unlink 10/10/1",
		.tool = "ffsb agefs (desired_util)",
		.defaults = "--size 40K --block 4K --age 50",
		.options = "--age PCT (also before any other profile), --keep to leave the aged files",
		.phases = "age (stopped by fsloadctl at the target)",
		.flags = PF_AGE,
		.build = build_age,
		.fixup = fixup_derived_files,
		.metric = { "ops/s", "ops_per_sec", 0, false, { "age" } },
	},
	{
		.name = "mix",
		.desc = "ffsb-style mix: read/stat/append/write/create/unlink/fsync 4/4/2/2/1/1/1 on a file set",
		.tool = "ffsb mixed workload (readall, stat, append, write, create, delete)",
		.defaults = "--files 1000 --size 64K --block 4K",
		.options = "--ops N (10000) or --time SEC, --fsync, --direct",
		.phases = "populate, mix, cleanup",
		.build = build_mix,
		.metric = { "ops/s", "ops_per_sec", 0, false, { "mix" } },
	},
	{
		.name = "untar",
		.desc = "a Linux source tree: create 24000 files of its size distribution, read, remove",
		.tool = "tar -xf linux.tar; find linux -type f -exec cat {} + >/dev/null; rm -rf linux",
		.defaults = "--files-per-dir 15 --block 10K",
		.options = "--scale F (files = 24000 x F), --sync-between (sync; echo 3 > drop_caches before read and unlink), --fsync",
		.phases = "create, read, unlink",
		.build = build_untar,
		.fixup = fixup_derived_files,
		.metric = { "files/s", "files_per_sec", FSLOAD_OP_CREATE, false,
			    { "create" } },
	},
	{
		.name = "block",
		.desc = "dd to the raw device: sequential or random bio reads or writes, with a queue depth",
		.tool = "dd if=/dev/zero of=DEV bs=512K oflag=direct; fio --filename=DEV --rw=randread --iodepth=N",
		.defaults = "--block 512K --size 0 --depth 1",
		.options = "--device DEV (required), --rw write|read|randwrite|randread, --block BYTES (--bs), --depth N (1-128), --size BYTES (region; default the whole device), --ops N or --time SEC, --force",
		.phases = "write, read, randwrite or randread",
		.flags = PF_BLOCK,
		.build = build_block,
		.metric = { "MiB/s", "mib_per_sec", 0, true, { NULL } },
	},
	{
		.name = "null",
		.desc = "no-op operations: the engine's own per-op cost",
		.tool = "(none)",
		.defaults = "",
		.options = "",
		.phases = "null",
		.build = build_null,
		.metric = { "ops/s", "ops_per_sec", 0, false, { "null" } },
	},
};

const struct profile *profile_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const char *profile_name(const struct profile *pf)
{
	return pf->name;
}

const char *profile_defaults(const struct profile *pf)
{
	return pf->defaults;
}

unsigned int profile_flags(const struct profile *pf)
{
	return pf->flags;
}

void profile_fixup(const struct profile *pf, struct params *p,
		   bool (*given)(const char *name, void *arg), void *arg)
{
	if (pf->fixup)
		pf->fixup(p, given, arg);
}

int profile_build(const struct profile *pf, const struct params *p,
		  uint32_t threads, struct program *prog)
{
	int ret;

	memset(prog, 0, sizeof(*prog));
	snprintf(prog->profile, sizeof(prog->profile), "%s", pf->name);
	/* every builder stays within FSLOAD_PHASES_MAX (batch checks) */
	ret = pf->build(p, threads, prog);
	return ret;
}

void profile_list(FILE *f, const char *sep)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		fprintf(f, "%s%s", i ? sep : "", profiles[i].name);
}

void profile_help(FILE *f)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(profiles); i++)
		fprintf(f, "  %-24s %s\n", profiles[i].name, profiles[i].desc);
	fprintf(f, "  %-24s %s\n", "(start --job FILE)",
		"an INI job file: [global] and [phase NAME] sections");
}

void profile_help_long(FILE *f)
{
	unsigned int i;

	fprintf(f, "\nprofiles (--profile NAME): each is a preset of the options above;\n"
		"options given on the command line override its defaults\n");
	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		const struct profile *pf = &profiles[i];

		fprintf(f, "  %s: %s\n", pf->name, pf->desc);
		fprintf(f, "      like:     %s\n", pf->tool);
		fprintf(f, "      phases:   %s\n", pf->phases);
		if (pf->defaults[0])
			fprintf(f, "      defaults: %s\n", pf->defaults);
		if (pf->options[0])
			fprintf(f, "      options:  %s\n", pf->options);
	}
	fprintf(f, "\njob files (--job FILE): see ctl/jobs/*.ini and the README;\n"
		"--dir, --threads, --files, --files-per-dir, --seed, --shared-dir and\n"
		"--keep override the file's [global] section\n");
}

const struct metric_spec *profile_metric_spec(const struct profile *pf)
{
	return &pf->metric;
}
