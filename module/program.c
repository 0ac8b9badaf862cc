// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: a start request's program, validated - the job's parameters,
 * thread groups, CPUs, phases and their weighted ops, with defaults
 * filled in.  The family's policies (netlink.c) check each attribute
 * alone; this file checks what they cannot, and every refusal names the
 * attribute in the extack.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/stringify.h>
#include <net/genetlink.h>
#include "fsload.h"
#include "fsload-nl-gen.h"
#include "compat.h"

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
	if (fsload_op_type(od->type)->params & FSLOAD_OPP_BIO) {
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
		   !(fsload_op_type(od->type)->params & FSLOAD_OPP_ANY)) {
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
	if (od->type == FSLOAD_OP_RENAME &&
	    (od->flags & FSLOAD_OP_F_ROTATE)) {
		if (tb[FSLOAD_A_OP_PREFIX]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_PREFIX],
					    "prefix: a rotating rename keeps the items' names");
			return -EINVAL;
		}
	} else if (od->type == FSLOAD_OP_RENAME) {
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
	if (od->size && !(fsload_op_type(od->type)->params & FSLOAD_OPP_SIZE)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_SIZE_BYTES],
				    "size_bytes: not a parameter of this op type");
		return -EINVAL;
	}
	if (od->flags & ~fsload_op_type(od->type)->flags) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_FLAGS],
				    "flags: not valid for this op type");
		return -EINVAL;
	}
	if ((od->flags & FSLOAD_OP_F_RDWR) && (od->flags & FSLOAD_OP_F_TRUNC)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_FLAGS],
				    "flags: rdwr (mdtest's open) and trunc (fs_mark's) exclude each other");
		return -EINVAL;
	}
	if ((od->flags & FSLOAD_OP_F_MKNOD) && od->flags != FSLOAD_OP_F_MKNOD) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_FLAGS],
				    FSLOAD_MKNOD_ALONE);
		return -EINVAL;
	}
	if ((od->flags & FSLOAD_OP_F_MKNOD) && od->size) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_SIZE_BYTES],
				    FSLOAD_MKNOD_NO_DATA);
		return -EINVAL;
	}
	if (od->type == FSLOAD_OP_READ && od->size &&
	    !(od->flags & FSLOAD_OP_F_SIZED)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_OP_SIZE_BYTES],
				    "size_bytes: a read takes it with the sized flag only");
		return -EINVAL;
	}
	if ((fsload_op_type(od->type)->params & FSLOAD_OPP_FILE_SIZE) &&
	    od->size < od->block) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "size_bytes: the file size, at least one block, is required");
		return -EINVAL;
	}
	if ((fsload_op_type(od->type)->params & FSLOAD_OPP_NEED_SIZE) && !od->size) {
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
	ph->stride = tb[FSLOAD_A_PHASE_STRIDE] ?
		     nla_get_u32(tb[FSLOAD_A_PHASE_STRIDE]) : 0;
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
		op_bytes = fsload_op_type(od->type)->params &
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
	if (!fsload_phase_rotate_ok(ph)) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "op flags: rotate is the only op of a sequential phase");
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

/*
 * NAMES, NAME_BYTES, NAME_RANDOM_BYTES: the name scheme (the policy
 * bounds each value).
 */
static int fsload_parse_naming(struct fsload_program *prog,
			       struct nlattr **tb,
			       struct netlink_ext_ack *extack)
{
	struct fsload_naming *nm = &prog->naming;

	nm->scheme = tb[FSLOAD_A_JOB_NAMES] ?
		     nla_get_u8(tb[FSLOAD_A_JOB_NAMES]) : FSLOAD_NAMES_FSLOAD;
	nm->bytes = tb[FSLOAD_A_JOB_NAME_BYTES] ?
		    nla_get_u32(tb[FSLOAD_A_JOB_NAME_BYTES]) :
		    FSLOAD_FSMARK_NAME_BYTES;
	nm->random = tb[FSLOAD_A_JOB_NAME_RANDOM_BYTES] ?
		     nla_get_u32(tb[FSLOAD_A_JOB_NAME_RANDOM_BYTES]) :
		     FSLOAD_FSMARK_RANDOM_BYTES;
	if (nm->scheme != FSLOAD_NAMES_FSMARK &&
	    (tb[FSLOAD_A_JOB_NAME_BYTES] || tb[FSLOAD_A_JOB_NAME_RANDOM_BYTES])) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_NAME_BYTES] ?:
				    tb[FSLOAD_A_JOB_NAME_RANDOM_BYTES],
				    "name_bytes, name_random_bytes: only with names fsmark");
		return -EINVAL;
	}
	if (nm->random > nm->bytes) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_NAME_RANDOM_BYTES] ?:
				    tb[FSLOAD_A_JOB_NAME_BYTES],
				    "name_random_bytes: more than name_bytes");
		return -EINVAL;
	}
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

