// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_nl_test: the generic netlink interface of fsload.ko, exercised by
 * a client of its own built on libnl-3 / libnl-genl-3 (deliberately
 * independent of ctl/fsloadctl's libmnl code).
 *
 * Runs as root with the module loaded and a scratch filesystem mounted at
 * $FSLOAD_DIR, normally in a guest:
 *
 *	scripts/vm-run -- tests/build/fsload_nl_test
 *
 * Requests are built with libnl (nlmsg_alloc, genlmsg_put, nla_put*,
 * nla_nest_start), or byte by byte where libnl would refuse; replies are
 * read with nl_recv() and decoded here, including the extended ACK TLVs
 * (NETLINK_EXT_ACK, NETLINK_CAP_ACK), so that every rejection can be
 * checked for its errno, its message and the attribute it points at.
 *
 * Every job this program starts carries the profile label PROFILE; the
 * fixtures' teardowns stop their jobs, and an exit handler stops any that
 * a killed test (timeout) left running and restores the module
 * parameters it changed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include <linux/fsload.h>

#include "util.h"

/*
 * One ordered stream: the harness's logs go with its KTAP lines to
 * stdout (line-buffered below, as test processes end with _exit()),
 * which scripts/vm-run carries apart from stderr.
 */
#define TH_LOG_STREAM stdout
#include "kselftest_harness.h"

/* TEST() has no timeout argument; the guest is emulated. */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 120

#define PROFILE		"fsload_nl_test"	/* label of our jobs */
#define NOBODY		65534
#define REPLY_MS	(30 * 1000)	/* one request's answer */
#define JOB_MS		(120 * 1000)	/* a small job to end */
#define STOP_MS		(60 * 1000)	/* a job to end once stopped */
#define LONG_ITERATIONS	1000000000000ULL	/* "never" ends */
#define MAX_REPLIES	512
#define MAX_JOBS_SEEN	256
#define MSG_SIZE	65536
#define REGULAR_FILE	"nl_test.regular"	/* in $FSLOAD_DIR */
#define SELF_LINK	"nl_test.self"		/* a symlink to "." there */

/* ------------------------------------------------------------------ */
/* Small utilities                                                     */
/* ------------------------------------------------------------------ */

/* The names in @dir, sorted, one a line; NULL when unreadable. */
static char *listing(const char *dir)
{
	struct dirent **ents;
	size_t len = 1, pos = 0;
	char *s;
	int n, i;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return NULL;
	for (i = 0; i < n; i++)
		len += strlen(ents[i]->d_name) + 1;
	s = malloc(len);
	if (s) {
		s[0] = '\0';
		for (i = 0; i < n; i++) {
			const char *d = ents[i]->d_name;

			if (!strcmp(d, ".") || !strcmp(d, ".."))
				continue;
			pos += sprintf(s + pos, "%s\n", d);
		}
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return s;
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static void job_path(char *buf, size_t size, const char *dir, uint32_t id)
{
	if (snprintf(buf, size, "%s/fsload-%u", dir, id) >= (int)size)
		buf[0] = '\0';
}

/* ------------------------------------------------------------------ */
/* The netlink client                                                  */
/* ------------------------------------------------------------------ */

struct fsl {
	struct nl_sock *sk;
	int family;
	uint32_t seq;	/* ours, apart from libnl's (see fsl_xfer()) */
};

/*
 * What came back for one request: the data messages (copies), and the
 * NLMSG_ERROR or NLMSG_DONE that ended it with its extended ACK TLVs.
 */
struct reply {
	int err;		/* positive errno; 0 for success */
	bool done;		/* ended by a dump's NLMSG_DONE */
	bool has_msg, has_offs, has_miss_type, has_miss_nest;
	char msg[256];		/* NLMSGERR_ATTR_MSG */
	uint32_t offs;		/* NLMSGERR_ATTR_OFFS */
	uint32_t miss_type;	/* NLMSGERR_ATTR_MISS_TYPE */
	uint32_t miss_nest;	/* NLMSGERR_ATTR_MISS_NEST */
	int n;			/* data messages received */
	struct nlmsghdr *m[MAX_REPLIES];	/* the first MAX_REPLIES */
	unsigned char *req;	/* the request as sent */
	uint32_t req_len;
};

static void reply_free(struct reply *r)
{
	int i;

	for (i = 0; i < r->n && i < MAX_REPLIES; i++)
		free(r->m[i]);
	free(r->req);
	memset(r, 0, sizeof(*r));
}

static void fsl_close(struct fsl *f)
{
	if (f->sk)
		nl_socket_free(f->sk);
	f->sk = NULL;
}

/* 0, -ENOENT when the family is not registered, or another -errno. */
static int fsl_open(struct fsl *f)
{
	int one = 1, fd, err;

	memset(f, 0, sizeof(*f));
	f->sk = nl_socket_alloc();
	if (!f->sk)
		return -ENOMEM;
	if (genl_connect(f->sk) < 0) {
		err = -EIO;
		goto fail;
	}
	f->family = genl_ctrl_resolve(f->sk, FSLOAD_FAMILY_NAME);
	if (f->family < 0) {
		err = -ENOENT;
		goto fail;
	}
	/* Datagrams of any size; errors with TLVs, without our request. */
	nl_socket_enable_msg_peek(f->sk);
	fd = nl_socket_get_fd(f->sk);
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one))) {
		err = -errno;
		goto fail;
	}
	return 0;
fail:
	fsl_close(f);
	return err;
}

static uint32_t fsl_port(struct fsl *f)
{
	return nl_socket_get_local_port(f->sk);
}

/* A request of ours: port and sequence are filled in when sent. */
static struct nl_msg *fsl_msg(struct fsl *f, uint8_t cmd, int flags)
{
	struct nl_msg *m = nlmsg_alloc_size(MSG_SIZE);

	if (m && !genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, f->family, 0,
			      flags, cmd, FSLOAD_FAMILY_VERSION)) {
		nlmsg_free(m);
		m = NULL;
	}
	return m;
}

static void parse_ack_tlvs(struct reply *r, const void *p, int len)
{
	const struct nlattr *a;
	int rem;

	nla_for_each_attr(a, p, len, rem) {
		switch (nla_type(a)) {
		case NLMSGERR_ATTR_MSG:
			r->has_msg = true;
			snprintf(r->msg, sizeof(r->msg), "%.*s", nla_len(a),
				 (const char *)nla_data(a));
			break;
		case NLMSGERR_ATTR_OFFS:
			r->has_offs = true;
			r->offs = nla_get_u32((struct nlattr *)a);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			r->has_miss_type = true;
			r->miss_type = nla_get_u32((struct nlattr *)a);
			break;
		case NLMSGERR_ATTR_MISS_NEST:
			r->has_miss_nest = true;
			r->miss_nest = nla_get_u32((struct nlattr *)a);
			break;
		}
	}
}

/* NLMSG_ERROR (an ACK, or an error) or NLMSG_DONE (a dump's end). */
static void parse_end(struct reply *r, const struct nlmsghdr *h)
{
	const unsigned char *p = nlmsg_data(h);
	int len = nlmsg_datalen(h), off;
	int32_t e = 0;

	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *me = (const void *)p;

		if (len < (int)sizeof(*me)) {
			r->err = EBADMSG;
			return;
		}
		e = me->error;
		off = NLMSG_ALIGN(sizeof(*me));
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			off += NLMSG_ALIGN(me->msg.nlmsg_len - NLMSG_HDRLEN);
	} else {
		r->done = true;
		if (len >= (int)sizeof(e))
			memcpy(&e, p, sizeof(e));
		off = NLMSG_ALIGN(sizeof(e));
	}
	r->err = -e;
	if ((h->nlmsg_flags & NLM_F_ACK_TLVS) && off < len)
		parse_ack_tlvs(r, p + off, len - off);
}

/*
 * Receive everything that answers request @seq until its NLMSG_ERROR or
 * NLMSG_DONE.  0, or -ETIMEDOUT, or -EIO.
 */
static int fsl_recv(struct fsl *f, uint32_t seq, struct reply *r,
		    int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	int fd = nl_socket_get_fd(f->sk);

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct sockaddr_nl from;
		unsigned char *buf = NULL;
		struct nlmsghdr *h;
		bool end = false;
		int n, left = deadline - now_ms();

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? -errno : -ETIMEDOUT;
		n = nl_recv(f->sk, &from, &buf, NULL);
		if (n <= 0) {
			free(buf);
			return -EIO;
		}
		for (h = (void *)buf; nlmsg_ok(h, n); h = nlmsg_next(h, &n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR ||
			    h->nlmsg_type == NLMSG_DONE) {
				parse_end(r, h);
				end = true;
				break;
			}
			if (h->nlmsg_type < NLMSG_MIN_TYPE)
				continue;
			if (r->n < MAX_REPLIES) {
				r->m[r->n] = malloc(h->nlmsg_len);
				if (!r->m[r->n]) {
					free(buf);
					return -ENOMEM;
				}
				memcpy(r->m[r->n], h, h->nlmsg_len);
			}
			r->n++;
		}
		free(buf);
		if (end)
			return 0;
	}
}

/*
 * Send @m (consumed) with NLM_F_ACK and collect its answer in @r, which
 * the caller frees with reply_free().  0 when an answer came (r->err is
 * the kernel's verdict), or a negative errno of the exchange itself.
 */
static int fsl_xfer(struct fsl *f, struct nl_msg *m, struct reply *r)
{
	struct nlmsghdr *nlh = nlmsg_hdr(m);
	uint32_t seq;
	int ret;

	memset(r, 0, sizeof(*r));
	/*
	 * Not libnl's next sequence number: its own exchanges (such as
	 * genl_ctrl_resolve_grp()) expect the replies to those in order.
	 */
	if (nlh->nlmsg_seq == NL_AUTO_SEQ)
		nlh->nlmsg_seq = ++f->seq;
	nl_complete_msg(f->sk, m);
	nlh->nlmsg_flags |= NLM_F_ACK;
	seq = nlh->nlmsg_seq;
	r->req_len = nlh->nlmsg_len;
	r->req = malloc(r->req_len);
	if (r->req)
		memcpy(r->req, nlh, r->req_len);
	ret = nl_send(f->sk, m);
	nlmsg_free(m);
	if (ret < 0)
		return -EIO;
	return fsl_recv(f, seq, r, REPLY_MS);
}

/* Top-level attribute @type of a genetlink message, or NULL. */
static struct nlattr *gattr(const struct nlmsghdr *h, int type)
{
	struct genlmsghdr *g = nlmsg_data(h);

	return nla_find(genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), type);
}

static uint8_t gcmd(const struct nlmsghdr *h)
{
	return ((struct genlmsghdr *)nlmsg_data(h))->cmd;
}

static bool a_get_u8(struct nlattr *a, uint8_t *v)
{
	if (!a || nla_len(a) != 1)
		return false;
	*v = nla_get_u8(a);
	return true;
}

static bool a_get_u16(struct nlattr *a, uint16_t *v)
{
	if (!a || nla_len(a) != 2)
		return false;
	*v = nla_get_u16(a);
	return true;
}

static bool a_get_u32(struct nlattr *a, uint32_t *v)
{
	if (!a || nla_len(a) != 4)
		return false;
	*v = nla_get_u32(a);
	return true;
}

static bool a_get_u64(struct nlattr *a, uint64_t *v)
{
	if (!a || nla_len(a) != 8)
		return false;
	*v = nla_get_u64(a);
	return true;
}

static bool a_get_str(struct nlattr *a, char *buf, size_t size)
{
	if (!a || !nla_len(a) || ((char *)nla_data(a))[nla_len(a) - 1])
		return false;
	snprintf(buf, size, "%s", (char *)nla_data(a));
	return true;
}

static struct nlattr *nattr(struct nlattr *nest, int type)
{
	return nla_find(nla_data(nest), nla_len(nest), type);
}

/* A job's status, from JOB_GET, the JOB_START reply or a notification. */
struct jobinfo {
	uint32_t id, flags, threads, fpd, progress_ms, phases, owner;
	uint32_t phase_index, err, nworkers, ncpus;
	uint32_t pid[8];	/* the first worker thread ids (WORKER_GET) */
	uint32_t status_pids;	/* WORKER_PIDs in the status: none */
	uint64_t files, seed, elapsed, ops, bytes;
	uint32_t held;
	uint8_t state;
	bool has_phase_index, has_err, has_errmsg, has_held;
	char dir[PATH_MAX], profile[64], errmsg[256];
};

static int parse_job(const struct nlmsghdr *h, struct jobinfo *j)
{
	struct genlmsghdr *g = nlmsg_data(h);
	struct nlattr *a;
	int rem;

	memset(j, 0, sizeof(*j));
	if (!a_get_u32(gattr(h, FSLOAD_A_JOB_ID), &j->id) ||
	    !a_get_u8(gattr(h, FSLOAD_A_JOB_STATE), &j->state))
		return -EBADMSG;
	a_get_str(gattr(h, FSLOAD_A_JOB_DIR), j->dir, sizeof(j->dir));
	a_get_str(gattr(h, FSLOAD_A_JOB_PROFILE), j->profile,
		  sizeof(j->profile));
	a_get_u32(gattr(h, FSLOAD_A_JOB_FLAGS), &j->flags);
	a_get_u32(gattr(h, FSLOAD_A_JOB_THREADS), &j->threads);
	a_get_u64(gattr(h, FSLOAD_A_JOB_FILES), &j->files);
	a_get_u32(gattr(h, FSLOAD_A_JOB_FILES_PER_DIR), &j->fpd);
	a_get_u64(gattr(h, FSLOAD_A_JOB_SEED), &j->seed);
	a_get_u32(gattr(h, FSLOAD_A_JOB_PROGRESS_MS), &j->progress_ms);
	a_get_u32(gattr(h, FSLOAD_A_JOB_PHASES), &j->phases);
	a_get_u32(gattr(h, FSLOAD_A_JOB_OWNER_PORTID), &j->owner);
	a_get_u64(gattr(h, FSLOAD_A_JOB_ELAPSED_NS), &j->elapsed);
	a_get_u64(gattr(h, FSLOAD_A_JOB_OPS), &j->ops);
	a_get_u64(gattr(h, FSLOAD_A_JOB_BYTES), &j->bytes);
	j->has_phase_index = a_get_u32(gattr(h, FSLOAD_A_JOB_PHASE_INDEX),
				       &j->phase_index);
	j->has_err = a_get_u32(gattr(h, FSLOAD_A_JOB_ERRNO), &j->err);
	j->has_held = a_get_u32(gattr(h, FSLOAD_A_JOB_HELD), &j->held);
	j->has_errmsg = a_get_str(gattr(h, FSLOAD_A_JOB_ERROR_MSG),
				  j->errmsg, sizeof(j->errmsg));
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
			  rem) {
		if (nla_type(a) == FSLOAD_A_JOB_WORKER_PID)
			j->status_pids++;
	}
	return 0;
}

static bool job_ended(const struct jobinfo *j)
{
	return j->state != FSLOAD_JOB_RUNNING &&
	       j->state != FSLOAD_JOB_STOPPING;
}

static const char *state_name(uint8_t s)
{
	static const char *const names[] = {
		[FSLOAD_JOB_RUNNING] = "running",
		[FSLOAD_JOB_STOPPING] = "stopping",
		[FSLOAD_JOB_DONE] = "done",
		[FSLOAD_JOB_STOPPED] = "stopped",
		[FSLOAD_JOB_FAILED] = "failed",
	};

	return s < sizeof(names) / sizeof(names[0]) && names[s] ?
	       names[s] : "?";
}

/* Requests carrying only a job id.  Positive errno, or -errno locally. */
static int fsl_id_req(struct fsl *f, uint8_t cmd, int flags, uint32_t id,
		      struct reply *r)
{
	struct nl_msg *m = fsl_msg(f, cmd, flags);

	if (!m)
		return -ENOMEM;
	if (nla_put_u32(m, FSLOAD_A_JOB_ID, id) < 0) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return fsl_xfer(f, m, r);
}

/* JOB_RESUME of @id's hold before @phase; HELD's offset in @off. */
static int fsl_resume(struct fsl *f, uint32_t id, uint32_t phase, int *off,
		      struct reply *r)
{
	struct nl_msg *m = fsl_msg(f, FSLOAD_CMD_JOB_RESUME, 0);

	if (!m)
		return -ENOMEM;
	*off = NLMSG_ALIGN(nlmsg_hdr(m)->nlmsg_len) + NLA_HDRLEN +
	       NLA_ALIGN(sizeof(id));
	if (nla_put_u32(m, FSLOAD_A_JOB_ID, id) < 0 ||
	    nla_put_u32(m, FSLOAD_A_JOB_HELD, phase) < 0) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	return fsl_xfer(f, m, r);
}

/*
 * WORKER_GET of @id into @j: nworkers, the first pids, ncpus (workers
 * with a CPU).  The workers must come in thread order, each once.
 */
static int fsl_workers(struct fsl *f, uint32_t id, struct jobinfo *j)
{
	struct nlattr *a, *x;
	struct reply r;
	uint32_t idx;
	int i, rem, ret = fsl_id_req(f, FSLOAD_CMD_WORKER_GET, NLM_F_DUMP,
				     id, &r);

	j->nworkers = j->ncpus = 0;
	if (!ret)
		ret = r.err;
	if (!ret && (!r.done || r.n > MAX_REPLIES))
		ret = -EBADMSG;
	for (i = 0; !ret && i < r.n; i++) {
		struct genlmsghdr *g = nlmsg_data(r.m[i]);

		nla_for_each_attr(a, genlmsg_attrdata(g, 0),
				  genlmsg_attrlen(g, 0), rem) {
			if (nla_type(a) != FSLOAD_A_JOB_WORKER)
				continue;
			x = nattr(a, FSLOAD_A_WORKER_INDEX);
			if (!a_get_u32(x, &idx) || idx != j->nworkers) {
				ret = -EBADMSG;
				break;
			}
			x = nattr(a, FSLOAD_A_WORKER_PID);
			if (idx < sizeof(j->pid) / sizeof(j->pid[0]) &&
			    !a_get_u32(x, &j->pid[idx])) {
				ret = -EBADMSG;
				break;
			}
			if (nattr(a, FSLOAD_A_WORKER_CPU))
				j->ncpus++;
			j->nworkers++;
		}
	}
	reply_free(&r);
	return ret;
}

static int fsl_get(struct fsl *f, uint32_t id, struct jobinfo *j)
{
	struct reply r;
	int ret = fsl_id_req(f, FSLOAD_CMD_JOB_GET, 0, id, &r);

	if (!ret)
		ret = r.err;
	if (!ret)
		ret = r.n == 1 ? parse_job(r.m[0], j) : -EBADMSG;
	reply_free(&r);
	if (!ret)
		ret = fsl_workers(f, id, j);
	return ret;
}

static int fsl_stop(struct fsl *f, uint32_t id)
{
	struct reply r;
	int ret = fsl_id_req(f, FSLOAD_CMD_JOB_STOP, 0, id, &r);

	if (!ret)
		ret = r.err;
	reply_free(&r);
	return ret;
}

/* JOB_GET dump: how many jobs, the highest id, how many running. */
struct joblist {
	int n, running;
	uint32_t max_id;
	struct jobinfo j[MAX_JOBS_SEEN];
};

static int fsl_list(struct fsl *f, struct joblist *l)
{
	struct nl_msg *m = fsl_msg(f, FSLOAD_CMD_JOB_GET, NLM_F_DUMP);
	struct reply r;
	int i, ret;

	memset(l, 0, sizeof(*l));
	if (!m)
		return -ENOMEM;
	ret = fsl_xfer(f, m, &r);
	if (!ret)
		ret = r.err;
	if (!ret && !r.done)
		ret = -EBADMSG;
	for (i = 0; !ret && i < r.n && i < MAX_REPLIES; i++) {
		struct jobinfo j;

		if (gcmd(r.m[i]) != FSLOAD_CMD_JOB_GET || parse_job(r.m[i], &j)) {
			ret = -EBADMSG;
			break;
		}
		if (l->n < MAX_JOBS_SEEN)
			l->j[l->n] = j;
		l->n++;
		if (j.id > l->max_id)
			l->max_id = j.id;
		if (!job_ended(&j))
			l->running++;
	}
	reply_free(&r);
	return ret;
}

