// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz fuzz --uid N: the fuzzer as an unprivileged user, against
 * jobs root started.  After the family is resolved and DIR entered, the
 * process drops every privilege (groups, gid, uid N; CAP_SYS_ADMIN must
 * be gone), lists the jobs (JOB_GET dump) and fuzzes:
 *  - admin commands (JOB_START, JOB_STOP, JOB_RESUME), whatever their
 *    bytes: exactly the genl core's verdict (policy.c: header checks and
 *    the command's policy come first), else EPERM "CAP_SYS_ADMIN is
 *    required"; never a success, never the module's own checks;
 *  - the queries anyone may send (JOB_GET, RESULT_GET, SERIES_GET,
 *    WORKER_GET, PROFILE_GET) of root's jobs, mutated as the root fuzzer
 *    mutates, and dumps read halfway, never read, or whose socket is
 *    closed mid-dump (user_walkaway());
 *  - every reply, dump message and notification is checked against
 *    hidden[]: what the module must not show a reader who neither started
 *    the job nor has CAP_SYS_ADMIN;
 *  - at the end the module lists the same jobs as at the start, and no
 *    job that was running has been stopped.
 */
#include "cases.h"

#include <grp.h>
#include <linux/capability.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Privilege                                                           */
/* ------------------------------------------------------------------ */

/* The effective and permitted sets, or all ones when they cannot be read. */
static uint64_t cap_effective(void)
{
	uint64_t eff, perm;

	return cap_sets(&eff, &perm) ? ~0ULL : eff | perm;
}
int drop_privileges(uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid)) {
		printf("# cannot become uid %u: %s\n", (unsigned int)uid,
		       strerror(errno));
		return -1;
	}
	if (cap_effective() & (1ULL << CAP_SYS_ADMIN) || !setuid(0)) {
		printf("# uid %u still has CAP_SYS_ADMIN\n", (unsigned int)uid);
		return -1;
	}
	printf("# running as uid %u, gid %u, no capabilities (0x%llx)\n",
	       (unsigned int)getuid(), (unsigned int)getgid(),
	       (unsigned long long)cap_effective());
	return 0;
}

/* ------------------------------------------------------------------ */
/* Root's jobs                                                         */
/* ------------------------------------------------------------------ */

static struct jobstate before[256];
static int nbefore;

/* List the jobs to fuzz the queries of: how many, or -errno. */
int user_discover(void)
{
	struct nsock s = { .fd = -1 };
	int i, err = nsock_open(&s);

	if (err)
		return err;
	nbefore = list_jobs(&s, before, ARRAY_SIZE(before));
	nsock_close(&s);
	printf("# %d jobs listed:", nbefore);
	for (i = 0; i < nbefore; i++)
		printf(" %u (state %u)", before[i].id, before[i].state);
	printf("\n");
	return nbefore;
}

/* One of root's jobs, now and then an id that no job has (or 0). */
uint32_t user_job_pick(struct rng *r)
{
	if (!nbefore || pct(r, 5))
		return PICK(r, ((const uint32_t[]){ 0x7ffffffe, UINT32_MAX,
						    0x12345678 }));
	/* Mostly the newest: the jobs root started for us. */
	if (pct(r, 60))
		return before[nbefore - 1 - below(r, nbefore < 3 ? nbefore : 3)].id;
	return before[below(r, nbefore)].id;
}

/* The same jobs as at the start; none that was running stopped. */
int user_final_check(void)
{
	static struct jobstate after[256];
	struct nsock s = { .fd = -1 };
	int n, i, k, bad = 0;

	if (nsock_open(&s))
		return 1;
	n = list_jobs(&s, after, ARRAY_SIZE(after));
	nsock_close(&s);
	if (n < 0) {
		printf("# FAIL: job list at the end: %s\n", strerror(-n));
		return 1;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < nbefore && before[k].id != after[i].id; k++)
			;
		if (k == nbefore) {
			printf("# FAIL: job %u appeared while only uid %u sent requests\n",
			       after[i].id, (unsigned int)getuid());
			bad = 1;
		} else if (state_running(before[k].state) &&
			   after[i].state == FSLOAD_JOB_STOPPED) {
			printf("# FAIL: root's job %u was stopped while only uid %u sent requests\n",
			       after[i].id, (unsigned int)getuid());
			bad = 1;
		}
	}
	for (k = 0; k < nbefore; k++) {
		for (i = 0; i < n && after[i].id != before[k].id; i++)
			;
		if (i == n && state_running(before[k].state)) {
			printf("# FAIL: root's running job %u is gone\n",
			       before[k].id);
			bad = 1;
		}
	}
	printf("# %d jobs listed at the start, %d at the end\n", nbefore, n);
	return bad;
}

/* ------------------------------------------------------------------ */
/* What an unprivileged reader must not see                            */
/* ------------------------------------------------------------------ */

