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
#include <fsload/program.h>
#include "fsload-nl-gen.h"
#include "compat.h"

/* The attributes of a parsed nest, as BIT(attribute) (FSLOAD_HAS()). */
static u32 fsload_attrs_has(struct nlattr **tb, unsigned int max)
{
	unsigned int i;
	u32 has = 0;

	BUILD_BUG_ON(FSLOAD_A_OP_MAX >= 32 || FSLOAD_A_PHASE_MAX >= 32);
	for (i = 1; i <= max; i++)
		if (tb[i])
			has |= BIT(i);
	return has;
}

/*
 * A refusal of the shared checks (include/fsload/program.h) in the
 * extack: its message, and its attribute in @tb (@nest for 0), or as
 * missing from @nest.  The message is a static string of the checks, as
 * NL_SET_ERR_MSG() keeps.
 */
static int fsload_refused(const struct fsload_refusal *r, struct nlattr **tb,
			  const struct nlattr *nest,
			  struct netlink_ext_ack *extack)
{
	do_trace_netlink_extack(r->msg);
	if (!extack)
		return r->err;
	extack->_msg = r->msg;
	if (r->missing)
		NL_SET_ERR_ATTR_MISS(extack, nest, r->attr);
	else
		NL_SET_BAD_ATTR(extack, r->attr ? tb[r->attr] : nest);
	return r->err;
}

/* What a program's checks need of its job, as the request gives it. */
static void fsload_job_shape(const struct fsload_program *prog,
			     struct fsload_job_shape *js)
{
	*js = (struct fsload_job_shape){
		.files = prog->setup.files,
		.max_file_bytes = fsload_max_file_bytes,
		.max_block_bytes = min_t(u32, fsload_max_block_bytes,
					 FSLOAD_BLOCK_MAX),
		.threads = prog->setup.threads,
		.flags = prog->setup.flags,
		.ngroups = prog->setup.ngroups,
		.block = prog->block,
	};
}

/* An op nest into @od, with the request's defaults. */
static int fsload_parse_op(struct fsload_program *prog,
			   const struct fsload_job_shape *js,
			   struct fsload_phase *ph, const struct nlattr *nla,
			   struct netlink_ext_ack *extack)
{
	struct fsload_opdesc *od = &ph->ops[ph->nops++];
	struct nlattr *tb[FSLOAD_A_OP_MAX + 1];
	struct fsload_refusal r;
	int err;

	err = nla_parse_nested(tb, FSLOAD_A_OP_MAX, nla, fsload_op_nl_policy,
			       extack);
	if (err)
		return err;
	od->type = tb[FSLOAD_A_OP_TYPE] ? nla_get_u8(tb[FSLOAD_A_OP_TYPE]) : 0;
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
	od->prefix = tb[FSLOAD_A_OP_PREFIX] ?
		     nla_get_u8(tb[FSLOAD_A_OP_PREFIX]) : 0;
	err = fsload_check_op(js, ph, od,
			      fsload_attrs_has(tb, FSLOAD_A_OP_MAX), &r);
	if (err)
		return fsload_refused(&r, tb, nla, extack);
	if (od->type == FSLOAD_OP_BIO_WRITE)
		prog->bio_write = true;
	prog->max_depth = max(prog->max_depth, od->depth);
	prog->max_block = max(prog->max_block, od->block);
	ph->weight_total += od->weight;
	return 0;
}