/* Poll JOB_GET until the job has ended. */
static int wait_ended(struct fsl *f, uint32_t id, int timeout_ms,
		      struct jobinfo *j)
{
	int64_t deadline = now_ms() + timeout_ms;
	int ret;

	for (;;) {
		ret = fsl_get(f, id, j);
		if (ret || job_ended(j))
			return ret;
		if (now_ms() > deadline)
			return -ETIMEDOUT;
		sleep_ms(50);
	}
}

/* Poll JOB_GET until the job runs phase @phase (or has ended). */
static int wait_phase(struct fsl *f, uint32_t id, uint32_t phase,
		      int timeout_ms, struct jobinfo *j)
{
	int64_t deadline = now_ms() + timeout_ms;
	int ret;

	for (;;) {
		ret = fsl_get(f, id, j);
		if (ret || job_ended(j) ||
		    (j->has_phase_index && j->phase_index >= phase))
			return ret;
		if (now_ms() > deadline)
			return -ETIMEDOUT;
		sleep_ms(20);
	}
}

/* Stop @id if it runs and wait for its end; best effort. */
static void stop_and_wait(struct fsl *f, uint32_t id)
{
	struct jobinfo j;

	if (fsl_get(f, id, &j) || job_ended(&j))
		return;
	fsl_stop(f, id);
	wait_ended(f, id, STOP_MS, &j);
}

/* Subscribe @f to the "events" group.  0 or -errno. */
static int fsl_subscribe(struct fsl *f)
{
	int grp = genl_ctrl_resolve_grp(f->sk, FSLOAD_FAMILY_NAME,
					FSLOAD_MCGRP_EVENTS);

	if (grp < 0)
		return -ENOENT;
	return nl_socket_add_membership(f->sk, grp) < 0 ? -EIO : 0;
}

/*
 * The next notification about job @id: its command in @cmd and the job's
 * status in @j.  0, or -ETIMEDOUT, -EIO.  (A notification is a datagram
 * of its own.)
 */
static int next_event(struct fsl *ev, uint32_t id, int timeout_ms,
		      uint8_t *cmd, struct jobinfo *j)
{
	int64_t deadline = now_ms() + timeout_ms;
	int fd = nl_socket_get_fd(ev->sk);

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct sockaddr_nl from;
		unsigned char *buf = NULL;
		struct nlmsghdr *h;
		int n, left = deadline - now_ms();
		bool found = false;

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n ? -errno : -ETIMEDOUT;
		n = nl_recv(ev->sk, &from, &buf, NULL);
		if (n <= 0) {
			free(buf);
			return -EIO;
		}
		for (h = (void *)buf; nlmsg_ok(h, n); h = nlmsg_next(h, &n)) {
			if (h->nlmsg_type != ev->family || parse_job(h, j) ||
			    j->id != id)
				continue;
			*cmd = gcmd(h);
			found = true;
			break;
		}
		free(buf);
		if (found)
			return 0;
	}
}

/* Read notifications until JOB_DONE_NTF for @id; @j: its status. */
static int wait_done_ntf(struct fsl *ev, uint32_t id, int timeout_ms,
			 struct jobinfo *j, int *nprogress)
{
	int64_t deadline = now_ms() + timeout_ms;
	uint8_t cmd;
	int ret;

	for (;;) {
		ret = next_event(ev, id, deadline - now_ms(), &cmd, j);
		if (ret || cmd == FSLOAD_CMD_JOB_DONE_NTF)
			return ret;
		if (cmd == FSLOAD_CMD_JOB_PROGRESS_NTF && nprogress)
			(*nprogress)++;
	}
}

/* ------------------------------------------------------------------ */
/* Building requests                                                   */
/* ------------------------------------------------------------------ */

/* Offset at which the next attribute of @m will start. */
static int tail(struct nl_msg *m)
{
	return NLMSG_ALIGN(nlmsg_hdr(m)->nlmsg_len);
}

/* nla_put() returning the attribute's offset in the message. */
static int put(struct nl_msg *m, int type, int len, const void *data)
{
	int off = tail(m);

	return nla_put(m, type, len, data) < 0 ? -1 : off;
}

static int put_u8(struct nl_msg *m, int type, uint8_t v)
{
	return put(m, type, sizeof(v), &v);
}

static int put_u32(struct nl_msg *m, int type, uint32_t v)
{
	return put(m, type, sizeof(v), &v);
}

static int put_u64(struct nl_msg *m, int type, uint64_t v)
{
	return put(m, type, sizeof(v), &v);
}

static int put_str(struct nl_msg *m, int type, const char *s)
{
	return put(m, type, strlen(s) + 1, s);
}

static int nest(struct nl_msg *m, int type, struct nlattr **n)
{
	int off = tail(m);

	*n = nla_nest_start(m, type);
	return *n ? off : -1;
}

/* A well-formed job, described. */
struct opspec {
	uint8_t type;
	uint64_t size;
	uint32_t block;
	uint32_t flags;
};

struct phasespec {
	const char *name;
	uint64_t iterations;	/* 0: not sent (default FILES) */
	struct opspec op;
	uint32_t flags;		/* FSLOAD_PHASE_F_*, 0: not sent */
};

struct jobspec {
	const char *dir;
	uint32_t flags;
	uint32_t threads;
	uint64_t files;
	uint32_t fpd;
	uint32_t progress_ms;
	int nphases;
	struct phasespec ph[4];
};

static int put_op(struct nl_msg *m, const struct opspec *o)
{
	struct nlattr *n;
	int off = nest(m, FSLOAD_A_PHASE_OP, &n);

	if (off < 0 || put_u8(m, FSLOAD_A_OP_TYPE, o->type) < 0 ||
	    (o->size && put_u64(m, FSLOAD_A_OP_SIZE_BYTES, o->size) < 0) ||
	    (o->block && put_u32(m, FSLOAD_A_OP_BLOCK_BYTES, o->block) < 0) ||
	    (o->flags && put_u32(m, FSLOAD_A_OP_FLAGS, o->flags) < 0))
		return -1;
	nla_nest_end(m, n);
	return off;
}

static int put_jobspec(struct nl_msg *m, const struct jobspec *js)
{
	int i;

	if (put_str(m, FSLOAD_A_JOB_DIR, js->dir) < 0 ||
	    put_str(m, FSLOAD_A_JOB_PROFILE, PROFILE) < 0 ||
	    put_u32(m, FSLOAD_A_JOB_FLAGS, js->flags) < 0 ||
	    put_u32(m, FSLOAD_A_JOB_THREADS, js->threads) < 0 ||
	    put_u64(m, FSLOAD_A_JOB_FILES, js->files) < 0 ||
	    put_u32(m, FSLOAD_A_JOB_FILES_PER_DIR, js->fpd) < 0 ||
	    put_u32(m, FSLOAD_A_JOB_PROGRESS_MS, js->progress_ms) < 0)
		return -1;
	for (i = 0; i < js->nphases; i++) {
		const struct phasespec *p = &js->ph[i];
		struct nlattr *n;

		if (nest(m, FSLOAD_A_JOB_PHASE, &n) < 0 ||
		    put_str(m, FSLOAD_A_PHASE_NAME, p->name) < 0 ||
		    (p->iterations &&
		     put_u64(m, FSLOAD_A_PHASE_ITERATIONS, p->iterations) < 0) ||
		    (p->flags &&
		     put_u32(m, FSLOAD_A_PHASE_FLAGS, p->flags) < 0) ||
		    put_op(m, &p->op) < 0)
			return -1;
		nla_nest_end(m, n);
	}
	return 0;
}

/*
 * JOB_START of @js, its workers pinned to CPUs 0 .. @ncpus - 1 (none: 0).
 * Positive errno, or -errno locally; the reply's job in @j (and its
 * workers), the whole reply in @r when not NULL (then freed by the
 * caller).
 */
static int fsl_start_cpus(struct fsl *f, const struct jobspec *js,
			  int ncpus, struct jobinfo *j, struct reply *rout)
{
	struct nl_msg *m = fsl_msg(f, FSLOAD_CMD_JOB_START, 0);
	struct reply r;
	int ret, i;

	memset(j, 0, sizeof(*j));
	if (rout)
		memset(rout, 0, sizeof(*rout));
	if (!m)
		return -ENOMEM;
	if (put_jobspec(m, js)) {
		nlmsg_free(m);
		return -EMSGSIZE;
	}
	/* Pinned to CPUs 0 .. ncpus - 1. */
	for (i = 0; i < ncpus; i++)
		put_u32(m, FSLOAD_A_JOB_WORKER_CPU, i);
	ret = fsl_xfer(f, m, &r);
	if (!ret && r.n >= 1)
		parse_job(r.m[0], j);
	if (!ret)
		ret = r.err;
	if (!ret && (r.n != 1 || !j->id))
		ret = -EBADMSG;
	/* Its workers, while the job is known (it may end at once). */
	if (!ret && fsl_workers(f, j->id, j))
		j->nworkers = 0;
	if (rout)
		*rout = r;
	else
		reply_free(&r);
	return ret;
}

static int fsl_start(struct fsl *f, const struct jobspec *js,
		     struct jobinfo *j, struct reply *rout)
{
	return fsl_start_cpus(f, js, 0, j, rout);
}

/* A job that runs until stopped: a few files, then null ops forever. */
static struct jobspec long_job(const char *dir, uint32_t flags)
{
	struct jobspec js = {
		.dir = dir, .flags = flags, .threads = 1, .files = 20,
		.fpd = 10, .progress_ms = 0, .nphases = 2,
		.ph = {
			{ "create", 0, { FSLOAD_OP_CREATE, 0, 0, 0 } },
			{ "spin", LONG_ITERATIONS, { FSLOAD_OP_NULL, 0, 0, 0 } },
		},
	};

	return js;
}

/* ------------------------------------------------------------------ */
/* Leaving nothing behind                                              */
/* ------------------------------------------------------------------ */

/* A module parameter's value before a test changed it. */
struct saved_param {
	const char *name;
	bool saved;
	unsigned long long v;
};

/* Shared by every test process: what to restore at the very end. */
struct shared_state {
	struct saved_param max_jobs, max_finished, max_threads;
};

static struct shared_state *shared;

/* Set a parameter, remembering its first value for param_restore(). */
static int param_set(struct saved_param *sp, unsigned long long v)
{
	if (!sp->saved) {
		if (param_read(sp->name, &sp->v))
			return -EIO;
		sp->saved = true;
	}
	return param_write(sp->name, v);
}

static int param_restore(struct saved_param *sp)
{
	if (!sp->saved)
		return 0;
	sp->saved = false;
	return param_write(sp->name, sp->v);
}

static void params_restore(void)
{
	if (shared) {
		param_restore(&shared->max_jobs);
		param_restore(&shared->max_finished);
		param_restore(&shared->max_threads);
	}
}

/*
 * Runs once, in the harness's main process, after all tests: stops the
 * jobs labelled PROFILE that a killed test left running, removes their
 * kept directories and restores max_jobs.  Test processes end with
 * _exit() or a signal and never run it.
 */
static void final_sweep(void)
{
	static struct joblist l;
	const char *dir = getenv("FSLOAD_DIR");
	struct fsl f;
	char path[PATH_MAX];
	int i;

	params_restore();
	if (dir && snprintf(path, sizeof(path), "%s/" REGULAR_FILE, dir) <
		   (int)sizeof(path))
		unlink(path);
	if (fsl_open(&f))
		return;
	if (!fsl_list(&f, &l)) {
		for (i = 0; i < l.n && i < MAX_JOBS_SEEN; i++) {
			if (strcmp(l.j[i].profile, PROFILE))
				continue;
			stop_and_wait(&f, l.j[i].id);
			if (dir && (l.j[i].flags & FSLOAD_JOB_F_KEEP)) {
				job_path(path, sizeof(path), dir, l.j[i].id);
				rm_rf(path);
			}
		}
	}
	fsl_close(&f);
}

static void __attribute__((constructor)) setup_shared(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		shared = NULL;
	} else {
		shared->max_jobs.name = "max_jobs";
		shared->max_finished.name = "max_finished";
		shared->max_threads.name = "max_threads";
	}
	atexit(final_sweep);
}

/* Jobs a test started: its teardown stops them and removes their trees. */
struct tracked {
	int n;
	uint32_t id[32];
};

static void track(struct tracked *t, uint32_t id)
{
	if (id && t->n < (int)(sizeof(t->id) / sizeof(t->id[0])))
		t->id[t->n++] = id;
}

static void untrack_all(struct fsl *f, struct tracked *t, const char *dir)
{
	char path[PATH_MAX];
	int i;

	for (i = 0; i < t->n; i++) {
		stop_and_wait(f, t->id[i]);
		if (dir) {
			job_path(path, sizeof(path), dir, t->id[i]);
			rm_rf(path);
		}
	}
	t->n = 0;
}

static void log_reply(struct __test_metadata *_metadata, const char *what,
		      const struct reply *r)
{
	TH_LOG("%s: errno %d (%s), msg \"%s\"%s, offs %s%u, miss_type %s%u, miss_nest %s%u, %d message(s)%s",
	       what, r->err, strerror(r->err), r->msg,
	       r->has_msg ? "" : " (none)",
	       r->has_offs ? "" : "-", r->offs,
	       r->has_miss_type ? "" : "-", r->miss_type,
	       r->has_miss_nest ? "" : "-", r->miss_nest,
	       r->n, r->done ? ", NLMSG_DONE" : "");
}

/*
 * The attribute of the request that starts at byte @off (counted from the
 * request's nlmsghdr, as NLMSGERR_ATTR_OFFS is), looking into nests; NULL
 * if no attribute starts there.
 */
static const struct nlattr *attr_in(const unsigned char *base,
				    const struct nlattr *head, int len,
				    uint32_t off)
{
	const struct nlattr *a;
	int rem;

	nla_for_each_attr(a, head, len, rem) {
		uint32_t o = (const unsigned char *)a - base;

		if (o == off)
			return a;
		if ((a->nla_type & NLA_F_NESTED) && off > o &&
		    off < o + a->nla_len)
			return attr_in(base, nla_data(a), nla_len(a), off);
	}
	return NULL;
}

static const struct nlattr *attr_at(const struct reply *r, uint32_t off)
{
	int hdr = NLMSG_HDRLEN + GENL_HDRLEN;

	if (!r->req || r->req_len < (uint32_t)hdr || off >= r->req_len)
		return NULL;
	return attr_in(r->req, (const void *)(r->req + hdr),
		       r->req_len - hdr, off);
}

/* ------------------------------------------------------------------ */
/* 1. The family                                                       */
/* ------------------------------------------------------------------ */

/* What CTRL_ATTR_OP_FLAGS says about a command's handlers. */
#define CAPS	(GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL)

TEST(family)
{
	struct nlattr *a, *g, *grps, *ops;
	bool have_events = false;
	uint32_t version = 0;
	uint16_t id = 0;
	uint32_t caps[FSLOAD_CMD_MAX + 1] = { 0 };
	bool listed[FSLOAD_CMD_MAX + 1] = { false };
	int rem, grp_id = -1, grp;
	struct nl_msg *m;
	struct reply r;
	struct fsl f;
	int ret;

	ret = fsl_open(&f);
	if (ret == -ENOENT)
		SKIP(return, "generic netlink family \"%s\" is not registered (module not loaded?)",
		     FSLOAD_FAMILY_NAME);
	ASSERT_EQ(0, ret);
	ASSERT_GT(f.family, 0);

	/* CTRL_CMD_GETFAMILY, built and decoded here. */
	m = nlmsg_alloc();
	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, genlmsg_put(m, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL,
				    0, 0, CTRL_CMD_GETFAMILY, 1));
	ASSERT_EQ(0, nla_put_string(m, CTRL_ATTR_FAMILY_NAME,
				    FSLOAD_FAMILY_NAME));
	ASSERT_EQ(0, fsl_xfer(&f, m, &r));
	ASSERT_EQ(0, r.err);
	ASSERT_EQ(1, r.n);

	ASSERT_TRUE(a_get_u32(gattr(r.m[0], CTRL_ATTR_VERSION), &version));
	EXPECT_EQ(FSLOAD_FAMILY_VERSION, version);
	ASSERT_TRUE(a_get_u16(gattr(r.m[0], CTRL_ATTR_FAMILY_ID), &id));
	EXPECT_EQ(f.family, id);

	grps = gattr(r.m[0], CTRL_ATTR_MCAST_GROUPS);
	ASSERT_NE(NULL, grps);
	nla_for_each_nested(g, grps, rem) {
		char name[GENL_NAMSIZ];
		uint32_t gid;

		if (a_get_str(nattr(g, CTRL_ATTR_MCAST_GRP_NAME), name,
			      sizeof(name)) &&
		    !strcmp(name, FSLOAD_MCGRP_EVENTS) &&
		    a_get_u32(nattr(g, CTRL_ATTR_MCAST_GRP_ID), &gid)) {
			have_events = true;
			grp_id = gid;
		}
	}
	EXPECT_TRUE(have_events);
	grp = genl_ctrl_resolve_grp(f.sk, FSLOAD_FAMILY_NAME,
				    FSLOAD_MCGRP_EVENTS);
	EXPECT_GT(grp, 0);
	EXPECT_EQ(grp_id, grp);

	/* The commands, and whether each does "do", "dump", policies. */
	ops = gattr(r.m[0], CTRL_ATTR_OPS);
	ASSERT_NE(NULL, ops);
	nla_for_each_nested(a, ops, rem) {
		uint32_t cmd, flags;

		if (a_get_u32(nattr(a, CTRL_ATTR_OP_ID), &cmd) &&
		    a_get_u32(nattr(a, CTRL_ATTR_OP_FLAGS), &flags) &&
		    cmd <= FSLOAD_CMD_MAX) {
			listed[cmd] = true;
			caps[cmd] = flags & CAPS;
		}
	}
	EXPECT_TRUE(listed[FSLOAD_CMD_JOB_START]);
	EXPECT_EQ(GENL_CMD_CAP_DO | GENL_CMD_CAP_HASPOL,
		  caps[FSLOAD_CMD_JOB_START]);
	EXPECT_TRUE(listed[FSLOAD_CMD_JOB_STOP]);
	EXPECT_EQ(GENL_CMD_CAP_DO | GENL_CMD_CAP_HASPOL,
		  caps[FSLOAD_CMD_JOB_STOP]);
	EXPECT_TRUE(listed[FSLOAD_CMD_JOB_GET]);
	EXPECT_EQ(GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL,
		  caps[FSLOAD_CMD_JOB_GET]);
	EXPECT_TRUE(listed[FSLOAD_CMD_RESULT_GET]);
	EXPECT_EQ(GENL_CMD_CAP_DUMP | GENL_CMD_CAP_HASPOL,
		  caps[FSLOAD_CMD_RESULT_GET]);
	/* Notifications are not requests. */
	EXPECT_FALSE(listed[FSLOAD_CMD_JOB_PROGRESS_NTF]);
	EXPECT_FALSE(listed[FSLOAD_CMD_JOB_DONE_NTF]);

	reply_free(&r);
	fsl_close(&f);
}

/* ------------------------------------------------------------------ */
/* 2. Bad JOB_START requests                                           */
/* ------------------------------------------------------------------ */

/* What a builder knows about the case it wrote. */
/* A top-level scalar attribute, and what base() leaves out for it. */
struct scalar {
	unsigned int omit;	/* B_* */
	int attr;
	int bytes;
	uint64_t value;
};