/* What says which directory a job joins, besides its name (JOIN_DIR). */
static const int join_id_attrs[] = {
	FSLOAD_A_JOB_JOIN_INO, FSLOAD_A_JOB_JOIN_MODE, FSLOAD_A_JOB_JOIN_BTIME,
	FSLOAD_A_JOB_JOIN_HANDLE_TYPE, FSLOAD_A_JOB_JOIN_HANDLE,
};

/* Rank 0's job directory's file handle (JOIN_HANDLE, its type), if any. */
static int fsload_parse_join_handle(struct fsload_dir_id *id,
				    struct nlattr **tb,
				    struct netlink_ext_ack *extack)
{
	const struct nlattr *h = tb[FSLOAD_A_JOB_JOIN_HANDLE];
	const struct nlattr *t = tb[FSLOAD_A_JOB_JOIN_HANDLE_TYPE];

	if (!h && !t)
		return 0;
	if (!h || !t) {
		NL_SET_ERR_MSG_ATTR(extack, h ? h : t,
				    "join_handle, join_handle_type: one with the other");
		return -EINVAL;
	}
	if (!nla_len(h) || nla_len(h) > FSLOAD_JOIN_HANDLE_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, h, "join_handle: 1 to "
				    __stringify(FSLOAD_JOIN_HANDLE_MAX) " bytes");
		return -EINVAL;
	}
	id->handle_type = nla_get_u32(t);
	id->handle_bytes = nla_len(h);
	memcpy(id->handle, nla_data(h), nla_len(h));
	return 0;
}

/*
 * A run's ranks (RANKS) and the directory of rank 0's job that this one
 * joins (JOIN_DIR, and what it is: JOIN_INO, JOIN_MODE, JOIN_BTIME,
 * JOIN_HANDLE): after the threads, flags and names.
 */
static int fsload_parse_ranks(struct fsload_program *prog, struct nlattr **tb,
			      struct netlink_ext_ack *extack)
{
	const struct nlattr *a = tb[FSLOAD_A_JOB_JOIN_DIR];
	struct fsload_dir_id *id = &prog->join_id;
	const char *name;
	unsigned int i;
	int err;

	/* The policy holds it in 1 .. FSLOAD_RANK_MAX. */
	prog->ranks = tb[FSLOAD_A_JOB_RANKS] ?
		      nla_get_u32(tb[FSLOAD_A_JOB_RANKS]) : 1;
	if (prog->ranks > 1 && prog->block) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_RANKS],
				    "ranks: needs a dir, not a device");
		return -EINVAL;
	}
	if (!fsload_ranks_fit(prog->rank, prog->ranks, prog->threads,
			      prog->flags & FSLOAD_JOB_F_SHARED_DIR,
			      prog->naming.scheme)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_RANKS],
				    FSLOAD_RANKS_RANGE);
		return -ERANGE;
	}
	if (!a) {
		if (prog->ranks > 1 && prog->rank) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_RANKS],
					    "ranks: a job of rank 1 or more works in rank 0's job directory (join_dir)");
			return -EINVAL;
		}
		for (i = 0; i < ARRAY_SIZE(join_id_attrs); i++) {
			if (tb[join_id_attrs[i]]) {
				NL_SET_ERR_MSG_ATTR(extack,
						    tb[join_id_attrs[i]],
						    "join_ino, join_mode, join_btime, join_handle: only with join_dir");
				return -EINVAL;
			}
		}
		return 0;
	}
	if (prog->ranks <= 1 || !prog->rank) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "join_dir: only for a job of rank 1 or more of a run of several (ranks)");
		return -EINVAL;
	}
	name = nla_data(a);
	if (!fsload_one_name(name)) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "join_dir: one name in dir: no '/', not '.' or '..'");
		return -EINVAL;
	}
	if (!tb[FSLOAD_A_JOB_JOIN_INO] || !tb[FSLOAD_A_JOB_JOIN_MODE]) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "join_ino, join_mode: required with join_dir");
		return -EINVAL;
	}
	err = fsload_parse_join_handle(id, tb, extack);
	if (err)
		return err;
	id->ino = nla_get_u64(tb[FSLOAD_A_JOB_JOIN_INO]);
	id->mode = nla_get_u32(tb[FSLOAD_A_JOB_JOIN_MODE]);
	if (tb[FSLOAD_A_JOB_JOIN_BTIME]) {
		id->has_btime = true;
		id->btime_ns = nla_get_u64(tb[FSLOAD_A_JOB_JOIN_BTIME]);
	}
	prog->join_dir = kstrdup(name, GFP_KERNEL);
	return prog->join_dir ? 0 : -ENOMEM;
}

