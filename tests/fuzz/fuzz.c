// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz fuzz: sends the cases (cases.c) over several sockets from
 * several threads, checks every answer against a model of the kernel's
 * netlink_rcv_skb() walk and what each message meant, stops the jobs it
 * started, and checks at the end that every job ended and nothing is left
 * in the directory but kept jobs' trees (see main.c for the criteria).
 */
#include "cases.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static atomic_bool failed;
static atomic_uint_fast64_t next_case;
static int64_t fuzz_deadline;	/* now_ms() after which no case starts */
static atomic_bool time_out;

/* ------------------------------------------------------------------ */
/* Statistics                                                          */
/* ------------------------------------------------------------------ */

static struct stats total;
static pthread_mutex_t stats_mu = PTHREAD_MUTEX_INITIALIZER;

static void stat_msg(struct stats *st, int err, const char *m)
{
	int i;

	for (i = 0; i < st->nmsg; i++) {
		if (st->msg[i].err == err && !strcmp(st->msg[i].msg, m)) {
			st->msg[i].n++;
			return;
		}
	}
	if (st->nmsg < NSTAT_MSG) {
		st->msg[st->nmsg].err = err;
		snprintf(st->msg[st->nmsg].msg, sizeof(st->msg[0].msg), "%s", m);
		st->msg[st->nmsg++].n = 1;
	}
}

static void stats_merge(const struct stats *s)
{
	int i;

	pthread_mutex_lock(&stats_mu);
#define ADD(f) (total.f += s->f)
	ADD(cases); ADD(msgs); ADD(datagrams); ADD(barriers); ADD(bytes);
	ADD(acks); ADD(errors); ADD(dumps_done); ADD(data_msgs);
	ADD(no_reply_ok); ADD(with_extack); ADD(invalid_sent);
	ADD(invalid_rejected); ADD(valid_starts); ADD(started); ADD(ebusy);
	ADD(enomem); ADD(enospc); ADD(stops); ADD(stop_ealready); ADD(sock_closes);
	ADD(dump_abandons); ADD(events); ADD(events_enobufs);
	ADD(errno_mismatch);
#undef ADD
	for (i = 0; i < 256; i++)
		total.errno_count[i] += s->errno_count[i];
	for (i = 0; i < s->nmsg; i++) {
		uint64_t n = s->msg[i].n;

		stat_msg(&total, s->msg[i].err, s->msg[i].msg);
		/* stat_msg() counted one. */
		for (int j = 0; j < total.nmsg; j++)
			if (total.msg[j].err == s->msg[i].err &&
			    !strcmp(total.msg[j].msg, s->msg[i].msg))
				total.msg[j].n += n - 1;
	}
	pthread_mutex_unlock(&stats_mu);
}

