// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: the generic netlink family - policies, request handlers and
 * notifications.  Job logic lives in job.c; this file only translates.
 *
 * The family sets parallel_ops: handlers do not take the global genl
 * mutex and serialise on fsload_mutex (job.c) only where they must, and
 * none of them ever waits for a worker.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/netlink.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "fsload.h"
#include "fsload-nl-gen.h"
#include "compat.h"

static struct genl_family fsload_family;

/*
 * fsload_nl_live is true while the family is registered: a notification
 * is sent under the read side, and fsload_nl_exit() clears it under the
 * write side before unregistering, so none is sent (or still being sent)
 * once the family goes.
 */
static DECLARE_RWSEM(fsload_nl_rwsem);
static bool fsload_nl_live;

enum fsload_mcgrp { FSLOAD_MCGRP_EVENTS_IDX };

static const struct genl_multicast_group fsload_mcgrps[] = {
	[FSLOAD_MCGRP_EVENTS_IDX] = { .name = FSLOAD_MCGRP_EVENTS },
};

/* What each op type takes besides a block size. */
#define FSLOAD_OPP_SIZE		BIT(0)	/* size_bytes is meaningful */
#define FSLOAD_OPP_NEED_SIZE	BIT(1)	/* size_bytes > 0 is required */
#define FSLOAD_OPP_FILE_SIZE	BIT(2)	/* size_bytes is the file size */
#define FSLOAD_OPP_BIO		BIT(3)	/* a bio op: block jobs only */
#define FSLOAD_OPP_ANY		BIT(4)	/* in either kind of job */

static const u8 fsload_op_params[FSLOAD_OP_MAX + 1] = {
	[FSLOAD_OP_CREATE] = FSLOAD_OPP_SIZE,
	[FSLOAD_OP_APPEND] = FSLOAD_OPP_SIZE | FSLOAD_OPP_NEED_SIZE,
	[FSLOAD_OP_WRITE_RANDOM] = FSLOAD_OPP_SIZE | FSLOAD_OPP_FILE_SIZE,
	[FSLOAD_OP_READ_RANDOM] = FSLOAD_OPP_SIZE | FSLOAD_OPP_FILE_SIZE,
	[FSLOAD_OP_NULL] = FSLOAD_OPP_ANY,
	/* size_bytes: the region of the device, 0 for all of it */
	[FSLOAD_OP_BIO_WRITE] = FSLOAD_OPP_SIZE | FSLOAD_OPP_BIO,
	[FSLOAD_OP_BIO_READ] = FSLOAD_OPP_SIZE | FSLOAD_OPP_BIO,
};

static const u32 fsload_op_flags[FSLOAD_OP_MAX + 1] = {
	[FSLOAD_OP_CREATE] = FSLOAD_OP_F_FSYNC | FSLOAD_OP_F_FALLOCATE |
			     FSLOAD_OP_F_DIRECT,
	[FSLOAD_OP_APPEND] = FSLOAD_OP_F_FSYNC | FSLOAD_OP_F_DIRECT,
	[FSLOAD_OP_WRITE_RANDOM] = FSLOAD_OP_F_FSYNC | FSLOAD_OP_F_DIRECT,
	[FSLOAD_OP_READ_RANDOM] = FSLOAD_OP_F_DIRECT,
	[FSLOAD_OP_READ] = FSLOAD_OP_F_DIRECT,
	[FSLOAD_OP_BIO_WRITE] = FSLOAD_OP_F_RANDOM,
	[FSLOAD_OP_BIO_READ] = FSLOAD_OP_F_RANDOM,
};

static int fsload_parse_op(const struct fsload_program *prog,
			   struct fsload_opdesc *od, const struct nlattr *nla,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *tb[FSLOAD_A_OP_MAX + 1];
	u32 rem = 0;
	int err;

	err = nla_parse_nested(tb, FSLOAD_A_OP_MAX, nla, fsload_op_nl_policy,
			       extack);
	if (err)
		return err;
	if (!tb[FSLOAD_A_OP_TYPE]) {
		NL_SET_ERR_ATTR_MISS(extack, nla, FSLOAD_A_OP_TYPE);
		NL_SET_ERR_MSG(extack, "op: type is required");
		return -EINVAL;
	}
	od->type = nla_get_u8(tb[FSLOAD_A_OP_TYPE]);
	od->weight = tb[FSLOAD_A_OP_WEIGHT] ?
		     nla_get_u32(tb[FSLOAD_A_OP_WEIGHT]) : 1;
	od->size = tb[FSLOAD_A_OP_SIZE_BYTES] ?
		   nla_get_u64(tb[FSLOAD_A_OP_SIZE_BYTES]) : 0;
	od->block = tb[FSLOAD_A_OP_BLOCK_BYTES] ?
		    nla_get_u32(tb[FSLOAD_A_OP_BLOCK_BYTES]) : 4096;
	od->flags = tb[FSLOAD_A_OP_FLAGS] ?
		    nla_get_u32(tb[FSLOAD_A_OP_FLAGS]) : 0;
	od->depth = tb[FSLOAD_A_OP_DEPTH] ?
		    nla_get_u32(tb[FSLOAD_A_OP_DEPTH]) : 1;
	od->group = tb[FSLOAD_A_OP_GROUP] ? nla_get_u8(tb[FSLOAD_A_OP_GROUP]) :
		    FSLOAD_GROUP_ALL;
	if (od->group != FSLOAD_GROUP_ALL && od->group >= prog->ngroups) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_GROUP],
				    "group: no such group (GROUP nests, from 0)");
		return -EINVAL;
	}
	if (fsload_op_params[od->type] & FSLOAD_OPP_BIO) {
		if (!prog->block) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_TYPE],
					    "type: bio ops need a device (a block job), not a dir");
			return -EINVAL;
		}
		if (od->block > FSLOAD_BIO_BLOCK_MAX || od->block % 512) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_BLOCK_BYTES],
					    "block_bytes: a bio's block is a multiple of 512 bytes, at most "
					    __stringify(FSLOAD_BIO_BLOCK_MAX) " bytes");
			return -EINVAL;
		}
		/* The region is checked against the device once it is open. */
	} else if (prog->block &&
		   !(fsload_op_params[od->type] & FSLOAD_OPP_ANY)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_TYPE],
				    "type: a block job (device) runs bio ops and null only");
		return -EINVAL;
	} else if (tb[FSLOAD_A_OP_DEPTH]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_DEPTH],
				    "depth: applies to bio ops only");
		return -EINVAL;
	} else if (od->size > fsload_max_file_bytes) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_SIZE_BYTES],
				    "size_bytes: larger than the module parameter max_file_bytes");
		return -ERANGE;
	}
	if (od->block > fsload_max_block_bytes) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_BLOCK_BYTES],
				    "block_bytes: larger than the module parameter max_block_bytes");
		return -ERANGE;
	}
	if (od->type == FSLOAD_OP_RENAME) {
		if (!tb[FSLOAD_A_OP_PREFIX]) {
			NL_SET_ERR_ATTR_MISS(extack, nla, FSLOAD_A_OP_PREFIX);
			NL_SET_ERR_MSG(extack, "prefix: required by rename");
			return -EINVAL;
		}
		od->prefix = nla_get_u8(tb[FSLOAD_A_OP_PREFIX]);
		if (od->prefix == 'd' || od->prefix == 't') {
			NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_PREFIX],
					    "prefix: 'd' and 't' name directories");
			return -EINVAL;
		}
	} else if (tb[FSLOAD_A_OP_PREFIX]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_PREFIX],
				    "prefix: applies to rename only");
		return -EINVAL;
	}
	if (od->size && !(fsload_op_params[od->type] & FSLOAD_OPP_SIZE)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_SIZE_BYTES],
				    "size_bytes: not a parameter of this op type");
		return -EINVAL;
	}
	if (od->flags & ~fsload_op_flags[od->type]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_FLAGS],
				    "flags: not valid for this op type");
		return -EINVAL;
	}
	if ((fsload_op_params[od->type] & FSLOAD_OPP_FILE_SIZE) &&
	    od->size < od->block) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "size_bytes: the file size, at least one block, is required");
		return -EINVAL;
	}
	if ((fsload_op_params[od->type] & FSLOAD_OPP_NEED_SIZE) && !od->size) {
		NL_SET_ERR_ATTR_MISS(extack, nla, FSLOAD_A_OP_SIZE_BYTES);
		NL_SET_ERR_MSG(extack, "size_bytes: required by this op type");
		return -EINVAL;
	}
	if (od->flags & FSLOAD_OP_F_DIRECT)
		div_u64_rem(od->size, od->block, &rem);
	if ((od->flags & FSLOAD_OP_F_DIRECT) && (od->block % 512 || rem)) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "flags: direct I/O needs 512-byte multiples and whole blocks");
		return -EINVAL;
	}
	return 0;
}