struct bctx {
	const struct scalar *scalar;	/* b_scalar()'s, from the variant */
	const char *dir;	/* $FSLOAD_DIR */
	const char *file;	/* a regular file */
	const char *dev;	/* $FSLOAD_DEV, mounted at dir; NULL: none */
	unsigned long long max_threads, max_file_bytes, max_block_bytes;
	int off;		/* the offending attribute, -1: none */
	int alt_off;		/* an acceptable other one, -1: none */
	int miss;		/* the missing attribute's type, 0: none */
	int miss_nest;		/* offset of the nest lacking it, 0: top */
	const char *skip;	/* why the case cannot be built here */
};

/* The top-level attributes a case may leave out or set itself. */
#define B_DIR		(1 << 0)
#define B_PROGRESS	(1 << 1)

/* DIR, a label, no progress notifications. */
static void base(struct nl_msg *m, struct bctx *c, unsigned int omit)
{
	if (!(omit & B_DIR))
		put_str(m, FSLOAD_A_JOB_DIR, c->dir);
	put_str(m, FSLOAD_A_JOB_PROFILE, PROFILE);
	if (!(omit & B_PROGRESS))
		put_u32(m, FSLOAD_A_JOB_PROGRESS_MS, 0);
}

/* A valid phase of one iteration of one op; its offset. */
static int phase(struct nl_msg *m, const char *name, uint8_t optype)
{
	struct nlattr *n, *o;
	int off = nest(m, FSLOAD_A_JOB_PHASE, &n);

	put_str(m, FSLOAD_A_PHASE_NAME, name);
	put_u64(m, FSLOAD_A_PHASE_ITERATIONS, 1);
	nest(m, FSLOAD_A_PHASE_OP, &o);
	put_u8(m, FSLOAD_A_OP_TYPE, optype);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
	return off;
}

/*
 * The many cases that differ by one top-level scalar: BAD_SCALAR(NAME,
 * OMIT, ATTR, BYTES, VALUE, ERRNO) below; base() without OMIT, then
 * ATTR of BYTES (1, 4, 8) bytes set to VALUE.
 */
static void b_scalar(struct nl_msg *m, struct bctx *c)
{
	const struct scalar *s = c->scalar;

	base(m, c, s->omit);
	if (s->bytes == 1)
		c->off = put_u8(m, s->attr, s->value);
	else if (s->bytes == 4)
		c->off = put_u32(m, s->attr, s->value);
	else
		c->off = put_u64(m, s->attr, s->value);
	phase(m, "p", FSLOAD_OP_NULL);
}

/* A phase whose single op gets one extra attribute; its offsets. */
/* Open phase "p" of one iteration and its op; returns the op's offset. */
static int phase_op_open(struct nl_msg *m, struct nlattr **n,
			 struct nlattr **o)
{
	nest(m, FSLOAD_A_JOB_PHASE, n);
	put_str(m, FSLOAD_A_PHASE_NAME, "p");
	put_u64(m, FSLOAD_A_PHASE_ITERATIONS, 1);
	return nest(m, FSLOAD_A_PHASE_OP, o);
}

static void phase_op_attr(struct nl_msg *m, uint8_t optype, int type,
			  int len, const void *v, int *op_off, int *attr_off)
{
	struct nlattr *n, *o;

	*op_off = phase_op_open(m, &n, &o);
	put_u8(m, FSLOAD_A_OP_TYPE, optype);
	*attr_off = put(m, type, len, v);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
}

static void b_missing_dir(struct nl_msg *m, struct bctx *c)
{
	base(m, c, B_DIR);
	phase(m, "p", FSLOAD_OP_NULL);
	c->miss = FSLOAD_A_JOB_DIR;
}

static void b_dir_enoent(struct nl_msg *m, struct bctx *c)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/no-such-directory", c->dir);
	base(m, c, B_DIR);
	c->off = put_str(m, FSLOAD_A_JOB_DIR, path);
	phase(m, "p", FSLOAD_OP_NULL);
}

static void b_dir_file(struct nl_msg *m, struct bctx *c)
{
	base(m, c, B_DIR);
	c->off = put_str(m, FSLOAD_A_JOB_DIR, c->file);
	phase(m, "p", FSLOAD_OP_NULL);
}

/* A kernel interface, not a filesystem for files: refused before mkdir. */
static void b_dir_sysfs(struct nl_msg *m, struct bctx *c)
{
	base(m, c, B_DIR);
	c->off = put_str(m, FSLOAD_A_JOB_DIR, "/sys");
	phase(m, "p", FSLOAD_OP_NULL);
}

static void b_dir_no_nul(struct nl_msg *m, struct bctx *c)
{
	base(m, c, B_DIR);
	c->off = put(m, FSLOAD_A_JOB_DIR, strlen(c->dir), c->dir);
	phase(m, "p", FSLOAD_OP_NULL);
}

static void b_threads_param(struct nl_msg *m, struct bctx *c)
{
	if (c->max_threads >= FSLOAD_THREADS_MAX) {
		c->skip = "max_threads is not below the protocol's limit";
		return;
	}
	base(m, c, 0);
	c->off = put_u32(m, FSLOAD_A_JOB_THREADS, c->max_threads + 1);
	phase(m, "p", FSLOAD_OP_NULL);
}

static void b_u32_short(struct nl_msg *m, struct bctx *c)
{
	uint16_t v = 1;

	base(m, c, 0);
	c->off = put(m, FSLOAD_A_JOB_THREADS, sizeof(v), &v);
	phase(m, "p", FSLOAD_OP_NULL);
}

static void b_too_many_dirs(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	put_u64(m, FSLOAD_A_JOB_FILES, FSLOAD_FILES_MAX);
	/* ceil(10^8 / 999) = 100101 subdirectories */
	c->off = put_u32(m, FSLOAD_A_JOB_FILES_PER_DIR, 999);
	phase(m, "p", FSLOAD_OP_NULL);
}

static void b_tree_too_deep(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	put_u64(m, FSLOAD_A_JOB_FILES, 100);
	put_u32(m, FSLOAD_A_JOB_FILES_PER_DIR, 10);
	/* a chain: directory 9 is 9 levels below directory 0 */
	c->off = put_u32(m, FSLOAD_A_JOB_TREE_BRANCH, 1);
	phase(m, "p", FSLOAD_OP_NULL);
}

/* mdtest -L's first leaf, but no tree: the kernel names first-dir. */
static void b_first_dir_flat(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	c->off = put_u32(m, FSLOAD_A_JOB_FIRST_DIR, 1);
	phase(m, "p", FSLOAD_OP_NULL);
}

/* A first directory past the directories a job may have. */
static void b_first_dir_dirs(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_TREE_BRANCH, 2);
	c->off = put_u32(m, FSLOAD_A_JOB_FIRST_DIR, FSLOAD_DIRS_MAX);
	phase(m, "p", FSLOAD_OP_NULL);
}

/*
 * Rank 500000 of 2 threads: its thread 1 would be number 1000001 of the
 * run, past FSLOAD_RANK_MAX (6 digits in mdtest's names).
 */
static void b_rank_threads(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_THREADS, 2);
	put_u8(m, FSLOAD_A_JOB_NAMES, FSLOAD_NAMES_MDTEST);
	c->off = put_u32(m, FSLOAD_A_JOB_RANK, (FSLOAD_RANK_MAX + 1) / 2);
	phase(m, "p", FSLOAD_OP_NULL);
}

static uint64_t ino_of(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) ? 0 : st.st_ino;
}

static uint32_t mode_of(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) ? 0 : st.st_mode;
}

/*
 * Rank 1 of a run of 2 in one directory, joining @name of inode @ino
 * (@with_ino) in DIR, with its mode; c->off the join_dir attribute.
 * Returns the join_ino attribute's offset.
 */
static int join_base(struct nl_msg *m, struct bctx *c, const char *name,
		     bool with_ino, uint64_t ino)
{
	int off = -1;

	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_RANK, 1);
	put_u32(m, FSLOAD_A_JOB_RANKS, 2);
	c->off = put_str(m, FSLOAD_A_JOB_JOIN_DIR, name);
	if (with_ino)
		off = put_u64(m, FSLOAD_A_JOB_JOIN_INO, ino);
	put_u32(m, FSLOAD_A_JOB_JOIN_MODE, mode_of(c->dir, name));
	phase(m, "p", FSLOAD_OP_NULL);
	return off;
}

/* A join without join_mode: the directory is also known by its mode. */
static void b_join_no_mode(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_RANK, 1);
	put_u32(m, FSLOAD_A_JOB_RANKS, 2);
	c->off = put_str(m, FSLOAD_A_JOB_JOIN_DIR, "lost+found");
	put_u64(m, FSLOAD_A_JOB_JOIN_INO, ino_of(c->dir, "lost+found"));
	phase(m, "p", FSLOAD_OP_NULL);
}

/* A file handle without its type, or longer than any. */
static void b_join_handle_no_type(struct nl_msg *m, struct bctx *c)
{
	static const unsigned char h[8];

	join_base(m, c, "lost+found", true, ino_of(c->dir, "lost+found"));
	c->off = put(m, FSLOAD_A_JOB_JOIN_HANDLE, sizeof(h), h);
}

static void b_join_handle_long(struct nl_msg *m, struct bctx *c)
{
	static const unsigned char h[FSLOAD_JOIN_HANDLE_MAX + 4];

	join_base(m, c, "lost+found", true, ino_of(c->dir, "lost+found"));
	put_u32(m, FSLOAD_A_JOB_JOIN_HANDLE_TYPE, 1);
	c->off = put(m, FSLOAD_A_JOB_JOIN_HANDLE, sizeof(h), h);
}

/*
 * lost+found, its inode number and mode right, but another file handle
 * of its type (ext4's: inode number and generation): not the directory.
 */
static void b_join_other_handle(struct nl_msg *m, struct bctx *c)
{
	struct {
		struct file_handle fh;
		unsigned char b[FSLOAD_JOIN_HANDLE_MAX];
	} h = { .fh.handle_bytes = FSLOAD_JOIN_HANDLE_MAX };
	char path[PATH_MAX];
	int mnt;

	snprintf(path, sizeof(path), "%s/lost+found", c->dir);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt, 0) ||
	    !h.fh.handle_bytes || h.fh.handle_bytes > FSLOAD_JOIN_HANDLE_MAX) {
		c->skip = "no lost+found with a file handle in $FSLOAD_DIR (not ext4)";
		h.fh.handle_bytes = 4;
	}
	/* f_handle[] is h.b[] */
	h.b[h.fh.handle_bytes - 1] ^= 0x5a;
	join_base(m, c, "lost+found", true, ino_of(c->dir, "lost+found"));
	put_u32(m, FSLOAD_A_JOB_JOIN_HANDLE_TYPE, h.fh.handle_type);
	c->off = put(m, FSLOAD_A_JOB_JOIN_HANDLE, h.fh.handle_bytes, h.b);
}

/* Not one name in DIR: '..', a path. */
static void b_join_dotdot(struct nl_msg *m, struct bctx *c)
{
	join_base(m, c, "..", true, ino_of(c->dir, ".."));
}

static void b_join_path(struct nl_msg *m, struct bctx *c)
{
	join_base(m, c, "./.", true, ino_of(c->dir, "."));
}

/* No join_ino: a directory is joined only as the inode rank 0 made. */
static void b_join_no_ino(struct nl_msg *m, struct bctx *c)
{
	join_base(m, c, "lost+found", false, 0);
}

static void b_join_enoent(struct nl_msg *m, struct bctx *c)
{
	join_base(m, c, "fsload-999999", true, 1);
}

/* A regular file is no job directory. */
static void b_join_file(struct nl_msg *m, struct bctx *c)
{
	join_base(m, c, REGULAR_FILE, true, ino_of(c->dir, REGULAR_FILE));
}

/*
 * A symlink to DIR itself, with DIR's inode: followed, it would pass the
 * inode check; it is not followed.
 */
static void b_join_symlink(struct nl_msg *m, struct bctx *c)
{
	join_base(m, c, SELF_LINK, true, ino_of(c->dir, "."));
}

/* A directory that is not the inode rank 0's job made (moved, replaced). */
static void b_join_other_inode(struct nl_msg *m, struct bctx *c)
{
	uint64_t ino = ino_of(c->dir, "lost+found");

	if (!ino)
		c->skip = "no lost+found in $FSLOAD_DIR (not ext4)";
	c->off = join_base(m, c, "lost+found", true, ino + 1);
}

/* join_dir on rank 0, or without a run of several ranks. */
static void b_join_rank0(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_RANKS, 2);
	c->off = put_str(m, FSLOAD_A_JOB_JOIN_DIR, "lost+found");
	put_u64(m, FSLOAD_A_JOB_JOIN_INO, 11);
	phase(m, "p", FSLOAD_OP_NULL);
}

/* @threads threads of rank @rank of @ranks, nothing to join; c->off ranks. */
static void ranks_case(struct nl_msg *m, struct bctx *c, uint32_t threads,
		       uint32_t rank, uint32_t ranks)
{
	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_THREADS, threads);
	put_u32(m, FSLOAD_A_JOB_RANK, rank);
	c->off = put_u32(m, FSLOAD_A_JOB_RANKS, ranks);
	phase(m, "p", FSLOAD_OP_NULL);
}

/* Rank 1 of 2 without rank 0's directory to join. */
static void b_ranks_no_join(struct nl_msg *m, struct bctx *c)
{
	ranks_case(m, c, 1, 1, 2);
}

/* Rank 2 of a run of 2. */
static void b_ranks_rank(struct nl_msg *m, struct bctx *c)
{
	ranks_case(m, c, 1, 2, 2);
}

/* 501 ranks x 2 threads in per-thread trees: past t999. */
static void b_ranks_trees(struct nl_msg *m, struct bctx *c)
{
	ranks_case(m, c, 2, 0, 501);
}

/* The end's hold needs an owner to end it. */
static void b_hold_end_detach(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	c->off = put_u32(m, FSLOAD_A_JOB_FLAGS,
			 FSLOAD_JOB_F_HOLD_END | FSLOAD_JOB_F_DETACH);
	phase(m, "p", FSLOAD_OP_NULL);
}

/* A job of @job_flags, its phase of @flags refused (c->off), one @op. */
static void bad_phase_flags(struct nl_msg *m, struct bctx *c,
			    uint32_t job_flags, uint32_t flags, uint8_t op)
{
	struct nlattr *n, *o;

	base(m, c, 0);
	if (job_flags)
		put_u32(m, FSLOAD_A_JOB_FLAGS, job_flags);
	nest(m, FSLOAD_A_JOB_PHASE, &n);
	put_str(m, FSLOAD_A_PHASE_NAME, "p");
	c->off = put_u32(m, FSLOAD_A_PHASE_FLAGS, flags);
	nest(m, FSLOAD_A_PHASE_OP, &o);
	put_u8(m, FSLOAD_A_OP_TYPE, op);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
}

/* A phase over the directories takes only mkdir, rmdir and stat. */
static void b_dirs_phase_create(struct nl_msg *m, struct bctx *c)
{
	bad_phase_flags(m, c, 0, FSLOAD_PHASE_F_DIRS, FSLOAD_OP_CREATE);
}

/* Nobody would resume a detached job's hold. */
static void b_hold_detach(struct nl_msg *m, struct bctx *c)
{
	bad_phase_flags(m, c, FSLOAD_JOB_F_DETACH, FSLOAD_PHASE_F_HOLD,
			FSLOAD_OP_NULL);
}

static void b_no_phase(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_THREADS, 1);
	c->miss = FSLOAD_A_JOB_PHASE;
}

static void b_phase_no_name(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *n, *o;

	base(m, c, 0);
	c->miss_nest = nest(m, FSLOAD_A_JOB_PHASE, &n);
	put_u64(m, FSLOAD_A_PHASE_ITERATIONS, 1);
	nest(m, FSLOAD_A_PHASE_OP, &o);
	put_u8(m, FSLOAD_A_OP_TYPE, FSLOAD_OP_NULL);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
	c->miss = FSLOAD_A_PHASE_NAME;
}

static void b_phase_no_op(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *n;

	base(m, c, 0);
	c->miss_nest = nest(m, FSLOAD_A_JOB_PHASE, &n);
	put_str(m, FSLOAD_A_PHASE_NAME, "p");
	put_u64(m, FSLOAD_A_PHASE_ITERATIONS, 1);
	nla_nest_end(m, n);
	c->miss = FSLOAD_A_PHASE_OP;
}

static void b_op_no_type(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *n, *o;

	base(m, c, 0);
	c->miss_nest = phase_op_open(m, &n, &o);
	put_u32(m, FSLOAD_A_OP_WEIGHT, 1);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
	c->miss = FSLOAD_A_OP_TYPE;
}

static void op_type(struct nl_msg *m, struct bctx *c, uint8_t type)
{
	struct nlattr *n, *o;

	base(m, c, 0);
	nest(m, FSLOAD_A_JOB_PHASE, &n);
	put_str(m, FSLOAD_A_PHASE_NAME, "p");
	put_u64(m, FSLOAD_A_PHASE_ITERATIONS, 1);
	nest(m, FSLOAD_A_PHASE_OP, &o);
	c->off = put_u8(m, FSLOAD_A_OP_TYPE, type);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
}

static void b_op_type_0(struct nl_msg *m, struct bctx *c)
{
	op_type(m, c, 0);
}

static void b_op_type_99(struct nl_msg *m, struct bctx *c)
{
	op_type(m, c, 99);
}

static void op_u32(struct nl_msg *m, struct bctx *c, uint8_t optype,
		   int type, uint32_t v)
{
	int op_off;

	base(m, c, 0);
	phase_op_attr(m, optype, type, sizeof(v), &v, &op_off, &c->off);
}

static void b_block_0(struct nl_msg *m, struct bctx *c)
{
	op_u32(m, c, FSLOAD_OP_READ, FSLOAD_A_OP_BLOCK_BYTES, 0);
}

static void b_block_max(struct nl_msg *m, struct bctx *c)
{
	op_u32(m, c, FSLOAD_OP_READ, FSLOAD_A_OP_BLOCK_BYTES,
	       FSLOAD_BLOCK_MAX + 1);
}

static void b_block_param(struct nl_msg *m, struct bctx *c)
{
	if (c->max_block_bytes >= FSLOAD_BLOCK_MAX) {
		c->skip = "max_block_bytes is not below the protocol's limit";
		return;
	}
	op_u32(m, c, FSLOAD_OP_READ, FSLOAD_A_OP_BLOCK_BYTES,
	       c->max_block_bytes + 1);
}

static void b_weight_0(struct nl_msg *m, struct bctx *c)
{
	op_u32(m, c, FSLOAD_OP_NULL, FSLOAD_A_OP_WEIGHT, 0);
}

/* A bit no flag will have: the spec's flags grow from bit 0. */
static void b_op_flags(struct nl_msg *m, struct bctx *c)
{
	op_u32(m, c, FSLOAD_OP_CREATE, FSLOAD_A_OP_FLAGS, 1U << 31);
}

/* mdtest's open and fs_mark's: one create cannot be both. */
static void b_op_flags_rdwr_trunc(struct nl_msg *m, struct bctx *c)
{
	op_u32(m, c, FSLOAD_OP_CREATE, FSLOAD_A_OP_FLAGS,
	       FSLOAD_OP_F_RDWR | FSLOAD_OP_F_TRUNC);
}

/* mdtest -k: the mknod flag makes the file only, no other flag. */
static void b_op_flags_mknod_fsync(struct nl_msg *m, struct bctx *c)
{
	op_u32(m, c, FSLOAD_OP_CREATE, FSLOAD_A_OP_FLAGS,
	       FSLOAD_OP_F_MKNOD | FSLOAD_OP_F_FSYNC);
}

/* ... and no data (mdtest: -k not with -w): the size is what is wrong. */
static void b_op_mknod_size(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *n, *o;

	base(m, c, 0);
	phase_op_open(m, &n, &o);
	put_u8(m, FSLOAD_A_OP_TYPE, FSLOAD_OP_CREATE);
	put_u32(m, FSLOAD_A_OP_FLAGS, FSLOAD_OP_F_MKNOD);
	c->off = put_u64(m, FSLOAD_A_OP_SIZE_BYTES, 1);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
}