static int cmp_msgstat(const void *a, const void *b)
{
	const typeof(total.msg[0]) *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

static void stats_print(double secs)
{
	int i;

	printf("# messages %" PRIu64 " in %" PRIu64 " cases (%" PRIu64
	       " datagrams, %" PRIu64 " barriers, %" PRIu64 " bytes) in %.1f s: %.0f msg/s\n",
	       total.msgs, total.cases, total.datagrams, total.barriers,
	       total.bytes, secs, secs > 0 ? total.msgs / secs : 0.0);
	printf("# replies: %" PRIu64 " acks, %" PRIu64 " errors (%" PRIu64
	       " with an extack message), %" PRIu64 " dumps done, %" PRIu64
	       " data messages, %" PRIu64 " dropped by the kernel as expected\n",
	       total.acks, total.errors, total.with_extack, total.dumps_done,
	       total.data_msgs, total.no_reply_ok);
	printf("# invalid by construction: %" PRIu64 " sent, %" PRIu64
	       " rejected; errno other than predicted: %" PRIu64 "\n",
	       total.invalid_sent, total.invalid_rejected, total.errno_mismatch);
	printf("# jobs: %" PRIu64 " valid starts sent, %" PRIu64
	       " started, %" PRIu64 " EBUSY, %" PRIu64 " ENOSPC, %" PRIu64
	       " ENOMEM, %" PRIu64
	       " stops (%" PRIu64 " EALREADY); %" PRIu64 " sockets closed, %"
	       PRIu64 " dumps abandoned; %" PRIu64 " notifications (%" PRIu64
	       " overruns)\n",
	       total.valid_starts, total.started, total.ebusy, total.enospc,
	       total.enomem,
	       total.stops, total.stop_ealready, total.sock_closes,
	       total.dump_abandons, total.events, total.events_enobufs);
	printf("# errors by errno:");
	for (i = 0; i < 256; i++)
		if (total.errno_count[i])
			printf(" %s=%" PRIu64, strerrorname_np(i) ?: "?",
			       total.errno_count[i]);
	printf("\n# extack messages seen (%d distinct):\n", total.nmsg);
	qsort(total.msg, total.nmsg, sizeof(total.msg[0]), cmp_msgstat);
	for (i = 0; i < total.nmsg; i++)
		printf("#   %8" PRIu64 "  %-12s %s\n", total.msg[i].n,
		       strerrorname_np(total.msg[i].err) ?: "?",
		       total.msg[i].msg);
}

/* ------------------------------------------------------------------ */
/* Jobs the fuzzer started                                             */
/* ------------------------------------------------------------------ */

struct jobrec {
	uint32_t id;
	uint32_t flags;
	char dir[128];		/* as the kernel reported it (chroot-relative) */
	uint64_t case_index;
	bool swept;		/* kept directory removed after its end */
};

static struct jobrec *jobs;
static size_t njobs, jobs_cap;
static pthread_mutex_t jobs_mu = PTHREAD_MUTEX_INITIALIZER;

static void job_add(uint32_t id, uint32_t flags, const char *dir,
		    uint64_t index)
{
	pthread_mutex_lock(&jobs_mu);
	if (njobs == jobs_cap) {
		size_t c = jobs_cap ? jobs_cap * 2 : 256;
		struct jobrec *j = realloc(jobs, c * sizeof(*j));

		if (!j) {
			pthread_mutex_unlock(&jobs_mu);
			return;
		}
		jobs = j;
		jobs_cap = c;
	}
	jobs[njobs] = (struct jobrec){ .id = id, .flags = flags,
				       .case_index = index };
	snprintf(jobs[njobs].dir, sizeof(jobs[0].dir), "%s", dir);
	njobs++;
	pthread_mutex_unlock(&jobs_mu);
}

/* A job id for queries: one of ours, mostly recent. */
uint32_t job_pick(struct rng *r)
{
	uint32_t id = 0;

	if (opt.uid >= 0)
		return user_job_pick(r);
	pthread_mutex_lock(&jobs_mu);
	if (njobs) {
		size_t k = pct(r, 70) ? njobs - 1 - below(r, njobs < 16 ? njobs : 16)
				      : below(r, njobs);
		id = jobs[k].id;
	}
	pthread_mutex_unlock(&jobs_mu);
	return id;
}

/* Remove the directories of kept jobs that have ended. */
static void sweep_kept(struct nsock *s)
{
	static struct jobstate js[4096];
	int n = list_jobs(s, js, 4096), k;
	size_t i;

	if (n < 0)
		return;
	pthread_mutex_lock(&jobs_mu);
	for (i = 0; i < njobs; i++) {
		char path[300];
		bool running = false;

		if (!(jobs[i].flags & FSLOAD_JOB_F_KEEP) || jobs[i].swept)
			continue;
		for (k = 0; k < n; k++)
			if (js[k].id == jobs[i].id)
				running = state_running(js[k].state);
		if (running)
			continue;
		snprintf(path, sizeof(path), "%s/fsload-%u",
			 strcmp(jobs[i].dir, "/") ? jobs[i].dir : "",
			 jobs[i].id);
		rm_rf(path);
		jobs[i].swept = true;
	}
	pthread_mutex_unlock(&jobs_mu);
}


/* ------------------------------------------------------------------ */
/* The exchange                                                        */
/* ------------------------------------------------------------------ */

void fuzz_fail(struct tctx *t, const char *fmt, ...)
{
	char m[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	logf_("# FAIL: seed=%" PRIu64 " case=%" PRIu64 " thread=%d (%s): %s\n"
	      "#   reproduce: fsload_fuzz --seed %" PRIu64 " --only %" PRIu64 "\n",
	      opt.seed, t ? t->cur_case : 0, t ? t->index : -1,
	      t && t->cur_what ? t->cur_what : "-", m, opt.seed,
	      t ? t->cur_case : 0);
	if (t)
		t->failed = true;
	atomic_store(&failed, true);
}

void add_expect(struct expect *ex, int *n, size_t off, uint32_t seq,
		uint16_t type, int want, const char *what)
{
	memset(&ex[*n], 0, sizeof(ex[*n]));
	ex[*n].off = off;
	ex[*n].seq = seq;
	ex[*n].type = type;
	ex[*n].want = want;
	ex[*n].what = what;
	(*n)++;
}


/* The kernel's netlink_rcv_skb() walk over a datagram: header offsets. */
static int model_walk(const unsigned char *dg, size_t len, size_t *offs,
		      int max)
{
	size_t pos = 0;
	int n = 0;

	while (len - pos >= NLMSG_HDRLEN && n < max) {
		const struct nlmsghdr *h = (const void *)(dg + pos);
		size_t ml;

		if (h->nlmsg_len < NLMSG_HDRLEN || len - pos < h->nlmsg_len)
			break;
		offs[n++] = pos;
		ml = NLMSG_ALIGN(h->nlmsg_len);
		if (ml > len - pos)
			ml = len - pos;
		pos += ml;
	}
	return n;
}

/* Check a job status message (reply or dump entry or notification). */
static bool check_job_msg(struct tctx *t, const struct nlmsghdr *h,
			  uint32_t *id, uint32_t *flags, char *dir,
			  size_t dirsize)
{
	size_t plen;
	const unsigned char *p = gpayload(h, &plen);
	const struct nlattr *a;
	uint8_t state = 0;
	uint32_t v;

	if (!get_u32(attr_find(p, plen, FSLOAD_A_JOB_ID), id) || !*id) {
		fuzz_fail(t, "job message without an id");
		return false;
	}
	if (!get_u8(attr_find(p, plen, FSLOAD_A_JOB_STATE), &state) ||
	    state < FSLOAD_JOB_RUNNING || state > FSLOAD_JOB_FAILED) {
		fuzz_fail(t, "job %u: state %u", *id, state);
		return false;
	}
	if (state == FSLOAD_JOB_FAILED &&
	    (!get_u32(attr_find(p, plen, FSLOAD_A_JOB_ERRNO), &v) || !v ||
	     !attr_find(p, plen, FSLOAD_A_JOB_ERROR_MSG))) {
		fuzz_fail(t, "job %u failed without errno and error message", *id);
		return false;
	}
	if (flags && !get_u32(attr_find(p, plen, FSLOAD_A_JOB_FLAGS), flags)) {
		fuzz_fail(t, "job %u: no flags", *id);
		return false;
	}
	a = attr_find(p, plen, FSLOAD_A_JOB_DIR);
	if (dir) {
		if (!a || !alen(a)) {
			fuzz_fail(t, "job %u: no dir", *id);
			return false;
		}
		snprintf(dir, dirsize, "%.*s", (int)alen(a),
			 (const char *)adata(a));
	}
	return true;
}

/* A data message for request @e. */
static void on_data(struct tctx *t, struct expect *e,
		    const struct nlmsghdr *h)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	size_t plen;
	const unsigned char *p;

	e->ndata++;
	t->st.data_msgs++;
	if (h->nlmsg_type == GENL_ID_CTRL)
		return;
	if (h->nlmsg_type != family ||
	    h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		fuzz_fail(t, "reply of type %u, length %u to %s", h->nlmsg_type,
		     h->nlmsg_len, e->what);
		return;
	}
	if (g->cmd != e->cmd) {
		fuzz_fail(t, "reply command %u to request command %u", g->cmd,
		     e->cmd);
		return;
	}
	p = gpayload(h, &plen);
	if (!attrs_ok(p, plen, 0)) {
		fuzz_fail(t, "malformed attributes in a reply to %s", e->what);
		return;
	}
	if (opt.uid >= 0) {
		const char *leak = hidden_leak(h);

		if (leak) {
			fuzz_fail(t, "uid %ld sees %s (reply to %s)", opt.uid,
				  leak, e->what);
			return;
		}
	}
	if (e->cmd == FSLOAD_CMD_JOB_START || e->cmd == FSLOAD_CMD_JOB_GET) {
		uint32_t id, flags;
		char dir[128];

		if (!check_job_msg(t, h, &id, &flags, dir, sizeof(dir)))
			return;
		if (e->cmd == FSLOAD_CMD_JOB_START) {
			e->job_id = id;
			e->job_flags = flags;
			snprintf(e->job_dir, sizeof(e->job_dir), "%s", dir);
		}
	} else if (e->cmd == FSLOAD_CMD_RESULT_GET) {
		if (!attr_find(p, plen, FSLOAD_A_JOB_ID) ||
		    !attr_find(p, plen, FSLOAD_A_JOB_RESULT))
			fuzz_fail(t, "result message without id or result nest");
	}
}

static void drain_events(struct tctx *t)
{
	static __thread unsigned char ebuf[64 * 1024];

	if (t->ev.fd < 0)
		return;
	for (;;) {
		ssize_t n = recv(t->ev.fd, ebuf, sizeof(ebuf), MSG_DONTWAIT);
		struct nlmsghdr *h;

		if (n < 0 && errno == ENOBUFS) {
			t->st.events_enobufs++;
			continue;
		}
		if (n <= 0)
			return;
		for (h = (void *)ebuf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			const struct genlmsghdr *g = NLMSG_DATA(h);
			uint32_t id;

			t->st.events++;
			if (h->nlmsg_type != family ||
			    (g->cmd != FSLOAD_CMD_JOB_PROGRESS_NTF &&
			     g->cmd != FSLOAD_CMD_JOB_DONE_NTF)) {
				fuzz_fail(t, "event of type %u command %u",
				     h->nlmsg_type, g->cmd);
				continue;
			}
			if (opt.uid >= 0 && hidden_leak(h))
				fuzz_fail(t, "uid %ld sees %s (notification)",
					  opt.uid, hidden_leak(h));
			if (check_job_msg(t, h, &id, NULL, NULL, 0) &&
			    g->cmd == FSLOAD_CMD_JOB_DONE_NTF) {
				size_t plen;
				const unsigned char *p = gpayload(h, &plen);
				uint8_t st = 0;

				get_u8(attr_find(p, plen, FSLOAD_A_JOB_STATE), &st);
				if (st < FSLOAD_JOB_DONE)
					fuzz_fail(t, "JOB_DONE_NTF of job %u in state %u",
					     id, st);
			}
		}
	}
}

/*
 * Send datagram @dg on @s and collect the answers to the messages
 * described by @ex (in datagram order).  Checks everything that does not
 * depend on the case; returns false on a failure (already reported).
 */
static bool exchange(struct tctx *t, struct nsock *s, struct mbuf *dg,
		     struct expect *ex, int *nexp)
{
	size_t offs[MAX_EXPECT];
	int nwalk, i, k, n = *nexp, dumps = 0;
	bool need_barrier = false;
	uint32_t barrier_seq = 0;
	bool barrier_done = true;
	int64_t deadline;

	/*
	 * Which headers the kernel's walk reaches: ours, or ones inside junk
	 * or inside a message whose length was spoiled.  A header we did not
	 * write gets our family's id (or stays a control message): no other
	 * generic netlink family ever sees the fuzzer's bytes.
	 */
	nwalk = model_walk(dg->b, dg->len, offs, MAX_EXPECT);
	for (i = 0; i < nwalk; i++) {
		struct nlmsghdr *h = (void *)(dg->b + offs[i]);

		for (k = 0; k < n; k++)
			if (ex[k].off == offs[i] && !ex[k].processed)
				break;
		if (k == n) {
			if (h->nlmsg_type >= NLMSG_MIN_TYPE &&
			    h->nlmsg_type != family && h->nlmsg_type != bad_family)
				h->nlmsg_type = family;
			if (n == MAX_EXPECT) {
				/* Cannot track it: make the kernel drop it. */
				h->nlmsg_flags &= ~(NLM_F_REQUEST | NLM_F_ACK);
				continue;
			}
			memset(&ex[n], 0, sizeof(ex[n]));
			ex[n].off = offs[i];
			ex[n].seq = h->nlmsg_seq;
			ex[n].want = W_SOME;
			ex[n].what = "header in junk";
			k = n++;
		}
		ex[k].processed = true;
		ex[k].flags = h->nlmsg_flags;
		ex[k].type = h->nlmsg_type;
		ex[k].seq = h->nlmsg_seq;
		if (h->nlmsg_len >= NLMSG_HDRLEN + 1)
			ex[k].cmd = ((const struct genlmsghdr *)NLMSG_DATA(h))->cmd;
		ex[k].dump = (h->nlmsg_flags & NLM_F_REQUEST) &&
			     h->nlmsg_type >= NLMSG_MIN_TYPE &&
			     (h->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
		if (!(h->nlmsg_flags & NLM_F_ACK) && !ex[k].dump)
			need_barrier = true;
		/* A dump still running on the socket refuses another. */
		ex[k].busy_ok = dumps > 0;
		/* --uid: an admin command gets the genl core's verdict. */
		if (opt.uid >= 0 && h->nlmsg_type == family &&
		    (h->nlmsg_flags & NLM_F_REQUEST) &&
		    h->nlmsg_len >= NLMSG_HDRLEN + 1 && cmd_is_admin(ex[k].cmd)) {
			ex[k].want = W_ADMIN;
			ex[k].want_err = -admin_verdict(h, &ex[k].want_text);
		}
		dumps += ex[k].dump;
		t->st.msgs++;
	}
	*nexp = n;
	for (k = 0; k < n; k++)
		if (!ex[k].processed)
			t->st.msgs++;	/* sent, and dropped */

	t->st.datagrams++;
	t->st.bytes += dg->len;
	if (send(s->fd, dg->b, dg->len, 0) < 0) {
		fuzz_fail(t, "send of %zu bytes: %s", dg->len, strerror(errno));
		return false;
	}
	if (need_barrier) {
		/* NLMSG_NOOP with ACK: answered at once, in order. */
		struct nlmsghdr b = {
			.nlmsg_len = NLMSG_HDRLEN, .nlmsg_type = NLMSG_NOOP,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
			.nlmsg_seq = barrier_seq = ++s->seq | 0x80000000u,
		};

		if (send(s->fd, &b, sizeof(b), 0) < 0) {
			fuzz_fail(t, "send barrier: %s", strerror(errno));
			return false;
		}
		barrier_done = false;
		t->st.barriers++;
	}

	deadline = now_ms() + opt.timeout_ms;
	for (;;) {
		bool pending = !barrier_done, trunc;
		struct nlmsghdr *h;
		ssize_t len;

		for (k = 0; k < n && !pending; k++) {
			if (!ex[k].processed || ex[k].nterm)
				continue;
			if (ex[k].dump || (ex[k].flags & NLM_F_ACK))
				pending = true;
		}
		if (!pending)
			break;
		len = nsock_recv(s, t->buf, sizeof(t->buf),
				 deadline - now_ms() > 0 ? deadline - now_ms() : 0,
				 &trunc);
		if (len == 0) {
			for (k = 0; k < n; k++)
				if (ex[k].processed && !ex[k].nterm &&
				    (ex[k].dump || (ex[k].flags & NLM_F_ACK)))
					break;
			if (k < n)
				fuzz_fail(t, "no answer within %d ms to message %d (%s, seq %u, flags 0x%x, cmd %u)",
				     opt.timeout_ms, k, ex[k].what, ex[k].seq,
				     ex[k].flags, ex[k].cmd);
			else
				fuzz_fail(t, "no answer to the barrier within %d ms",
				     opt.timeout_ms);
			hexdump("datagram", dg->b, dg->len);
			return false;
		}
		if (len < 0) {
			fuzz_fail(t, "recv: %s", strerror((int)-len));
			return false;
		}
		if (trunc) {
			fuzz_fail(t, "a reply datagram larger than %d bytes", BUF_SIZE);
			return false;
		}
		for (h = (void *)t->buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			struct expect *e = NULL;

			if (need_barrier && h->nlmsg_seq == barrier_seq) {
				if (h->nlmsg_type != NLMSG_ERROR ||
				    ((struct nlmsgerr *)NLMSG_DATA(h))->error) {
					fuzz_fail(t, "odd answer to the barrier");
					return false;
				}
				barrier_done = true;
				continue;
			}
			for (k = 0; k < n; k++)
				if (ex[k].seq == h->nlmsg_seq && ex[k].processed &&
				    !ex[k].nterm) {
					e = &ex[k];
					break;
				}
			if (!e) {
				fuzz_fail(t, "a reply (type %u, flags 0x%x) with seq %u that matches no open request",
				     h->nlmsg_type, h->nlmsg_flags, h->nlmsg_seq);
				hexdump("datagram", dg->b, dg->len);
				return false;
			}
			if (h->nlmsg_type == NLMSG_ERROR ||
			    h->nlmsg_type == NLMSG_DONE) {
				if (parse_end(h, &e->err, &e->done, e->msg,
					      sizeof(e->msg)))
					e->has_msg = true;
				e->nterm++;
				if (e->done)
					t->st.dumps_done++;
				if (e->err) {
					t->st.errors++;
					if (e->err > 0 && e->err < 256)
						t->st.errno_count[e->err]++;
					if (e->has_msg) {
						t->st.with_extack++;
						stat_msg(&t->st, e->err, e->msg);
					}
				} else if (!e->done) {
					t->st.acks++;
				}
				if (h->nlmsg_type == NLMSG_DONE && !e->dump) {
					fuzz_fail(t, "NLMSG_DONE for a request that is no dump");
					return false;
				}
			} else if (h->nlmsg_type < NLMSG_MIN_TYPE) {
				fuzz_fail(t, "control message %u from the kernel",
				     h->nlmsg_type);
				return false;
			} else {
				on_data(t, e, h);
			}
		}
		if (len > 0) {
			fuzz_fail(t, "%zd trailing bytes in a reply datagram", len);
			return false;
		}
	}
	/* An ACK-less request may still be answered, by an error only. */
	for (k = 0; k < n; k++) {
		struct expect *e = &ex[k];

		if (!e->processed) {
			t->st.no_reply_ok++;
			continue;
		}
		if (e->nterm > 1) {
			fuzz_fail(t, "%d answers to one request (%s)", e->nterm, e->what);
			return false;
		}
		if (!e->nterm && !(e->flags & NLM_F_ACK) && !e->dump &&
		    !e->ndata)
			t->st.no_reply_ok++;
		if (e->nterm && !e->err && !e->done && !(e->flags & NLM_F_ACK)) {
			fuzz_fail(t, "an ACK that was not asked for (%s)", e->what);
			return false;
		}
	}
	drain_events(t);
	return !t->failed;
}

/*
 * --uid: an admin command, refused with exactly what the genl core or
 * the module's pre_doit says (policy.c), an extack message as theirs.
 */
static void judge_admin(struct tctx *t, struct expect *e)
{
	if (!e->nterm || !e->err || e->ndata) {
		fuzz_fail(t, "uid %ld: %s (command %u) %s", opt.uid, e->what,
			  e->cmd, !e->nterm ? "not answered" :
			  !e->err ? "succeeded" : "answered with data");
		hexdump("datagram", t->dg.b, t->dg.len);
		return;
	}
	t->st.invalid_rejected++;
	if (e->err == ENOMEM)
		return;
	if (e->err != e->want_err ||
	    (e->want_text && (!e->has_msg || strcmp(e->msg, e->want_text))) ||
	    (!e->want_text && e->has_msg)) {
		fuzz_fail(t, "uid %ld: %s (command %u): %s \"%s\", the model says %s \"%s\"",
			  opt.uid, e->what, e->cmd, strerrorname_np(e->err),
			  e->has_msg ? e->msg : "", strerrorname_np(e->want_err),
			  e->want_text ?: "");
		hexdump("datagram", t->dg.b, t->dg.len);
	}
}

/* Check the verdicts that depend on what the case meant. */
static void judge(struct tctx *t, struct expect *ex, int n, int sock)
{
	int k;

	for (k = 0; k < n; k++) {
		struct expect *e = &ex[k];
		bool started = !e->err && e->job_id &&
			       e->cmd == FSLOAD_CMD_JOB_START;

		if (started) {
			t->st.started++;
			job_add(e->job_id, e->job_flags, e->job_dir, t->cur_case);
			if (t->nmine < (int)(sizeof(t->mine) / sizeof(t->mine[0]))) {
				t->mine[t->nmine].id = e->job_id;
				t->mine[t->nmine].flags = e->job_flags;
				t->mine[t->nmine].ttl = k % 2 ? 0 : (int)(e->seq % 6);
				t->mine[t->nmine].sock = sock;
				t->nmine++;
			}
		}
		if (e->processed && e->err == ENOMEM)
			t->st.enomem++;
		if (!e->processed || t->failed)
			continue;
		t->cur_what = e->what;
		if (e->want == W_ADMIN) {
			judge_admin(t, e);
			if (t->failed)
				return;
			continue;
		}
		if (e->busy_ok && e->err == EBUSY)
			continue;
		switch (e->want) {
		case W_ERROR:
			if (!(e->flags & NLM_F_REQUEST))
				break;
			if (!e->err || !e->nterm) {
				fuzz_fail(t, "invalid message accepted (%s)%s", e->what,
				     started ? ": a job started" : "");
				hexdump("datagram", t->dg.b, t->dg.len);
				return;
			}
			t->st.invalid_rejected++;
			if (e->want_err && e->err != e->want_err && e->err != ENOMEM) {
				t->st.errno_mismatch++;
				if (opt.verbose)
					logf_("# note: %s: %s, predicted %s (%s)\n",
					      e->what, strerrorname_np(e->err),
					      strerrorname_np(e->want_err), e->msg);
			}
			if (e->want_msg && !e->has_msg && e->err != ENOMEM) {
				fuzz_fail(t, "error %s without an extack message (%s)",
				     strerrorname_np(e->err), e->what);
				hexdump("datagram", t->dg.b, t->dg.len);
				return;
			}
			break;
		case W_START:
			if (!e->nterm && !e->ndata) {
				fuzz_fail(t, "no answer to a valid start");
				return;
			}
			if (e->err == EBUSY) {
				t->st.ebusy++;
				if (!e->has_msg)
					fuzz_fail(t, "EBUSY without an extack message");
			} else if (e->err == ENOSPC || e->err == EDQUOT) {
				t->st.enospc++;
			} else if (e->err && e->err != ENOMEM) {
				fuzz_fail(t, "valid program refused: %s: %s",
				     strerrorname_np(e->err), e->msg);
				hexdump("datagram", t->dg.b, t->dg.len);
				return;
			} else if (!e->err && !e->job_id) {
				fuzz_fail(t, "start succeeded without a job in its reply");
				return;
			}
			break;
		case W_QUERY:
			if (e->err && e->err != e->ok_err[0] &&
			    e->err != e->ok_err[1] && e->err != e->ok_err[2] &&
			    e->err != ENOMEM) {
				fuzz_fail(t, "valid %s failed: %s: %s", e->what,
				     strerrorname_np(e->err), e->msg);
				return;
			}
			if (e->cmd == FSLOAD_CMD_JOB_STOP && e->err == EALREADY)
				t->st.stop_ealready++;
			break;
		default:
			break;
		}
	}
}

/* Stop the jobs of this thread whose time has come; all with @all. */
static void stop_mine(struct tctx *t, bool all)
{
	int i;

	for (i = 0; i < t->nmine; i++) {
		struct expect ex[MAX_EXPECT];
		int n = 0;
		struct nsock *s = &t->socks[0];
		size_t off;
		uint32_t seq;

		if (!all && t->mine[i].ttl-- > 0)
			continue;
		t->dg.len = 0;
		t->dg.overflow = false;
		seq = ++s->seq & 0x7fffffff;
		off = msg_begin(&t->dg, family, NLM_F_REQUEST | NLM_F_ACK, seq,
				FSLOAD_CMD_JOB_STOP, FSLOAD_FAMILY_VERSION);
		attr(&t->dg, FSLOAD_A_JOB_ID, &t->mine[i].id, 4);
		msg_end(&t->dg, off);
		add_expect(ex, &n, off, seq, family, W_QUERY, "stop of our job");
		ex[0].cmd = FSLOAD_CMD_JOB_STOP;
		ex[0].ok_err[0] = ENOENT;
		ex[0].ok_err[1] = EALREADY;
		t->cur_what = "stop of our job";
		if (!exchange(t, s, &t->dg, ex, &n)) {
			judge(t, ex, n, 0);
			return;
		}
		judge(t, ex, n, 0);
		t->st.stops++;
		t->mine[i--] = t->mine[--t->nmine];
	}
}

/* Close a socket (its jobs stop, a dump in flight is dropped), reopen. */
static void cycle_socket(struct tctx *t, struct rng *r)
{
	int k = below(r, t->nsocks), i, err;
	struct nsock *s = &t->socks[k];

	if (pct(r, 30)) {
		/* Start a dump and walk away from it. */
		struct {
			struct nlmsghdr h;
			struct genlmsghdr g;
		} req = {
			.h = { .nlmsg_len = sizeof(req), .nlmsg_type = family,
			       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			       .nlmsg_seq = ++s->seq },
			.g = { .cmd = FSLOAD_CMD_JOB_GET, .version = 1 },
		};

		if (send(s->fd, &req, sizeof(req), 0) == sizeof(req))
			t->st.dump_abandons++;
	}
	nsock_close(s);
	/* Jobs it owned stop by themselves: no stop from us. */
	for (i = 0; i < t->nmine; i++)
		if (t->mine[i].sock == k &&
		    !(t->mine[i].flags & FSLOAD_JOB_F_DETACH))
			t->mine[i--] = t->mine[--t->nmine];
	err = nsock_open(s);
	if (err)
		fuzz_fail(t, "reopen socket: %s", strerror(-err));
	t->st.sock_closes++;
}

static void *fuzz_thread(void *arg)
{
	struct tctx *t = arg;
	struct expect *ex = calloc(MAX_EXPECT, sizeof(*ex));
	int i;

	if (!ex) {
		fuzz_fail(t, "out of memory");
		return NULL;
	}
	while (!atomic_load(&failed)) {
		uint64_t c = opt.only >= 0 ? (uint64_t)opt.only :
			     atomic_fetch_add(&next_case, 1);
		struct rng r;
		int nmsg, n = 0, k;
		struct nsock *s;
		bool ok;

		if (opt.only < 0 && c >= opt.count)
			break;
		if (fuzz_deadline && now_ms() > fuzz_deadline) {
			atomic_store(&time_out, true);
			break;
		}
		t->cur_case = c;
		t->cur_what = NULL;
		rng_init(&r, opt.seed, c);
		if (pct(&r, 1)) {
			cycle_socket(t, &r);
			t->st.cases++;
			if (opt.only < 0)
				continue;
			/* --only: that case again would be the same. */
			logf_("# case %" PRIu64 ": a socket closed and reopened\n",
			      c);
			break;
		}
		if (opt.uid >= 0 && pct(&r, 4)) {
			if (opt.dry) {
				logf_("# case %" PRIu64 ": a dump walked away from\n", c);
				break;
			}
			user_walkaway(t, &r);
			if (t->failed)
				break;
			t->st.cases++;
			if (opt.only < 0)
				continue;
			break;
		}
		k = below(&r, t->nsocks);
		s = &t->socks[k];
		t->dg.len = 0;
		t->dg.overflow = false;
		nmsg = pct(&r, 6) ? range(&r, 2, MAX_MSGS) : 1;
		for (i = 0; i < nmsg && !t->dg.overflow; i++)
			gen_message(t, &r, s, ex, &n);
		if (t->dg.overflow) {
			/* Too big to send whole: send what fits. */
			t->dg.len = sizeof(t->dg.b);
		}
		if (pct(&r, 3) && t->dg.len > NLMSG_HDRLEN) {
			/* Junk or a cut at the end of the datagram. */
			if (pct(&r, 50)) {
				unsigned char *p = mb_room(&t->dg, 16);

				if (p)
					for (i = 0; i < 16; i++)
						p[i] = rnd(&r);
				/* 1..15 bytes: too short for a header. */
				if (p)
					t->dg.len -= range(&r, 1, 15);
			} else {
				t->dg.len -= below(&r, t->dg.len - NLMSG_HDRLEN);
			}
		}
		if (opt.only >= 0)
			hexdump("case", t->dg.b, t->dg.len);
		if (opt.dry) {
			for (k = 0; k < n; k++)
				logf_("# message %d at %zu: %s\n", k, ex[k].off,
				      ex[k].what);
			break;
		}
		/* Judged even after a failure: jobs it started are ours. */
		ok = exchange(t, s, &t->dg, ex, &n);
		judge(t, ex, n, k);
		if (!ok || t->failed)
			break;
		t->st.cases++;
		stop_mine(t, false);
		/* Kept jobs' trees would fill the filesystem: remove them. */
		if (t->index == 0 && c % 2000 == 1999)
			sweep_kept(&t->socks[0]);
		if (opt.only >= 0) {
			for (k = 0; k < n; k++)
				logf_("# message %d (%s): %s, %s%s%s, %d data\n",
				      k, ex[k].what,
				      ex[k].processed ? "processed" : "dropped",
				      ex[k].nterm ? (ex[k].err ? strerrorname_np(ex[k].err) : "ok") : "no answer",
				      ex[k].has_msg ? ": " : "", ex[k].msg,
				      ex[k].ndata);
			break;
		}
	}
	if (!atomic_load(&failed))
		stop_mine(t, true);
	user_unpark(t);
	free(ex);
	return NULL;
}

/* --only I --dry-run: print case I as built, without a kernel. */
int run_dry(void)
{
	struct tctx *t = calloc(1, sizeof(*t));
	struct nsock s = { .fd = -1 };

	if (!t)
		return 1;
	cases_init();
	t->socks = &s;
	t->nsocks = 1;
	t->ev.fd = -1;
	fuzz_thread(t);
	free(t);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Final checks                                                        */
/* ------------------------------------------------------------------ */

/* Every job stopped and ended; nothing in the chroot but kept jobs. */
static int final_checks(void)
{
	struct nsock s = { .fd = -1 };
	struct simple_reply sr;
	uint32_t stuck = 0;
	size_t i;
	int err, bad = 0;
	DIR *d;
	struct dirent *de;

	err = nsock_open(&s);
	if (err) {
		printf("# FAIL: socket: %s\n", strerror(-err));
		return 1;
	}
	/* Stop whatever still runs: ours all, after a failure too. */
	pthread_mutex_lock(&jobs_mu);
	for (i = 0; i < njobs; i++) {
		if (id_request(&s, FSLOAD_CMD_JOB_STOP, 0, jobs[i].id, &sr)) {
			printf("# FAIL: no answer to the stop of job %u\n",
			       jobs[i].id);
			bad = 1;
		} else if (sr.err && sr.err != EALREADY && sr.err != ENOENT) {
			printf("# FAIL: stop of job %u: %s: %s\n", jobs[i].id,
			       strerrorname_np(sr.err), sr.msg);
			bad = 1;
		}
		free(sr.data);
	}
	pthread_mutex_unlock(&jobs_mu);
	err = wait_all_ended(&s, 180000, &stuck);
	if (err) {
		printf("# FAIL: job %u still running 180 s after its stop (%s)\n",
		       stuck, strerror(-err));
		nsock_close(&s);
		return 1;
	}
	/* Results of every job still listed can be read. */
	{
		static struct jobstate js[4096];
		int n = list_jobs(&s, js, 4096), k;

		for (k = 0; k < n; k++) {
			if (id_request(&s, FSLOAD_CMD_RESULT_GET, NLM_F_DUMP,
				       js[k].id, &sr) ||
			    (sr.err && sr.err != ENOENT)) {
				printf("# FAIL: results of job %u: %s %s\n",
				       js[k].id, strerrorname_np(sr.err), sr.msg);
				bad = 1;
			}
			free(sr.data);
		}
		printf("# %d jobs listed at the end, all ended\n", n);
	}
	nsock_close(&s);

	/* Nothing left but the directories of kept jobs. */
	pthread_mutex_lock(&jobs_mu);
	for (i = 0; i < njobs; i++) {
		char path[300];
		struct stat st;

		snprintf(path, sizeof(path), "%s/fsload-%u",
			 strcmp(jobs[i].dir, "/") ? jobs[i].dir : "",
			 jobs[i].id);
		if (lstat(path, &st))
			continue;
		if (jobs[i].flags & FSLOAD_JOB_F_KEEP) {
			rm_rf(path);
			continue;
		}
		printf("# FAIL: %s left behind by job %u (flags 0x%x, case %" PRIu64 ")\n",
		       path, jobs[i].id, jobs[i].flags, jobs[i].case_index);
		bad = 1;
	}
	pthread_mutex_unlock(&jobs_mu);
	for (int di = 0; di < 3; di++) {
		const char *dir = (const char *[]){ "/", "/sub", "/sub/deeper" }[di];

		d = opendir(dir);
		while (d && (de = readdir(d))) {
			if (strncmp(de->d_name, "fsload-", 7))
				continue;
			printf("# FAIL: %s/%s left behind (no job of ours)\n",
			       dir, de->d_name);
			bad = 1;
		}
		if (d)
			closedir(d);
	}
	return bad;
}

/* Fixtures inside the chroot. */
static int make_fixtures(void)
{
	int fd;

	if ((mkdir("sub", 0755) && errno != EEXIST) ||
	    (mkdir("sub/deeper", 0755) && errno != EEXIST))
		return -errno;
	fd = open("file", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	close(fd);
	if ((symlink("sub", "link") && errno != EEXIST) ||
	    (symlink("nonexistent", "brokenlink") && errno != EEXIST))
		return -errno;
	return 0;
}

static void remove_fixtures(void)
{
	rm_rf("/sub");
	unlink("/file");
	unlink("/link");
	unlink("/brokenlink");
}

int run_fuzz(void)
{
	struct tctx **t;
	pthread_t *th;
	int i, k, per, ret = 0;
	int64_t t0;

	if (!opt.seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		opt.seed = (uint64_t)ts.tv_sec * 1000003 ^ ts.tv_nsec ^ getpid();
	}
	if (opt.only >= 0)
		opt.threads = 1;
	cases_init();
	printf("# fsload_fuzz: seed %" PRIu64 ", %" PRIu64 " cases, %d threads, %d sockets, dir %s\n",
	       opt.seed, opt.only >= 0 ? 1 : opt.count, opt.threads,
	       opt.sockets, opt.dir);
	printf("# module limits: max_jobs %llu max_threads %llu max_finished %llu max_block_bytes %llu max_file_bytes %llu\n",
	       prm.max_jobs, prm.max_threads, prm.max_finished, prm.max_block,
	       prm.max_file);
	printf("# family %d, events group %u, unknown family id %u\n", family,
	       events_grp, bad_family);
	fflush(stdout);
	if (opt.uid >= 0) {
		/* Root's jobs; no fixtures: no job of ours can start. */
		if (user_discover() < 1) {
			printf("# uid %ld lists no job to query\n", opt.uid);
			return 1;
		}
	} else if (make_fixtures()) {
		printf("# cannot make the fixtures: %s\n", strerror(errno));
		return 1;
	}
	t = calloc(opt.threads, sizeof(*t));
	th = calloc(opt.threads, sizeof(*th));
	if (!t || !th)
		return 1;
	per = opt.sockets / opt.threads;
	if (per < 1)
		per = 1;
	for (i = 0; i < opt.threads; i++) {
		t[i] = calloc(1, sizeof(**t));
		if (!t[i])
			return 1;
		t[i]->index = i;
		t[i]->nsocks = per;
		t[i]->socks = calloc(per, sizeof(struct nsock));
		t[i]->ev.fd = -1;
		for (k = 0; k < per; k++) {
			t[i]->socks[k].fd = -1;
			if (nsock_open(&t[i]->socks[k])) {
				printf("# cannot open a netlink socket\n");
				return 1;
			}
		}
		if (!nsock_open(&t[i]->ev) && events_grp &&
		    setsockopt(t[i]->ev.fd, SOL_NETLINK,
			       NETLINK_ADD_MEMBERSHIP, &events_grp,
			       sizeof(events_grp)))
			nsock_close(&t[i]->ev);
	}
	t0 = now_ms();
	if (opt.time_limit)
		fuzz_deadline = t0 + opt.time_limit * 1000LL;
	for (i = 0; i < opt.threads; i++)
		if (pthread_create(&th[i], NULL, fuzz_thread, t[i])) {
			printf("# cannot create a thread\n");
			return 1;
		}
	for (i = 0; i < opt.threads; i++) {
		pthread_join(th[i], NULL);
		stats_merge(&t[i]->st);
	}
	stats_print((now_ms() - t0) / 1000.0);
	if (atomic_load(&time_out))
		printf("# time limit of %d s reached: %" PRIu64 " of %" PRIu64 " cases run\n",
		       opt.time_limit, total.cases, opt.count);
	for (i = 0; i < opt.threads; i++) {
		for (k = 0; k < t[i]->nsocks; k++)
			nsock_close(&t[i]->socks[k]);
		nsock_close(&t[i]->ev);
		free(t[i]->socks);
		free(t[i]);
	}
	free(t);
	free(th);
	if (atomic_load(&failed))
		ret = 1;
	if (opt.uid >= 0) {
		hidden_report();
		if (user_final_check())
			ret = 1;
	} else {
		if (final_checks())
			ret = 1;
		remove_fixtures();
	}
	printf("# final checks and cleanup done at %.1f s\n",
	       (now_ms() - t0) / 1000.0);
	printf("# fsload_fuzz: %s (seed %" PRIu64 ")\n", ret ? "FAIL" : "pass",
	       opt.seed);
	return ret;
}