/* A phase nest into @ph, with the request's defaults, and its ops. */
static int fsload_parse_phase(struct fsload_program *prog,
			      struct fsload_phase *ph,
			      const struct nlattr *nla,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[FSLOAD_A_PHASE_MAX + 1];
	struct fsload_job_shape js;
	struct fsload_refusal r;
	const struct nlattr *a;
	unsigned int nops = 0;
	int rem, err;

	err = nla_parse_nested(tb, FSLOAD_A_PHASE_MAX, nla,
			       fsload_phase_nl_policy, extack);
	if (err)
		return err;
	if (tb[FSLOAD_A_PHASE_NAME])
		nla_strscpy(ph->name, tb[FSLOAD_A_PHASE_NAME],
			    sizeof(ph->name));
	ph->order = tb[FSLOAD_A_PHASE_ORDER] ?
		    nla_get_u8(tb[FSLOAD_A_PHASE_ORDER]) :
		    FSLOAD_ORDER_SEQUENTIAL;
	ph->prefix = tb[FSLOAD_A_PHASE_PREFIX] ?
		     nla_get_u8(tb[FSLOAD_A_PHASE_PREFIX]) : 'f';
	ph->flags = tb[FSLOAD_A_PHASE_FLAGS] ?
		    nla_get_u32(tb[FSLOAD_A_PHASE_FLAGS]) : 0;
	ph->first = tb[FSLOAD_A_PHASE_FIRST] ?
		    nla_get_u64(tb[FSLOAD_A_PHASE_FIRST]) : 0;
	ph->stride = tb[FSLOAD_A_PHASE_STRIDE] ?
		     nla_get_u32(tb[FSLOAD_A_PHASE_STRIDE]) : 0;
	ph->duration_ns = tb[FSLOAD_A_PHASE_DURATION_MS] ?
			  nla_get_u32(tb[FSLOAD_A_PHASE_DURATION_MS]) *
			  (u64)NSEC_PER_MSEC : 0;
	ph->iterations = tb[FSLOAD_A_PHASE_ITERATIONS] ?
			 nla_get_u64(tb[FSLOAD_A_PHASE_ITERATIONS]) :
			 prog->setup.files;
	nla_for_each_nested(a, nla, rem)
		nops += nla_type(a) == FSLOAD_A_PHASE_OP;
	fsload_job_shape(prog, &js);
	err = fsload_check_phase(&js, ph,
				 fsload_attrs_has(tb, FSLOAD_A_PHASE_MAX),
				 nops, &r);
	if (err)
		return fsload_refused(&r, tb, nla, extack);
	nla_for_each_nested(a, nla, rem) {
		if (nla_type(a) != FSLOAD_A_PHASE_OP)
			continue;
		err = fsload_parse_op(prog, &js, ph, a, extack);
		if (err)
			return err;
	}
	err = fsload_check_phase_ops(ph, &r);
	if (err)
		return fsload_refused(&r, tb, nla, extack);
	fsload_phase_groups(ph, prog->setup.ngroups);
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

	prog->setup.ngroups = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(a) != FSLOAD_A_JOB_GROUP)
			continue;
		if (prog->setup.ngroups == FSLOAD_GROUPS_MAX) {
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
			nla_strscpy(prog->group_name[prog->setup.ngroups],
				    tb[FSLOAD_A_GROUP_NAME], FSLOAD_NAME_MAX);
		prog->setup.group_threads[prog->setup.ngroups] =
			nla_get_u32(tb[FSLOAD_A_GROUP_THREADS]);
		sum += prog->setup.group_threads[prog->setup.ngroups++];
	}
	if (!prog->setup.ngroups) {
		prog->setup.ngroups = 1;
		prog->setup.group_threads[0] = prog->setup.threads;
		return 0;
	}
	if (info->attrs[FSLOAD_A_JOB_THREADS] && sum != prog->setup.threads) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[FSLOAD_A_JOB_THREADS],
				    "threads: not the sum of the groups' threads");
		return -EINVAL;
	}
	if (sum > min_t(u32, fsload_max_threads, FSLOAD_THREADS_MAX)) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[FSLOAD_A_JOB_GROUP],
				    "group: more threads in all than the module parameter max_threads");
		return -ERANGE;
	}
	prog->setup.threads = sum;
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
	struct fsload_naming *nm = &prog->setup.naming;

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
	prog->setup.ranks = tb[FSLOAD_A_JOB_RANKS] ?
		      nla_get_u32(tb[FSLOAD_A_JOB_RANKS]) : 1;
	if (prog->setup.ranks > 1 && prog->block) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_RANKS],
				    "ranks: needs a dir, not a device");
		return -EINVAL;
	}
	if (!fsload_ranks_fit(prog->setup.rank, prog->setup.ranks, prog->setup.threads,
			      prog->setup.flags & FSLOAD_JOB_F_SHARED_DIR,
			      prog->setup.naming.scheme)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_RANKS],
				    FSLOAD_RANKS_RANGE);
		return -ERANGE;
	}
	if (!a) {
		if (prog->setup.ranks > 1 && prog->setup.rank) {
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
	if (prog->setup.ranks <= 1 || !prog->setup.rank) {
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

/*
 * FILES_PER_DIR, TREE_BRANCH, FIRST_DIR: the job's directories, their
 * number and depth, after its threads, files, flags, names and ranks.
 */
static int fsload_parse_tree(struct fsload_program *prog, struct nlattr **tb,
			     struct netlink_ext_ack *extack)
{
	struct fsload_tree_shape t;
	struct fsload_refusal r;
	int err;

	prog->setup.branch = tb[FSLOAD_A_JOB_TREE_BRANCH] ?
		       nla_get_u32(tb[FSLOAD_A_JOB_TREE_BRANCH]) : 0;
	prog->setup.first_dir = tb[FSLOAD_A_JOB_FIRST_DIR] ?
			  nla_get_u32(tb[FSLOAD_A_JOB_FIRST_DIR]) : 0;
	t = (struct fsload_tree_shape){
		.files = prog->setup.files,
		.files_per_dir = prog->setup.files_per_dir,
		.threads = fsload_run_threads(prog->setup.threads, prog->setup.ranks),
		.branch = prog->setup.branch,
		.first_dir = prog->setup.first_dir,
		.flags = prog->setup.flags,
		.scheme = prog->setup.naming.scheme,
		.block = prog->block,
	};
	err = fsload_check_tree(&t, &r);
	return err ? fsload_refused(&r, tb, NULL, extack) : 0;
}

/* SEED, PROGRESS_MS, IDLE_MS, SAMPLE_MS, LAT_SAMPLE, CPU_PROFILE_*, STALL_MS */
static int fsload_parse_timing(struct fsload_program *prog, struct nlattr **tb,
			       struct netlink_ext_ack *extack)
{
	prog->setup.seed = tb[FSLOAD_A_JOB_SEED] ?
		     nla_get_u64(tb[FSLOAD_A_JOB_SEED]) : 1;
	prog->progress_ms = tb[FSLOAD_A_JOB_PROGRESS_MS] ?
			    nla_get_u32(tb[FSLOAD_A_JOB_PROGRESS_MS]) : 1000;
	if (prog->progress_ms && prog->progress_ms < FSLOAD_INTERVAL_MS_MIN) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_PROGRESS_MS],
				    "progress_ms: 0 (none) or at least "
				    __stringify(FSLOAD_INTERVAL_MS_MIN));
		return -ERANGE;
	}
	prog->idle_ms = tb[FSLOAD_A_JOB_IDLE_MS] ?
			nla_get_u32(tb[FSLOAD_A_JOB_IDLE_MS]) : 0;
	prog->sample_ms = tb[FSLOAD_A_JOB_SAMPLE_MS] ?
			  nla_get_u32(tb[FSLOAD_A_JOB_SAMPLE_MS]) : 0;
	if (prog->sample_ms && prog->sample_ms < FSLOAD_INTERVAL_MS_MIN) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_SAMPLE_MS],
				    "sample_ms: 0 (none) or at least "
				    __stringify(FSLOAD_INTERVAL_MS_MIN));
		return -ERANGE;
	}
	/* The policy holds it in 1 .. FSLOAD_LAT_SAMPLE_MAX. */
	prog->setup.lat_sample = tb[FSLOAD_A_JOB_LAT_SAMPLE] ?
			   nla_get_u32(tb[FSLOAD_A_JOB_LAT_SAMPLE]) : 1;
	prog->profile_hz = tb[FSLOAD_A_JOB_CPU_PROFILE_HZ] ?
			   nla_get_u32(tb[FSLOAD_A_JOB_CPU_PROFILE_HZ]) : 0;
	prog->profile_stacks = FSLOAD_PROFILE_STACKS_DEFAULT;
	/* By default, as many as fit many threads' tables in the bound. */
	while (prog->profile_stacks > 1 &&
	       prog->setup.threads * fsload_profile_bytes(prog->profile_stacks) >
	       FSLOAD_PROFILE_BYTES_MAX)
		prog->profile_stacks /= 2;
	if (tb[FSLOAD_A_JOB_CPU_PROFILE_STACKS])
		prog->profile_stacks =
			nla_get_u32(tb[FSLOAD_A_JOB_CPU_PROFILE_STACKS]);
	if (prog->profile_hz &&
	    prog->setup.threads * fsload_profile_bytes(prog->profile_stacks) >
	    FSLOAD_PROFILE_BYTES_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_CPU_PROFILE_STACKS],
				    "cpu-profile-stacks: threads x stacks over the module's 64 MiB per job");
		return -E2BIG;
	}
	prog->stall_ms = tb[FSLOAD_A_JOB_STALL_MS] ?
			 nla_get_u32(tb[FSLOAD_A_JOB_STALL_MS]) : 0;
	if (prog->stall_ms && prog->stall_ms < FSLOAD_STALL_MS_MIN) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_STALL_MS],
				    "stall_ms: 0 (never) or at least "
				    __stringify(FSLOAD_STALL_MS_MIN));
		return -ERANGE;
	}
	return 0;
}