static int fsload_parse_phase(struct fsload_program *prog,
			      struct fsload_phase *ph,
			      const struct nlattr *nla,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[FSLOAD_A_PHASE_MAX + 1];
	const struct nlattr *a;
	u64 total;
	int rem, err;

	err = nla_parse_nested(tb, FSLOAD_A_PHASE_MAX, nla,
			       fsload_phase_nl_policy, extack);
	if (err)
		return err;
	if (!tb[FSLOAD_A_PHASE_NAME]) {
		NL_SET_ERR_ATTR_MISS(extack, nla, FSLOAD_A_PHASE_NAME);
		NL_SET_ERR_MSG(extack, "phase: name is required");
		return -EINVAL;
	}
	nla_strscpy(ph->name, tb[FSLOAD_A_PHASE_NAME], sizeof(ph->name));
	ph->order = tb[FSLOAD_A_PHASE_ORDER] ?
		    nla_get_u8(tb[FSLOAD_A_PHASE_ORDER]) :
		    FSLOAD_ORDER_SEQUENTIAL;
	ph->prefix = tb[FSLOAD_A_PHASE_PREFIX] ?
		     nla_get_u8(tb[FSLOAD_A_PHASE_PREFIX]) : 'f';
	if (ph->prefix == 'd' || ph->prefix == 't') {
		/* Would collide with the names of the job's directories. */
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_PHASE_PREFIX],
				    "prefix: 'd' and 't' name directories");
		return -EINVAL;
	}
	ph->flags = tb[FSLOAD_A_PHASE_FLAGS] ?
		    nla_get_u32(tb[FSLOAD_A_PHASE_FLAGS]) : 0;
	if ((ph->flags & FSLOAD_PHASE_F_HOLD) &&
	    (prog->flags & FSLOAD_JOB_F_DETACH)) {
		/* Nobody would be there to resume it. */
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_PHASE_FLAGS],
				    "phase flags: hold needs the job's owner, not detach");
		return -EINVAL;
	}
	ph->first = tb[FSLOAD_A_PHASE_FIRST] ?
		    nla_get_u64(tb[FSLOAD_A_PHASE_FIRST]) : 0;
	ph->duration_ns = tb[FSLOAD_A_PHASE_DURATION_MS] ?
			  nla_get_u32(tb[FSLOAD_A_PHASE_DURATION_MS]) *
			  (u64)NSEC_PER_MSEC : 0;
	ph->iterations = tb[FSLOAD_A_PHASE_ITERATIONS] ?
			 nla_get_u64(tb[FSLOAD_A_PHASE_ITERATIONS]) :
			 prog->files;
	if (!ph->iterations) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_PHASE_ITERATIONS],
				    "phase: iterations must be at least 1");
		return -EINVAL;
	}
	if (check_mul_overflow(ph->iterations, (u64)prog->threads, &total)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_PHASE_ITERATIONS],
				    "phase: iterations x threads overflows");
		return -EOVERFLOW;
	}
	nla_for_each_nested(a, nla, rem) {
		struct fsload_opdesc *od;
		u64 bytes, op_bytes;

		if (nla_type(a) != FSLOAD_A_PHASE_OP)
			continue;
		if (ph->nops == FSLOAD_PHASE_OPS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "phase: more than FSLOAD_PHASE_OPS_MAX ops");
			return -E2BIG;
		}
		od = &ph->ops[ph->nops++];
		err = fsload_parse_op(prog, od, a, extack);
		if (err)
			return err;
		if (od->type == FSLOAD_OP_BIO_WRITE)
			prog->bio_write = true;
		prog->max_depth = max(prog->max_depth, od->depth);
		/*
		 * Bytes one op moves: a random or bio op's one block, not its
		 * size_bytes (the file's size, the device region).
		 */
		op_bytes = fsload_op_params[od->type] &
			   (FSLOAD_OPP_FILE_SIZE | FSLOAD_OPP_BIO) ?
			   od->block : od->size;
		if (check_mul_overflow(op_bytes, total, &bytes)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "op: bytes per op x iterations x threads overflows");
			return -EOVERFLOW;
		}
		ph->weight_total += od->weight;
		prog->max_block = max(prog->max_block, od->block);
	}
	if (!ph->nops) {
		NL_SET_ERR_ATTR_MISS(extack, nla, FSLOAD_A_PHASE_OP);
		NL_SET_ERR_MSG(extack, "phase: at least one op is required");
		return -EINVAL;
	}
	if (!fsload_phase_dirs_ok(ph)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_PHASE_FLAGS],
				    "phase flags: dirs takes only mkdir, rmdir and stat ops, one of each");
		return -EINVAL;
	}
	fsload_phase_groups(ph, prog->ngroups);
	return 0;
}

/*
 * GROUP: the thread groups, their workers in request order; the job's
 * threads are their sum.  Without, one group of all the workers.
 */
static int fsload_parse_groups(struct fsload_program *prog,
			       struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[FSLOAD_A_GROUP_MAX + 1];
	const struct nlattr *a;
	u32 sum = 0;
	int rem, err;

	prog->ngroups = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != FSLOAD_A_JOB_GROUP)
			continue;
		if (prog->ngroups == FSLOAD_GROUPS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "group: more than FSLOAD_GROUPS_MAX");
			return -E2BIG;
		}
		err = nla_parse_nested(tb, FSLOAD_A_GROUP_MAX, a,
				       fsload_group_nl_policy, extack);
		if (err)
			return err;
		if (!tb[FSLOAD_A_GROUP_THREADS]) {
			NL_SET_ERR_ATTR_MISS(extack, a, FSLOAD_A_GROUP_THREADS);
			NL_SET_ERR_MSG(extack, "group: threads is required");
			return -EINVAL;
		}
		if (tb[FSLOAD_A_GROUP_NAME])
			nla_strscpy(prog->group_name[prog->ngroups],
				    tb[FSLOAD_A_GROUP_NAME], FSLOAD_NAME_MAX);
		prog->group_threads[prog->ngroups] =
			nla_get_u32(tb[FSLOAD_A_GROUP_THREADS]);
		sum += prog->group_threads[prog->ngroups++];
	}
	if (!prog->ngroups) {
		prog->ngroups = 1;
		prog->group_threads[0] = prog->threads;
		return 0;
	}
	if (info->attrs[FSLOAD_A_JOB_THREADS] && sum != prog->threads) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[FSLOAD_A_JOB_THREADS],
				    "threads: not the sum of the groups' threads");
		return -EINVAL;
	}
	if (sum > min_t(u32, fsload_max_threads, FSLOAD_THREADS_MAX)) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[FSLOAD_A_JOB_GROUP],
				    "group: more threads in all than the module parameter max_threads");
		return -ERANGE;
	}
	prog->threads = sum;
	return 0;
}

/* WORKER_CPU: the CPUs to bind the workers to, each online. */
static int fsload_parse_cpus(struct fsload_program *prog,
			     struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	const struct nlattr *a;
	unsigned int n = 0;
	int rem;
	u32 cpu;

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) == FSLOAD_A_JOB_WORKER_CPU)
			n++;
	}
	if (!n)
		return 0;
	if (n > FSLOAD_THREADS_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[FSLOAD_A_JOB_WORKER_CPU],
				    "worker_cpu: more than FSLOAD_THREADS_MAX");
		return -E2BIG;
	}
	prog->cpus = kcalloc(n, sizeof(*prog->cpus), GFP_KERNEL);
	if (!prog->cpus)
		return -ENOMEM;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != FSLOAD_A_JOB_WORKER_CPU)
			continue;
		cpu = nla_get_u32(a);
		if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "worker_cpu: not an online CPU");
			return -EINVAL;
		}
		prog->cpus[prog->ncpus++] = cpu;
	}
	return 0;
}