static void b_op_flags_stat(struct nl_msg *m, struct bctx *c)
{
	uint32_t v = FSLOAD_OP_F_FSYNC;
	int attr_off;

	/* Valid bits, but only create writes: the op is what is wrong. */
	base(m, c, 0);
	phase_op_attr(m, FSLOAD_OP_STAT, FSLOAD_A_OP_FLAGS, sizeof(v), &v,
		      &c->off, &attr_off);
	c->alt_off = attr_off;
}

static void b_size_read(struct nl_msg *m, struct bctx *c)
{
	uint64_t v = 4096;
	int attr_off;

	base(m, c, 0);
	phase_op_attr(m, FSLOAD_OP_READ, FSLOAD_A_OP_SIZE_BYTES, sizeof(v),
		      &v, &c->off, &attr_off);
	c->alt_off = attr_off;
}

static void b_size_param(struct nl_msg *m, struct bctx *c)
{
	uint64_t v = c->max_file_bytes + 1;
	int op_off;

	if (c->max_file_bytes == ULLONG_MAX) {
		c->skip = "max_file_bytes has no larger value";
		return;
	}
	base(m, c, 0);
	phase_op_attr(m, FSLOAD_OP_CREATE, FSLOAD_A_OP_SIZE_BYTES, sizeof(v),
		      &v, &op_off, &c->off);
}

static void b_bytes_overflow(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *n, *o;

	if (c->max_file_bytes < 4096) {
		c->skip = "max_file_bytes is below 4096";
		return;
	}
	/* 4096 x 2^62 x 2 does not fit 64 bits; 2^62 x 2 does. */
	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_THREADS, 2);
	nest(m, FSLOAD_A_JOB_PHASE, &n);
	put_str(m, FSLOAD_A_PHASE_NAME, "p");
	put_u64(m, FSLOAD_A_PHASE_ITERATIONS, 1ULL << 62);
	c->off = nest(m, FSLOAD_A_PHASE_OP, &o);
	put_u8(m, FSLOAD_A_OP_TYPE, FSLOAD_OP_CREATE);
	c->alt_off = put_u64(m, FSLOAD_A_OP_SIZE_BYTES, 4096);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
}

static void iterations(struct nl_msg *m, struct bctx *c, uint32_t threads,
		       uint64_t iter)
{
	struct nlattr *n, *o;

	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_THREADS, threads);
	nest(m, FSLOAD_A_JOB_PHASE, &n);
	put_str(m, FSLOAD_A_PHASE_NAME, "p");
	c->off = put_u64(m, FSLOAD_A_PHASE_ITERATIONS, iter);
	nest(m, FSLOAD_A_PHASE_OP, &o);
	put_u8(m, FSLOAD_A_OP_TYPE, FSLOAD_OP_NULL);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
}

static void b_iterations_overflow(struct nl_msg *m, struct bctx *c)
{
	iterations(m, c, 2, 1ULL << 63);
}

static void b_iterations_0(struct nl_msg *m, struct bctx *c)
{
	iterations(m, c, 1, 0);
}

static void b_order_3(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *n, *o;

	base(m, c, 0);
	nest(m, FSLOAD_A_JOB_PHASE, &n);
	put_str(m, FSLOAD_A_PHASE_NAME, "p");
	c->off = put_u8(m, FSLOAD_A_PHASE_ORDER, FSLOAD_ORDER_RANDOM + 1);
	nest(m, FSLOAD_A_PHASE_OP, &o);
	put_u8(m, FSLOAD_A_OP_TYPE, FSLOAD_OP_NULL);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
}

static void b_name_too_long(struct nl_msg *m, struct bctx *c)
{
	char name[FSLOAD_NAME_MAX + 1];
	struct nlattr *n, *o;

	memset(name, 'x', FSLOAD_NAME_MAX);
	name[FSLOAD_NAME_MAX] = '\0';
	base(m, c, 0);
	nest(m, FSLOAD_A_JOB_PHASE, &n);
	c->off = put_str(m, FSLOAD_A_PHASE_NAME, name);
	nest(m, FSLOAD_A_PHASE_OP, &o);
	put_u8(m, FSLOAD_A_OP_TYPE, FSLOAD_OP_NULL);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
}

static void b_too_many_phases(struct nl_msg *m, struct bctx *c)
{
	char name[8];
	int i;

	base(m, c, 0);
	for (i = 0; i <= FSLOAD_PHASES_MAX; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		c->off = phase(m, name, FSLOAD_OP_NULL);
	}
}

static void b_too_many_ops(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *n, *o;
	int i;

	base(m, c, 0);
	nest(m, FSLOAD_A_JOB_PHASE, &n);
	put_str(m, FSLOAD_A_PHASE_NAME, "p");
	put_u64(m, FSLOAD_A_PHASE_ITERATIONS, 1);
	for (i = 0; i <= FSLOAD_PHASE_OPS_MAX; i++) {
		c->off = nest(m, FSLOAD_A_PHASE_OP, &o);
		put_u8(m, FSLOAD_A_OP_TYPE, FSLOAD_OP_NULL);
		nla_nest_end(m, o);
	}
	nla_nest_end(m, n);
}

static void b_nest_flag(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *n;

	base(m, c, 0);
	c->off = phase(m, "p", FSLOAD_OP_NULL);
	/* The same phase without NLA_F_NESTED. */
	n = (struct nlattr *)((char *)nlmsg_hdr(m) + c->off);
	n->nla_type &= ~NLA_F_NESTED;
}

static void b_truncated(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *a;

	base(m, c, 0);
	phase(m, "p", FSLOAD_OP_NULL);
	/* A last attribute claiming more bytes than the message holds. */
	a = nlmsg_reserve(m, NLA_HDRLEN + 4, NLA_ALIGNTO);
	if (!a)
		return;
	a->nla_type = FSLOAD_A_JOB_THREADS;
	a->nla_len = NLA_HDRLEN + 64;
	memset(a + 1, 0, 4);
	c->off = -1;	/* nothing to point at: the kernel sees no attribute */
}

/* A phase of one op of @type; the offset of its type attribute. */
static int phase_type_off(struct nl_msg *m, uint8_t type)
{
	struct nlattr *n, *o;
	int off;

	nest(m, FSLOAD_A_JOB_PHASE, &n);
	put_str(m, FSLOAD_A_PHASE_NAME, "p");
	put_u64(m, FSLOAD_A_PHASE_ITERATIONS, 1);
	nest(m, FSLOAD_A_PHASE_OP, &o);
	off = put_u8(m, FSLOAD_A_OP_TYPE, type);
	nla_nest_end(m, o);
	nla_nest_end(m, n);
	return off;
}

/* A block job on @path, a label, no progress; the DEVICE offset. */
static int device_base(struct nl_msg *m, const char *path)
{
	int off = put_str(m, FSLOAD_A_JOB_DEVICE, path);

	put_str(m, FSLOAD_A_JOB_PROFILE, PROFILE);
	put_u32(m, FSLOAD_A_JOB_PROGRESS_MS, 0);
	return off;
}

/* A block job on the scratch device (mounted at $FSLOAD_DIR). */
static int bdev_base(struct nl_msg *m, struct bctx *c)
{
	if (!c->dev) {
		c->skip = "FSLOAD_DEV is not set";
		c->dev = "/dev/null";
	}
	return device_base(m, c->dev);
}

static void b_dir_and_device(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	c->off = put_str(m, FSLOAD_A_JOB_DEVICE, "/dev/null");
	phase(m, "p", FSLOAD_OP_NULL);
}

static void b_bio_op_dir_job(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	c->off = phase_type_off(m, FSLOAD_OP_BIO_WRITE);
}

static void b_file_op_block_job(struct nl_msg *m, struct bctx *c)
{
	bdev_base(m, c);
	c->off = phase_type_off(m, FSLOAD_OP_CREATE);
}

static void b_depth_0(struct nl_msg *m, struct bctx *c)
{
	uint32_t v = 0;
	int op;

	bdev_base(m, c);
	phase_op_attr(m, FSLOAD_OP_BIO_READ, FSLOAD_A_OP_DEPTH, 4, &v, &op,
		      &c->off);
}

static void b_depth_129(struct nl_msg *m, struct bctx *c)
{
	uint32_t v = FSLOAD_BIO_DEPTH_MAX + 1;
	int op;

	bdev_base(m, c);
	phase_op_attr(m, FSLOAD_OP_BIO_READ, FSLOAD_A_OP_DEPTH, 4, &v, &op,
		      &c->off);
}

static void b_depth_create(struct nl_msg *m, struct bctx *c)
{
	uint32_t v = 4;
	int op;

	base(m, c, 0);
	phase_op_attr(m, FSLOAD_OP_CREATE, FSLOAD_A_OP_DEPTH, 4, &v, &op,
		      &c->off);
}

static void b_bio_block_1000(struct nl_msg *m, struct bctx *c)
{
	uint32_t v = 1000;
	int op;

	bdev_base(m, c);
	phase_op_attr(m, FSLOAD_OP_BIO_READ, FSLOAD_A_OP_BLOCK_BYTES, 4, &v,
		      &op, &c->off);
}

static void b_bio_block_2m(struct nl_msg *m, struct bctx *c)
{
	uint32_t v = 2U << 20;
	int op;

	if (c->max_block_bytes < v)
		c->skip = "max_block_bytes is below 2 MiB";
	bdev_base(m, c);
	phase_op_attr(m, FSLOAD_OP_BIO_READ, FSLOAD_A_OP_BLOCK_BYTES, 4, &v,
		      &op, &c->off);
}

static void b_random_create(struct nl_msg *m, struct bctx *c)
{
	uint32_t v = FSLOAD_OP_F_RANDOM;
	int op;

	base(m, c, 0);
	phase_op_attr(m, FSLOAD_OP_CREATE, FSLOAD_A_OP_FLAGS, 4, &v, &op,
		      &c->off);
}

static void b_device_enoent(struct nl_msg *m, struct bctx *c)
{
	c->off = device_base(m, "/dev/no-such-device");
	phase(m, "p", FSLOAD_OP_BIO_READ);
}

static void b_device_file(struct nl_msg *m, struct bctx *c)
{
	c->off = device_base(m, c->file);
	phase(m, "p", FSLOAD_OP_BIO_READ);
}

/* The scratch device is mounted: writing to it needs what it cannot get. */
static void b_device_mounted(struct nl_msg *m, struct bctx *c)
{
	c->off = bdev_base(m, c);
	phase(m, "p", FSLOAD_OP_BIO_WRITE);
}

/* Reading is shared, but not beyond the device's end. */
static void b_device_region(struct nl_msg *m, struct bctx *c)
{
	uint64_t v = 1ULL << 50;
	int op;

	c->off = bdev_base(m, c);
	phase_op_attr(m, FSLOAD_OP_BIO_READ, FSLOAD_A_OP_SIZE_BYTES, 8, &v,
		      &op, &c->alt_off);
}

static void b_device_shared_dir(struct nl_msg *m, struct bctx *c)
{
	bdev_base(m, c);
	c->off = put_u32(m, FSLOAD_A_JOB_FLAGS, FSLOAD_JOB_F_SHARED_DIR);
	phase(m, "p", FSLOAD_OP_BIO_READ);
}

/* A CPU that no guest here has: refused before any worker exists. */
static void b_worker_cpu_offline(struct nl_msg *m, struct bctx *c)
{
	base(m, c, 0);
	put_u32(m, FSLOAD_A_JOB_WORKER_CPU, 0);
	c->off = put_u32(m, FSLOAD_A_JOB_WORKER_CPU, 4000);
	phase(m, "p", FSLOAD_OP_NULL);
}

/* An op of group 1 when the job has no groups. */
static void b_op_group_none(struct nl_msg *m, struct bctx *c)
{
	uint8_t v = 1;
	int op;

	base(m, c, 0);
	phase_op_attr(m, FSLOAD_OP_NULL, FSLOAD_A_OP_GROUP, 1, &v, &op,
		      &c->off);
}

/* A group nest without its thread count. */
static void b_group_no_threads(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *g;

	base(m, c, 0);
	c->miss_nest = nest(m, FSLOAD_A_JOB_GROUP, &g);
	put_str(m, FSLOAD_A_GROUP_NAME, "g");
	nla_nest_end(m, g);
	c->miss = FSLOAD_A_GROUP_THREADS;
	phase(m, "p", FSLOAD_OP_NULL);
}

/* THREADS that are not the sum of the groups' threads. */
static void b_group_threads_sum(struct nl_msg *m, struct bctx *c)
{
	struct nlattr *g;

	base(m, c, 0);
	c->off = put_u32(m, FSLOAD_A_JOB_THREADS, 3);
	nest(m, FSLOAD_A_JOB_GROUP, &g);
	put_u32(m, FSLOAD_A_GROUP_THREADS, 1);
	nla_nest_end(m, g);
	nest(m, FSLOAD_A_JOB_GROUP, &g);
	put_u32(m, FSLOAD_A_GROUP_THREADS, 1);
	nla_nest_end(m, g);
	phase(m, "p", FSLOAD_OP_NULL);
}

/* The set-up of fixtures whose tests run jobs in $FSLOAD_DIR. */
static void jobdir_setup(struct __test_metadata *_metadata, struct fsl *f,
			 const char **dir)
{
	int ret;

	*dir = getenv("FSLOAD_DIR");
	if (!*dir || !**dir)
		SKIP(return, "FSLOAD_DIR is not set");
	ret = fsl_open(f);
	if (ret == -ENOENT)
		SKIP(return, "family \"%s\" not registered", FSLOAD_FAMILY_NAME);
	ASSERT_EQ(0, ret);
}

/* Stop the jobs a test started, remove their trees, restore parameters. */
static void jobdir_teardown(struct fsl *f, struct tracked *jobs,
			    const char *dir)
{
	if (f->sk)
		untrack_all(f, jobs, dir);
	params_restore();
	fsl_close(f);
}

FIXTURE(start_bad) {
	struct fsl f;
	const char *dir;
	char file[PATH_MAX];
	char link[PATH_MAX];	/* SELF_LINK */
	struct tracked jobs;
	unsigned long long max_threads, max_file_bytes, max_block_bytes;
};

FIXTURE_VARIANT(start_bad) {
	void (*build)(struct nl_msg *m, struct bctx *c);
	int err;
	struct scalar scalar;	/* b_scalar()'s */
};

#define BAD_START(_name, _err)					\
	FIXTURE_VARIANT_ADD(start_bad, _name) {			\
		.build = b_##_name, .err = (_err),		\
	}

#define BAD_SCALAR(_name, _omit, _attr, _bytes, _value, _err)	\
	FIXTURE_VARIANT_ADD(start_bad, _name) {			\
		.build = b_scalar, .err = (_err),		\
		.scalar = { .omit = (_omit), .attr = (_attr),	\
			    .bytes = (_bytes), .value = (_value) },	\
	}

BAD_START(missing_dir, EINVAL);
BAD_START(dir_enoent, ENOENT);
BAD_START(dir_file, ENOTDIR);
BAD_START(dir_sysfs, EOPNOTSUPP);
BAD_START(dir_no_nul, EINVAL);
BAD_SCALAR(threads_0, 0, FSLOAD_A_JOB_THREADS, 4, 0, ERANGE);
BAD_SCALAR(threads_1000, 0, FSLOAD_A_JOB_THREADS, 4,
	   FSLOAD_THREADS_MAX + 1, ERANGE);
BAD_START(threads_param, ERANGE);
BAD_START(u32_short, EINVAL);
BAD_SCALAR(u64_short, 0, FSLOAD_A_JOB_FILES, 4, 10, EINVAL);
BAD_SCALAR(files_0, 0, FSLOAD_A_JOB_FILES, 8, 0, ERANGE);
BAD_SCALAR(files_max, 0, FSLOAD_A_JOB_FILES, 8, FSLOAD_FILES_MAX + 1, ERANGE);
BAD_SCALAR(fpd_0, 0, FSLOAD_A_JOB_FILES_PER_DIR, 4, 0, ERANGE);
BAD_START(too_many_dirs, ERANGE);
BAD_START(tree_too_deep, ERANGE);
BAD_SCALAR(tree_branch_max, 0, FSLOAD_A_JOB_TREE_BRANCH, 4,
	   FSLOAD_DIRS_MAX + 1, ERANGE);
BAD_SCALAR(names_0, 0, FSLOAD_A_JOB_NAMES, 1, 0, ERANGE);
BAD_SCALAR(names_max, 0, FSLOAD_A_JOB_NAMES, 1, FSLOAD_NAMES_FSMARK + 1,
	   ERANGE);
/* fs_mark's name length and randomness: only with its names */
BAD_SCALAR(name_bytes_fsload, 0, FSLOAD_A_JOB_NAME_BYTES, 4, 40, EINVAL);
BAD_SCALAR(name_random_min, 0, FSLOAD_A_JOB_NAME_RANDOM_BYTES, 4,
	   FSLOAD_NAME_RANDOM_BYTES_MIN - 1, ERANGE);
BAD_START(dirs_phase_create, EINVAL);
BAD_START(hold_detach, EINVAL);
BAD_START(no_phase, EINVAL);
BAD_START(phase_no_name, EINVAL);
BAD_START(phase_no_op, EINVAL);
BAD_START(op_no_type, EINVAL);
BAD_START(op_type_0, ERANGE);
BAD_START(op_type_99, ERANGE);
BAD_START(block_0, ERANGE);
BAD_START(block_max, ERANGE);
BAD_START(block_param, ERANGE);
BAD_START(weight_0, ERANGE);
BAD_START(size_param, ERANGE);
BAD_START(bytes_overflow, EOVERFLOW);
BAD_START(iterations_overflow, EOVERFLOW);
BAD_START(iterations_0, EINVAL);
BAD_START(order_3, ERANGE);
BAD_START(name_too_long, EINVAL);
BAD_SCALAR(job_flags, 0, FSLOAD_A_JOB_FLAGS, 4, 1U << 7, EINVAL);
BAD_START(op_flags, EINVAL);
BAD_START(op_flags_rdwr_trunc, EINVAL);
BAD_START(op_flags_mknod_fsync, EINVAL);
BAD_START(op_mknod_size, EINVAL);
BAD_START(first_dir_flat, EINVAL);
BAD_START(first_dir_dirs, ERANGE);
BAD_SCALAR(first_dir_max, 0, FSLOAD_A_JOB_FIRST_DIR, 4, FSLOAD_DIRS_MAX + 1,
	   ERANGE);
BAD_SCALAR(rank_max, 0, FSLOAD_A_JOB_RANK, 4, FSLOAD_RANK_MAX + 1, ERANGE);
BAD_START(rank_threads, ERANGE);
BAD_START(join_dotdot, EINVAL);
BAD_START(join_path, EINVAL);
BAD_START(join_no_ino, EINVAL);
BAD_START(join_enoent, ENOENT);
BAD_START(join_file, ENOTDIR);
BAD_START(join_symlink, ENOTDIR);
BAD_START(join_other_inode, ESTALE);
BAD_START(join_no_mode, EINVAL);
BAD_START(join_handle_no_type, EINVAL);
BAD_START(join_handle_long, EINVAL);
BAD_START(join_other_handle, ESTALE);
BAD_START(join_rank0, EINVAL);
BAD_START(ranks_no_join, EINVAL);
BAD_START(ranks_rank, ERANGE);
BAD_START(ranks_trees, ERANGE);
BAD_START(hold_end_detach, EINVAL);
BAD_SCALAR(ranks_0, 0, FSLOAD_A_JOB_RANKS, 4, 0, ERANGE);
BAD_START(op_flags_stat, EINVAL);
BAD_START(size_read, EINVAL);
BAD_SCALAR(unknown_attr, 0, 200, 4, 1, EINVAL);
BAD_SCALAR(status_state, 0, FSLOAD_A_JOB_STATE, 1, FSLOAD_JOB_RUNNING, EINVAL);
BAD_SCALAR(status_id, 0, FSLOAD_A_JOB_ID, 4, 1, EINVAL);
BAD_START(too_many_phases, E2BIG);
BAD_START(too_many_ops, E2BIG);
BAD_SCALAR(progress_5, B_PROGRESS, FSLOAD_A_JOB_PROGRESS_MS, 4, 5, ERANGE);
BAD_SCALAR(progress_max, B_PROGRESS, FSLOAD_A_JOB_PROGRESS_MS, 4,
	   3600001, ERANGE);