/* PHASE: the program's phases, in request order; WORKER_CPU. */
static int fsload_parse_phases(struct fsload_program *prog,
			       struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	const struct nlattr *a;
	unsigned int n = 0;
	int rem, err;

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
	int err;

	prog->setup.threads = tb[FSLOAD_A_JOB_THREADS] ?
			nla_get_u32(tb[FSLOAD_A_JOB_THREADS]) : 1;
	if (prog->setup.threads > fsload_max_threads) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_THREADS],
				    "threads: more than the module parameter max_threads");
		return -ERANGE;
	}
	err = fsload_parse_groups(prog, info);
	if (err)
		return err;
	/* The policy holds it in 0 .. FSLOAD_RANK_MAX; its threads here. */
	prog->setup.rank = tb[FSLOAD_A_JOB_RANK] ?
		     nla_get_u32(tb[FSLOAD_A_JOB_RANK]) : 0;
	if (!fsload_rank_fits(prog->setup.rank, prog->setup.threads)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_RANK],
				    FSLOAD_RANK_RANGE);
		return -ERANGE;
	}
	/* fsload_check_tree() holds them */
	prog->setup.files = tb[FSLOAD_A_JOB_FILES] ?
		      nla_get_u64(tb[FSLOAD_A_JOB_FILES]) : 1000;
	prog->setup.files_per_dir = tb[FSLOAD_A_JOB_FILES_PER_DIR] ?
			      nla_get_u32(tb[FSLOAD_A_JOB_FILES_PER_DIR]) :
			      1000;
	prog->setup.flags = tb[FSLOAD_A_JOB_FLAGS] ?
		      nla_get_u32(tb[FSLOAD_A_JOB_FLAGS]) : 0;
	prog->block = !!tb[FSLOAD_A_JOB_DEVICE];
	if (prog->block && (prog->setup.flags & FSLOAD_JOB_F_SHARED_DIR)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_FLAGS],
				    "flags: shared_dir needs a dir, not a device");
		return -EINVAL;
	}
	if ((prog->setup.flags & FSLOAD_JOB_F_HOLD_END) &&
	    (prog->setup.flags & FSLOAD_JOB_F_DETACH)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[FSLOAD_A_JOB_FLAGS],
				    "flags: hold_end needs the job's owner, not detach");
		return -EINVAL;
	}
	err = fsload_parse_naming(prog, tb, extack);
	if (!err)
		err = fsload_parse_ranks(prog, tb, extack);
	if (err)
		return err;
	err = fsload_parse_tree(prog, tb, extack);
	if (!err)
		err = fsload_parse_timing(prog, tb, extack);
	if (err)
		return err;
	if (tb[FSLOAD_A_JOB_PROFILE])
		nla_strscpy(prog->profile, tb[FSLOAD_A_JOB_PROFILE],
			    sizeof(prog->profile));

	return fsload_parse_phases(prog, info);
}