/* Validate a start request into @prog; reject with a named attribute. */
static int fsload_parse_program(struct fsload_program *prog,
				struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	const struct nlattr *a;
	unsigned int n = 0;
	u64 tree_files, dirs;
	int rem, err;

	prog->threads = tb[FSLOAD_A_JOB_THREADS] ?
			nla_get_u32(tb[FSLOAD_A_JOB_THREADS]) : 1;
	if (prog->threads > fsload_max_threads) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_THREADS],
				    "threads: more than the module parameter max_threads");
		return -ERANGE;
	}
	err = fsload_parse_groups(prog, info);
	if (err)
		return err;
	prog->files = tb[FSLOAD_A_JOB_FILES] ?
		      nla_get_u64(tb[FSLOAD_A_JOB_FILES]) : 1000;
	if (!prog->files || prog->files > FSLOAD_FILES_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_FILES],
				    "files: must be 1 to "
				    __stringify(FSLOAD_FILES_MAX) " per thread");
		return -ERANGE;
	}
	prog->files_per_dir = tb[FSLOAD_A_JOB_FILES_PER_DIR] ?
			      nla_get_u32(tb[FSLOAD_A_JOB_FILES_PER_DIR]) :
			      1000;
	prog->flags = tb[FSLOAD_A_JOB_FLAGS] ?
		      nla_get_u32(tb[FSLOAD_A_JOB_FLAGS]) : 0;
	prog->block = !!tb[FSLOAD_A_JOB_DEVICE];
	if (prog->block && (prog->flags & FSLOAD_JOB_F_SHARED_DIR)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_FLAGS],
				    "flags: shared_dir needs a dir, not a device");
		return -EINVAL;
	}
	/* A shared tree numbers every thread's files in one range. */
	tree_files = prog->files;
	if (prog->flags & FSLOAD_JOB_F_SHARED_DIR)
		tree_files *= prog->threads;
	if (tree_files > FSLOAD_FILES_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_FILES],
				    "files: threads x files in a shared tree exceeds "
				    __stringify(FSLOAD_FILES_MAX));
		return -ERANGE;
	}
	dirs = DIV_ROUND_UP(tree_files, prog->files_per_dir);
	if (dirs > FSLOAD_DIRS_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_FILES_PER_DIR],
				    "files_per_dir: files need more than "
				    __stringify(FSLOAD_DIRS_MAX) " subdirectories");
		return -ERANGE;
	}
	prog->branch = tb[FSLOAD_A_JOB_TREE_BRANCH] ?
		       nla_get_u32(tb[FSLOAD_A_JOB_TREE_BRANCH]) : 0;
	if (prog->branch && prog->block) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_TREE_BRANCH],
				    "tree_branch: needs a dir, not a device");
		return -EINVAL;
	}
	if (fsload_dir_depth(prog->branch, dirs - 1) > FSLOAD_TREE_DEPTH_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_TREE_BRANCH],
				    "tree_branch: the files need a tree more than "
				    __stringify(FSLOAD_TREE_DEPTH_MAX)
				    " levels deep (FSLOAD_TREE_DEPTH_MAX)");
		return -ERANGE;
	}
	prog->seed = tb[FSLOAD_A_JOB_SEED] ?
		     nla_get_u64(tb[FSLOAD_A_JOB_SEED]) : 1;
	prog->progress_ms = tb[FSLOAD_A_JOB_PROGRESS_MS] ?
			    nla_get_u32(tb[FSLOAD_A_JOB_PROGRESS_MS]) : 1000;
	if (prog->progress_ms && prog->progress_ms < 10) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_PROGRESS_MS],
				    "progress_ms: 0 (none) or at least 10");
		return -ERANGE;
	}
	prog->idle_ms = tb[FSLOAD_A_JOB_IDLE_MS] ?
			nla_get_u32(tb[FSLOAD_A_JOB_IDLE_MS]) : 0;
	prog->sample_ms = tb[FSLOAD_A_JOB_SAMPLE_MS] ?
			  nla_get_u32(tb[FSLOAD_A_JOB_SAMPLE_MS]) : 0;
	if (prog->sample_ms && prog->sample_ms < 10) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_SAMPLE_MS],
				    "sample_ms: 0 (none) or at least 10");
		return -ERANGE;
	}
	prog->stall_ms = tb[FSLOAD_A_JOB_STALL_MS] ?
			 nla_get_u32(tb[FSLOAD_A_JOB_STALL_MS]) : 0;
	if (prog->stall_ms && prog->stall_ms < 100) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_STALL_MS],
				    "stall_ms: 0 (never) or at least 100");
		return -ERANGE;
	}
	if (tb[FSLOAD_A_JOB_PROFILE])
		nla_strscpy(prog->profile, tb[FSLOAD_A_JOB_PROFILE],
			    sizeof(prog->profile));

	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) == FSLOAD_A_JOB_PHASE)
			n++;
	}
	if (!n) {
		NL_SET_ERR_ATTR_MISS(extack, NULL, FSLOAD_A_JOB_PHASE);
		NL_SET_ERR_MSG(extack, "phase: at least one phase is required");
		return -EINVAL;
	}
	if (n > FSLOAD_PHASES_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_PHASE],
				    "phase: more than FSLOAD_PHASES_MAX phases");
		return -E2BIG;
	}
	err = fsload_parse_cpus(prog, info);
	if (err)
		return err;
	prog->phases = kcalloc(n, sizeof(*prog->phases), GFP_KERNEL);
	if (!prog->phases)
		return -ENOMEM;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != FSLOAD_A_JOB_PHASE)
			continue;
		err = fsload_parse_phase(prog, &prog->phases[prog->nphases++],
					 a, extack);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Kernel interfaces that look like filesystems: a mkdir there makes a
 * cgroup, a config item, a resctrl group ..., and files cannot be
 * created.  A job refuses them rather than act on the kernel.
 */
static const char *const fsload_pseudo_fs[] = {
	"proc", "sysfs", "cgroup", "cgroup2", "configfs", "debugfs",
	"tracefs", "securityfs", "bpf", "devpts", "pstore", "efivarfs",
	"selinuxfs", "smackfs", "apparmorfs", "nsfs", "binfmt_misc",
	"fusectl", "resctrl", "rpc_pipefs", "nfsd", "mqueue",
};

static bool fsload_is_pseudo_fs(const struct super_block *sb)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fsload_pseudo_fs); i++) {
		if (!strcmp(sb->s_type->name, fsload_pseudo_fs[i]))
			return true;
	}
	return false;
}

/* Resolve the target directory in the sender's context and pin it. */
static int fsload_resolve_dir(struct fsload_job *job, struct genl_info *info)
{
	const struct nlattr *a = info->attrs[FSLOAD_A_JOB_DIR];
	char *buf, *p;
	int err;

	err = kern_path(nla_data(a), LOOKUP_FOLLOW | LOOKUP_DIRECTORY,
			&job->parent);
	if (err) {
		if (err == -ENOTDIR)
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "dir: not a directory");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "dir: cannot resolve the path");
		return err;
	}
	if (fsload_is_pseudo_fs(job->parent.dentry->d_sb)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "dir: a kernel interface (proc, sysfs, cgroup ...), not a filesystem for files");
		return -EOPNOTSUPP;
	}
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = d_path(&job->parent, buf, PATH_MAX);
	job->dir_str = kstrdup(IS_ERR(p) ? (char *)nla_data(a) : p,
			       GFP_KERNEL);
	kfree(buf);
	return job->dir_str ? 0 : -ENOMEM;
}

/*
 * Open a block job's device in the sender's context (its root, cwd and
 * mount namespace resolve the path), then fit the bio ops to it: blocks
 * of the device's logical block size, regions within it (0: all of it,
 * rounded down to whole blocks).
 */