BAD_START(nest_flag, EINVAL);
BAD_START(truncated, EINVAL);
BAD_START(dir_and_device, EINVAL);
BAD_START(bio_op_dir_job, EINVAL);
BAD_START(file_op_block_job, EINVAL);
BAD_START(depth_0, ERANGE);
BAD_START(depth_129, ERANGE);
BAD_START(depth_create, EINVAL);
BAD_START(bio_block_1000, EINVAL);
BAD_START(bio_block_2m, EINVAL);
BAD_START(random_create, EINVAL);
BAD_START(device_enoent, ENOENT);
BAD_START(device_file, ENOTBLK);
BAD_START(device_mounted, EBUSY);
BAD_START(device_region, ERANGE);
BAD_START(device_shared_dir, EINVAL);
BAD_START(worker_cpu_offline, EINVAL);
BAD_START(op_group_none, EINVAL);
BAD_START(group_no_threads, EINVAL);
BAD_START(group_threads_sum, EINVAL);
BAD_SCALAR(sample_5, 0, FSLOAD_A_JOB_SAMPLE_MS, 4, 5, ERANGE);
BAD_SCALAR(sample_max, 0, FSLOAD_A_JOB_SAMPLE_MS, 4, 60001, ERANGE);
BAD_SCALAR(stall_50, 0, FSLOAD_A_JOB_STALL_MS, 4, 50, ERANGE);
BAD_SCALAR(idle_max, 0, FSLOAD_A_JOB_IDLE_MS, 4, 60001, ERANGE);
BAD_SCALAR(lat_sample_0, 0, FSLOAD_A_JOB_LAT_SAMPLE, 4, 0, ERANGE);
BAD_SCALAR(lat_sample_max, 0, FSLOAD_A_JOB_LAT_SAMPLE, 4,
	   FSLOAD_LAT_SAMPLE_MAX + 1, ERANGE);

FIXTURE_SETUP(start_bad)
{
	int fd;

	jobdir_setup(_metadata, &self->f, &self->dir);
	if (_metadata->skip)
		return;
	ASSERT_EQ(0, param_read("max_threads", &self->max_threads));
	ASSERT_EQ(0, param_read("max_file_bytes", &self->max_file_bytes));
	ASSERT_EQ(0, param_read("max_block_bytes", &self->max_block_bytes));
	snprintf(self->file, sizeof(self->file), "%s/" REGULAR_FILE,
		 self->dir);
	fd = open(self->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	snprintf(self->link, sizeof(self->link), "%s/" SELF_LINK, self->dir);
	unlink(self->link);
	ASSERT_EQ(0, symlink(".", self->link));
}

FIXTURE_TEARDOWN(start_bad)
{
	if (self->f.sk)
		untrack_all(&self->f, &self->jobs, self->dir);
	if (self->file[0])
		unlink(self->file);
	if (self->link[0])
		unlink(self->link);
	fsl_close(&self->f);
}

TEST_F_TIMEOUT(start_bad, rejected, 120)
{
	struct joblist *before, *after;
	char *ls_before, *ls_after;
	struct bctx c = {
		.scalar = &variant->scalar,
		.dir = self->dir, .file = self->file,
		.dev = getenv("FSLOAD_DEV") && *getenv("FSLOAD_DEV") ?
		       getenv("FSLOAD_DEV") : NULL,
		.max_threads = self->max_threads,
		.max_file_bytes = self->max_file_bytes,
		.max_block_bytes = self->max_block_bytes,
		.off = -1, .alt_off = -1,
	};
	const struct nlattr *a;
	struct nl_msg *m;
	struct reply r;
	int i;

	if (_metadata->skip)
		return;
	before = malloc(sizeof(*before));
	after = malloc(sizeof(*after));
	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ASSERT_EQ(0, fsl_list(&self->f, before));
	ls_before = listing(self->dir);
	ASSERT_NE(NULL, ls_before);

	m = fsl_msg(&self->f, FSLOAD_CMD_JOB_START, 0);
	ASSERT_NE(NULL, m);
	variant->build(m, &c);
	if (c.skip) {
		nlmsg_free(m);
		SKIP(return, "%s", c.skip);
	}
	ASSERT_EQ(0, fsl_xfer(&self->f, m, &r));
	log_reply(_metadata, "JOB_START", &r);
	for (i = 0; i < r.n && i < MAX_REPLIES; i++) {
		struct jobinfo j;

		/* Accepted by mistake: stop it at teardown. */
		if (!parse_job(r.m[i], &j))
			track(&self->jobs, j.id);
	}

	EXPECT_EQ(variant->err, r.err);
	EXPECT_EQ(0, r.n);
	EXPECT_TRUE(r.has_msg && r.msg[0]) {
		TH_LOG("no extack message");
	}
	if (c.off >= 0) {
		EXPECT_TRUE(r.has_offs) {
			TH_LOG("no NLMSGERR_ATTR_OFFS; expected %d", c.off);
		}
		if (r.has_offs) {
			EXPECT_TRUE(r.offs == (uint32_t)c.off ||
				    (c.alt_off >= 0 &&
				     r.offs == (uint32_t)c.alt_off)) {
				TH_LOG("offset %u, expected %d (or %d)",
				       r.offs, c.off, c.alt_off);
			}
			a = attr_at(&r, r.offs);
			EXPECT_NE(NULL, a) {
				TH_LOG("offset %u is not an attribute of the request",
				       r.offs);
			}
		}
	}
	if (c.miss) {
		EXPECT_TRUE(r.has_miss_type);
		EXPECT_EQ((uint32_t)c.miss, r.miss_type);
		if (c.miss_nest) {
			EXPECT_TRUE(r.has_miss_nest);
			EXPECT_EQ((uint32_t)c.miss_nest, r.miss_nest);
			a = attr_at(&r, r.miss_nest);
			EXPECT_TRUE(a && (a->nla_type & NLA_F_NESTED));
		} else {
			EXPECT_FALSE(r.has_miss_nest);
		}
	}
	reply_free(&r);

	/* Nothing left behind: no directory, no job. */
	ls_after = listing(self->dir);
	ASSERT_NE(NULL, ls_after);
	EXPECT_STREQ(ls_before, ls_after);
	EXPECT_EQ(NULL, strstr(ls_after, "fsload-")) {
		TH_LOG("%s has job directories:\n%s", self->dir, ls_after);
	}
	ASSERT_EQ(0, fsl_list(&self->f, after));
	EXPECT_EQ(before->n, after->n);
	EXPECT_EQ(before->max_id, after->max_id);
	free(ls_before);
	free(ls_after);
	free(before);
	free(after);
}

/* ------------------------------------------------------------------ */
/* 3. STOP / JOB_GET / RESULT_GET with a bad id                        */
/* ------------------------------------------------------------------ */

enum { ID_MISSING, ID_ZERO, ID_UNKNOWN };

FIXTURE(id_bad) {
	struct fsl f;
};

FIXTURE_VARIANT(id_bad) {
	uint8_t cmd;
	bool dump;
	int kind;
	int err;
};

#define BAD_ID(_name, _cmd, _dump, _kind, _err)			\
	FIXTURE_VARIANT_ADD(id_bad, _name) {			\
		.cmd = (_cmd), .dump = (_dump), .kind = (_kind),	\
		.err = (_err),					\
	}

BAD_ID(stop_missing, FSLOAD_CMD_JOB_STOP, false, ID_MISSING, EINVAL);
BAD_ID(stop_zero, FSLOAD_CMD_JOB_STOP, false, ID_ZERO, ERANGE);
BAD_ID(stop_unknown, FSLOAD_CMD_JOB_STOP, false, ID_UNKNOWN, ENOENT);
BAD_ID(get_missing, FSLOAD_CMD_JOB_GET, false, ID_MISSING, EINVAL);
BAD_ID(get_zero, FSLOAD_CMD_JOB_GET, false, ID_ZERO, ERANGE);
BAD_ID(get_unknown, FSLOAD_CMD_JOB_GET, false, ID_UNKNOWN, ENOENT);
BAD_ID(result_missing, FSLOAD_CMD_RESULT_GET, true, ID_MISSING, EINVAL);
BAD_ID(result_zero, FSLOAD_CMD_RESULT_GET, true, ID_ZERO, ERANGE);
BAD_ID(result_unknown, FSLOAD_CMD_RESULT_GET, true, ID_UNKNOWN, ENOENT);
BAD_ID(series_missing, FSLOAD_CMD_SERIES_GET, true, ID_MISSING, EINVAL);
BAD_ID(series_zero, FSLOAD_CMD_SERIES_GET, true, ID_ZERO, ERANGE);
BAD_ID(series_unknown, FSLOAD_CMD_SERIES_GET, true, ID_UNKNOWN, ENOENT);

FIXTURE_SETUP(id_bad)
{
	int ret = fsl_open(&self->f);

	if (ret == -ENOENT)
		SKIP(return, "family \"%s\" not registered", FSLOAD_FAMILY_NAME);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(id_bad)
{
	fsl_close(&self->f);
}

TEST_F_TIMEOUT(id_bad, rejected, 120)
{
	struct joblist *l;
	struct nl_msg *m;
	struct reply r;
	int off = -1;

	if (_metadata->skip)
		return;
	l = malloc(sizeof(*l));
	ASSERT_NE(NULL, l);
	ASSERT_EQ(0, fsl_list(&self->f, l));
	m = fsl_msg(&self->f, variant->cmd, variant->dump ? NLM_F_DUMP : 0);
	ASSERT_NE(NULL, m);
	if (variant->kind == ID_ZERO)
		off = put_u32(m, FSLOAD_A_JOB_ID, 0);
	else if (variant->kind == ID_UNKNOWN)
		off = put_u32(m, FSLOAD_A_JOB_ID, l->max_id + 1000);
	free(l);
	ASSERT_EQ(0, fsl_xfer(&self->f, m, &r));
	log_reply(_metadata, "request", &r);

	EXPECT_EQ(variant->err, r.err);
	EXPECT_EQ(0, r.n);
	EXPECT_TRUE(r.has_msg && r.msg[0]) {
		TH_LOG("no extack message");
	}
	/*
	 * A dump's own errors come in its NLMSG_DONE, which carries only
	 * the message; errors of the policy are reported before the dump
	 * starts, in an NLMSG_ERROR with the offset.
	 */
	if (off >= 0 && (!variant->dump || variant->kind == ID_ZERO)) {
		EXPECT_FALSE(r.done);
		EXPECT_TRUE(r.has_offs);
		EXPECT_EQ((uint32_t)off, r.offs);
		EXPECT_NE(NULL, attr_at(&r, r.offs));
	}
	if (variant->kind == ID_MISSING && !variant->dump) {
		EXPECT_TRUE(r.has_miss_type);
		EXPECT_EQ((uint32_t)FSLOAD_A_JOB_ID, r.miss_type);
		EXPECT_FALSE(r.has_miss_nest);
	}
	if (variant->dump && variant->kind != ID_ZERO)
		EXPECT_TRUE(r.done);
	reply_free(&r);
}

/* ------------------------------------------------------------------ */
/* 4.-7. Jobs that run                                                 */
/* ------------------------------------------------------------------ */

FIXTURE(job) {
	struct fsl f;
	const char *dir;
	struct tracked jobs;
};

FIXTURE_SETUP(job)
{
	jobdir_setup(_metadata, &self->f, &self->dir);
}

FIXTURE_TEARDOWN(job)
{
	jobdir_teardown(&self->f, &self->jobs, self->dir);
}

/* The JOB_START reply of a job of @js, just started. */
static void check_started(struct __test_metadata *_metadata,
			  const struct jobspec *js, const struct jobinfo *j,
			  uint32_t owner)
{
	char real[PATH_MAX];

	EXPECT_NE(0U, j->id);
	EXPECT_EQ(FSLOAD_JOB_RUNNING, j->state) {
		TH_LOG("state %u (%s)", j->state, state_name(j->state));
	}
	EXPECT_EQ(js->threads, j->threads);
	EXPECT_EQ(js->files, j->files);
	EXPECT_EQ(js->fpd, j->fpd);
	EXPECT_EQ(js->flags, j->flags);
	EXPECT_EQ((uint32_t)js->nphases, j->phases);
	EXPECT_EQ(js->threads, j->nworkers);
	EXPECT_EQ(0U, j->status_pids);
	EXPECT_EQ(owner, j->owner);
	EXPECT_STREQ(PROFILE, j->profile);
	EXPECT_FALSE(j->has_err);
	if (realpath(js->dir, real))
		EXPECT_STREQ(real, j->dir);
}

/* One phase's result, as RESULT_GET reports it. */
struct opstat {
	uint8_t type;
	uint64_t ops, errors, bytes, sum, min, max;
	uint64_t hist;		/* operations in its histogram's buckets */
	bool hist_ok;		/* buckets ascending, each low < high */
	uint64_t hist_low;	/* the last bucket's low end */
};

struct phaseres {
	uint32_t id, index, threads;
	char name[FSLOAD_NAME_MAX + 8];
	uint8_t complete;
	uint64_t elapsed, ops, errors, bytes;
	int nstats;
	struct opstat st[FSLOAD_OP_MAX + 1];
	bool ok;		/* every attribute was there */
};

static void parse_result(const struct nlmsghdr *h, struct phaseres *p)
{
	struct nlattr *res = gattr(h, FSLOAD_A_JOB_RESULT), *a;
	int rem;

	memset(p, 0, sizeof(*p));
	if (gcmd(h) != FSLOAD_CMD_RESULT_GET || !res)
		return;
	p->ok = a_get_u32(gattr(h, FSLOAD_A_JOB_ID), &p->id) &&
		a_get_u32(nattr(res, FSLOAD_A_RES_PHASE_INDEX), &p->index) &&
		a_get_str(nattr(res, FSLOAD_A_RES_PHASE_NAME), p->name,
			  sizeof(p->name)) &&
		a_get_u32(nattr(res, FSLOAD_A_RES_THREADS), &p->threads) &&
		a_get_u8(nattr(res, FSLOAD_A_RES_COMPLETE), &p->complete) &&
		a_get_u64(nattr(res, FSLOAD_A_RES_ELAPSED_NS), &p->elapsed) &&
		a_get_u64(nattr(res, FSLOAD_A_RES_OPS), &p->ops) &&
		a_get_u64(nattr(res, FSLOAD_A_RES_ERRORS), &p->errors) &&
		a_get_u64(nattr(res, FSLOAD_A_RES_BYTES), &p->bytes);
	nla_for_each_nested(a, res, rem) {
		struct opstat *o;

		if (nla_type(a) != FSLOAD_A_RES_OPSTAT)
			continue;
		if (p->nstats > FSLOAD_OP_MAX) {
			p->ok = false;
			break;
		}
		o = &p->st[p->nstats++];
		p->ok &= a_get_u8(nattr(a, FSLOAD_A_OPSTAT_TYPE), &o->type) &&
			 a_get_u64(nattr(a, FSLOAD_A_OPSTAT_OPS), &o->ops) &&
			 a_get_u64(nattr(a, FSLOAD_A_OPSTAT_ERRORS), &o->errors) &&
			 a_get_u64(nattr(a, FSLOAD_A_OPSTAT_BYTES), &o->bytes) &&
			 a_get_u64(nattr(a, FSLOAD_A_OPSTAT_LAT_SUM_NS), &o->sum) &&
			 a_get_u64(nattr(a, FSLOAD_A_OPSTAT_LAT_MIN_NS), &o->min) &&
			 a_get_u64(nattr(a, FSLOAD_A_OPSTAT_LAT_MAX_NS), &o->max);
	}
}

/*
 * A histogram message (phase index and one opstat with buckets): add its
 * buckets to the phase's opstat of that type in @p[0..n).
 */
static void parse_hist(const struct nlmsghdr *h, struct phaseres *p, int n)
{
	struct nlattr *res = gattr(h, FSLOAD_A_JOB_RESULT), *os, *b;
	uint64_t low = 0, high = 0, count = 0;
	uint32_t index;
	uint8_t type;
	int i, k, rem;

	if (!res || !a_get_u32(nattr(res, FSLOAD_A_RES_PHASE_INDEX), &index))
		return;
	os = nattr(res, FSLOAD_A_RES_OPSTAT);
	if (!os || !a_get_u8(nattr(os, FSLOAD_A_OPSTAT_TYPE), &type))
		return;
	for (i = 0; i < n; i++) {
		if (p[i].index != index)
			continue;
		for (k = 0; k < p[i].nstats; k++) {
			struct opstat *o = &p[i].st[k];

			if (o->type != type)
				continue;
			nla_for_each_nested(b, os, rem) {
				if (nla_type(b) != FSLOAD_A_OPSTAT_BUCKET)
					continue;
				if (!a_get_u64(nattr(b, FSLOAD_A_BUCKET_LOW_NS),
					       &low) ||
				    !a_get_u64(nattr(b, FSLOAD_A_BUCKET_HIGH_NS),
					       &high) ||
				    !a_get_u64(nattr(b, FSLOAD_A_BUCKET_COUNT),
					       &count) ||
				    low >= high || !count ||
				    (o->hist && low <= o->hist_low))
					o->hist_ok = false;
				o->hist_low = low;
				o->hist += count;
			}
		}
	}
}

/*
 * RESULT_GET of @id, parsed into @p: the number of phases reported, or a
 * negative errno (the kernel's, or of the exchange).  A phase is its
 * summary message followed by messages of histogram buckets.
 */
static int fsl_results(struct fsl *f, uint32_t id, struct phaseres *p,
		       int max)
{
	struct nlattr *res;
	struct reply r;
	int i, k, n = 0, ret;

	ret = fsl_id_req(f, FSLOAD_CMD_RESULT_GET, NLM_F_DUMP, id, &r);
	if (ret > 0)
		ret = -ret;
	else if (!ret && r.err)
		ret = -r.err;
	else if (!ret && !r.done)
		ret = -EBADMSG;
	for (i = 0; !ret && i < r.n && i < MAX_REPLIES; i++) {
		res = gattr(r.m[i], FSLOAD_A_JOB_RESULT);
		if (res && nattr(res, FSLOAD_A_RES_PHASE_NAME)) {
			if (n < max) {
				parse_result(r.m[i], &p[n]);
				for (k = 0; k < p[n].nstats; k++)
					p[n].st[k].hist_ok = true;
			}
			n++;
		} else {
			parse_hist(r.m[i], p, n < max ? n : max);
		}
	}
	if (!ret)
		ret = n;
	reply_free(&r);
	return ret;
}

/* Sane statistics: min <= mean <= max, within the phase's time. */
static void check_opstat(struct __test_metadata *_metadata,
			 const struct phaseres *p, const struct opstat *o)
{
	TH_LOG("phase %u %s: op %u: ops %llu errors %llu bytes %llu lat sum %llu min %llu max %llu ns",
	       p->index, p->name, o->type, (unsigned long long)o->ops,
	       (unsigned long long)o->errors, (unsigned long long)o->bytes,
	       (unsigned long long)o->sum, (unsigned long long)o->min,
	       (unsigned long long)o->max);
	EXPECT_LE(o->min, o->max);
	/* Every successful operation is in the latency histogram. */
	EXPECT_EQ(o->ops, o->hist);
	EXPECT_TRUE(o->hist_ok);
	if (o->ops) {
		EXPECT_LE(o->min, o->sum / o->ops);
		EXPECT_LE(o->sum / o->ops, o->max);
		EXPECT_LT(0ULL, o->max);
		EXPECT_LE(o->max, p->elapsed);
		EXPECT_LE(o->sum, p->elapsed * p->threads);
	} else {
		EXPECT_EQ(0ULL, o->sum);
	}
}

TEST_F_TIMEOUT(job, end_to_end, 300)
{
	static const uint8_t types[] = {
		FSLOAD_OP_CREATE, FSLOAD_OP_STAT, FSLOAD_OP_READ,
		FSLOAD_OP_UNLINK,
	};
	static const uint64_t bytes[] = { 409600, 0, 409600, 0 };
	struct jobspec js = {
		.dir = self->dir, .threads = 2, .files = 50, .fpd = 1000,
		.progress_ms = 100, .nphases = 4,
		.ph = {
			{ "create", 0, { FSLOAD_OP_CREATE, 4096, 4096, 0 } },
			{ "stat", 0, { FSLOAD_OP_STAT, 0, 0, 0 } },
			{ "read", 0, { FSLOAD_OP_READ, 0, 4096, 0 } },
			{ "unlink", 0, { FSLOAD_OP_UNLINK, 0, 0, 0 } },
		},
	};
	struct phaseres res[8];
	struct jobinfo j, done, got;
	char path[PATH_MAX];
	int nprogress = 0, i, n;
	struct fsl ev;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, fsl_open(&ev));
	ASSERT_EQ(0, fsl_subscribe(&ev));

	ASSERT_EQ(0, fsl_start(&self->f, &js, &j, NULL));
	track(&self->jobs, j.id);
	check_started(_metadata, &js, &j, fsl_port(&self->f));

	ASSERT_EQ(0, wait_done_ntf(&ev, j.id, JOB_MS, &done, &nprogress)) {
		TH_LOG("no JOB_DONE_NTF for job %u", j.id);
	}
	TH_LOG("job %u: %d progress notification(s)", j.id, nprogress);
	fsl_close(&ev);
	EXPECT_EQ(FSLOAD_JOB_DONE, done.state) {
		TH_LOG("state %s, errno %u: %s", state_name(done.state),
		       done.err, done.errmsg);
	}
	EXPECT_EQ(400ULL, done.ops);

	ASSERT_EQ(0, fsl_get(&self->f, j.id, &got));
	EXPECT_EQ(FSLOAD_JOB_DONE, got.state);
	EXPECT_EQ(400ULL, got.ops);
	EXPECT_EQ(819200ULL, got.bytes);
	EXPECT_TRUE(got.has_phase_index);
	EXPECT_EQ(3U, got.phase_index);
	EXPECT_FALSE(got.has_err);
	EXPECT_LT(0ULL, got.elapsed);
	EXPECT_EQ(2U, got.nworkers);

	/* The job directory is gone once the job has ended. */
	job_path(path, sizeof(path), self->dir, j.id);
	EXPECT_FALSE(exists(path));

	n = fsl_results(&self->f, j.id, res, 8);
	ASSERT_EQ(4, n);
	for (i = 0; i < 4; i++) {
		struct phaseres *p = &res[i];

		EXPECT_TRUE(p->ok);
		EXPECT_EQ(j.id, p->id);
		EXPECT_EQ((uint32_t)i, p->index);
		EXPECT_STREQ(js.ph[i].name, p->name);
		EXPECT_EQ(2U, p->threads);
		EXPECT_EQ(1, p->complete);
		EXPECT_LT(0ULL, p->elapsed);
		EXPECT_EQ(100ULL, p->ops);
		EXPECT_EQ(0ULL, p->errors);
		EXPECT_EQ(bytes[i], p->bytes);
		ASSERT_EQ(1, p->nstats);
		EXPECT_EQ(types[i], p->st[0].type);
		EXPECT_EQ(100ULL, p->st[0].ops);
		EXPECT_EQ(0ULL, p->st[0].errors);
		EXPECT_EQ(bytes[i], p->st[0].bytes);
		check_opstat(_metadata, p, &p->st[0]);
	}
}

/* Count the regular files below @path; -1 on error. */
static long files_found;

static int count_one(const char *path, const struct stat *st, int flag,
		     struct FTW *ftw)
{
	(void)path;
	(void)st;
	(void)ftw;
	if (flag == FTW_F)
		files_found++;
	return 0;
}

TEST_F_TIMEOUT(job, keep_files, 300)
{
	struct jobspec js = {
		.dir = self->dir, .flags = FSLOAD_JOB_F_KEEP, .threads = 2,
		.files = 50, .fpd = 20, .progress_ms = 0, .nphases = 1,
		.ph = {
			{ "create", 0, { FSLOAD_OP_CREATE, 4096, 4096, 0 } },
		},
	};
	struct jobinfo j, got;
	char path[PATH_MAX + 32], root[PATH_MAX];
	unsigned int t, i, bad = 0;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, fsl_start(&self->f, &js, &j, NULL));
	track(&self->jobs, j.id);
	check_started(_metadata, &js, &j, fsl_port(&self->f));
	ASSERT_EQ(0, wait_ended(&self->f, j.id, JOB_MS, &got));
	EXPECT_EQ(FSLOAD_JOB_DONE, got.state) {
		TH_LOG("state %s, errno %u: %s", state_name(got.state),
		       got.err, got.errmsg);
	}
	EXPECT_EQ(100ULL, got.ops);
	EXPECT_EQ(409600ULL, got.bytes);

	/* t<thread>/d<file / files_per_dir>/f<file>, 4096 bytes each. */
	job_path(root, sizeof(root), self->dir, j.id);
	ASSERT_TRUE(exists(root));
	for (t = 0; t < js.threads; t++) {
		for (i = 0; i < js.files; i++) {
			struct stat st;

			snprintf(path, sizeof(path), "%s/t%03u/d%05u/f%08u",
				 root, t, i / js.fpd, i);
			if (stat(path, &st) || !S_ISREG(st.st_mode) ||
			    st.st_size != 4096) {
				if (bad++ < 5)
					TH_LOG("%s: missing or not 4096 bytes",
					       path);
			}
		}
	}
	EXPECT_EQ(0U, bad);
	files_found = 0;
	EXPECT_EQ(0, nftw(root, count_one, 16, FTW_PHYS));
	EXPECT_EQ((long)(js.threads * js.files), files_found);

	EXPECT_EQ(0, rm_rf(root));
	EXPECT_FALSE(exists(root));
}

