/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload: what a program's phases and ops may be, written once for the
 * module's start request parser (module/program.c) and the user engine
 * (ctl/engine/uprogram.c).  Each check takes the phase or op as the
 * request gives it (its defaults filled in) and the attributes the request
 * has, and refuses with the offending attribute of the spec's set and a
 * message that names it: the module puts both in the extack, fsloadctl
 * prints the message with the job file's key or option.
 *
 * The checks also hold what the family's policies hold for the module
 * (ranges, enums, flag masks: the spec's limits), for the user engine,
 * which has no policy in front of it.
 *
 * Userspace includes ctl/lib/kshim.h first, then engine.h.
 */
#ifndef _FSLOAD_PROGRAM_H
#define _FSLOAD_PROGRAM_H

#ifdef __KERNEL__
#include <linux/overflow.h>
#include <linux/stringify.h>
#include <fsload/engine.h>
#endif

/**
 * struct fsload_refusal - why a program is refused, and where
 * @attr: the offending attribute of the set checked (FSLOAD_A_OP_* for
 *	an op, FSLOAD_A_PHASE_* for a phase); 0: the nest as a whole
 * @missing: @attr is required and absent
 * @err: a negative errno
 * @msg: "attribute: why", a static string
 */
struct fsload_refusal {
	u16 attr;
	bool missing;
	int err;
	const char *msg;
};

/**
 * struct fsload_job_shape - what the checks of a program need of its job
 * @files: files per thread, a phase's default iterations
 * @max_file_bytes: the largest size_bytes (module parameter max_file_bytes)
 * @max_block_bytes: the largest block_bytes (module parameter
 *	max_block_bytes, FSLOAD_BLOCK_DEFAULT_MAX unless raised)
 * @threads: the job's threads
 * @flags: the job's flags (enum fsload_job_flags)
 * @ngroups: its thread groups (1: all the threads)
 * @block: a block job (a device, not a dir)
 */
struct fsload_job_shape {
	u64 files;
	u64 max_file_bytes;
	u32 max_block_bytes;
	u32 threads;
	u32 flags;
	unsigned int ngroups;
	bool block;
};

/* The attributes of a nest that a request has, as BIT(attribute). */
#define FSLOAD_HAS(has, attr)	(((has) >> (attr)) & 1)

static inline int fsload_refuse(struct fsload_refusal *r, u16 attr, int err,
				const char *msg)
{
	r->attr = attr;
	r->missing = false;
	r->err = err;
	r->msg = msg;
	return err;
}

static inline int fsload_refuse_missing(struct fsload_refusal *r, u16 attr,
					const char *msg)
{
	fsload_refuse(r, attr, -EINVAL, msg);
	r->missing = true;
	return -EINVAL;
}

/* A name's first letter: 'd' and 't' name the job's directories. */
static inline bool fsload_prefix_ok(u8 prefix)
{
	return prefix >= 'a' && prefix <= 'z' && prefix != 'd' &&
	       prefix != 't';
}

#define FSLOAD_PREFIX_MSG \
	"prefix: 'a'..'z' except 'd' and 't' (they name directories)"

/* What the policy holds of an op's attributes, alone. */
static inline int fsload_check_op_ranges(const struct fsload_opdesc *od,
					 u32 has, struct fsload_refusal *r)
{
	if (!FSLOAD_HAS(has, FSLOAD_A_OP_TYPE))
		return fsload_refuse_missing(r, FSLOAD_A_OP_TYPE,
					     "op: type is required");
	if (!od->type || od->type > FSLOAD_OP_MAX)
		return fsload_refuse(r, FSLOAD_A_OP_TYPE, -EINVAL,
				     "type: unknown op type");
	if (od->weight < 1 || od->weight > FSLOAD_WEIGHT_MAX)
		return fsload_refuse(r, FSLOAD_A_OP_WEIGHT, -ERANGE,
				     "weight: 1 to " __stringify(FSLOAD_WEIGHT_MAX));
	if (od->block < 1 || od->block > FSLOAD_BLOCK_MAX)
		return fsload_refuse(r, FSLOAD_A_OP_BLOCK_BYTES, -ERANGE,
				     "block_bytes: 1 to " __stringify(FSLOAD_BLOCK_MAX) " bytes");
	if (od->flags & ~FSLOAD_OP_F_MASK)
		return fsload_refuse(r, FSLOAD_A_OP_FLAGS, -EINVAL,
				     "flags: unknown op flags");
	if (od->depth < 1 || od->depth > FSLOAD_BIO_DEPTH_MAX)
		return fsload_refuse(r, FSLOAD_A_OP_DEPTH, -ERANGE,
				     "depth: 1 to " __stringify(FSLOAD_BIO_DEPTH_MAX));
	return 0;
}

/* Where an op may run: its job's kind, its group. */
static inline int fsload_check_op_place(const struct fsload_job_shape *js,
					const struct fsload_opdesc *od,
					u32 has, struct fsload_refusal *r)
{
	u8 params = fsload_op_type(od->type)->params;

	if (od->group != FSLOAD_GROUP_ALL && od->group >= js->ngroups)
		return fsload_refuse(r, FSLOAD_A_OP_GROUP, -EINVAL,
				     "group: no such group (GROUP nests, from 0)");
	if (params & FSLOAD_OPP_BIO) {
		if (!js->block)
			return fsload_refuse(r, FSLOAD_A_OP_TYPE, -EINVAL,
					     "type: bio ops need a device (a block job), not a dir");
		/* The region is checked against the device once it is open. */
		if (od->block > FSLOAD_BIO_BLOCK_MAX || od->block % 512)
			return fsload_refuse(r, FSLOAD_A_OP_BLOCK_BYTES, -EINVAL,
					     "block_bytes: a bio's block is a multiple of 512 bytes, at most "
					     __stringify(FSLOAD_BIO_BLOCK_MAX) " bytes");
	} else if (js->block && !(params & FSLOAD_OPP_ANY)) {
		return fsload_refuse(r, FSLOAD_A_OP_TYPE, -EINVAL,
				     "type: a block job (device) runs bio ops and null only");
	} else if (FSLOAD_HAS(has, FSLOAD_A_OP_DEPTH)) {
		return fsload_refuse(r, FSLOAD_A_OP_DEPTH, -EINVAL,
				     "depth: applies to bio ops only");
	} else if (od->size > js->max_file_bytes) {
		return fsload_refuse(r, FSLOAD_A_OP_SIZE_BYTES, -ERANGE,
				     "size_bytes: larger than the module parameter max_file_bytes");
	}
	if (od->block > js->max_block_bytes)
		return fsload_refuse(r, FSLOAD_A_OP_BLOCK_BYTES, -ERANGE,
				     "block_bytes: larger than max_block_bytes (the module parameter; default "
				     __stringify(FSLOAD_BLOCK_DEFAULT_MAX) ")");
	return 0;
}

/* A rename's new first letter (prefix), or a rotation's none. */
static inline int fsload_check_op_prefix(const struct fsload_opdesc *od,
					 u32 has, struct fsload_refusal *r)
{
	bool has_prefix = FSLOAD_HAS(has, FSLOAD_A_OP_PREFIX);

	if (od->type != FSLOAD_OP_RENAME) {
		if (has_prefix)
			return fsload_refuse(r, FSLOAD_A_OP_PREFIX, -EINVAL,
					     "prefix: applies to rename only");
	} else if (od->flags & FSLOAD_OP_F_ROTATE) {
		if (has_prefix)
			return fsload_refuse(r, FSLOAD_A_OP_PREFIX, -EINVAL,
					     "prefix: a rotating rename keeps the items' names");
	} else if (!has_prefix) {
		return fsload_refuse_missing(r, FSLOAD_A_OP_PREFIX,
					     "prefix: required by rename");
	} else if (!fsload_prefix_ok(od->prefix)) {
		return fsload_refuse(r, FSLOAD_A_OP_PREFIX, -EINVAL,
				     FSLOAD_PREFIX_MSG);
	}
	return 0;
}

/* What the op type takes: its flags, its size and block. */
static inline int fsload_check_op_params(const struct fsload_opdesc *od,
					 struct fsload_refusal *r)
{
	const struct fsload_op_type *t = fsload_op_type(od->type);

	if (od->size && !(t->params & FSLOAD_OPP_SIZE))
		return fsload_refuse(r, FSLOAD_A_OP_SIZE_BYTES, -EINVAL,
				     "size_bytes: not a parameter of this op type");
	if (od->flags & ~t->flags)
		return fsload_refuse(r, FSLOAD_A_OP_FLAGS, -EINVAL,
				     "flags: not valid for this op type");
	if ((od->flags & FSLOAD_OP_F_RDWR) && (od->flags & FSLOAD_OP_F_TRUNC))
		return fsload_refuse(r, FSLOAD_A_OP_FLAGS, -EINVAL,
				     "flags: rdwr (mdtest's open) and trunc (fs_mark's) exclude each other");
	if ((od->flags & FSLOAD_OP_F_MKNOD) && od->flags != FSLOAD_OP_F_MKNOD)
		return fsload_refuse(r, FSLOAD_A_OP_FLAGS, -EINVAL,
				     FSLOAD_MKNOD_ALONE);
	if ((od->flags & FSLOAD_OP_F_MKNOD) && od->size)
		return fsload_refuse(r, FSLOAD_A_OP_SIZE_BYTES, -EINVAL,
				     FSLOAD_MKNOD_NO_DATA);
	if (od->type == FSLOAD_OP_READ && od->size &&
	    !(od->flags & FSLOAD_OP_F_SIZED))
		return fsload_refuse(r, FSLOAD_A_OP_SIZE_BYTES, -EINVAL,
				     "size_bytes: a read takes it with the sized flag only");
	if ((t->params & FSLOAD_OPP_FILE_SIZE) && od->size < od->block)
		return fsload_refuse(r, 0, -EINVAL,
				     "size_bytes: the file size, at least one block, is required");
	if ((t->params & FSLOAD_OPP_NEED_SIZE) && !od->size)
		return fsload_refuse_missing(r, FSLOAD_A_OP_SIZE_BYTES,
					     "size_bytes: required by this op type");
	if ((od->flags & FSLOAD_OP_F_DIRECT) &&
	    (od->block % 512 || od->size % od->block))
		return fsload_refuse(r, 0, -EINVAL,
				     "flags: direct I/O needs 512-byte multiples and whole blocks");
	return 0;
}

/**
 * fsload_check_op() - check an op of a phase of @js's job
 * @js: the job
 * @ph: its phase, the phase's own attributes checked
 *	(fsload_check_phase())
 * @od: the op, as the request gives it, its defaults filled in (weight 1,
 *	block 4096, depth 1, group FSLOAD_GROUP_ALL)
 * @has: the attributes the request's op nest has, BIT(FSLOAD_A_OP_*)
 * @r: filled in with the refusal
 *
 * Return: 0, or a negative errno with @r saying which attribute of the op
 * and why (attribute 0: the op nest).
 */
static inline int fsload_check_op(const struct fsload_job_shape *js,
				  const struct fsload_phase *ph,
				  const struct fsload_opdesc *od, u32 has,
				  struct fsload_refusal *r)
{
	u64 op_bytes, bytes;
	int err;

	err = fsload_check_op_ranges(od, has, r);
	if (!err)
		err = fsload_check_op_place(js, od, has, r);
	if (!err)
		err = fsload_check_op_prefix(od, has, r);
	if (!err)
		err = fsload_check_op_params(od, r);
	if (err)
		return err;
	/*
	 * Bytes one op moves: a random or bio op's one block, not its
	 * size_bytes (the file's size, the device region).
	 */
	op_bytes = fsload_op_type(od->type)->params &
		   (FSLOAD_OPP_FILE_SIZE | FSLOAD_OPP_BIO) ? od->block : od->size;
	if (check_mul_overflow(op_bytes, ph->iterations * js->threads, &bytes))
		return fsload_refuse(r, 0, -EOVERFLOW,
				     "op: bytes per op x iterations x threads overflows");
	return 0;
}

/**
 * fsload_check_phase() - check a phase's own attributes, before its ops
 * @js: its job
 * @ph: the phase as the request gives it, its defaults filled in (order
 *	sequential, prefix 'f', iterations @js->files)
 * @has: the attributes the request's phase nest has, BIT(FSLOAD_A_PHASE_*)
 * @nops: the ops it has
 * @r: filled in with the refusal
 *
 * Return: 0, or a negative errno with @r saying which attribute of the
 * phase and why (attribute 0: the phase nest).
 */
static inline int fsload_check_phase(const struct fsload_job_shape *js,
				     const struct fsload_phase *ph, u32 has,
				     unsigned int nops,
				     struct fsload_refusal *r)
{
	u64 total;

	if (!FSLOAD_HAS(has, FSLOAD_A_PHASE_NAME))
		return fsload_refuse_missing(r, FSLOAD_A_PHASE_NAME,
					     "phase: name is required");
	if (ph->order != FSLOAD_ORDER_SEQUENTIAL &&
	    ph->order != FSLOAD_ORDER_RANDOM)
		return fsload_refuse(r, FSLOAD_A_PHASE_ORDER, -EINVAL,
				     "order: sequential or random");
	if (!fsload_prefix_ok(ph->prefix))
		return fsload_refuse(r, FSLOAD_A_PHASE_PREFIX, -EINVAL,
				     FSLOAD_PREFIX_MSG);
	if (ph->flags & ~FSLOAD_PHASE_F_MASK)
		return fsload_refuse(r, FSLOAD_A_PHASE_FLAGS, -EINVAL,
				     "phase flags: unknown flags");
	/* Nobody would be there to resume it. */
	if ((ph->flags & FSLOAD_PHASE_F_HOLD) &&
	    (js->flags & FSLOAD_JOB_F_DETACH))
		return fsload_refuse(r, FSLOAD_A_PHASE_FLAGS, -EINVAL,
				     "phase flags: hold needs the job's owner, not detach");
	if (!ph->iterations)
		return fsload_refuse(r, FSLOAD_A_PHASE_ITERATIONS, -EINVAL,
				     "phase: iterations must be at least 1");
	if (check_mul_overflow(ph->iterations, (u64)js->threads, &total))
		return fsload_refuse(r, FSLOAD_A_PHASE_ITERATIONS, -EOVERFLOW,
				     "phase: iterations x threads overflows");
	if (!nops)
		return fsload_refuse_missing(r, FSLOAD_A_PHASE_OP,
					     "phase: at least one op is required");
	if (nops > FSLOAD_PHASE_OPS_MAX)
		return fsload_refuse(r, FSLOAD_A_PHASE_OP, -E2BIG,
				     "op: more than "
				     __stringify(FSLOAD_PHASE_OPS_MAX) " in a phase");
	return 0;
}

/**
 * fsload_check_phase_ops() - check a phase's ops together
 * @ph: the phase, its ops checked one by one (fsload_check_op())
 * @r: filled in with the refusal
 *
 * Return: 0, or a negative errno with @r saying why (attribute of the
 * phase set; 0: the phase nest).
 */
static inline int fsload_check_phase_ops(const struct fsload_phase *ph,
					 struct fsload_refusal *r)
{
	if (!fsload_phase_rotate_ok(ph))
		return fsload_refuse(r, 0, -EINVAL,
				     "op flags: rotate is the only op of a sequential phase");
	if (!fsload_phase_dirs_ok(ph))
		return fsload_refuse(r, FSLOAD_A_PHASE_FLAGS, -EINVAL,
				     "phase flags: dirs takes only mkdir, rmdir and stat ops, one of each");
	return 0;
}

/**
 * struct fsload_tree_shape - a job's file set and its directory tree
 * @files: files per thread
 * @files_per_dir: files per directory
 * @threads: the run's threads (fsload_run_threads(): every rank's)
 * @branch: the tree's branching factor; 0: flat
 * @first_dir: the first directory that holds files
 * @flags: the job's flags (enum fsload_job_flags)
 * @scheme: its names (enum fsload_names)
 * @block: a block job (a device, not a dir)
 */
struct fsload_tree_shape {
	u64 files;
	u32 files_per_dir;
	u32 threads;
	u32 branch;
	u32 first_dir;
	u32 flags;
	u8 scheme;
	bool block;
};

/**
 * fsload_check_tree() - check a job's file set and directory tree
 * @t: the job's, its defaults filled in
 * @r: filled in with the refusal
 *
 * Return: 0, or a negative errno with @r saying which attribute of the
 * job set (FSLOAD_A_JOB_*) and why.
 */
static inline int fsload_check_tree(const struct fsload_tree_shape *t,
				    struct fsload_refusal *r)
{
	u64 tree_files = t->files, dirs;

	if (!t->files || t->files > FSLOAD_FILES_MAX)
		return fsload_refuse(r, FSLOAD_A_JOB_FILES, -ERANGE,
				     "files: must be 1 to "
				     __stringify(FSLOAD_FILES_MAX) " per thread");
	if (!t->files_per_dir || t->files_per_dir > FSLOAD_FILES_MAX)
		return fsload_refuse(r, FSLOAD_A_JOB_FILES_PER_DIR, -ERANGE,
				     "files_per_dir: 1 to " __stringify(FSLOAD_FILES_MAX));
	/*
	 * A shared tree numbers every thread's files in one range, but with
	 * mdtest's names, each thread's from 0 (its own names).
	 */
	if ((t->flags & FSLOAD_JOB_F_SHARED_DIR) &&
	    t->scheme != FSLOAD_NAMES_MDTEST)
		tree_files *= t->threads;
	if (tree_files > FSLOAD_FILES_MAX)
		return fsload_refuse(r, FSLOAD_A_JOB_FILES, -ERANGE,
				     "files: threads x files in a shared tree exceeds "
				     __stringify(FSLOAD_FILES_MAX));
	if (div_u64(tree_files + t->files_per_dir - 1, t->files_per_dir) >
	    FSLOAD_DIRS_MAX)
		return fsload_refuse(r, FSLOAD_A_JOB_FILES_PER_DIR, -ERANGE,
				     "files_per_dir: files need more than "
				     __stringify(FSLOAD_DIRS_MAX) " subdirectories");
	if (t->branch > FSLOAD_DIRS_MAX)
		return fsload_refuse(r, FSLOAD_A_JOB_TREE_BRANCH, -ERANGE,
				     "tree_branch: 0 to " __stringify(FSLOAD_DIRS_MAX));
	if (t->branch && t->block)
		return fsload_refuse(r, FSLOAD_A_JOB_TREE_BRANCH, -EINVAL,
				     "tree_branch: needs a dir, not a device");
	if (t->first_dir && !t->branch)
		return fsload_refuse(r, FSLOAD_A_JOB_FIRST_DIR, -EINVAL,
				     "first_dir: only in a tree (tree_branch)");
	dirs = fsload_tree_dirs(t->threads, t->files, t->files_per_dir,
				t->first_dir, t->flags & FSLOAD_JOB_F_SHARED_DIR,
				t->scheme);
	if (dirs > FSLOAD_DIRS_MAX ||
	    (u64)t->first_dir * t->files_per_dir + tree_files > FSLOAD_FILES_MAX)
		return fsload_refuse(r, FSLOAD_A_JOB_FIRST_DIR, -ERANGE,
				     "first_dir: the tree passes "
				     __stringify(FSLOAD_DIRS_MAX)
				     " directories or its files' numbers "
				     __stringify(FSLOAD_FILES_MAX));
	if (fsload_dir_depth(t->branch, dirs - 1) > FSLOAD_TREE_DEPTH_MAX)
		return fsload_refuse(r, FSLOAD_A_JOB_TREE_BRANCH, -ERANGE,
				     "tree_branch: the files need a tree more than "
				     __stringify(FSLOAD_TREE_DEPTH_MAX)
				     " levels deep (FSLOAD_TREE_DEPTH_MAX)");
	return 0;
}

#endif /* _FSLOAD_PROGRAM_H */