static int fsload_open_device(struct fsload_job *job, struct genl_info *info)
{
	const struct nlattr *a = info->attrs[FSLOAD_A_JOB_DEVICE];
	struct fsload_program *prog = &job->prog;
	unsigned int p, i, lbs;
	u32 rem;
	int err;

	err = fsload_bdev_open(&job->bdev, nla_data(a), prog->bio_write, job);
	if (err) {
		job->bdev.bdev = NULL;
		if (err == -EBUSY)
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "device: busy (mounted, or claimed by another holder); writing needs an exclusive open");
		else if (err == -ENOTBLK)
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "device: not a block device");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "device: cannot open it");
		return err;
	}
	job->dev_bytes = bdev_nr_bytes(job->bdev.bdev);
	lbs = bdev_logical_block_size(job->bdev.bdev);
	for (p = 0; p < prog->nphases; p++) {
		for (i = 0; i < prog->phases[p].nops; i++) {
			struct fsload_opdesc *od = &prog->phases[p].ops[i];

			if (!(fsload_op_params[od->type] & FSLOAD_OPP_BIO))
				continue;
			if (od->block % lbs) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "device: a bio op's block_bytes is not a multiple of its logical block size");
				return -EINVAL;
			}
			if (od->size > job->dev_bytes) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "device: a bio op's size_bytes is beyond its end");
				return -ERANGE;
			}
			if (!od->size)
				od->size = job->dev_bytes;
			/* whole blocks */
			div_u64_rem(od->size, od->block, &rem);
			od->size -= rem;
			if (od->size < od->block) {
				NL_SET_ERR_MSG_ATTR(info->extack, a,
						    "device: smaller than a bio op's block");
				return -EINVAL;
			}
		}
	}
	job->dir_str = kstrdup(nla_data(a), GFP_KERNEL);
	return job->dir_str ? 0 : -ENOMEM;
}

static int fsload_put_u64(struct sk_buff *skb, int type, u64 v, int pad)
{
	return nla_put_u64_64bit(skb, type, v, pad);
}

/* The job's stalls, as recorded so far. */
static int fsload_fill_stalls(struct sk_buff *skb, struct fsload_job *job)
{
	struct fsload_stall st[FSLOAD_STALLS_MAX];
	struct nlattr *nest;
	unsigned int n, i;
	u64 now = ktime_get_ns(), end;

	spin_lock(&job->lock);
	n = job->nstalls;
	memcpy(st, job->stalls, n * sizeof(*st));
	spin_unlock(&job->lock);
	for (i = 0; i < n; i++) {
		end = st[i].end_ns ? st[i].end_ns : now;
		nest = nla_nest_start(skb, FSLOAD_A_JOB_STALL);
		if (!nest ||
		    nla_put_u32(skb, FSLOAD_A_STALL_THREAD, st[i].thread) ||
		    nla_put_u32(skb, FSLOAD_A_STALL_PID, st[i].pid) ||
		    nla_put_u32(skb, FSLOAD_A_STALL_PHASE_INDEX, st[i].phase) ||
		    (st[i].op && nla_put_u8(skb, FSLOAD_A_STALL_OP, st[i].op)) ||
		    fsload_put_u64(skb, FSLOAD_A_STALL_START_NS, st[i].start_ns,
				   FSLOAD_A_STALL_PAD) ||
		    fsload_put_u64(skb, FSLOAD_A_STALL_DURATION_NS,
				   end - st[i].start_ns, FSLOAD_A_STALL_PAD) ||
		    nla_put_u8(skb, FSLOAD_A_STALL_ENDED, !!st[i].end_ns))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/*
 * A status's DIR or DEVICE: the path, or "..." and its last bytes when it
 * has FSLOAD_STATUS_DIR_MAX bytes or more, so that a status stays small.
 */
static int fsload_put_path(struct sk_buff *skb, int type, const char *path)
{
	const size_t tail = FSLOAD_STATUS_DIR_MAX - sizeof("...");
	size_t len = strlen(path);
	struct nlattr *nla;
	char *p;

	if (len < FSLOAD_STATUS_DIR_MAX)
		return nla_put_string(skb, type, path);
	nla = nla_reserve(skb, type, FSLOAD_STATUS_DIR_MAX);
	if (!nla)
		return -EMSGSIZE;
	p = nla_data(nla);
	memcpy(p, "...", 3);
	memcpy(p + 3, path + len - tail, tail);
	p[FSLOAD_STATUS_DIR_MAX - 1] = '\0';
	return 0;
}

/*
 * The payload of a job's status message, at most: a path of @dirlen bytes
 * (with its NUL), @ngroups groups, every stall it may record.  Each
 * attribute fsload_fill_job() may put is counted here.
 */
static size_t fsload_status_size(size_t dirlen, unsigned int ngroups)
{
	const size_t u8s = nla_total_size(sizeof(u8));
	const size_t u32s = nla_total_size(sizeof(u32));
	const size_t u64s = nla_total_size_64bit(sizeof(u64));
	const size_t stall = nla_total_size(0) + 3 * u32s + 2 * u8s + 2 * u64s;
	const size_t group = nla_total_size(0) +
			     nla_total_size(FSLOAD_NAME_MAX) + u32s;
	size_t n;

	/*
	 * u32: ID, FLAGS, THREADS, FILES_PER_DIR, TREE_BRANCH, HELD,
	 * PROGRESS_MS, PHASES, OWNER_PORTID, CPUS, IDLE_MS, SAMPLE_MS,
	 * STALL_MS, PHASE_INDEX, ERRNO; u8: STATE, PMU; u64: FILES, SEED,
	 * ELAPSED_NS, OPS, BYTES, DEVICE_BYTES or DIR_INO, IDLE_NS,
	 * IDLE_BUSY_NS, OVERHEAD_OPS, OVERHEAD_NS; strings: DIR or DEVICE,
	 * PROFILE, ERROR_MSG.
	 */
	n = 15 * u32s + 2 * u8s + 10 * u64s +
	    nla_total_size(min_t(size_t, dirlen, FSLOAD_STATUS_DIR_MAX)) +
	    nla_total_size(FSLOAD_NAME_MAX) +
	    nla_total_size(sizeof_field(struct fsload_job, errmsg)) +
	    FSLOAD_STALLS_MAX * stall;
	if (ngroups > 1)
		n += ngroups * group;
	return n;
}

/* The payload of @job's status, at most (fsload_status_size()). */
static size_t fsload_job_msg_size(const struct fsload_job *job)
{
	return fsload_status_size(strlen(job->dir_str) + 1,
				  job->prog.ngroups);
}

static int fsload_fill_job(struct sk_buff *skb, struct fsload_job *job)
{
	const struct fsload_program *prog = &job->prog;
	enum fsload_job_state state;
	char errmsg[sizeof(job->errmsg)];
	u64 ops, bytes, end, idle_ns, idle_busy, oh_ops, oh_ns;
	int err, phase, held = READ_ONCE(job->held);
	unsigned int i;

	spin_lock(&job->lock);
	state = job->state;
	err = job->err;
	phase = job->cur_phase;
	end = job->end_ns;
	strscpy(errmsg, job->errmsg, sizeof(errmsg));
	idle_ns = job->idle_ns;
	idle_busy = job->idle_busy_ns;
	oh_ops = job->overhead_ops;
	oh_ns = job->overhead_ns;
	spin_unlock(&job->lock);
	fsload_job_progress(job, &ops, &bytes);

	if (nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id) ||
	    fsload_put_path(skb, prog->block ? FSLOAD_A_JOB_DEVICE :
			    FSLOAD_A_JOB_DIR, job->dir_str) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_FLAGS, prog->flags) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_THREADS, prog->threads) ||
	    fsload_put_u64(skb, FSLOAD_A_JOB_FILES, prog->files,
			   FSLOAD_A_JOB_PAD) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_FILES_PER_DIR, prog->files_per_dir) ||
	    (prog->branch &&
	     nla_put_u32(skb, FSLOAD_A_JOB_TREE_BRANCH, prog->branch)) ||
	    (held && nla_put_u32(skb, FSLOAD_A_JOB_HELD, held - 1)) ||
	    fsload_put_u64(skb, FSLOAD_A_JOB_SEED, prog->seed,
			   FSLOAD_A_JOB_PAD) ||
	    nla_put_string(skb, FSLOAD_A_JOB_PROFILE, prog->profile) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_PROGRESS_MS, prog->progress_ms) ||
	    nla_put_u8(skb, FSLOAD_A_JOB_STATE, state) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_PHASES, prog->nphases) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_OWNER_PORTID, job->owner_portid) ||
	    fsload_put_u64(skb, FSLOAD_A_JOB_ELAPSED_NS,
			   (end ? end : ktime_get_ns()) - job->start_ns,
			   FSLOAD_A_JOB_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_JOB_OPS, ops, FSLOAD_A_JOB_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_JOB_BYTES, bytes, FSLOAD_A_JOB_PAD) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_CPUS, num_online_cpus()) ||
	    nla_put_u8(skb, FSLOAD_A_JOB_PMU, READ_ONCE(job->pmu)))
		return -EMSGSIZE;
	if (prog->idle_ms &&
	    nla_put_u32(skb, FSLOAD_A_JOB_IDLE_MS, prog->idle_ms))
		return -EMSGSIZE;
	if (prog->block &&
	    fsload_put_u64(skb, FSLOAD_A_JOB_DEVICE_BYTES, job->dev_bytes,
			   FSLOAD_A_JOB_PAD))
		return -EMSGSIZE;
	if (idle_ns &&
	    (fsload_put_u64(skb, FSLOAD_A_JOB_IDLE_NS, idle_ns,
			    FSLOAD_A_JOB_PAD) ||
	     fsload_put_u64(skb, FSLOAD_A_JOB_IDLE_BUSY_NS, idle_busy,
			    FSLOAD_A_JOB_PAD)))
		return -EMSGSIZE;
	if (oh_ops &&
	    (fsload_put_u64(skb, FSLOAD_A_JOB_OVERHEAD_OPS, oh_ops,
			    FSLOAD_A_JOB_PAD) ||
	     fsload_put_u64(skb, FSLOAD_A_JOB_OVERHEAD_NS, oh_ns,
			    FSLOAD_A_JOB_PAD)))
		return -EMSGSIZE;
	if ((prog->sample_ms &&
	     nla_put_u32(skb, FSLOAD_A_JOB_SAMPLE_MS, prog->sample_ms)) ||
	    (prog->stall_ms &&
	     nla_put_u32(skb, FSLOAD_A_JOB_STALL_MS, prog->stall_ms)) ||
	    fsload_fill_stalls(skb, job))
		return -EMSGSIZE;
	if (phase >= 0 && nla_put_u32(skb, FSLOAD_A_JOB_PHASE_INDEX, phase))
		return -EMSGSIZE;
	if (job->dir_ino &&
	    fsload_put_u64(skb, FSLOAD_A_JOB_DIR_INO, job->dir_ino,
			   FSLOAD_A_JOB_PAD))
		return -EMSGSIZE;
	if (err && (nla_put_u32(skb, FSLOAD_A_JOB_ERRNO, -err) ||
		    nla_put_string(skb, FSLOAD_A_JOB_ERROR_MSG, errmsg)))
		return -EMSGSIZE;
	/* The workers: FSLOAD_CMD_WORKER_GET, not here. */
	for (i = 0; prog->ngroups > 1 && i < prog->ngroups; i++) {
		struct nlattr *nest = nla_nest_start(skb, FSLOAD_A_JOB_GROUP);

		if (!nest ||
		    nla_put_string(skb, FSLOAD_A_GROUP_NAME,
				   prog->group_name[i]) ||
		    nla_put_u32(skb, FSLOAD_A_GROUP_THREADS,
				prog->group_threads[i]))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/*
 * Fill @skb, of fsload_job_msg_size(), with @job's status.  It fits; were
 * it ever not to, the message carries the job's id alone rather than
 * fail (a started job's reply, a notification).  Frees @skb on failure.
 */
static struct sk_buff *fsload_job_msg_fill(struct sk_buff *skb,
					   struct fsload_job *job, u32 portid,
					   u32 seq, int flags, u8 cmd)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &fsload_family, flags, cmd);
	if (hdr && WARN_ON_ONCE(fsload_fill_job(skb, job))) {
		genlmsg_cancel(skb, hdr);
		hdr = genlmsg_put(skb, portid, seq, &fsload_family, flags, cmd);
		if (hdr && nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id))
			hdr = NULL;
	}
	if (!hdr) {
		nlmsg_free(skb);
		return ERR_PTR(-EMSGSIZE);
	}
	genlmsg_end(skb, hdr);
	return skb;
}