TEST_F_TIMEOUT(job, owner_close_stops, 180)
{
	struct jobspec js = long_job(self->dir, 0);
	struct phaseres res[4];
	struct jobinfo j, got;
	char path[PATH_MAX];
	struct fsl a;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, fsl_open(&a));
	ASSERT_EQ(0, fsl_start(&a, &js, &j, NULL));
	track(&self->jobs, j.id);
	check_started(_metadata, &js, &j, fsl_port(&a));

	/* In its endless phase: its files exist. */
	ASSERT_EQ(0, wait_phase(&self->f, j.id, 1, STOP_MS, &got));
	ASSERT_EQ(FSLOAD_JOB_RUNNING, got.state);
	job_path(path, sizeof(path), self->dir, j.id);
	EXPECT_TRUE(exists(path));

	/* The owner's socket goes: the job stops by itself. */
	fsl_close(&a);
	ASSERT_EQ(0, wait_ended(&self->f, j.id, STOP_MS, &got)) {
		TH_LOG("job %u still %s 60 s after its socket closed", j.id,
		       state_name(got.state));
	}
	EXPECT_EQ(FSLOAD_JOB_STOPPED, got.state);
	EXPECT_FALSE(got.has_err);
	EXPECT_FALSE(exists(path));

	/* Both phases started; only the first completed. */
	ASSERT_EQ(2, fsl_results(&self->f, j.id, res, 4));
	EXPECT_TRUE(res[0].ok && res[1].ok);
	EXPECT_EQ(1, res[0].complete);
	EXPECT_EQ(20ULL, res[0].ops);
	EXPECT_EQ(0, res[1].complete);
	EXPECT_EQ(1U, res[1].threads);
	EXPECT_LT(0ULL, res[1].ops);
	EXPECT_EQ(0ULL, res[1].errors);
}

TEST_F_TIMEOUT(job, detach_survives_close, 180)
{
	struct jobspec js = long_job(self->dir, FSLOAD_JOB_F_DETACH);
	struct jobinfo j, got;
	char path[PATH_MAX];
	uint64_t ops;
	struct reply r;
	struct fsl a;
	FILE *f;
	int off;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, fsl_open(&a));
	ASSERT_EQ(0, fsl_start(&a, &js, &j, NULL));
	track(&self->jobs, j.id);
	check_started(_metadata, &js, &j, 0);
	ASSERT_EQ(0, wait_phase(&self->f, j.id, 1, STOP_MS, &got));
	fsl_close(&a);

	/* WORKER_PID is the worker kthread, named fsload<id>/<thread>. */
	ASSERT_EQ(1U, got.nworkers);
	snprintf(path, sizeof(path), "/proc/%u/comm", got.pid[0]);
	f = fopen(path, "r");
	EXPECT_NE(NULL, f) {
		TH_LOG("%s: %s", path, strerror(errno));
	}
	if (f) {
		char comm[32] = "", want[32];

		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
		snprintf(want, sizeof(want), "fsload%u/0", j.id);
		EXPECT_STREQ(want, comm);
	}

	/* Still running, and working, well after its socket closed. */
	sleep_ms(1500);
	ASSERT_EQ(0, fsl_get(&self->f, j.id, &got));
	EXPECT_EQ(FSLOAD_JOB_RUNNING, got.state) {
		TH_LOG("state %s", state_name(got.state));
	}
	ops = got.ops;
	sleep_ms(500);
	ASSERT_EQ(0, fsl_get(&self->f, j.id, &got));
	EXPECT_EQ(FSLOAD_JOB_RUNNING, got.state);
	EXPECT_LT(ops, got.ops);
	job_path(path, sizeof(path), self->dir, j.id);
	EXPECT_TRUE(exists(path));

	/* An explicit stop ends it. */
	EXPECT_EQ(0, fsl_stop(&self->f, j.id));
	ASSERT_EQ(0, wait_ended(&self->f, j.id, STOP_MS, &got));
	EXPECT_EQ(FSLOAD_JOB_STOPPED, got.state);
	EXPECT_FALSE(exists(path));

	/* Stopping an ended job: EALREADY, pointing at the id. */
	ASSERT_EQ(0, fsl_id_req(&self->f, FSLOAD_CMD_JOB_STOP, 0, j.id, &r));
	log_reply(_metadata, "STOP of an ended job", &r);
	EXPECT_EQ(EALREADY, r.err);
	EXPECT_TRUE(r.has_msg && r.msg[0]);
	off = NLMSG_HDRLEN + GENL_HDRLEN;
	EXPECT_TRUE(r.has_offs);
	EXPECT_EQ((uint32_t)off, r.offs);
	reply_free(&r);
}

TEST_F_TIMEOUT(job, max_jobs, 300)
{
	struct jobspec js = long_job(self->dir, FSLOAD_JOB_F_DETACH);
	struct joblist *before, *after;
	char *ls_before, *ls_after;
	struct jobinfo j[2], k, got;
	struct reply r;
	int i;

	if (_metadata->skip)
		return;
	ASSERT_NE(NULL, shared);
	before = malloc(sizeof(*before));
	after = malloc(sizeof(*after));
	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, after);
	ASSERT_EQ(0, fsl_list(&self->f, before));
	ASSERT_EQ(0, before->running) {
		TH_LOG("other jobs are running");
	}

	ASSERT_EQ(0, param_set(&shared->max_jobs, 2));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, fsl_start(&self->f, &js, &j[i], NULL));
		track(&self->jobs, j[i].id);
	}
	ASSERT_EQ(0, fsl_list(&self->f, before));
	ls_before = listing(self->dir);
	ASSERT_NE(NULL, ls_before);

	/* A third one is refused, and leaves nothing. */
	EXPECT_EQ(EBUSY, fsl_start(&self->f, &js, &k, &r));
	log_reply(_metadata, "third JOB_START", &r);
	track(&self->jobs, k.id);
	EXPECT_TRUE(r.has_msg && r.msg[0]);
	reply_free(&r);
	ls_after = listing(self->dir);
	ASSERT_NE(NULL, ls_after);
	EXPECT_STREQ(ls_before, ls_after);
	ASSERT_EQ(0, fsl_list(&self->f, after));
	EXPECT_EQ(before->n, after->n);
	EXPECT_EQ(before->max_id, after->max_id);
	EXPECT_EQ(2, after->running);
	free(ls_before);
	free(ls_after);

	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, fsl_stop(&self->f, j[i].id));
		ASSERT_EQ(0, wait_ended(&self->f, j[i].id, STOP_MS, &got));
		EXPECT_EQ(FSLOAD_JOB_STOPPED, got.state);
	}
	EXPECT_EQ(0, param_restore(&shared->max_jobs));
	free(before);
	free(after);
}

TEST_F_TIMEOUT(job, done_frees_slot, 300)
{
	struct jobspec quick = {
		.dir = self->dir, .threads = 1, .files = 5, .fpd = 5,
		.progress_ms = 0, .nphases = 1,
		.ph = { { "null", 0, { FSLOAD_OP_NULL, 0, 0, 0 } } },
	};
	struct nl_sock *decoy[512] = { NULL };
	struct jobinfo k, got;
	struct joblist *l;
	struct fsl ev;
	int i, grp, busy = 0;

	if (_metadata->skip)
		return;
	ASSERT_NE(NULL, shared);
	l = malloc(sizeof(*l));
	ASSERT_NE(NULL, l);
	ASSERT_EQ(0, fsl_list(&self->f, l));
	ASSERT_EQ(0, l->running) {
		TH_LOG("other jobs are running");
	}
	free(l);

	/*
	 * With max_jobs 1, jobs run back to back: once a job's
	 * JOB_DONE_NTF is out, it no longer counts and the next may start.
	 *
	 * Multicasts reach the newest subscriber first: idle sockets that
	 * joined "events" before ours keep the kernel busy delivering for
	 * a while after we are woken, as a busy system would.
	 */
	ASSERT_EQ(0, param_set(&shared->max_jobs, 1));
	ASSERT_EQ(0, fsl_open(&ev));
	grp = genl_ctrl_resolve_grp(ev.sk, FSLOAD_FAMILY_NAME,
				    FSLOAD_MCGRP_EVENTS);
	ASSERT_LT(0, grp);
	for (i = 0; i < (int)(sizeof(decoy) / sizeof(decoy[0])); i++) {
		decoy[i] = nl_socket_alloc();
		if (!decoy[i] || nl_connect(decoy[i], NETLINK_GENERIC) ||
		    nl_socket_add_membership(decoy[i], grp))
			break;
	}
	ASSERT_EQ((int)(sizeof(decoy) / sizeof(decoy[0])), i);
	ASSERT_EQ(0, fsl_subscribe(&ev));
	for (i = 0; i < 20; i++) {
		int ret = fsl_start(&self->f, &quick, &k, NULL);

		track(&self->jobs, k.id);
		if (ret == EBUSY) {
			busy++;
			TH_LOG("job %d of 20 refused with EBUSY right after the previous one's JOB_DONE_NTF",
			       i + 1);
			sleep_ms(200);
			continue;
		}
		ASSERT_EQ(0, ret);
		ASSERT_EQ(0, wait_done_ntf(&ev, k.id, JOB_MS, &got, NULL));
		EXPECT_EQ(FSLOAD_JOB_DONE, got.state);
	}
	EXPECT_EQ(0, busy);
	fsl_close(&ev);
	for (i = 0; i < (int)(sizeof(decoy) / sizeof(decoy[0])); i++) {
		if (decoy[i])
			nl_socket_free(decoy[i]);
	}
	EXPECT_EQ(0, param_restore(&shared->max_jobs));
}

/* An op that fails: the job ends FAILED, says why, and cleans up. */
TEST_F_TIMEOUT(job, failed_op, 180)
{
	struct jobspec js = {
		.dir = self->dir, .threads = 2, .files = 10, .fpd = 10,
		.progress_ms = 0, .nphases = 2,
		.ph = {
			/* Nothing to read: ENOENT on the first file. */
			{ "read", 0, { FSLOAD_OP_READ, 0, 4096, 0 } },
			{ "never", 0, { FSLOAD_OP_NULL, 0, 0, 0 } },
		},
	};
	struct phaseres res[4];
	struct jobinfo j, done, got;
	char path[PATH_MAX];
	struct fsl ev;
	int i;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, fsl_open(&ev));
	ASSERT_EQ(0, fsl_subscribe(&ev));
	ASSERT_EQ(0, fsl_start(&self->f, &js, &j, NULL));
	track(&self->jobs, j.id);
	ASSERT_EQ(0, wait_done_ntf(&ev, j.id, JOB_MS, &done, NULL));
	fsl_close(&ev);
	EXPECT_EQ(FSLOAD_JOB_FAILED, done.state);

	ASSERT_EQ(0, fsl_get(&self->f, j.id, &got));
	TH_LOG("job %u: %s, errno %u, \"%s\"", j.id, state_name(got.state),
	       got.err, got.errmsg);
	EXPECT_EQ(FSLOAD_JOB_FAILED, got.state);
	EXPECT_TRUE(got.has_err);
	EXPECT_EQ((uint32_t)ENOENT, got.err);
	EXPECT_TRUE(got.has_errmsg);
	EXPECT_NE(NULL, strstr(got.errmsg, "read"));
	EXPECT_EQ(0ULL, got.ops);
	job_path(path, sizeof(path), self->dir, j.id);
	EXPECT_FALSE(exists(path));

	/* The failed phase is reported, incomplete, with its errors. */
	ASSERT_EQ(1, fsl_results(&self->f, j.id, res, 4));
	EXPECT_TRUE(res[0].ok);
	EXPECT_EQ(0, res[0].complete);
	EXPECT_EQ(0ULL, res[0].ops);
	EXPECT_LE(1ULL, res[0].errors);
	EXPECT_GE(2ULL, res[0].errors);
	EXPECT_EQ(1, res[0].nstats);
	for (i = 0; i < res[0].nstats; i++) {
		EXPECT_EQ(FSLOAD_OP_READ, res[0].st[i].type);
		EXPECT_EQ(res[0].errors, res[0].st[i].errors);
		check_opstat(_metadata, &res[0], &res[0].st[i]);
	}
}

/*
 * Random order visits every file exactly once: unlinking in random order
 * after reading in random order fails on no file.  The target is given
 * relative to the sender's working directory.
 */
