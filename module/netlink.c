// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: the generic netlink family - policies, request handlers and
 * notifications.  Job logic lives in job.c, program validation in
 * program.c, the target directory or device in target.c; this file only
 * translates.
 *
 * The family sets parallel_ops: handlers do not take the global genl
 * mutex and serialise on fsload_mutex (job.c) only where they must, and
 * none of them ever waits for a worker.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/netlink.h>
#include <linux/rwsem.h>
#include <linux/slab.h>
#include <linux/string.h>
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

static int fsload_put_u64(struct sk_buff *skb, int type, u64 v, int pad)
{
	return nla_put_u64_64bit(skb, type, v, pad);
}

/* A directory job's directory: what a joining job checks (join-*). */
static int fsload_fill_dir_id(struct sk_buff *skb,
			      const struct fsload_dir_id *id)
{
	if (fsload_put_u64(skb, FSLOAD_A_JOB_DIR_INO, id->ino,
			   FSLOAD_A_JOB_PAD) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_DIR_MODE, id->mode))
		return -EMSGSIZE;
	if (id->has_btime &&
	    fsload_put_u64(skb, FSLOAD_A_JOB_DIR_BTIME, id->btime_ns,
			   FSLOAD_A_JOB_PAD))
		return -EMSGSIZE;
	if (id->handle_bytes &&
	    (nla_put_u32(skb, FSLOAD_A_JOB_DIR_HANDLE_TYPE, id->handle_type) ||
	     nla_put(skb, FSLOAD_A_JOB_DIR_HANDLE, id->handle_bytes,
		     id->handle)))
		return -EMSGSIZE;
	return 0;
}

/*
 * Who sent a request, as far as fsload_privy() asks: CAP_SYS_ADMIN (the
 * socket opener's and the caller's, as for every command that needs it),
 * else the effective uid that the caller and the opener share, if they
 * do.  A dump takes it in its .start, in the sender's context.
 */
struct fsload_sender {
	bool admin;
	kuid_t euid;		/* INVALID_UID: none shared */
};

static void fsload_sender(const struct sk_buff *req, struct fsload_sender *s)
{
	const struct sock *sk = NETLINK_CB(req).sk;
	const struct file *f = sk && sk->sk_socket ? sk->sk_socket->file :
			       NULL;

	s->admin = netlink_capable(req, CAP_SYS_ADMIN);
	s->euid = f && uid_eq(current_euid(), f->f_cred->euid) ?
		  current_euid() : INVALID_UID;
}

/*
 * Whether @s is privy to @job's details that name or reach other
 * processes, or the kernel's insides: the ids and names of the threads
 * that ran during its phases, its workers' thread ids, its owner's
 * netlink port, its CPU profile (the kernel's functions and modules the
 * workers ran through).  An administrator, or the job's starter (by
 * effective uid).  Others get them left out, or refused (the profile); a
 * multicast status, which anyone may receive, never has them.
 */
static bool fsload_privy(const struct fsload_sender *s,
			 const struct fsload_job *job)
{
	return s->admin || uid_eq(s->euid, job->cred->euid);
}

/* fsload_privy() of the sender of @req, in its context. */
static bool fsload_nl_privy(const struct sk_buff *req,
			    const struct fsload_job *job)
{
	struct fsload_sender s;

	fsload_sender(req, &s);
	return fsload_privy(&s, job);
}

/* The job's stalls, as recorded so far; their thread ids if @privy. */
static int fsload_fill_stalls(struct sk_buff *skb, struct fsload_job *job,
			      bool privy)
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
		    (privy && nla_put_u32(skb, FSLOAD_A_STALL_PID, st[i].pid)) ||
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
	 * u32: ID, FLAGS, THREADS, RANK, RANKS, FILES_PER_DIR, TREE_BRANCH,
	 * FIRST_DIR, HELD, PROGRESS_MS, PHASES, OWNER_PORTID, CPUS, IDLE_MS,
	 * SAMPLE_MS, STALL_MS, PHASE_INDEX, ERRNO, LAT_SAMPLE, CPU_PROFILE_HZ,
	 * CPU_PROFILE_STACKS, NAME_BYTES, NAME_RANDOM_BYTES, DIR_MODE,
	 * DIR_HANDLE_TYPE; u8: STATE, PMU, CPU_PROFILE_CLOCK, NAMES,
	 * OP_CLOCK; u64: FILES, SEED, ELAPSED_NS, OPS, BYTES, DEVICE_BYTES or
	 * DIR_INO, DIR_BTIME, IDLE_NS, IDLE_BUSY_NS, OVERHEAD_OPS,
	 * OVERHEAD_NS, CPU_PROFILE_PERIOD, PHASE_ITEMS, PHASE_ITEMS_DONE;
	 * strings: DIR or DEVICE, PROFILE,
	 * ERROR_MSG, DIR_NAME; binary: DIR_HANDLE.
	 */
	n = 25 * u32s + 5 * u8s + 14 * u64s +
	    nla_total_size(FSLOAD_JOIN_DIR_MAX) +
	    nla_total_size(FSLOAD_JOIN_HANDLE_MAX) +
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
				  job->prog.setup.ngroups);
}