static struct sk_buff *fsload_job_msg(struct fsload_job *job, u32 portid,
				      u32 seq, int flags, u8 cmd)
{
	struct sk_buff *skb = genlmsg_new(fsload_job_msg_size(job),
					  GFP_KERNEL);

	if (!skb)
		return ERR_PTR(-ENOMEM);
	return fsload_job_msg_fill(skb, job, portid, seq, flags, cmd);
}

/**
 * fsload_nl_notify() - multicast @job's status on the events group
 * @job: the job
 * @cmd: FSLOAD_CMD_JOB_{PROGRESS,DONE,STALL,HELD}_NTF
 *
 * Sends nothing once the module is unloading (fsload_nl_exit()).
 *
 * Context: process context.
 */
void fsload_nl_notify(struct fsload_job *job, u8 cmd)
{
	struct sk_buff *skb;

	/* Every notification, whichever its sender: none once unloading. */
	down_read(&fsload_nl_rwsem);
	if (!fsload_nl_live ||
	    !genl_has_listeners(&fsload_family, &init_net,
				FSLOAD_MCGRP_EVENTS_IDX))
		goto out;
	skb = fsload_job_msg(job, 0, 0, 0, cmd);
	if (IS_ERR(skb))
		goto out;
	genlmsg_multicast(&fsload_family, skb, 0, FSLOAD_MCGRP_EVENTS_IDX,
			  GFP_KERNEL);
out:
	up_read(&fsload_nl_rwsem);
}

static int fsload_check_admin(struct sk_buff *skb, struct genl_info *info)
{
	/* The opener's credentials and the sender's, initial namespace. */
	if (netlink_capable(skb, CAP_SYS_ADMIN))
		return 0;
	NL_SET_ERR_MSG(info->extack, "CAP_SYS_ADMIN is required");
	return -EPERM;
}

static int fsload_nl_start(struct sk_buff *skb, struct genl_info *info)
{
	struct fsload_job *job;
	struct sk_buff *reply;
	int err;

	err = fsload_check_admin(skb, info);
	if (err)
		return err;
	if (info->attrs[FSLOAD_A_JOB_DIR] && info->attrs[FSLOAD_A_JOB_DEVICE]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FSLOAD_A_JOB_DEVICE],
				    "device: excludes dir (a job runs on a directory or on a block device)");
		return -EINVAL;
	}
	if (!info->attrs[FSLOAD_A_JOB_DEVICE] &&
	    GENL_REQ_ATTR_CHECK(info, FSLOAD_A_JOB_DIR)) {
		NL_SET_ERR_MSG(info->extack, "dir: required (or a device)");
		return -EINVAL;
	}
	job = fsload_job_alloc();
	if (!job)
		return -ENOMEM;
	err = fsload_parse_program(&job->prog, info);
	if (err)
		goto out;
	if (job->prog.block)
		err = fsload_open_device(job, info);
	else
		err = fsload_resolve_dir(job, info);
	if (err)
		goto out;
	if (!(job->prog.flags & FSLOAD_JOB_F_DETACH))
		job->owner_portid = info->snd_portid;
	/*
	 * The reply is allocated first, of its computed size: a start that
	 * fails must leave no job behind, and once the job runs nothing may
	 * fail.
	 */
	reply = genlmsg_new(fsload_job_msg_size(job), GFP_KERNEL);
	if (!reply) {
		err = -ENOMEM;
		goto out;
	}
	err = fsload_job_start(job, info->extack);
	if (err) {
		nlmsg_free(reply);
		goto out;
	}
	reply = fsload_job_msg_fill(reply, job, info->snd_portid,
				    info->snd_seq, 0, FSLOAD_CMD_JOB_START);
	/*
	 * The job runs: a reply lost to the sender's full receive buffer
	 * does not make the start a failure (JOB_GET lists the job).
	 */
	if (!IS_ERR(reply))
		genlmsg_reply(reply, info);
out:
	fsload_job_put(job);
	return err;
}

static struct fsload_job *fsload_nl_job(struct genl_info *info)
{
	struct fsload_job *job;

	if (GENL_REQ_ATTR_CHECK(info, FSLOAD_A_JOB_ID)) {
		NL_SET_ERR_MSG(info->extack, "id: required");
		return ERR_PTR(-EINVAL);
	}
	job = fsload_job_get(nla_get_u32(info->attrs[FSLOAD_A_JOB_ID]));
	if (!job) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FSLOAD_A_JOB_ID],
				    "id: no such job");
		return ERR_PTR(-ENOENT);
	}
	return job;
}

/* The job a mutating request names, its sender being allowed to. */
static struct fsload_job *fsload_nl_admin_job(struct sk_buff *skb,
					      struct genl_info *info)
{
	int err = fsload_check_admin(skb, info);

	return err ? ERR_PTR(err) : fsload_nl_job(info);
}