/*
 * One row per attribute the module hides from a reader who neither
 * started the job nor has CAP_SYS_ADMIN (root started every job this
 * fuzzer reads): the reply's command (FSLOAD_CMD_JOB_GET: every job
 * status message, the notifications too), the nests from the top level
 * down to it, the attribute.  A row marked pending is counted, not
 * failed: for an attribute whose gating is not in the module yet.
 */
static struct hidden_attr {
	uint8_t cmd;
	uint16_t path[3];	/* 0-terminated */
	uint16_t attr;
	const char *what;
	bool pending;
	/* counted over the run (atomic enough: statistics) */
	uint64_t nests, seen;
} hidden[] = {
	/* module/netlink.c fsload_may_name_threads() */
	{ .cmd = FSLOAD_CMD_RESULT_GET,
	  .path = { FSLOAD_A_JOB_RESULT, FSLOAD_A_RES_THREAD },
	  .attr = FSLOAD_A_THREAD_NAME, .what = "other threads' names in results" },
	{ .cmd = FSLOAD_CMD_RESULT_GET,
	  .path = { FSLOAD_A_JOB_RESULT, FSLOAD_A_RES_THREAD },
	  .attr = FSLOAD_A_THREAD_PID, .what = "other threads' ids in results" },
	/* module/netlink.c fsload_privy() */
	{ .cmd = FSLOAD_CMD_JOB_GET, .attr = FSLOAD_A_JOB_OWNER_PORTID,
	  .what = "the starter's socket (owner portid)" },
	{ .cmd = FSLOAD_CMD_JOB_GET, .path = { FSLOAD_A_JOB_STALL },
	  .attr = FSLOAD_A_STALL_PID, .what = "stalled threads' ids" },
	{ .cmd = FSLOAD_CMD_WORKER_GET, .path = { FSLOAD_A_JOB_WORKER },
	  .attr = FSLOAD_A_WORKER_PID, .what = "worker thread ids" },
	{ .cmd = FSLOAD_CMD_PROFILE_GET, .path = { FSLOAD_A_JOB_PROFILE_STACK },
	  .attr = FSLOAD_A_PROFILE_STACK_FRAMES, .what = "CPU profile stacks" },
};

static bool status_cmd(uint8_t cmd)
{
	return cmd == FSLOAD_CMD_JOB_GET || cmd == FSLOAD_CMD_JOB_START ||
	       cmd == FSLOAD_CMD_JOB_PROGRESS_NTF ||
	       cmd == FSLOAD_CMD_JOB_DONE_NTF ||
	       cmd == FSLOAD_CMD_JOB_STALL_NTF ||
	       cmd == FSLOAD_CMD_JOB_HELD_NTF;
}

/* Every nest along @path below (@p, @len): count them and @attr in them. */
static void hidden_walk(const unsigned char *p, size_t len,
			const uint16_t *path, uint16_t attr, uint64_t *nests,
			uint64_t *seen)
{
	if (!*path) {
		__atomic_add_fetch(nests, 1, __ATOMIC_RELAXED);
		if (attr_find(p, len, attr))
			__atomic_add_fetch(seen, 1, __ATOMIC_RELAXED);
		return;
	}
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		size_t al = NLA_ALIGN(a->nla_len);

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == *path)
			hidden_walk(adata(a), alen(a), path + 1, attr, nests,
				    seen);
		if (al >= len)
			return;
		p += al;
		len -= al;
	}
}

/* The message @h (of fsload's family): the first hidden[] row it breaks. */
const char *hidden_leak(const struct nlmsghdr *h)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	const unsigned char *p;
	size_t plen, i;

	if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return NULL;
	p = gpayload(h, &plen);
	for (i = 0; i < ARRAY_SIZE(hidden); i++) {
		struct hidden_attr *x = &hidden[i];
		uint64_t seen = 0;

		if (x->cmd != g->cmd &&
		    !(x->cmd == FSLOAD_CMD_JOB_GET && status_cmd(g->cmd)))
			continue;
		hidden_walk(p, plen, x->path, x->attr, &x->nests, &seen);
		__atomic_add_fetch(&x->seen, seen, __ATOMIC_RELAXED);
		if (seen && !x->pending)
			return x->what;
	}
	return NULL;
}

void hidden_report(void)
{
	size_t i;

	printf("# hidden from uid %u (attribute present / where it could be):\n",
	       (unsigned int)getuid());
	for (i = 0; i < ARRAY_SIZE(hidden); i++)
		printf("#   %-40s %8" PRIu64 " / %-8" PRIu64 "%s\n",
		       hidden[i].what, hidden[i].seen, hidden[i].nests,
		       hidden[i].pending ? " (pending: not checked yet)" : "");
}

/* ------------------------------------------------------------------ */
/* Dumps read halfway, never read, closed mid-dump                     */
/* ------------------------------------------------------------------ */