TEST_F_TIMEOUT(job, random_order, 300)
{
	struct jobspec js = {
		.dir = ".", .threads = 2, .files = 300, .fpd = 7,
		.progress_ms = 0, .nphases = 3,
		.ph = {
			{ "create", 0, { FSLOAD_OP_CREATE, 1000, 512,
					 FSLOAD_OP_F_FSYNC } },
			{ "read", 0, { FSLOAD_OP_READ, 0, 300, 0 } },
			{ "unlink", 0, { FSLOAD_OP_UNLINK, 0, 0, 0 } },
		},
	};
	struct phaseres res[4];
	struct jobinfo j, got;
	char path[PATH_MAX], real[PATH_MAX];
	struct nl_msg *m;
	struct reply r;
	struct nlattr *n;
	int i;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, chdir(self->dir));
	ASSERT_NE(NULL, realpath(".", real));

	/* As put_jobspec() would, with ORDER random on phases 1 and 2. */
	m = fsl_msg(&self->f, FSLOAD_CMD_JOB_START, 0);
	ASSERT_NE(NULL, m);
	put_str(m, FSLOAD_A_JOB_DIR, js.dir);
	put_str(m, FSLOAD_A_JOB_PROFILE, PROFILE);
	put_u32(m, FSLOAD_A_JOB_THREADS, js.threads);
	put_u64(m, FSLOAD_A_JOB_FILES, js.files);
	put_u32(m, FSLOAD_A_JOB_FILES_PER_DIR, js.fpd);
	put_u32(m, FSLOAD_A_JOB_PROGRESS_MS, 0);
	put_u64(m, FSLOAD_A_JOB_SEED, 12345);
	for (i = 0; i < js.nphases; i++) {
		ASSERT_LE(0, nest(m, FSLOAD_A_JOB_PHASE, &n));
		put_str(m, FSLOAD_A_PHASE_NAME, js.ph[i].name);
		if (i)
			put_u8(m, FSLOAD_A_PHASE_ORDER, FSLOAD_ORDER_RANDOM);
		ASSERT_LE(0, put_op(m, &js.ph[i].op));
		nla_nest_end(m, n);
	}
	ASSERT_EQ(0, fsl_xfer(&self->f, m, &r));
	ASSERT_EQ(0, r.err) {
		log_reply(_metadata, "JOB_START", &r);
	}
	ASSERT_EQ(1, r.n);
	ASSERT_EQ(0, parse_job(r.m[0], &j));
	reply_free(&r);
	track(&self->jobs, j.id);
	EXPECT_STREQ(real, j.dir);
	EXPECT_EQ(12345ULL, j.seed);

	ASSERT_EQ(0, wait_ended(&self->f, j.id, JOB_MS, &got));
	EXPECT_EQ(FSLOAD_JOB_DONE, got.state) {
		TH_LOG("state %s, errno %u: %s", state_name(got.state),
		       got.err, got.errmsg);
	}
	EXPECT_EQ(1800ULL, got.ops);
	EXPECT_EQ(1200000ULL, got.bytes);
	job_path(path, sizeof(path), real, j.id);
	EXPECT_FALSE(exists(path));

	ASSERT_EQ(3, fsl_results(&self->f, j.id, res, 4));
	for (i = 0; i < 3; i++) {
		EXPECT_TRUE(res[i].ok);
		EXPECT_EQ(1, res[i].complete);
		EXPECT_EQ(600ULL, res[i].ops);
		EXPECT_EQ(0ULL, res[i].errors);
		EXPECT_EQ(i == 2 ? 0ULL : 600000ULL, res[i].bytes);
		EXPECT_EQ(1, res[i].nstats);
		check_opstat(_metadata, &res[i], &res[i].st[0]);
	}
}

/* Progress notifications while running, none after the end. */
TEST_F_TIMEOUT(job, progress, 180)
{
	struct jobspec js = long_job(self->dir, FSLOAD_JOB_F_DETACH);
	struct jobinfo j, e;
	uint64_t last_ops = 0;
	int64_t until;
	int nprogress = 0, late = 0, ret;
	struct fsl ev;
	uint8_t cmd;

	if (_metadata->skip)
		return;
	js.progress_ms = 100;
	ASSERT_EQ(0, fsl_open(&ev));
	ASSERT_EQ(0, fsl_subscribe(&ev));
	ASSERT_EQ(0, fsl_start(&self->f, &js, &j, NULL));
	track(&self->jobs, j.id);
	EXPECT_EQ(100U, j.progress_ms);

	until = now_ms() + 2000;
	while (now_ms() < until) {
		ret = next_event(&ev, j.id, until - now_ms(), &cmd, &e);
		if (ret == -ETIMEDOUT)
			break;
		ASSERT_EQ(0, ret);
		ASSERT_EQ(FSLOAD_CMD_JOB_PROGRESS_NTF, cmd);
		EXPECT_EQ(FSLOAD_JOB_RUNNING, e.state);
		EXPECT_LE(last_ops, e.ops);
		EXPECT_EQ(1U, e.threads);
		/* The status does not list the workers (WORKER_GET). */
		EXPECT_EQ(0U, e.status_pids);
		last_ops = e.ops;
		nprogress++;
	}
	TH_LOG("%d progress notifications in 2 s at 100 ms", nprogress);
	EXPECT_LE(5, nprogress);
	EXPECT_GE(25, nprogress);

	EXPECT_EQ(0, fsl_stop(&self->f, j.id));
	ASSERT_EQ(0, wait_done_ntf(&ev, j.id, STOP_MS, &e, NULL));
	EXPECT_EQ(FSLOAD_JOB_STOPPED, e.state);
	EXPECT_LE(last_ops, e.ops);
	/* Nothing about the job once it is done. */
	while (!next_event(&ev, j.id, 500, &cmd, &e))
		late++;
	EXPECT_EQ(0, late);
	fsl_close(&ev);
}

/*
 * FSLOAD_PHASE_F_HOLD: the job announces each hold (JOB_HELD_NTF, the
 * phase in HELD, also in JOB_GET) and opens the phase only on JOB_RESUME;
 * a resume naming another hold (HELD) or of a job not held is refused,
 * the first pointing at HELD; a stop ends a held job.
 */
TEST_F_TIMEOUT(job, hold_resume, 180)
{
	struct jobspec js = {
		.dir = self->dir, .threads = 2, .files = 10, .fpd = 10,
		.nphases = 3,
		.ph = {
			{ "a", 5, { FSLOAD_OP_NULL } },
			{ "b", 5, { FSLOAD_OP_NULL }, FSLOAD_PHASE_F_HOLD },
			{ "c", 5, { FSLOAD_OP_NULL }, FSLOAD_PHASE_F_HOLD },
		},
	};
	struct jobinfo j, e, g;
	struct reply r;
	uint32_t p;
	struct fsl ev;
	uint8_t cmd;
	int off;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, fsl_open(&ev));
	ASSERT_EQ(0, fsl_subscribe(&ev));
	ASSERT_EQ(0, fsl_start(&self->f, &js, &j, NULL));
	track(&self->jobs, j.id);
	for (p = 1; p <= 2; p++) {
		do {
			ASSERT_EQ(0, next_event(&ev, j.id, STOP_MS, &cmd, &e));
		} while (cmd == FSLOAD_CMD_JOB_PROGRESS_NTF);
		ASSERT_EQ(FSLOAD_CMD_JOB_HELD_NTF, cmd);
		EXPECT_TRUE(e.has_held);
		EXPECT_EQ(p, e.held);
		EXPECT_EQ(FSLOAD_JOB_RUNNING, e.state);
		/* held: it stays so, and says so, until resumed */
		usleep(200 * 1000);
		ASSERT_EQ(0, fsl_get(&self->f, j.id, &g));
		EXPECT_TRUE(g.has_held);
		EXPECT_EQ(p, g.held);
		EXPECT_EQ(5 * 2 * p, g.ops);
		/* A late resume, of the hold before: the job stays held. */
		ASSERT_EQ(0, fsl_resume(&self->f, j.id, p - 1, &off, &r));
		log_reply(_metadata, "RESUME of another hold", &r);
		EXPECT_EQ(EINVAL, r.err);
		EXPECT_TRUE(r.has_msg && strstr(r.msg, "held"));
		EXPECT_TRUE(r.has_offs);
		EXPECT_EQ((uint32_t)off, r.offs);
		reply_free(&r);
		usleep(100 * 1000);
		ASSERT_EQ(0, fsl_get(&self->f, j.id, &g));
		EXPECT_TRUE(g.has_held);
		EXPECT_EQ(5 * 2 * p, g.ops);
		/* The first by the phase it holds before, the second by id. */
		if (p == 1) {
			ASSERT_EQ(0, fsl_resume(&self->f, j.id, p, &off, &r));
		} else {
			ASSERT_EQ(0, fsl_id_req(&self->f, FSLOAD_CMD_JOB_RESUME,
						0, j.id, &r));
		}
		EXPECT_EQ(0, r.err);
		reply_free(&r);
	}
	ASSERT_EQ(0, wait_done_ntf(&ev, j.id, STOP_MS, &e, NULL));
	EXPECT_EQ(FSLOAD_JOB_DONE, e.state);
	EXPECT_EQ(30U, e.ops);
	EXPECT_FALSE(e.has_held);
	/* Not held (any more): refused, with a message. */
	ASSERT_EQ(0, fsl_id_req(&self->f, FSLOAD_CMD_JOB_RESUME, 0, j.id, &r));
	EXPECT_EQ(EINVAL, r.err);
	EXPECT_TRUE(r.has_msg && r.msg[0]);
	reply_free(&r);

	/* A stop ends a job while it is held. */
	ASSERT_EQ(0, fsl_start(&self->f, &js, &j, NULL));
	track(&self->jobs, j.id);
	do {
		ASSERT_EQ(0, next_event(&ev, j.id, STOP_MS, &cmd, &e));
	} while (cmd == FSLOAD_CMD_JOB_PROGRESS_NTF);
	ASSERT_EQ(FSLOAD_CMD_JOB_HELD_NTF, cmd);
	EXPECT_EQ(0, fsl_stop(&self->f, j.id));
	ASSERT_EQ(0, wait_done_ntf(&ev, j.id, STOP_MS, &e, NULL));
	EXPECT_EQ(FSLOAD_JOB_STOPPED, e.state);
	EXPECT_EQ(10U, e.ops);
	fsl_close(&ev);
}

/* Stopped while making its directories: nothing ran, nothing is left. */
TEST_F_TIMEOUT(job, stop_in_prepare, 300)
{
	struct jobspec js = {
		.dir = self->dir, .threads = 1, .files = 10000, .fpd = 1,
		.progress_ms = 0, .nphases = 1,
		.ph = { { "create", 0, { FSLOAD_OP_CREATE, 0, 0, 0 } } },
	};
	char path[PATH_MAX], tdir[PATH_MAX + 8];
	struct phaseres res[2];
	struct jobinfo j, got, before;
	int64_t deadline, t0;
	int n, i;

	if (_metadata->skip)
		return;
	ASSERT_EQ(0, fsl_start(&self->f, &js, &j, NULL));
	track(&self->jobs, j.id);
	job_path(path, sizeof(path), self->dir, j.id);
	snprintf(tdir, sizeof(tdir), "%s/t000", path);
	t0 = now_ms();
	deadline = t0 + STOP_MS;
	while (!exists(tdir) && now_ms() < deadline)
		sleep_ms(5);
	ASSERT_EQ(0, fsl_get(&self->f, j.id, &before));
	EXPECT_EQ(0, fsl_stop(&self->f, j.id));
	ASSERT_EQ(0, wait_ended(&self->f, j.id, STOP_MS, &got));
	EXPECT_EQ(FSLOAD_JOB_STOPPED, got.state);
	EXPECT_FALSE(got.has_err);
	EXPECT_EQ(0ULL, got.ops);
	EXPECT_FALSE(exists(path)) {
		TH_LOG("%s left behind", path);
	}
	n = fsl_results(&self->f, j.id, res, 2);
	TH_LOG("stopped %lld ms after the start, %s; then: phase index %s%u, %d result(s)",
	       (long long)(now_ms() - t0),
	       before.has_phase_index ? "after the directories were made" :
					"while making directories",
	       got.has_phase_index ? "" : "none ", got.phase_index, n);
	ASSERT_LE(0, n);
	/*
	 * A phase is reported when it started, that is when workers ran
	 * it: RES_THREADS is "workers that ran the phase".
	 */
	for (i = 0; i < n; i++) {
		EXPECT_LE(1U, res[i].threads) {
			TH_LOG("phase %u reported as started, but no worker ran it (threads %u, ops %llu, elapsed %llu ns)",
			       res[i].index, res[i].threads,
			       (unsigned long long)res[i].ops,
			       (unsigned long long)res[i].elapsed);
		}
	}
	if (got.has_phase_index)
		EXPECT_LT((int)got.phase_index, n);
}

/* RESULT_GET of a job of FSLOAD_PHASES_MAX phases: all, in order. */
TEST_F_TIMEOUT(job, many_phases, 180)
{
	struct phaseres *res;
	struct jobinfo j, got;
	struct nl_msg *m;
	struct reply r;
	char name[16];
	int i, n;

	if (_metadata->skip)
		return;
	m = fsl_msg(&self->f, FSLOAD_CMD_JOB_START, 0);
	ASSERT_NE(NULL, m);
	put_str(m, FSLOAD_A_JOB_DIR, self->dir);
	put_str(m, FSLOAD_A_JOB_PROFILE, PROFILE);
	put_u32(m, FSLOAD_A_JOB_THREADS, 2);
	put_u64(m, FSLOAD_A_JOB_FILES, 3);
	put_u32(m, FSLOAD_A_JOB_PROGRESS_MS, 0);
	for (i = 0; i < FSLOAD_PHASES_MAX; i++) {
		struct nlattr *p, *o;
		int k;

		snprintf(name, sizeof(name), "phase-%02d", i);
		nest(m, FSLOAD_A_JOB_PHASE, &p);
		put_str(m, FSLOAD_A_PHASE_NAME, name);
		/* 16 weighted ops of every kind that needs no file. */
		for (k = 0; k < FSLOAD_PHASE_OPS_MAX; k++) {
			nest(m, FSLOAD_A_PHASE_OP, &o);
			put_u8(m, FSLOAD_A_OP_TYPE, FSLOAD_OP_NULL);
			put_u32(m, FSLOAD_A_OP_WEIGHT, k + 1);
			nla_nest_end(m, o);
		}
		nla_nest_end(m, p);
	}
	ASSERT_EQ(0, fsl_xfer(&self->f, m, &r));
	ASSERT_EQ(0, r.err) {
		log_reply(_metadata, "JOB_START", &r);
	}
	ASSERT_EQ(1, r.n);
	ASSERT_EQ(0, parse_job(r.m[0], &j));
	reply_free(&r);
	track(&self->jobs, j.id);
	EXPECT_EQ((uint32_t)FSLOAD_PHASES_MAX, j.phases);
	ASSERT_EQ(0, wait_ended(&self->f, j.id, JOB_MS, &got));
	EXPECT_EQ(FSLOAD_JOB_DONE, got.state);
	EXPECT_EQ(2ULL * 3 * FSLOAD_PHASES_MAX, got.ops);

	res = calloc(FSLOAD_PHASES_MAX + 1, sizeof(*res));
	ASSERT_NE(NULL, res);
	n = fsl_results(&self->f, j.id, res, FSLOAD_PHASES_MAX + 1);
	EXPECT_EQ(FSLOAD_PHASES_MAX, n);
	for (i = 0; i < n && i < FSLOAD_PHASES_MAX; i++) {
		snprintf(name, sizeof(name), "phase-%02d", i);
		EXPECT_TRUE(res[i].ok);
		EXPECT_EQ((uint32_t)i, res[i].index);
		EXPECT_STREQ(name, res[i].name);
		EXPECT_EQ(1, res[i].complete);
		EXPECT_EQ(6ULL, res[i].ops);
		EXPECT_EQ(1, res[i].nstats);
		EXPECT_EQ(FSLOAD_OP_NULL, res[i].st[0].type);
	}
	free(res);
}

/*
 * Finished jobs beyond max_finished are forgotten, oldest first; a
 * multi-part JOB_GET dump lists each job once, in id order.
 */
TEST_F_TIMEOUT(job, finished_forgotten, 300)
{
	struct jobspec quick = {
		.dir = self->dir, .threads = 1, .files = 2, .fpd = 2,
		.progress_ms = 0, .nphases = 1,
		.ph = { { "null", 0, { FSLOAD_OP_NULL, 0, 0, 0 } } },
	};
	struct phaseres res[2];
	struct joblist *l;
	struct jobinfo k[3], got;
	int64_t deadline;
	int i, ended;

	if (_metadata->skip)
		return;
	ASSERT_NE(NULL, shared);
	l = malloc(sizeof(*l));
	ASSERT_NE(NULL, l);

	ASSERT_EQ(0, fsl_list(&self->f, l));
	TH_LOG("%d jobs listed", l->n);
	for (i = 1; i < l->n && i < MAX_JOBS_SEEN; i++)
		EXPECT_LT(l->j[i - 1].id, l->j[i].id);

	ASSERT_EQ(0, param_set(&shared->max_finished, 2));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, fsl_start(&self->f, &quick, &k[i], NULL));
		track(&self->jobs, k[i].id);
		ASSERT_EQ(0, wait_ended(&self->f, k[i].id, JOB_MS, &got));
		EXPECT_EQ(FSLOAD_JOB_DONE, got.state);
	}
	/* The reaper forgets after announcing the end: allow it a moment. */
	deadline = now_ms() + 5000;
	do {
		ASSERT_EQ(0, fsl_list(&self->f, l));
		ended = l->n - l->running;
	} while (ended > 2 && now_ms() < deadline && (sleep_ms(50), 1));
	EXPECT_EQ(2, ended);
	EXPECT_EQ(0, l->running);
	if (l->n == 2) {
		EXPECT_EQ(k[1].id, l->j[0].id);
		EXPECT_EQ(k[2].id, l->j[1].id);
	}
	EXPECT_EQ(ENOENT, fsl_get(&self->f, k[0].id, &got));
	EXPECT_EQ(-ENOENT, fsl_results(&self->f, k[0].id, res, 2));
	EXPECT_EQ(1, fsl_results(&self->f, k[2].id, res, 2));
	EXPECT_EQ(0, param_restore(&shared->max_finished));
	free(l);
}

/* ------------------------------------------------------------------ */
/* 5. Privilege                                                        */
/* ------------------------------------------------------------------ */

/* What a less privileged child saw: errno and message per request. */
struct seen {
	int err;
	bool has_msg;
	char msg[256];
	uint32_t started_id;	/* a job it should not have started */
};

struct child_report {
	int setup_err;		/* errno of a failed step, 0 if fine */
	char setup_step[64];
	bool userns_mapped;
	uint32_t uid;
	uint64_t cap_eff;
	struct seen start, start_old, stop, stop_old, resume;
	int dump_err, dump_n, get_err, result_err;
	bool dump_saw_job;
	int res_threads, res_named;	/* THREAD nests; with NAME or PID */
	bool get_owner;		/* JOB_GET's reply has OWNER_PORTID */
	int workers_err, workers, worker_pids;	/* WORKER nests; with PID */
	struct seen profile;	/* PROFILE_GET */
};

/* WORKER_GET's WORKER nests in @r, and how many of them have a PID. */
static void count_workers(const struct reply *r, int *n, int *pids)
{
	struct genlmsghdr *g;
	struct nlattr *a;
	int i, rem;

	*n = *pids = 0;
	for (i = 0; i < r->n && i < MAX_REPLIES; i++) {
		g = nlmsg_data(r->m[i]);
		nla_for_each_attr(a, genlmsg_attrdata(g, 0),
				  genlmsg_attrlen(g, 0), rem) {
			if (nla_type(a) != FSLOAD_A_JOB_WORKER)
				continue;
			(*n)++;
			if (nattr(a, FSLOAD_A_WORKER_PID))
				(*pids)++;
		}
	}
}

/*
 * The busiest other threads of a RESULT_GET dump: how many THREAD nests
 * in @r's summaries, and how many of them name their thread (NAME or PID).
 */
static void count_threads(const struct reply *r, int *n, int *named)
{
	struct nlattr *res, *a;
	int i, rem;

	*n = *named = 0;
	for (i = 0; i < r->n && i < MAX_REPLIES; i++) {
		res = gattr(r->m[i], FSLOAD_A_JOB_RESULT);
		if (!res)
			continue;
		nla_for_each_nested(a, res, rem) {
			if (nla_type(a) != FSLOAD_A_RES_THREAD)
				continue;
			(*n)++;
			if (nattr(a, FSLOAD_A_THREAD_NAME) ||
			    nattr(a, FSLOAD_A_THREAD_PID))
				(*named)++;
		}
	}
}

static void seen_set(struct seen *s, int ret, const struct reply *r)
{
	s->err = ret ? ret : r->err;
	s->has_msg = r->has_msg && r->msg[0];
	snprintf(s->msg, sizeof(s->msg), "%s", r->msg);
}