/**
 * fsload_parse_program() - validate a start request into a program
 * @prog: the job's program, zeroed; its arrays are the job's to free
 * @info: the JOB_START request, its attributes checked by the policy
 *
 * Everything the policy cannot say: defaults, limits against the module
 * parameters and each other, what each op type takes (the op table).
 *
 * Context: process context, the sender's.
 * Return: 0, or a negative errno with an extack message naming the
 * attribute.
 */
int fsload_parse_program(struct fsload_program *prog, struct genl_info *info)
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
	/* The policy holds it in 0 .. FSLOAD_RANK_MAX; its threads here. */
	prog->rank = tb[FSLOAD_A_JOB_RANK] ?
		     nla_get_u32(tb[FSLOAD_A_JOB_RANK]) : 0;
	if (!fsload_rank_fits(prog->rank, prog->threads)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_RANK],
				    FSLOAD_RANK_RANGE);
		return -ERANGE;
	}
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
	if ((prog->flags & FSLOAD_JOB_F_HOLD_END) &&
	    (prog->flags & FSLOAD_JOB_F_DETACH)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_FLAGS],
				    "flags: hold_end needs the job's owner, not detach");
		return -EINVAL;
	}
	err = fsload_parse_naming(prog, tb, extack);
	if (!err)
		err = fsload_parse_ranks(prog, tb, extack);
	if (err)
		return err;
	/*
	 * A shared tree numbers every thread's files in one range, but with
	 * mdtest's names, each thread's from 0 (its own names).
	 */
	tree_files = prog->files;
	if ((prog->flags & FSLOAD_JOB_F_SHARED_DIR) &&
	    prog->naming.scheme != FSLOAD_NAMES_MDTEST)
		tree_files *= fsload_run_threads(prog->threads, prog->ranks);
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
	/* The policy holds it in 0 .. FSLOAD_DIRS_MAX. */
	prog->first_dir = tb[FSLOAD_A_JOB_FIRST_DIR] ?
			  nla_get_u32(tb[FSLOAD_A_JOB_FIRST_DIR]) : 0;
	if (prog->first_dir && !prog->branch) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_FIRST_DIR],
				    "first_dir: only in a tree (tree_branch)");
		return -EINVAL;
	}
	dirs = fsload_tree_dirs(fsload_run_threads(prog->threads, prog->ranks),
				prog->files,
				prog->files_per_dir, prog->first_dir,
				prog->flags & FSLOAD_JOB_F_SHARED_DIR,
				prog->naming.scheme);
	if (dirs > FSLOAD_DIRS_MAX ||
	    (u64)prog->first_dir * prog->files_per_dir + tree_files >
	    FSLOAD_FILES_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_FIRST_DIR],
				    "first_dir: the tree passes "
				    __stringify(FSLOAD_DIRS_MAX)
				    " directories or its files' numbers "
				    __stringify(FSLOAD_FILES_MAX));
		return -ERANGE;
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
	/* The policy holds it in 1 .. FSLOAD_LAT_SAMPLE_MAX. */
	prog->lat_sample = tb[FSLOAD_A_JOB_LAT_SAMPLE] ?
			   nla_get_u32(tb[FSLOAD_A_JOB_LAT_SAMPLE]) : 1;
	prog->profile_hz = tb[FSLOAD_A_JOB_CPU_PROFILE_HZ] ?
			   nla_get_u32(tb[FSLOAD_A_JOB_CPU_PROFILE_HZ]) : 0;
	prog->profile_stacks = FSLOAD_PROFILE_STACKS_DEFAULT;
	/* By default, as many as fit many threads' tables in the bound. */
	while (prog->profile_stacks > 1 &&
	       prog->threads * fsload_profile_bytes(prog->profile_stacks) >
	       FSLOAD_PROFILE_BYTES_MAX)
		prog->profile_stacks /= 2;
	if (tb[FSLOAD_A_JOB_CPU_PROFILE_STACKS])
		prog->profile_stacks =
			nla_get_u32(tb[FSLOAD_A_JOB_CPU_PROFILE_STACKS]);
	if (prog->profile_hz &&
	    prog->threads * fsload_profile_bytes(prog->profile_stacks) >
	    FSLOAD_PROFILE_BYTES_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_CPU_PROFILE_STACKS],
				    "cpu-profile-stacks: threads x stacks over the module's 64 MiB per job");
		return -E2BIG;
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