/* @job's set-up: what it was started with, fixed for its life. */
static int fsload_fill_setup(struct sk_buff *skb, struct fsload_job *job)
{
	const struct fsload_program *prog = &job->prog;
	int held = READ_ONCE(job->held);

	if (nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id) ||
	    fsload_put_path(skb, prog->block ? FSLOAD_A_JOB_DEVICE :
			    FSLOAD_A_JOB_DIR, job->dir_str) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_FLAGS, prog->setup.flags) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_THREADS, prog->setup.threads) ||
	    (prog->setup.rank && nla_put_u32(skb, FSLOAD_A_JOB_RANK, prog->setup.rank)) ||
	    (prog->setup.ranks > 1 &&
	     nla_put_u32(skb, FSLOAD_A_JOB_RANKS, prog->setup.ranks)) ||
	    (job->dir_name[0] &&
	     nla_put_string(skb, FSLOAD_A_JOB_DIR_NAME, job->dir_name)) ||
	    fsload_put_u64(skb, FSLOAD_A_JOB_FILES, prog->setup.files,
			   FSLOAD_A_JOB_PAD) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_FILES_PER_DIR, prog->setup.files_per_dir) ||
	    (prog->setup.branch &&
	     nla_put_u32(skb, FSLOAD_A_JOB_TREE_BRANCH, prog->setup.branch)) ||
	    (prog->setup.first_dir &&
	     nla_put_u32(skb, FSLOAD_A_JOB_FIRST_DIR, prog->setup.first_dir)) ||
	    (held && nla_put_u32(skb, FSLOAD_A_JOB_HELD, held - 1)) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_LAT_SAMPLE, prog->setup.lat_sample) ||
	    nla_put_u8(skb, FSLOAD_A_JOB_NAMES, prog->setup.naming.scheme) ||
	    (prog->setup.naming.scheme == FSLOAD_NAMES_FSMARK &&
	     (nla_put_u32(skb, FSLOAD_A_JOB_NAME_BYTES, prog->setup.naming.bytes) ||
	      nla_put_u32(skb, FSLOAD_A_JOB_NAME_RANDOM_BYTES,
			  prog->setup.naming.random))) ||
	    fsload_put_u64(skb, FSLOAD_A_JOB_SEED, prog->setup.seed,
			   FSLOAD_A_JOB_PAD))
		return -EMSGSIZE;
	return 0;
}