static int fsload_nl_stop(struct sk_buff *skb, struct genl_info *info)
{
	struct fsload_job *job;
	bool ended;
	int err = 0;

	job = fsload_nl_admin_job(skb, info);
	if (IS_ERR(job))
		return PTR_ERR(job);
	spin_lock(&job->lock);
	ended = job->state != FSLOAD_JOB_RUNNING &&
		job->state != FSLOAD_JOB_STOPPING;
	spin_unlock(&job->lock);
	if (ended) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FSLOAD_A_JOB_ID],
				    "id: the job has already ended");
		err = -EALREADY;
	} else {
		fsload_job_stop(job);
	}
	fsload_job_put(job);
	return err;
}

/*
 * Release a held job; with HELD, only its hold before that phase, so that
 * a resume sent late (for a hold already over) cannot release the next.
 */
static int fsload_nl_resume(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *want = info->attrs[FSLOAD_A_JOB_HELD];
	struct fsload_job *job;
	int err = 0, held;

	job = fsload_nl_admin_job(skb, info);
	if (IS_ERR(job))
		return PTR_ERR(job);
	held = READ_ONCE(job->held);
	if (!held) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FSLOAD_A_JOB_ID],
				    "id: the job is not held");
		err = -EINVAL;
	} else if (want && nla_get_u32(want) != held - 1) {
		NL_SET_ERR_MSG_ATTR(info->extack, want,
				    "held: the job holds before another phase");
		err = -EINVAL;
	} else if (cmpxchg(&job->held, held, 0) != held) {
		/*
		 * Another resume (or a stop) ended this hold since, and the
		 * job may hold before its next phase already: not ours to end.
		 */
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FSLOAD_A_JOB_ID],
				    "id: the hold ended meanwhile");
		err = -EINVAL;
	} else {
		wake_up_all(&job->wq);
	}
	fsload_job_put(job);
	return err;
}

static int fsload_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct fsload_job *job;
	struct sk_buff *reply;

	job = fsload_nl_job(info);
	if (IS_ERR(job))
		return PTR_ERR(job);
	reply = fsload_job_msg(job, info->snd_portid, info->snd_seq, 0,
			       FSLOAD_CMD_JOB_GET);
	fsload_job_put(job);
	if (IS_ERR(reply))
		return PTR_ERR(reply);
	return genlmsg_reply(reply, info);
}

/* JOB_GET dump position: the next job id to report. */
struct fsload_dump_ctx {
	u32 next_id;
};

static int fsload_nl_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct fsload_dump_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job;
	void *hdr;
	int err = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	if (!ctx->next_id)
		ctx->next_id = 1;
	while ((job = fsload_job_get_next(&ctx->next_id))) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &fsload_family,
				  NLM_F_MULTI, FSLOAD_CMD_JOB_GET);
		err = hdr ? fsload_fill_job(skb, job) : -EMSGSIZE;
		fsload_job_put(job);
		if (err) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		ctx->next_id++;
	}
	/*
	 * A job that does not fit an empty message (it always does) is an
	 * error, not the end of the list: later jobs would go unseen.
	 */
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* The job a dump names (ID, required), with a reference; or an ERR_PTR. */
static struct fsload_job *fsload_dump_job(struct netlink_callback *cb)
{
	struct nlattr *id = fsload_dump_attrs(cb)[FSLOAD_A_JOB_ID];
	struct fsload_job *job;

	if (!id) {
		NL_SET_ERR_ATTR_MISS(cb->extack, NULL, FSLOAD_A_JOB_ID);
		NL_SET_ERR_MSG(cb->extack, "id: required");
		return ERR_PTR(-EINVAL);
	}
	job = fsload_job_get(nla_get_u32(id));
	if (!job) {
		NL_SET_ERR_MSG_ATTR(cb->extack, id, "id: no such job");
		return ERR_PTR(-ENOENT);
	}
	return job;
}

/* WORKER_GET dump position: the next worker to report. */
struct fsload_worker_ctx {
	u32 next;
};