/* Check one datagram of the dump @seq of @cmd: false when it ended. */
static bool walkaway_dg(struct tctx *t, const unsigned char *buf, ssize_t n,
			uint32_t seq, uint8_t cmd)
{
	const struct nlmsghdr *h;
	bool more = true;

	for (h = (const void *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
		const struct genlmsghdr *g = NLMSG_DATA(h);
		const unsigned char *p;
		const char *leak;
		size_t plen;

		if (h->nlmsg_seq != seq) {
			fuzz_fail(t, "dump of command %u: a reply with seq %u, not %u",
				  cmd, h->nlmsg_seq, seq);
			return false;
		}
		if (h->nlmsg_type == NLMSG_ERROR || h->nlmsg_type == NLMSG_DONE) {
			more = false;
			continue;
		}
		if (h->nlmsg_type != family ||
		    h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN || g->cmd != cmd ||
		    !(p = gpayload(h, &plen), attrs_ok(p, plen, 0))) {
			fuzz_fail(t, "dump of command %u: a malformed message (type %u, command %u, length %u)",
				  cmd, h->nlmsg_type, g->cmd, h->nlmsg_len);
			hexdump("message", h, h->nlmsg_len < 4096 ? h->nlmsg_len : 4096);
			return false;
		}
		t->st.data_msgs++;
		leak = hidden_leak(h);
		if (leak) {
			fuzz_fail(t, "uid %u sees %s (dump of command %u)",
				  (unsigned int)getuid(), leak, cmd);
			return false;
		}
	}
	return more;
}

#define MAX_PARKED	4

/*
 * A dump of one of root's jobs, on a socket of its own (its receive
 * buffer small, now and then), then: never read (the socket is parked,
 * closed a few walkaways later), read for a few datagrams and closed, or
 * read to its end.
 */
void user_walkaway(struct tctx *t, struct rng *r)
{
	static const uint8_t cmds[] = { FSLOAD_CMD_JOB_GET,
		FSLOAD_CMD_RESULT_GET, FSLOAD_CMD_SERIES_GET,
		FSLOAD_CMD_WORKER_GET, FSLOAD_CMD_PROFILE_GET };
	static __thread unsigned char buf[BUF_SIZE];
	struct nsock s = { .fd = -1 };
	struct mbuf *m = &t->dg;
	uint8_t cmd = PICK(r, cmds);
	uint32_t id = job_pick(r), seq;
	int how = below(r, 3), reads = range(r, 1, 4), err;
	size_t off;

	err = nsock_open(&s);
	if (err) {
		fuzz_fail(t, "socket: %s", strerror(-err));
		return;
	}
	if (pct(r, 50)) {
		int rcv = range(r, 1024, 65536);

		setsockopt(s.fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	}
	m->len = 0;
	m->overflow = false;
	seq = ++s.seq;
	off = msg_begin(m, family, NLM_F_REQUEST | NLM_F_DUMP |
			(pct(r, 50) ? NLM_F_ACK : 0), seq, cmd,
			FSLOAD_FAMILY_VERSION);
	if (cmd != FSLOAD_CMD_JOB_GET || pct(r, 10))
		attr(m, FSLOAD_A_JOB_ID, &id, 4);
	if (cmd == FSLOAD_CMD_SERIES_GET && pct(r, 50)) {
		uint64_t from = PICK(r, ((const uint64_t[]){ 0, 1, 100, 4000,
							     1 << 20, UINT64_MAX }));

		attr(m, FSLOAD_A_JOB_SERIES_FROM, &from, 8);
	}
	msg_end(m, off);
	if (send(s.fd, m->b, m->len, 0) < 0) {
		fuzz_fail(t, "send of a dump request: %s", strerror(errno));
		nsock_close(&s);
		return;
	}
	t->st.msgs++;
	t->st.datagrams++;
	if (how == 0) {
		/* Never read: parked, the oldest parked socket closed. */
		if (t->nparked == MAX_PARKED) {
			close(t->parked[0]);
			memmove(t->parked, t->parked + 1,
				(MAX_PARKED - 1) * sizeof(t->parked[0]));
			t->nparked--;
		}
		t->parked[t->nparked++] = s.fd;
		t->st.dump_abandons++;
		return;
	}
	for (;;) {
		bool trunc;
		ssize_t n = nsock_recv(&s, buf, sizeof(buf), opt.timeout_ms,
				       &trunc);

		if (n == 0) {
			fuzz_fail(t, "dump of command %u: no answer within %d ms",
				  cmd, opt.timeout_ms);
			break;
		}
		if (n < 0 || trunc) {
			fuzz_fail(t, "dump of command %u: receive: %s", cmd,
				  trunc ? "truncated" : strerror(-n));
			break;
		}
		if (!walkaway_dg(t, buf, n, seq, cmd)) {
			t->st.dumps_done++;
			break;
		}
		if (how == 1 && !--reads) {
			t->st.dump_abandons++;
			break;
		}
	}
	nsock_close(&s);
	t->st.sock_closes++;
}

void user_unpark(struct tctx *t)
{
	while (t->nparked)
		close(t->parked[--t->nparked]);
}