/* @job's thread groups, when more than one. */
static int fsload_fill_groups(struct sk_buff *skb,
			      const struct fsload_program *prog)
{
	unsigned int i;

	for (i = 0; prog->setup.ngroups > 1 && i < prog->setup.ngroups; i++) {
		struct nlattr *nest = nla_nest_start(skb, FSLOAD_A_JOB_GROUP);

		if (!nest ||
		    nla_put_string(skb, FSLOAD_A_GROUP_NAME,
				   prog->group_name[i]) ||
		    nla_put_u32(skb, FSLOAD_A_GROUP_THREADS,
				prog->setup.group_threads[i]))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* @job's status; its owner's port and stalled thread ids if @privy. */
static int fsload_fill_job(struct sk_buff *skb, struct fsload_job *job,
			   bool privy)
{
	const struct fsload_program *prog = &job->prog;
	enum fsload_job_state state;
	char errmsg[sizeof(job->errmsg)];
	u64 ops, bytes, items, done, end, idle_ns, idle_busy, oh_ops, oh_ns;
	u8 op_clock;
	int err, phase;

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
	op_clock = job->op_clock;
	spin_unlock(&job->lock);
	fsload_job_progress(job, &ops, &bytes, &items, &done);

	if (fsload_fill_setup(skb, job) ||
	    nla_put_string(skb, FSLOAD_A_JOB_PROFILE, prog->profile) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_PROGRESS_MS, prog->progress_ms) ||
	    nla_put_u8(skb, FSLOAD_A_JOB_STATE, state) ||
	    nla_put_u32(skb, FSLOAD_A_JOB_PHASES, prog->nphases) ||
	    (privy &&
	     nla_put_u32(skb, FSLOAD_A_JOB_OWNER_PORTID, job->owner_portid)) ||
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
			    FSLOAD_A_JOB_PAD) ||
	     nla_put_u8(skb, FSLOAD_A_JOB_OP_CLOCK, op_clock)))
		return -EMSGSIZE;
	if ((prog->sample_ms &&
	     nla_put_u32(skb, FSLOAD_A_JOB_SAMPLE_MS, prog->sample_ms)) ||
	    (prog->stall_ms &&
	     nla_put_u32(skb, FSLOAD_A_JOB_STALL_MS, prog->stall_ms)) ||
	    fsload_fill_stalls(skb, job, privy))
		return -EMSGSIZE;
	if (phase >= 0 &&
	    (nla_put_u32(skb, FSLOAD_A_JOB_PHASE_INDEX, phase) ||
	     fsload_put_u64(skb, FSLOAD_A_JOB_PHASE_ITEMS, items,
			    FSLOAD_A_JOB_PAD) ||
	     fsload_put_u64(skb, FSLOAD_A_JOB_PHASE_ITEMS_DONE, done,
			    FSLOAD_A_JOB_PAD)))
		return -EMSGSIZE;
	if (prog->profile_hz &&
	    (nla_put_u32(skb, FSLOAD_A_JOB_CPU_PROFILE_HZ, prog->profile_hz) ||
	     nla_put_u32(skb, FSLOAD_A_JOB_CPU_PROFILE_STACKS,
			 prog->profile_stacks) ||
	     nla_put_u8(skb, FSLOAD_A_JOB_CPU_PROFILE_CLOCK, job->prof_clock) ||
	     fsload_put_u64(skb, FSLOAD_A_JOB_CPU_PROFILE_PERIOD,
			    job->prof_period, FSLOAD_A_JOB_PAD)))
		return -EMSGSIZE;
	if (job->dir_id.ino && fsload_fill_dir_id(skb, &job->dir_id))
		return -EMSGSIZE;
	if (err && (nla_put_u32(skb, FSLOAD_A_JOB_ERRNO, -err) ||
		    nla_put_string(skb, FSLOAD_A_JOB_ERROR_MSG, errmsg)))
		return -EMSGSIZE;
	/* The workers: FSLOAD_CMD_WORKER_GET, not here. */
	return fsload_fill_groups(skb, prog);
}

/*
 * Fill @skb, of fsload_job_msg_size(), with @job's status.  It fits; were
 * it ever not to, the message carries the job's id alone rather than
 * fail (a started job's reply, a notification).  Frees @skb on failure.
 */