/* Worker @i of @job: its index, thread id, and CPU when pinned. */
static int fsload_fill_worker(struct sk_buff *skb,
			      const struct fsload_job *job, u32 i)
{
	const struct fsload_program *prog = &job->prog;
	struct nlattr *nest = nla_nest_start(skb, FSLOAD_A_JOB_WORKER);

	if (!nest)
		return -EMSGSIZE;
	/* Thread ids stay valid as numbers after the workers end. */
	if (nla_put_u32(skb, FSLOAD_A_WORKER_INDEX, i) ||
	    nla_put_u32(skb, FSLOAD_A_WORKER_PID, job->workers[i].pid) ||
	    (prog->ncpus &&
	     nla_put_u32(skb, FSLOAD_A_WORKER_CPU,
			 prog->cpus[i % prog->ncpus]))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int fsload_nl_worker_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct fsload_worker_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job;
	unsigned int n;
	void *hdr;
	int err = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	job = fsload_dump_job(cb);
	if (IS_ERR(job))
		return PTR_ERR(job);
	/* One message per buffer, as many workers as fit. */
	while (ctx->next < job->prog.threads) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &fsload_family,
				  NLM_F_MULTI, FSLOAD_CMD_WORKER_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		n = 0;
		if (!nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id)) {
			while (ctx->next < job->prog.threads &&
			       !fsload_fill_worker(skb, job, ctx->next)) {
				ctx->next++;
				n++;
			}
		}
		if (!n) {
			genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	fsload_job_put(job);
	/* A worker too big for an empty buffer would loop forever. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static int fsload_fill_opstat(struct sk_buff *skb, unsigned int type,
			      const struct fsload_opstat *s)
{
	struct nlattr *nest = nla_nest_start(skb, FSLOAD_A_RES_OPSTAT);

	if (!nest ||
	    nla_put_u8(skb, FSLOAD_A_OPSTAT_TYPE, type) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_OPS, s->ops,
			   FSLOAD_A_OPSTAT_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_ERRORS, s->errors,
			   FSLOAD_A_OPSTAT_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_BYTES, s->bytes,
			   FSLOAD_A_OPSTAT_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_LAT_SUM_NS, s->lat_sum,
			   FSLOAD_A_OPSTAT_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_LAT_MIN_NS,
			   s->ops ? s->lat_min : 0, FSLOAD_A_OPSTAT_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_LAT_MAX_NS, s->lat_max,
			   FSLOAD_A_OPSTAT_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The marks of the phase's course that some worker reached. */
static int fsload_fill_progress(struct sk_buff *skb,
				const struct fsload_result *r)
{
	const struct fsload_progress *pg;
	struct nlattr *nest;
	unsigned int k;

	for (k = 0; k < FSLOAD_PROGRESS_MARKS; k++) {
		pg = &r->progress[k];
		if (!pg->workers)
			break;
		nest = nla_nest_start(skb, FSLOAD_A_RES_PROGRESS);
		if (!nest ||
		    nla_put_u8(skb, FSLOAD_A_PROGRESS_PCT,
			       (k + 1) * 100 / FSLOAD_PROGRESS_MARKS) ||
		    nla_put_u32(skb, FSLOAD_A_PROGRESS_WORKERS, pg->workers) ||
		    fsload_put_u64(skb, FSLOAD_A_PROGRESS_ITEMS, pg->items,
				   FSLOAD_A_PROGRESS_PAD) ||
		    fsload_put_u64(skb, FSLOAD_A_PROGRESS_ELAPSED_NS,
				   pg->end_ns > r->start_ns ?
				   pg->end_ns - r->start_ns : 0,
				   FSLOAD_A_PROGRESS_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/*
 * May the requester of a dump (@req, its request) see which other
 * processes ran during @job's phases: CAP_SYS_ADMIN (the socket opener's
 * and the caller's, as for every command that needs it), or the job's
 * starter: the caller's and the opener's effective uid the starter's.
 */
static bool fsload_may_name_threads(const struct sk_buff *req,
				    const struct fsload_job *job)
{
	const struct sock *sk = NETLINK_CB(req).sk;
	const struct file *f = sk && sk->sk_socket ? sk->sk_socket->file :
			       NULL;

	if (netlink_capable(req, CAP_SYS_ADMIN))
		return true;
	return f && uid_eq(current_euid(), job->cred->euid) &&
	       uid_eq(f->f_cred->euid, job->cred->euid);
}

/* The busiest other threads: their names and ids only if @names. */
static int fsload_fill_threads(struct sk_buff *skb,
			       const struct fsload_result *r, bool names)
{
	struct nlattr *nest;
	unsigned int i;

	for (i = 0; i < r->ntop; i++) {
		nest = nla_nest_start(skb, FSLOAD_A_RES_THREAD);
		if (!nest ||
		    (names &&
		     (nla_put_string(skb, FSLOAD_A_THREAD_NAME, r->top[i].comm) ||
		      nla_put_u32(skb, FSLOAD_A_THREAD_PID, r->top[i].pid))) ||
		    nla_put_u8(skb, FSLOAD_A_THREAD_KERNEL, r->top[i].kthread) ||
		    fsload_put_u64(skb, FSLOAD_A_THREAD_CPU_NS, r->top[i].cpu_ns,
				   FSLOAD_A_THREAD_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* The CPU figures of a phase; those not measured are left out. */
static int fsload_fill_cpu(struct sk_buff *skb, const struct fsload_job *job,
			   const struct fsload_result *r, bool names)
{
	if (fsload_put_u64(skb, FSLOAD_A_RES_WORKER_CPU_NS, r->worker_cpu_ns,
			   FSLOAD_A_RES_PAD))
		return -EMSGSIZE;
	if (READ_ONCE(job->pmu) &&
	    (fsload_put_u64(skb, FSLOAD_A_RES_INSTRUCTIONS, r->instructions,
			    FSLOAD_A_RES_PAD) ||
	     fsload_put_u64(skb, FSLOAD_A_RES_CYCLES, r->cycles,
			    FSLOAD_A_RES_PAD)))
		return -EMSGSIZE;
	if (!r->measured)
		return 0;
	if (fsload_put_u64(skb, FSLOAD_A_RES_SYSTEM_CPU_NS, r->sys_busy_ns,
			   FSLOAD_A_RES_PAD))
		return -EMSGSIZE;
	if (r->tail &&
	    (fsload_put_u64(skb, FSLOAD_A_RES_TAIL_NS, r->tail_ns,
			    FSLOAD_A_RES_PAD) ||
	     fsload_put_u64(skb, FSLOAD_A_RES_TAIL_CPU_NS, r->tail_busy_ns,
			    FSLOAD_A_RES_PAD)))
		return -EMSGSIZE;
	return fsload_fill_threads(skb, r, names);
}

/* A phase's summary: everything but the histograms. */
static int fsload_fill_result(struct sk_buff *skb, struct fsload_job *job,
			      unsigned int p, bool names)
{
	const struct fsload_result *src = &job->res[p];
	struct fsload_result *r;
	struct nlattr *nest;
	u64 ops = 0, errors = 0, bytes = 0;
	unsigned int t;
	int err = -EMSGSIZE;

	/* Copy under the lock, then format without it. */
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	spin_lock(&job->lock);
	*r = *src;
	spin_unlock(&job->lock);
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		ops += r->op[t].ops;
		errors += r->op[t].errors;
		bytes += r->op[t].bytes;
	}

	if (nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id))
		goto out;
	nest = nla_nest_start(skb, FSLOAD_A_JOB_RESULT);
	if (!nest ||
	    nla_put_u32(skb, FSLOAD_A_RES_PHASE_INDEX, p) ||
	    nla_put_string(skb, FSLOAD_A_RES_PHASE_NAME,
			   job->prog.phases[p].name) ||
	    nla_put_u32(skb, FSLOAD_A_RES_THREADS, r->threads) ||
	    nla_put_u8(skb, FSLOAD_A_RES_COMPLETE,
		       r->complete == job->prog.threads) ||
	    nla_put_u8(skb, FSLOAD_A_RES_STONEWALLED, !!r->stonewalled) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_START_NS, r->start_ns,
			   FSLOAD_A_RES_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_ELAPSED_NS,
			   r->end_ns > r->start_ns ? r->end_ns - r->start_ns : 0,
			   FSLOAD_A_RES_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_OPS, ops, FSLOAD_A_RES_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_ERRORS, errors, FSLOAD_A_RES_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_BYTES, bytes, FSLOAD_A_RES_PAD) ||
	    fsload_fill_cpu(skb, job, r, names) ||
	    fsload_fill_progress(skb, r))
		goto out;
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		if (!r->op[t].ops && !r->op[t].errors)
			continue;
		if (fsload_fill_opstat(skb, t, &r->op[t]))
			goto out;
	}
	nla_nest_end(skb, nest);
	err = 0;
out:
	kfree(r);
	return err;
}

/*
 * RESULT_GET dump position: phase, then within it 0 for the summary or
 * the op type whose histogram is next, from bucket.
 */
struct fsload_res_ctx {
	u32 phase;
	u32 type;
	u32 bucket;
};

/* Histogram of op @type in phase @p, or NULL when the job has none. */
static const u64 *fsload_hist(const struct fsload_job *job, unsigned int p,
			      unsigned int type)
{
	unsigned int slot = job->slots.slot[type];

	return slot ? job->res[p].hist + (slot - 1) * FSLOAD_HIST_BUCKETS :
		      NULL;
}

/* The first bucket at or after ctx->bucket that is not empty. */
static unsigned int fsload_hist_next(struct fsload_job *job,
				     const struct fsload_res_ctx *ctx)
{
	const u64 *h = fsload_hist(job, ctx->phase, ctx->type);
	unsigned int b = ctx->bucket;

	if (!h)
		return FSLOAD_HIST_BUCKETS;
	mutex_lock(&job->hist_lock);
	while (b < FSLOAD_HIST_BUCKETS && !h[b])
		b++;
	mutex_unlock(&job->hist_lock);
	return b;
}

/* As many buckets as fit, from ctx->bucket; -EMSGSIZE if none did. */
static int fsload_fill_hist(struct sk_buff *skb, struct fsload_job *job,
			    struct fsload_res_ctx *ctx)
{
	const u64 *h = fsload_hist(job, ctx->phase, ctx->type);
	struct nlattr *res, *os, *bk;
	unsigned int b, n = 0;

	if (nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id))
		return -EMSGSIZE;
	res = nla_nest_start(skb, FSLOAD_A_JOB_RESULT);
	if (!res || nla_put_u32(skb, FSLOAD_A_RES_PHASE_INDEX, ctx->phase))
		return -EMSGSIZE;
	os = nla_nest_start(skb, FSLOAD_A_RES_OPSTAT);
	if (!os || nla_put_u8(skb, FSLOAD_A_OPSTAT_TYPE, ctx->type))
		return -EMSGSIZE;
	mutex_lock(&job->hist_lock);
	for (b = ctx->bucket; b < FSLOAD_HIST_BUCKETS; b++) {
		if (!h[b])
			continue;
		bk = nla_nest_start(skb, FSLOAD_A_OPSTAT_BUCKET);
		if (!bk ||
		    fsload_put_u64(skb, FSLOAD_A_BUCKET_LOW_NS,
				   fsload_hist_low(b), FSLOAD_A_BUCKET_PAD) ||
		    fsload_put_u64(skb, FSLOAD_A_BUCKET_HIGH_NS,
				   fsload_hist_high(b), FSLOAD_A_BUCKET_PAD) ||
		    fsload_put_u64(skb, FSLOAD_A_BUCKET_COUNT, h[b],
				   FSLOAD_A_BUCKET_PAD)) {
			if (bk)
				nla_nest_cancel(skb, bk);
			break;
		}
		nla_nest_end(skb, bk);
		n++;
	}
	mutex_unlock(&job->hist_lock);
	if (!n)
		return -EMSGSIZE;
	ctx->bucket = b;
	nla_nest_end(skb, os);
	nla_nest_end(skb, res);
	return 0;
}

/* The next message of the dump at @ctx; advances @ctx. */
static int fsload_fill_result_msg(struct sk_buff *skb, struct fsload_job *job,
				  struct fsload_res_ctx *ctx, bool names)
{
	int err;

	if (!ctx->type) {
		err = fsload_fill_result(skb, job, ctx->phase, names);
		if (!err) {
			ctx->type = 1;
			ctx->bucket = 0;
		}
		return err;
	}
	return fsload_fill_hist(skb, job, ctx);
}

static int fsload_nl_result_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct fsload_res_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job;
	bool started, names;
	void *hdr;
	int err = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	job = fsload_dump_job(cb);
	if (IS_ERR(job))
		return PTR_ERR(job);
	names = fsload_may_name_threads(cb->skb, job);
	while (ctx->phase < job->prog.nphases) {
		if (ctx->type) {
			/* Skip to the next type with buckets left. */
			ctx->bucket = fsload_hist_next(job, ctx);
			if (ctx->bucket == FSLOAD_HIST_BUCKETS) {
				ctx->bucket = 0;
				if (++ctx->type > FSLOAD_OP_MAX) {
					ctx->type = 0;
					ctx->phase++;
				}
				continue;
			}
		} else {
			spin_lock(&job->lock);
			started = job->res[ctx->phase].started;
			spin_unlock(&job->lock);
			if (!started)
				break;
		}
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &fsload_family,
				  NLM_F_MULTI, FSLOAD_CMD_RESULT_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = fsload_fill_result_msg(skb, job, ctx, names);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	fsload_job_put(job);
	/* A message too big for an empty buffer would loop forever. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

/* One sample: @v as fsload_sample_op() lays it out (fsload.h). */
static int fsload_fill_sample(struct sk_buff *skb, const struct fsload_job *job,
			      u64 seq, const u64 *v)
{
	struct nlattr *nest, *op;
	unsigned int t, s;
	const u64 *o;

	nest = nla_nest_start(skb, FSLOAD_A_JOB_SAMPLE);
	if (!nest ||
	    fsload_put_u64(skb, FSLOAD_A_SAMPLE_SEQ, seq, FSLOAD_A_SAMPLE_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_SAMPLE_TIME_NS, v[0],
			   FSLOAD_A_SAMPLE_PAD) ||
	    nla_put_u32(skb, FSLOAD_A_SAMPLE_PHASE_INDEX, v[1]) ||
	    fsload_put_u64(skb, FSLOAD_A_SAMPLE_IO_BYTES, v[2],
			   FSLOAD_A_SAMPLE_PAD))
		return -EMSGSIZE;
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		s = job->slots.slot[t];
		if (!s)
			continue;
		o = v + fsload_sample_op(s);
		op = nla_nest_start(skb, FSLOAD_A_SAMPLE_OP);
		if (!op ||
		    nla_put_u8(skb, FSLOAD_A_SAMPLE_OP_TYPE, t) ||
		    fsload_put_u64(skb, FSLOAD_A_SAMPLE_OP_OPS, o[0],
				   FSLOAD_A_SAMPLE_OP_PAD) ||
		    fsload_put_u64(skb, FSLOAD_A_SAMPLE_OP_BYTES, o[1],
				   FSLOAD_A_SAMPLE_OP_PAD) ||
		    fsload_put_u64(skb, FSLOAD_A_SAMPLE_OP_LAT_SUM_NS, o[2],
				   FSLOAD_A_SAMPLE_OP_PAD) ||
		    (o[3] &&
		     fsload_put_u64(skb, FSLOAD_A_SAMPLE_OP_LAT_P50_NS, o[3],
				    FSLOAD_A_SAMPLE_OP_PAD)) ||
		    (o[4] &&
		     fsload_put_u64(skb, FSLOAD_A_SAMPLE_OP_LAT_P99_NS, o[4],
				    FSLOAD_A_SAMPLE_OP_PAD)))
			return -EMSGSIZE;
		nla_nest_end(skb, op);
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* SERIES_GET dump position: the next sequence number; 0 before any. */
struct fsload_series_ctx {
	u64 next;
	bool started;
};

/* Samples copied from the ring per message. */
#define FSLOAD_SERIES_BATCH	64

static int fsload_nl_series_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct fsload_series_ctx *ctx = (void *)cb->ctx;
	struct nlattr **attrs = fsload_dump_attrs(cb);
	unsigned int n, i, words;
	struct fsload_job *job;
	u64 first, *buf;
	void *hdr = NULL;
	int err = 0;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	job = fsload_dump_job(cb);
	if (IS_ERR(job))
		return PTR_ERR(job);
	if (!ctx->started) {
		ctx->started = true;
		if (attrs[FSLOAD_A_JOB_SERIES_FROM])
			ctx->next = nla_get_u64(attrs[FSLOAD_A_JOB_SERIES_FROM]);
	}
	if (!job->ring)
		goto out;
	words = fsload_series_words(job);
	buf = kmalloc_array(FSLOAD_SERIES_BATCH, words * sizeof(u64),
			    GFP_KERNEL);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	/* One message per batch, as many samples as fit. */
	while ((n = fsload_series_copy(job, ctx->next, buf,
				       FSLOAD_SERIES_BATCH, &first))) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &fsload_family,
				  NLM_F_MULTI, FSLOAD_CMD_SERIES_GET);
		if (!hdr || nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id)) {
			err = -EMSGSIZE;
			break;
		}
		for (i = 0; i < n; i++) {
			if (fsload_fill_sample(skb, job, first + i,
					       buf + i * words))
				break;
		}
		if (!i) {
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		hdr = NULL;
		ctx->next = first + i;
		if (i < n)
			break;	/* the message is full */
	}
	if (hdr)
		genlmsg_cancel(skb, hdr);
	kfree(buf);
out:
	fsload_job_put(job);
	/* A sample too big for an empty buffer would loop forever. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static const struct genl_ops fsload_ops[] = {
	{
		.cmd = FSLOAD_CMD_JOB_START,
		.doit = fsload_nl_start,
		.policy = fsload_job_start_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_job_start_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_JOB_STOP,
		.doit = fsload_nl_stop,
		.policy = fsload_job_stop_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_job_stop_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_JOB_RESUME,
		.doit = fsload_nl_resume,
		.policy = fsload_job_resume_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_job_resume_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_JOB_GET,
		.doit = fsload_nl_get_doit,
		.dumpit = fsload_nl_get_dumpit,
		.policy = fsload_job_get_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_job_get_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_RESULT_GET,
		.dumpit = fsload_nl_result_dumpit,
		.policy = fsload_result_get_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_result_get_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_SERIES_GET,
		.dumpit = fsload_nl_series_dumpit,
		.policy = fsload_series_get_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_series_get_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_WORKER_GET,
		.dumpit = fsload_nl_worker_dumpit,
		.policy = fsload_worker_get_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_worker_get_nl_policy) - 1,
	},
};

static struct genl_family fsload_family __ro_after_init = {
	.name = FSLOAD_FAMILY_NAME,
	.version = FSLOAD_FAMILY_VERSION,
	.module = THIS_MODULE,
	.parallel_ops = true,
	.ops = fsload_ops,
	.n_ops = ARRAY_SIZE(fsload_ops),
	.resv_start_op = 0,	/* strict validation for every command */
	.mcgrps = fsload_mcgrps,
	.n_mcgrps = ARRAY_SIZE(fsload_mcgrps),
};

static int fsload_nl_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct netlink_notify *n = ptr;

	if (event == NETLINK_URELEASE && n->protocol == NETLINK_GENERIC &&
	    net_eq(n->net, &init_net))
		fsload_job_owner_gone(n->portid);
	return NOTIFY_DONE;
}

static struct notifier_block fsload_nl_notifier = {
	.notifier_call = fsload_nl_event,
};

/**
 * fsload_nl_init() - register the family and the socket-release notifier
 *
 * The notifier goes first so that no job can be started whose owner's
 * socket closing would go unnoticed.
 *
 * Context: module init.
 * Return: 0 or a negative errno.
 */
int fsload_nl_init(void)
{
	size_t most;
	int err;

	/* The largest status fits what the protocol promises. */
	most = fsload_status_size(FSLOAD_STATUS_DIR_MAX, FSLOAD_GROUPS_MAX);
	most = nlmsg_total_size(genlmsg_total_size(most));
	if (WARN_ON(most > min_t(size_t, FSLOAD_STATUS_MSG_MAX,
				 NLMSG_GOODSIZE)))
		return -EINVAL;

	err = netlink_register_notifier(&fsload_nl_notifier);
	if (err)
		return err;
	err = genl_register_family(&fsload_family);
	if (err) {
		netlink_unregister_notifier(&fsload_nl_notifier);
		return err;
	}
	down_write(&fsload_nl_rwsem);
	fsload_nl_live = true;
	up_write(&fsload_nl_rwsem);
	return 0;
}

/**
 * fsload_nl_exit() - unregister, in the reverse order of fsload_nl_init()
 *
 * Context: module exit.  Returns once no request handler runs and no
 * notification is being sent; none is sent afterwards.
 */
void fsload_nl_exit(void)
{
	down_write(&fsload_nl_rwsem);
	fsload_nl_live = false;
	up_write(&fsload_nl_rwsem);
	genl_unregister_family(&fsload_family);
	netlink_unregister_notifier(&fsload_nl_notifier);
}