static void child_start(struct fsl *f, const char *dir, struct seen *s)
{
	struct jobspec js = long_job(dir, FSLOAD_JOB_F_DETACH);
	struct jobinfo j;
	struct reply r;
	int ret = fsl_start(f, &js, &j, &r);

	seen_set(s, ret < 0 ? ret : 0, &r);
	s->started_id = j.id;
	reply_free(&r);
}

static void child_id_req(struct fsl *f, uint8_t cmd, uint32_t id,
			 struct seen *s)
{
	struct reply r;
	int ret = fsl_id_req(f, cmd, 0, id, &r);

	seen_set(s, ret, &r);
	reply_free(&r);
}

/* The effective set, or all ones when it cannot be read. */
static uint64_t cap_effective(void)
{
	uint64_t eff, perm;

	return cap_sets(&eff, &perm) ? ~0ULL : eff;
}

static int write_file(int dirfd, const char *path, const char *s)
{
	int fd = openat(dirfd, path, O_WRONLY), ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -EIO;
}

#define CHILD_FAIL(rep, step) do {					\
	(rep)->setup_err = errno ? errno : EIO;				\
	snprintf((rep)->setup_step, sizeof((rep)->setup_step), "%s", step); \
	_exit(1);							\
} while (0)

/*
 * In a forked child: drop to nobody (@userns false) or enter a new user
 * namespace (@userns true), then try what needs CAP_SYS_ADMIN in the
 * initial namespace, and what does not.  Never returns.
 */
static void __attribute__((noreturn))
child_run(struct child_report *rep, const char *dir, uint32_t id,
	  bool userns)
{
	static struct joblist l;
	struct fsl old, f;
	struct reply r;
	int i, dirfd, procfd, ret;

	errno = 0;
	/* A socket opened with every privilege, used without them. */
	if (fsl_open(&old))
		CHILD_FAIL(rep, "open a socket");
	if (userns) {
		/* Paths may change below: keep the target and /proc open. */
		dirfd = open(dir, O_RDONLY | O_DIRECTORY);
		procfd = open("/proc", O_RDONLY | O_DIRECTORY);
		if (dirfd < 0 || procfd < 0)
			CHILD_FAIL(rep, "open $FSLOAD_DIR and /proc");
		ret = unshare(CLONE_NEWUSER);
		if (ret)
			CHILD_FAIL(rep, "unshare(CLONE_NEWUSER)");
		/* Be uid 0 in there; all capabilities either way. */
		rep->userns_mapped =
			!write_file(procfd, "self/setgroups", "deny") &&
			!write_file(procfd, "self/uid_map", "0 0 1") &&
			!write_file(procfd, "self/gid_map", "0 0 1");
		/* The target, relative to the working directory. */
		if (fchdir(dirfd))
			CHILD_FAIL(rep, "fchdir to $FSLOAD_DIR");
		dir = ".";
	} else {
		if (setgroups(0, NULL))
			CHILD_FAIL(rep, "setgroups");
		if (setresgid(NOBODY, NOBODY, NOBODY))
			CHILD_FAIL(rep, "setresgid");
		if (setresuid(NOBODY, NOBODY, NOBODY))
			CHILD_FAIL(rep, "setresuid");
	}
	rep->uid = getuid();
	rep->cap_eff = cap_effective();
	if (fsl_open(&f))
		CHILD_FAIL(rep, "open a socket without privileges");

	child_start(&f, dir, &rep->start);
	child_start(&old, dir, &rep->start_old);
	child_id_req(&f, FSLOAD_CMD_JOB_STOP, id, &rep->stop);
	child_id_req(&old, FSLOAD_CMD_JOB_STOP, id, &rep->stop_old);
	child_id_req(&f, FSLOAD_CMD_JOB_RESUME, id, &rep->resume);

	rep->dump_err = fsl_list(&f, &l);
	rep->dump_n = l.n;
	for (i = 0; i < l.n && i < MAX_JOBS_SEEN; i++) {
		if (l.j[i].id == id)
			rep->dump_saw_job = true;
	}
	rep->get_err = fsl_id_req(&f, FSLOAD_CMD_JOB_GET, 0, id, &r);
	if (!rep->get_err)
		rep->get_err = r.err ? r.err : (r.n == 1 ? 0 : EBADMSG);
	if (!rep->get_err)
		rep->get_owner = gattr(r.m[0], FSLOAD_A_JOB_OWNER_PORTID);
	reply_free(&r);
	rep->workers_err = fsl_id_req(&f, FSLOAD_CMD_WORKER_GET, NLM_F_DUMP,
				      id, &r);
	if (!rep->workers_err)
		rep->workers_err = r.err;
	count_workers(&r, &rep->workers, &rep->worker_pids);
	reply_free(&r);
	ret = fsl_id_req(&f, FSLOAD_CMD_PROFILE_GET, NLM_F_DUMP, id, &r);
	seen_set(&rep->profile, ret, &r);
	reply_free(&r);
	rep->result_err = fsl_id_req(&f, FSLOAD_CMD_RESULT_GET, NLM_F_DUMP,
				     id, &r);
	if (!rep->result_err)
		rep->result_err = r.err;
	count_threads(&r, &rep->res_threads, &rep->res_named);
	reply_free(&r);
	_exit(0);
}

static void check_denied(struct __test_metadata *_metadata, const char *what,
			 const struct seen *s)
{
	TH_LOG("%s: errno %d (%s), msg \"%s\"", what, s->err,
	       strerror(s->err), s->msg);
	EXPECT_EQ(EPERM, s->err);
	EXPECT_TRUE(s->has_msg) {
		TH_LOG("%s: no extack message", what);
	}
	EXPECT_EQ(0U, s->started_id);
}

/* Run child_run(); the report, or NULL (with @status) on failure. */
static struct child_report *run_child(const char *dir, uint32_t id,
				      bool userns, int *status)
{
	struct child_report *rep;
	pid_t pid;

	rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rep == MAP_FAILED)
		return NULL;
	memset(rep, 0, sizeof(*rep));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return NULL;
	if (!pid)
		child_run(rep, dir, id, userns);
	if (waitpid(pid, status, 0) != pid)
		*status = -1;
	return rep;
}

static void track_child_jobs(struct tracked *t, struct child_report *rep)
{
	track(t, rep->start.started_id);
	track(t, rep->start_old.started_id);
}

/*
 * Privilege: a child without CAP_SYS_ADMIN in the initial namespace,
 * dropped to nobody or in a user namespace of its own (where it has every
 * capability), may read jobs but not start, stop or resume one.
 */
FIXTURE(privilege) {
	struct fsl f;
	const char *dir;
	struct tracked jobs;
};

FIXTURE_VARIANT(privilege) {
	bool userns;		/* a new user namespace, not nobody */
	const char *who;	/* for the messages */
};

FIXTURE_VARIANT_ADD(privilege, unprivileged) {
	.userns = false,
	.who = "as nobody",
};

FIXTURE_VARIANT_ADD(privilege, user_namespace) {
	.userns = true,
	.who = "from a user namespace",
};

FIXTURE_SETUP(privilege)
{
	jobdir_setup(_metadata, &self->f, &self->dir);
}

FIXTURE_TEARDOWN(privilege)
{
	jobdir_teardown(&self->f, &self->jobs, self->dir);
}

/*
 * Other users' processes are not named to nobody: the busiest threads of
 * job @id come with their CPU time only.  Root sees their names.
 */
static void check_thread_names(struct __test_metadata *_metadata,
			       struct fsl *f, uint32_t id,
			       const struct child_report *rep)
{
	struct reply r;
	int n = 0, named = 0;

	ASSERT_EQ(0, fsl_id_req(f, FSLOAD_CMD_RESULT_GET, NLM_F_DUMP, id, &r));
	count_threads(&r, &n, &named);
	reply_free(&r);
	TH_LOG("busiest threads: root sees %d (%d named), nobody %d (%d named)",
	       n, named, rep->res_threads, rep->res_named);
	EXPECT_LT(0, n);
	EXPECT_EQ(n, named);
	EXPECT_EQ(n, rep->res_threads);
	EXPECT_EQ(0, rep->res_named);
}

/* Every request that needs the privilege was refused to the child. */
static void check_child_denied(struct __test_metadata *_metadata,
			       const struct child_report *rep, const char *who)
{
	const struct {
		const char *req;
		const char *how;
		const struct seen *s;
	} denied[] = {
		{ "START", "", &rep->start },
		{ "START", ", socket opened before", &rep->start_old },
		{ "STOP", "", &rep->stop },
		{ "STOP", ", socket opened before", &rep->stop_old },
		{ "RESUME", "", &rep->resume },
	};
	char what[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(denied); i++) {
		snprintf(what, sizeof(what), "%s %s%s", denied[i].req, who,
			 denied[i].how);
		check_denied(_metadata, what, denied[i].s);
	}
}

TEST_F_TIMEOUT(privilege, denied, 180)
{
	struct jobspec js = long_job(self->dir, FSLOAD_JOB_F_DETACH);
	struct child_report *rep;
	struct jobinfo j, got;
	char *ls_before, *ls_after;
	pid_t spin = -1;
	int status;

	if (_metadata->skip)
		return;
	if (!variant->userns) {
		/*
		 * The first phase has its results, and its busiest threads: a
		 * process spins through it, so that there is one on an idle
		 * guest.  A thread's CPU time is what the scheduler last
		 * recorded (at its CPU's tick or a switch), so the phase must
		 * outlast ticks: 2 000 creates, not long_job()'s 20, which a
		 * fast guest does within one (no thread was then listed).
		 */
		js.files = 2000;
		spin = fork();
		ASSERT_LE(0, spin);
		if (!spin)
			for (;;)
				;
	}
	ASSERT_EQ(0, fsl_start(&self->f, &js, &j, NULL));
	track(&self->jobs, j.id);
	if (!variant->userns) {
		ASSERT_EQ(0, wait_phase(&self->f, j.id, 1, JOB_MS, &got));
		kill(spin, SIGKILL);
		waitpid(spin, NULL, 0);
	}
	ls_before = listing(self->dir);
	ASSERT_NE(NULL, ls_before);

	rep = run_child(self->dir, j.id, variant->userns, &status);
	ASSERT_NE(NULL, rep);
	track_child_jobs(&self->jobs, rep);
	if (variant->userns && WIFEXITED(status) && WEXITSTATUS(status) &&
	    !strcmp(rep->setup_step, "unshare(CLONE_NEWUSER)")) {
		free(ls_before);
		SKIP(return, "unshare(CLONE_NEWUSER): %s",
		     strerror(rep->setup_err));
	}
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("child failed: %s: %s", rep->setup_step,
		       strerror(rep->setup_err));
	}
	if (variant->userns) {
		TH_LOG("in the namespace: uid %u (mapped: %s), CapEff %#llx",
		       rep->uid, rep->userns_mapped ? "yes" : "no",
		       (unsigned long long)rep->cap_eff);
	} else {
		EXPECT_EQ((uint32_t)NOBODY, rep->uid);
		EXPECT_EQ(0ULL, rep->cap_eff);
	}
	check_child_denied(_metadata, rep, variant->who);
	/* Reading needs no privilege. */
	EXPECT_EQ(0, rep->dump_err);
	EXPECT_TRUE(rep->dump_saw_job);
	EXPECT_EQ(0, rep->get_err);
	if (!variant->userns) {
		EXPECT_LE(1, rep->dump_n);
		EXPECT_EQ(0, rep->result_err);
		check_thread_names(_metadata, &self->f, j.id, rep);
		/*
		 * Nor its owner's port, its workers' thread ids, its CPU
		 * profile (this job has none: refused before that is told).
		 */
		EXPECT_FALSE(rep->get_owner);
		EXPECT_EQ(0, rep->workers_err);
		EXPECT_EQ((int)js.threads, rep->workers);
		EXPECT_EQ(0, rep->worker_pids);
		check_denied(_metadata, "PROFILE_GET as nobody", &rep->profile);
	}
	munmap(rep, sizeof(*rep));

	/* The job was not stopped, and nothing new appeared. */
	ASSERT_EQ(0, fsl_get(&self->f, j.id, &got));
	EXPECT_EQ(FSLOAD_JOB_RUNNING, got.state);
	ls_after = listing(self->dir);
	ASSERT_NE(NULL, ls_after);
	EXPECT_STREQ(ls_before, ls_after);
	free(ls_before);
	free(ls_after);

	EXPECT_EQ(0, fsl_stop(&self->f, j.id));
	ASSERT_EQ(0, wait_ended(&self->f, j.id, STOP_MS, &got));
	EXPECT_EQ(FSLOAD_JOB_STOPPED, got.state);
}

/*
 * A JOB_GET dump read as libmnl reads by default: 4 KiB at a time.  Each
 * datagram must fit (no MSG_TRUNC) and the dump end with NLMSG_DONE and
 * no error.  0 and the jobs seen (*@n, *@seen: @id among them), or a
 * positive errno from the dump's end, or -errno.
 */
static int list_4k(struct fsl *f, uint32_t id, int *n, bool *seen)
{
	struct nl_msg *m = fsl_msg(f, FSLOAD_CMD_JOB_GET, NLM_F_DUMP);
	int fd = nl_socket_get_fd(f->sk);
	struct nlmsghdr *nlh;
	uint32_t seq, got;
	char buf[4096];

	*n = 0;
	*seen = false;
	if (!m)
		return -ENOMEM;
	nlh = nlmsg_hdr(m);
	nlh->nlmsg_seq = seq = ++f->seq;
	nl_complete_msg(f->sk, m);
	if (nl_send(f->sk, m) < 0) {
		nlmsg_free(m);
		return -EIO;
	}
	nlmsg_free(m);
	for (;;) {
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *h;
		int len;

		if (poll(&pfd, 1, REPLY_MS) != 1)
			return -ETIMEDOUT;
		len = recvmsg(fd, &mh, 0);
		if (len < 0)
			return -errno;
		if (mh.msg_flags & MSG_TRUNC)
			return -EMSGSIZE;
		for (h = (void *)buf; nlmsg_ok(h, len); h = nlmsg_next(h, &len)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE ||
			    h->nlmsg_type == NLMSG_ERROR) {
				struct reply r = { 0 };

				parse_end(&r, h);
				return r.err;
			}
			(*n)++;
			if (a_get_u32(gattr(h, FSLOAD_A_JOB_ID), &got) &&
			    got == id)
				*seen = true;
		}
	}
}

/* The next notification of @cmd about @id; others are skipped. */
static int wait_event_cmd(struct fsl *ev, uint32_t id, uint8_t want,
			  int timeout_ms, struct jobinfo *j)
{
	int64_t deadline = now_ms() + timeout_ms;
	uint8_t cmd;
	int ret;

	do {
		ret = next_event(ev, id, deadline - now_ms(), &cmd, j);
	} while (!ret && cmd != want);
	return ret;
}

/*
 * Start a job held before its second phase; @cpus: WORKER_CPUs (0, 1).
 * Positive errno, or -errno locally; the reply's job in @j.
 */
static int start_held(struct fsl *f, const char *dir, uint32_t threads,
		      int cpus, struct jobinfo *j)
{
	struct jobspec js = {
		.dir = dir, .threads = threads, .files = 1, .fpd = 1,
		.progress_ms = 100, .nphases = 2,
		.ph = {
			{ "spin", 10, { FSLOAD_OP_NULL, 0, 0, 0 } },
			{ "held", 10, { FSLOAD_OP_NULL, 0, 0, 0 },
			  FSLOAD_PHASE_F_HOLD },
		},
	};

	return fsl_start_cpus(f, &js, cpus, j, NULL);
}

/*
 * Status is one bounded message (issue 12): a job of 950 pinned threads,
 * then one in a directory of a ~4 KiB path.  Each starts with its reply,
 * announces its hold, shows in JOB_GET and in a JOB_GET dump read 4 KiB
 * at a time (libmnl's default buffer), lists its workers with WORKER_GET,
 * and announces its end.  (Its status used to carry every worker's id
 * and CPU and the whole path: the start returned EMSGSIZE for a job that
 * ran, and status, notifications and later jobs in a listing vanished.)
 */
TEST_F_TIMEOUT(job, big_status, 900)
{
	static char path[PATH_MAX];
	static const uint32_t nthreads[] = { 950, 1 };
	struct jobinfo j, got, e;
	size_t len;
	int k, n, off, ncpus;
	struct reply r;
	bool seen;
	struct fsl ev;

	if (_metadata->skip)
		return;
	ncpus = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
	ASSERT_EQ(0, param_set(&shared->max_threads, 999));
	ASSERT_EQ(0, fsl_open(&ev));
	ASSERT_EQ(0, fsl_subscribe(&ev));
	/* A directory path of about 4 KiB: 16 names of 250 bytes. */
	len = snprintf(path, sizeof(path), "%s/long", self->dir);
	ASSERT_EQ(0, mkdir(path, 0755));
	for (k = 0; k < 16; k++) {
		path[len++] = '/';
		memset(path + len, 'a' + k, 250);
		len += 250;
		path[len] = '\0';
		ASSERT_EQ(0, mkdir(path, 0755)) {
			TH_LOG("mkdir of %zu bytes: %s", len, strerror(errno));
		}
	}
	TH_LOG("long path: %zu bytes", len);

	for (k = 0; k < 2; k++) {
		const char *dir = k ? path : self->dir;

		ASSERT_EQ(0, start_held(&self->f, dir, nthreads[k],
					k ? 0 : ncpus, &j)) {
			TH_LOG("start of %u threads in a path of %zu bytes",
			       nthreads[k], strlen(dir));
		}
		track(&self->jobs, j.id);
		EXPECT_EQ(nthreads[k], j.threads);
		EXPECT_EQ(0U, j.status_pids);
		if (k) {
			/* "..." and the path's last bytes */
			EXPECT_EQ(FSLOAD_STATUS_DIR_MAX - 1, (int)strlen(j.dir));
			EXPECT_EQ(0, strncmp(j.dir, "...", 3));
			EXPECT_STREQ(path + len - (FSLOAD_STATUS_DIR_MAX - 4),
				     j.dir + 3);
		} else {
			EXPECT_STREQ(self->dir, j.dir);
		}
		ASSERT_EQ(0, wait_event_cmd(&ev, j.id, FSLOAD_CMD_JOB_HELD_NTF,
					    JOB_MS * 3, &e)) {
			TH_LOG("no JOB_HELD_NTF for job %u", j.id);
		}
		EXPECT_TRUE(e.has_held);
		EXPECT_EQ(1U, e.held);

		ASSERT_EQ(0, fsl_get(&self->f, j.id, &got));
		EXPECT_EQ(FSLOAD_JOB_RUNNING, got.state);
		EXPECT_EQ(nthreads[k], got.nworkers);
		EXPECT_EQ(k ? 0U : nthreads[k], got.ncpus);
		EXPECT_NE(0U, got.pid[0]);

		ASSERT_EQ(0, list_4k(&self->f, j.id, &n, &seen));
		EXPECT_TRUE(seen);
		TH_LOG("job %u: %u workers, held; a 4 KiB dump read %d job(s)",
		       j.id, got.nworkers, n);

		ASSERT_EQ(0, fsl_resume(&self->f, j.id, 1, &off, &r));
		EXPECT_EQ(0, r.err);
		reply_free(&r);
		ASSERT_EQ(0, wait_event_cmd(&ev, j.id, FSLOAD_CMD_JOB_DONE_NTF,
					    JOB_MS * 3, &e)) {
			TH_LOG("no JOB_DONE_NTF for job %u", j.id);
		}
		EXPECT_EQ(FSLOAD_JOB_DONE, e.state);
		EXPECT_EQ(20ULL * nthreads[k], e.ops);
	}
	fsl_close(&ev);
	EXPECT_EQ(0, param_restore(&shared->max_threads));
	/* The long path, from its deepest directory up. */
	for (k = 0; k < 17; k++) {
		EXPECT_EQ(0, rmdir(path));
		*strrchr(path, '/') = '\0';
	}
}

TEST_HARNESS_MAIN