static struct sk_buff *fsload_job_msg_fill(struct sk_buff *skb,
					   struct fsload_job *job, bool privy,
					   u32 portid, u32 seq, int flags,
					   u8 cmd)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &fsload_family, flags, cmd);
	if (hdr && WARN_ON_ONCE(fsload_fill_job(skb, job, privy))) {
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

/*
 * @job's status in a new message, its private details if @privy; @gfp
 * GFP_KERNEL_ACCOUNT for a reply, which its requester's memory cgroup
 * pays for until it reads it.
 */
static struct sk_buff *fsload_job_msg(struct fsload_job *job, bool privy,
				      u32 portid, u32 seq, int flags, u8 cmd,
				      gfp_t gfp)
{
	struct sk_buff *skb = genlmsg_new(fsload_job_msg_size(job), gfp);

	if (!skb)
		return ERR_PTR(-ENOMEM);
	return fsload_job_msg_fill(skb, job, privy, portid, seq, flags, cmd);
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
	/* Anyone may listen: nothing that only the privy see. */
	skb = fsload_job_msg(job, false, 0, 0, 0, cmd, GFP_KERNEL);
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
	if (!(job->prog.setup.flags & FSLOAD_JOB_F_DETACH))
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
	/* To the starter, who is privy. */
	reply = fsload_job_msg_fill(reply, job, true, info->snd_portid,
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

/*
 * What the family's pre_doit does before an op's doit, by the op's
 * internal_flags; post_doit undoes it.
 */
#define FSLOAD_NL_ADMIN		BIT(0)	/* the sender needs CAP_SYS_ADMIN */
#define FSLOAD_NL_JOB		BIT(1)	/* ID names a job: info->user_ptr[0],
					 * held until post_doit
					 */

static int fsload_nl_pre_doit(const struct fsload_genl_split_ops *ops,
			      struct sk_buff *skb, struct genl_info *info)
{
	struct fsload_job *job;
	int err;

	if (ops->internal_flags & FSLOAD_NL_ADMIN) {
		err = fsload_check_admin(skb, info);
		if (err)
			return err;
	}
	if (ops->internal_flags & FSLOAD_NL_JOB) {
		job = fsload_nl_job(info);
		if (IS_ERR(job))
			return PTR_ERR(job);
		info->user_ptr[0] = job;
	}
	return 0;
}

static void fsload_nl_post_doit(const struct fsload_genl_split_ops *ops,
				struct sk_buff *skb, struct genl_info *info)
{
	if (ops->internal_flags & FSLOAD_NL_JOB)
		fsload_job_put(info->user_ptr[0]);
}

static int fsload_nl_stop(struct sk_buff *skb, struct genl_info *info)
{
	struct fsload_job *job = info->user_ptr[0];
	bool ended;
	int err = 0;

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
	return err;
}

/*
 * Release a held job; with HELD, only its hold before that phase, so that
 * a resume sent late (for a hold already over) cannot release the next.
 */
static int fsload_nl_resume(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *want = info->attrs[FSLOAD_A_JOB_HELD];
	struct fsload_job *job = info->user_ptr[0];
	int err = 0, held;

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
	return err;
}

static int fsload_nl_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct fsload_job *job = info->user_ptr[0];
	struct sk_buff *reply;

	reply = fsload_job_msg(job, fsload_nl_privy(skb, job),
			       info->snd_portid, info->snd_seq, 0,
			       FSLOAD_CMD_JOB_GET, GFP_KERNEL_ACCOUNT);
	if (IS_ERR(reply))
		return PTR_ERR(reply);
	return genlmsg_reply(reply, info);
}

/* JOB_GET dump state: the next job id to report; who asked (.start). */
struct fsload_dump_ctx {
	u32 next_id;
	struct fsload_sender sender;
};

static int fsload_nl_get_start(struct netlink_callback *cb)
{
	struct fsload_dump_ctx *ctx = (void *)cb->ctx;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	ctx->next_id = 1;
	fsload_sender(cb->skb, &ctx->sender);
	return 0;
}

static int fsload_nl_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct fsload_dump_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job;
	bool privy;
	void *hdr;
	int err = 0;

	while ((job = fsload_job_get_next(&ctx->next_id))) {
		privy = fsload_privy(&ctx->sender, job);
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &fsload_family,
				  NLM_F_MULTI, FSLOAD_CMD_JOB_GET);
		err = hdr ? fsload_fill_job(skb, job, privy) : -EMSGSIZE;
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

/*
 * The dumps of one job (WORKER_GET, RESULT_GET, SERIES_GET, PROFILE_GET)
 * keep no reference between their calls: anyone may start one and never
 * read it, and must not keep a forgotten job's results, profile and time
 * series in memory that way.  Their .start looks the job up and notes
 * which one it is in this, part of their context; each dumpit call
 * looks it up again and holds it for that call only.  A job forgotten
 * meanwhile (max_finished) ends the dump with an error; so does an ID
 * that named none at the start, from the first call on, as the dump's
 * own error (in its NLMSG_DONE).  Nothing else is kept across calls but
 * the position in the context, so no dump has a .done.
 */
struct fsload_job_dump {
	u64 serial;		/* the job's; 0: ID named none */
};

/*
 * Start a dump of the job ID names; @d is in the dump's context.  Returns
 * the job, referenced for .start's own use, or NULL.
 */
static struct fsload_job *fsload_job_dump_start(struct netlink_callback *cb,
						struct fsload_job_dump *d)
{
	struct nlattr *id = fsload_dump_attrs(cb)[FSLOAD_A_JOB_ID];
	struct fsload_job *job;

	BUILD_BUG_ON(sizeof(struct fsload_job_dump) > sizeof(cb->ctx));
	job = id ? fsload_job_get(nla_get_u32(id)) : NULL;
	d->serial = job ? job->serial : 0;
	return job;
}

/* Why a dump has no job: ID is missing or names none. */
static int fsload_job_dump_none(struct netlink_callback *cb)
{
	struct nlattr *id = fsload_dump_attrs(cb)[FSLOAD_A_JOB_ID];

	if (!id) {
		NL_SET_ERR_ATTR_MISS(cb->extack, NULL, FSLOAD_A_JOB_ID);
		NL_SET_ERR_MSG(cb->extack, "id: required");
		return -EINVAL;
	}
	NL_SET_ERR_MSG_ATTR(cb->extack, id, "id: no such job");
	return -ENOENT;
}

/*
 * The job of the dump at @d, referenced for this dumpit call, or an
 * ERR_PTR(): the dump's error, its extack set.
 */
static struct fsload_job *fsload_job_dump_get(struct netlink_callback *cb,
					      const struct fsload_job_dump *d)
{
	struct nlattr *id = fsload_dump_attrs(cb)[FSLOAD_A_JOB_ID];
	struct fsload_job *job;

	if (!d->serial)
		return ERR_PTR(fsload_job_dump_none(cb));
	job = fsload_job_get(nla_get_u32(id));
	if (job && job->serial == d->serial)
		return job;
	fsload_job_put(job);	/* another job of the same id */
	NL_SET_ERR_MSG_ATTR(cb->extack, id,
			    "id: the job was forgotten during the dump (module parameter max_finished)");
	return ERR_PTR(-ENOENT);
}

/*
 * WORKER_GET dump state: the job and whether the sender may see its
 * workers' thread ids, then the next worker to report.
 */
struct fsload_worker_ctx {
	struct fsload_job_dump d;
	bool privy;
	u32 next;
};

static int fsload_nl_worker_start(struct netlink_callback *cb)
{
	struct fsload_worker_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	job = fsload_job_dump_start(cb, &ctx->d);
	/* The sender's, decided once: later calls run in the reader's. */
	if (job)
		ctx->privy = fsload_nl_privy(cb->skb, job);
	fsload_job_put(job);
	return 0;
}

/* Worker @i of @job: its index, thread id if @privy, CPU when pinned. */
static int fsload_fill_worker(struct sk_buff *skb,
			      const struct fsload_job *job, u32 i, bool privy)
{
	const struct fsload_program *prog = &job->prog;
	struct nlattr *nest = nla_nest_start(skb, FSLOAD_A_JOB_WORKER);

	if (!nest)
		return -EMSGSIZE;
	/* Thread ids stay valid as numbers after the workers end. */
	if (nla_put_u32(skb, FSLOAD_A_WORKER_INDEX, i) ||
	    (privy &&
	     nla_put_u32(skb, FSLOAD_A_WORKER_PID, job->workers[i].pid)) ||
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
	struct fsload_job *job = fsload_job_dump_get(cb, &ctx->d);
	unsigned int n;
	void *hdr;
	int err = 0;

	if (IS_ERR(job))
		return PTR_ERR(job);
	/* One message per buffer, as many workers as fit. */
	while (ctx->next < job->prog.setup.threads) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &fsload_family,
				  NLM_F_MULTI, FSLOAD_CMD_WORKER_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		n = 0;
		if (!nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id)) {
			while (ctx->next < job->prog.setup.threads &&
			       !fsload_fill_worker(skb, job, ctx->next,
						   ctx->privy)) {
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
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_MISSES, s->misses,
			   FSLOAD_A_OPSTAT_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_BYTES, s->bytes,
			   FSLOAD_A_OPSTAT_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_SAMPLED,
			   fsload_opstat_timed(s), FSLOAD_A_OPSTAT_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_LAT_SUM_NS, s->lat_sum,
			   FSLOAD_A_OPSTAT_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_OPSTAT_LAT_MIN_NS,
			   fsload_opstat_timed(s) ? s->lat_min : 0,
			   FSLOAD_A_OPSTAT_PAD) ||
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
		pg = &r->sum.progress[k];
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
				   fsload_elapsed(r->start_ns, pg->end_ns),
				   FSLOAD_A_PROGRESS_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
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
	if (job->prog.profile_hz &&
	    (fsload_put_u64(skb, FSLOAD_A_RES_PROFILE_SAMPLES, r->prof_samples,
			    FSLOAD_A_RES_PAD) ||
	     fsload_put_u64(skb, FSLOAD_A_RES_PROFILE_DROPPED, r->prof_dropped,
			    FSLOAD_A_RES_PAD) ||
	     fsload_put_u64(skb, FSLOAD_A_RES_PROFILE_NS, r->prof_ns,
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
	r = kmalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	spin_lock(&job->lock);
	*r = *src;
	spin_unlock(&job->lock);
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		ops += r->sum.op[t].ops;
		errors += r->sum.op[t].errors;
		bytes += r->sum.op[t].bytes;
	}

	if (nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id))
		goto out;
	nest = nla_nest_start(skb, FSLOAD_A_JOB_RESULT);
	if (!nest ||
	    nla_put_u32(skb, FSLOAD_A_RES_PHASE_INDEX, p) ||
	    nla_put_string(skb, FSLOAD_A_RES_PHASE_NAME,
			   job->prog.phases[p].name) ||
	    nla_put_u32(skb, FSLOAD_A_RES_THREADS, r->sum.threads) ||
	    nla_put_u8(skb, FSLOAD_A_RES_COMPLETE,
		       r->sum.complete == job->prog.setup.threads) ||
	    nla_put_u8(skb, FSLOAD_A_RES_STONEWALLED, !!r->sum.stonewalled) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_START_NS, r->start_ns,
			   FSLOAD_A_RES_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_ELAPSED_NS,
			   fsload_result_elapsed(r),
			   FSLOAD_A_RES_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_OPS, ops, FSLOAD_A_RES_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_ERRORS, errors, FSLOAD_A_RES_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_BYTES, bytes, FSLOAD_A_RES_PAD) ||
	    fsload_put_u64(skb, FSLOAD_A_RES_OP_CLOCK_BACK_STEPS,
			   r->sum.clk_back, FSLOAD_A_RES_PAD) ||
	    fsload_fill_cpu(skb, job, r, names) ||
	    fsload_fill_progress(skb, r))
		goto out;
	/* once a worker ran the phase: the clock its ops were timed with */
	if (r->sum.threads &&
	    nla_put_u8(skb, FSLOAD_A_RES_OP_CLOCK,
		       r->sum.clk_tsc == r->sum.threads ?
		       FSLOAD_OP_CLOCK_TSC : FSLOAD_OP_CLOCK_KTIME))
		goto out;
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		if (!fsload_opstat_ran(&r->sum.op[t]))
			continue;
		if (fsload_fill_opstat(skb, t, &r->sum.op[t]))
			goto out;
	}
	nla_nest_end(skb, nest);
	err = 0;
out:
	kfree(r);
	return err;
}

/*
 * RESULT_GET dump state: the job and whether the sender may see its
 * threads' names, then the position: phase, then within it 0 for the
 * summary or the op type whose histogram is next, from bucket.
 */
struct fsload_res_ctx {
	struct fsload_job_dump d;
	bool names;
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

static int fsload_nl_result_start(struct netlink_callback *cb)
{
	struct fsload_res_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	job = fsload_job_dump_start(cb, &ctx->d);
	/* The sender's, decided once: later calls run in the reader's. */
	if (job)
		ctx->names = fsload_nl_privy(cb->skb, job);
	fsload_job_put(job);
	return 0;
}

static int fsload_nl_result_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct fsload_res_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job = fsload_job_dump_get(cb, &ctx->d);
	bool started;
	void *hdr;
	int err = 0;

	if (IS_ERR(job))
		return PTR_ERR(job);
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
		err = fsload_fill_result_msg(skb, job, ctx, ctx->names);
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
		    fsload_put_u64(skb, FSLOAD_A_SAMPLE_OP_SAMPLED, o[5],
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

/* SERIES_GET dump state: the job, then the next sequence number. */
struct fsload_series_ctx {
	struct fsload_job_dump d;
	u64 next;
};

/*
 * Samples copied from the ring per message at most, into a buffer of a
 * page at most (a sample is much smaller), allocated in each dumpit call.
 */
#define FSLOAD_SERIES_BATCH	64

static int fsload_nl_series_start(struct netlink_callback *cb)
{
	struct fsload_series_ctx *ctx = (void *)cb->ctx;
	struct nlattr **attrs = fsload_dump_attrs(cb);

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	fsload_job_put(fsload_job_dump_start(cb, &ctx->d));
	if (attrs[FSLOAD_A_JOB_SERIES_FROM])
		ctx->next = nla_get_u64(attrs[FSLOAD_A_JOB_SERIES_FROM]);
	return 0;
}

static int fsload_nl_series_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct fsload_series_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job = fsload_job_dump_get(cb, &ctx->d);
	unsigned int n, i, words, batch;
	u64 first, *buf = NULL;
	void *hdr = NULL;
	int err = 0;

	if (IS_ERR(job))
		return PTR_ERR(job);
	if (!job->ring)
		goto out;	/* no ring: no samples */
	words = fsload_series_words(job);
	batch = clamp_t(size_t, PAGE_SIZE / (words * sizeof(u64)), 1,
			FSLOAD_SERIES_BATCH);
	buf = kmalloc_array(batch, words * sizeof(u64), GFP_KERNEL_ACCOUNT);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	/* One message per batch, as many samples as fit. */
	while ((n = fsload_series_copy(job, ctx->next, buf, batch,
				       &first))) {
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
out:
	kfree(buf);
	fsload_job_put(job);
	/* A sample too big for an empty buffer would loop forever. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

/*
 * PROFILE_GET dump state: the job and whether the sender may read its
 * profile, then the next worker and slot.
 */
struct fsload_profile_ctx {
	struct fsload_job_dump d;
	bool privy;
	u32 worker;
	u32 slot;
};

static int fsload_nl_profile_start(struct netlink_callback *cb)
{
	struct fsload_profile_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	job = fsload_job_dump_start(cb, &ctx->d);
	/* The sender's, decided once: later calls run in the reader's. */
	if (job)
		ctx->privy = fsload_nl_privy(cb->skb, job);
	fsload_job_put(job);
	return 0;
}

/*
 * The next stack at or after ctx's position, its worker in *@wp, or NULL
 * at the end.
 */
static const struct fsload_pstack *
fsload_pstack_next(const struct fsload_job *job, struct fsload_profile_ctx *ctx,
		   const struct fsload_worker **wp)
{
	const struct fsload_worker *w;

	for (; ctx->worker < job->prog.setup.threads; ctx->worker++, ctx->slot = 0) {
		w = &job->workers[ctx->worker];
		for (; ctx->slot < job->prog.profile_stacks; ctx->slot++) {
			if (w->pstacks[ctx->slot].samples) {
				*wp = w;
				return &w->pstacks[ctx->slot];
			}
		}
	}
	return NULL;
}

static int fsload_fill_pstack(struct sk_buff *skb,
			      const struct fsload_worker *w,
			      const struct fsload_pstack *s, char *buf)
{
	struct nlattr *nest = nla_nest_start(skb, FSLOAD_A_JOB_PROFILE_STACK);
	const struct fsload_ppath *p = &w->ppaths[s->path];

	fsload_profile_frames(w, s, buf, FSLOAD_PROFILE_FRAMES_MAX);
	if (!nest ||
	    nla_put_u32(skb, FSLOAD_A_PROFILE_STACK_PHASE_INDEX, p->phase) ||
	    nla_put_u8(skb, FSLOAD_A_PROFILE_STACK_OP, p->op) ||
	    fsload_put_u64(skb, FSLOAD_A_PROFILE_STACK_SAMPLES, s->samples,
			   FSLOAD_A_PROFILE_STACK_PAD) ||
	    nla_put_string(skb, FSLOAD_A_PROFILE_STACK_FRAMES, buf)) {
		if (nest)
			nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Why @job has no profile to dump (yet, or for this sender), or 0. */
static int fsload_profile_none(struct netlink_callback *cb,
			       struct fsload_job *job, bool privy)
{
	enum fsload_job_state state;

	/* Kernel functions and modules, which kallsyms shows to root only. */
	if (!privy) {
		NL_SET_ERR_MSG_ATTR(cb->extack,
				    fsload_dump_attrs(cb)[FSLOAD_A_JOB_ID],
				    "id: only the job's starter or CAP_SYS_ADMIN may read its CPU profile");
		return -EPERM;
	}
	if (!job->prog.profile_hz) {
		NL_SET_ERR_MSG(cb->extack, "id: the job has no CPU profile");
		return -ENODATA;
	}
	spin_lock(&job->lock);
	state = job->state;
	spin_unlock(&job->lock);
	/* The reaper released the events before it set the end state. */
	if (state == FSLOAD_JOB_RUNNING || state == FSLOAD_JOB_STOPPING) {
		NL_SET_ERR_MSG(cb->extack, "id: the job is still running");
		return -EBUSY;
	}
	return 0;
}

static int fsload_nl_profile_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	struct fsload_profile_ctx *ctx = (void *)cb->ctx;
	struct fsload_job *job = fsload_job_dump_get(cb, &ctx->d);
	const struct fsload_worker *w;
	const struct fsload_pstack *s;
	unsigned int n;
	char *buf = NULL;
	void *hdr;
	int err = 0;

	if (IS_ERR(job))
		return PTR_ERR(job);
	err = fsload_profile_none(cb, job, ctx->privy);
	if (err)
		goto out;
	buf = kmalloc(FSLOAD_PROFILE_FRAMES_MAX, GFP_KERNEL_ACCOUNT);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	/* One message per buffer, as many stacks as fit. */
	while ((s = fsload_pstack_next(job, ctx, &w))) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &fsload_family,
				  NLM_F_MULTI, FSLOAD_CMD_PROFILE_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		n = 0;
		if (!nla_put_u32(skb, FSLOAD_A_JOB_ID, job->id)) {
			while (s && !fsload_fill_pstack(skb, w, s, buf)) {
				ctx->slot++;
				n++;
				s = fsload_pstack_next(job, ctx, &w);
			}
		}
		if (!n) {
			genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
	}
out:
	kfree(buf);
	fsload_job_put(job);
	/* A stack too big for an empty buffer would loop forever. */
	if (err && !skb->len)
		return err;
	return skb->len;
}

static const struct genl_ops fsload_ops[] = {
	{
		.cmd = FSLOAD_CMD_JOB_START,
		.internal_flags = FSLOAD_NL_ADMIN,
		.doit = fsload_nl_start,
		.policy = fsload_job_start_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_job_start_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_JOB_STOP,
		.internal_flags = FSLOAD_NL_ADMIN | FSLOAD_NL_JOB,
		.doit = fsload_nl_stop,
		.policy = fsload_job_stop_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_job_stop_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_JOB_RESUME,
		.internal_flags = FSLOAD_NL_ADMIN | FSLOAD_NL_JOB,
		.doit = fsload_nl_resume,
		.policy = fsload_job_resume_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_job_resume_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_JOB_GET,
		.internal_flags = FSLOAD_NL_JOB,	/* the doit's */
		.doit = fsload_nl_get_doit,
		.start = fsload_nl_get_start,
		.dumpit = fsload_nl_get_dumpit,
		.policy = fsload_job_get_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_job_get_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_RESULT_GET,
		.start = fsload_nl_result_start,
		.dumpit = fsload_nl_result_dumpit,
		.policy = fsload_result_get_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_result_get_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_SERIES_GET,
		.start = fsload_nl_series_start,
		.dumpit = fsload_nl_series_dumpit,
		.policy = fsload_series_get_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_series_get_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_WORKER_GET,
		.start = fsload_nl_worker_start,
		.dumpit = fsload_nl_worker_dumpit,
		.policy = fsload_worker_get_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_worker_get_nl_policy) - 1,
	},
	{
		.cmd = FSLOAD_CMD_PROFILE_GET,
		.start = fsload_nl_profile_start,
		.dumpit = fsload_nl_profile_dumpit,
		.policy = fsload_profile_get_nl_policy,
		.maxattr = ARRAY_SIZE(fsload_profile_get_nl_policy) - 1,
	},
};

static struct genl_family fsload_family __ro_after_init = {
	.name = FSLOAD_FAMILY_NAME,
	.version = FSLOAD_FAMILY_VERSION,
	.module = THIS_MODULE,
	.parallel_ops = true,
	.pre_doit = fsload_nl_pre_doit,
	.post_doit = fsload_nl_post_doit,
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
