// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz: a netlink fuzzer for fsload.ko, and the fault tests'
 * helpers (tests/guest/faults.sh), which share its client.  Raw AF_NETLINK
 * sockets, no library: the point is to send what no library would.
 *
 *   fsload_fuzz [fuzz] [--seed N] [--count N] [--threads N] [--sockets N]
 *               [--dir DIR] [--timeout-ms N] [--only INDEX] [--verbose]
 *               [--start-permille N] [--time-limit SEC]
 *   fsload_fuzz cycles --dir DIR [--count N]
 *   fsload_fuzz failnth --dir DIR [--max N]
 *   fsload_fuzz start --dir DIR [--files N] [--files-per-dir N]
 *               [--threads N] [--keep] OP[@MS]...
 *
 * fuzz: --count cases (default 100000), each one datagram of one or more
 * generated or mutated messages, sent by --threads threads over --sockets
 * sockets: every command (notification and unknown ids too), boundary and
 * random values, wrong types and lengths, missing and repeated attributes,
 * deep nesting, truncation, random flags, valid but odd programs (which
 * start jobs, stopped soon after), queries and dumps of those jobs, and
 * sockets closed mid-job or mid-dump.  Case I is generated from (seed, I)
 * alone, so --seed S --only I sends that case again (printed in hex).
 *
 * The process chroots into DIR (default $FSLOAD_DIR/fuzz) before sending
 * anything: the kernel resolves a job's directory in the sender's
 * context, so whatever path a mutation produces, a job can only land in
 * DIR.  Pass criteria, checked per message against a model of the
 * kernel's netlink_rcv_skb() walk:
 *  - every request that asks for an ACK (or is a dump) gets exactly one
 *    NLMSG_ERROR or NLMSG_DONE, within --timeout-ms; no reply to what the
 *    kernel must drop (truncated messages, non-requests without ACK);
 *  - every message generated to be invalid gets an error, with an extack
 *    message where the generator knows that the kernel gives one;
 *  - a valid program starts (or gets EBUSY when max_jobs are running);
 *  - replies parse, carry their request's command, and sane job states;
 *  - at the end every job ends once stopped, and nothing is left in DIR
 *    but the directories of jobs started with FSLOAD_JOB_F_KEEP.
 * Exit 0 pass, 1 fail (seed and case index printed), 2 usage, 4 skip.
 *
 * cycles: COUNT start/stop cycles in DIR (default 1000), alternately a
 * start followed by a stop and a start whose socket is then closed; every
 * job must end STOPPED (or DONE), announced once by JOB_DONE_NTF, with
 * nothing left in DIR.
 *
 * failnth: fault injection into JOB_START (kernels with
 * CONFIG_FAULT_INJECTION; set failslab's ignore-gfp-wait to N first):
 * for N = 1, 2, ... the Nth allocation site of the sending task fails
 * (/proc/self/task/TID/fail-nth), until a start runs without reaching a
 * fault.  Every failed start must leave no job, no directory and no
 * thread behind; a start that succeeds despite the fault must run to
 * DONE.  Exit 4 when fail-nth does not exist.
 *
 * start: a detached job of the given phases (OP@MS: OP until MS ms have
 * passed, e.g. null@5000 is a pause); prints its id.  For the fault tests,
 * which tamper with a job's tree during such a pause.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/fsload.h>

#ifndef NLMSGERR_ATTR_MISS_TYPE
#define NLMSGERR_ATTR_MISS_TYPE 5
#endif
#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define BUF_SIZE	(256 * 1024)	/* receive buffer */
#define DG_MAX		(48 * 1024)	/* one datagram we send */
#define MAX_MSGS	8		/* messages per datagram */
#define MAX_EXPECT	(MAX_MSGS + 24)	/* plus headers found in junk */
#define PARAM_DIR	"/sys/module/fsload/parameters"
#define PROFILE		"fsload_fuzz"
/* The largest attribute type (NLA_TYPE_MASK is a negative int). */
#define ATTR_TYPE_MAX	0x3fff

/* ------------------------------------------------------------------ */
/* Utilities                                                           */
/* ------------------------------------------------------------------ */

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct rng {
	uint64_t s;
};

static void rng_init(struct rng *r, uint64_t seed, uint64_t index)
{
	uint64_t x = seed ^ (index * 0xd1342543de82ef95ULL);

	r->s = splitmix64(&x) | 1;
}

static uint64_t rnd(struct rng *r)
{
	/* xorshift64* */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static uint64_t below(struct rng *r, uint64_t n)
{
	return n ? rnd(r) % n : 0;
}

/* True with probability @pct percent. */
static bool pct(struct rng *r, unsigned int p)
{
	return below(r, 100) < p;
}

static uint64_t range(struct rng *r, uint64_t lo, uint64_t hi)
{
	return lo + below(r, hi - lo + 1);
}

#define PICK(r, arr) ((arr)[below((r), sizeof(arr) / sizeof((arr)[0]))])

static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_mu);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	pthread_mutex_unlock(&out_mu);
}

static void hexdump(const char *what, const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	pthread_mutex_lock(&out_mu);
	printf("# %s (%zu bytes):", what, len);
	for (i = 0; i < len && i < 4096; i++)
		printf("%s%02x", i % 32 ? " " : "\n#   ", b[i]);
	printf("%s\n", len > 4096 ? "\n#   ..." : "");
	fflush(stdout);
	pthread_mutex_unlock(&out_mu);
}

static int read_param(const char *name, unsigned long long *v)
{
	char path[256], buf[64];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), PARAM_DIR "/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	*v = strtoull(buf, NULL, 0);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Options and shared state                                            */
/* ------------------------------------------------------------------ */

static struct {
	const char *mode;
	uint64_t seed;
	uint64_t count;
	int threads;
	int sockets;
	const char *dir;
	int timeout_ms;
	int64_t only;
	int max_nth;
	int start_permille;
	int time_limit;		/* seconds, 0 none */
	bool verbose;
	bool keep;
	bool dry;		/* --only: build the case, send nothing */
} opt = {
	.start_permille = 20,
	.mode = "fuzz",
	.count = 100000,
	.threads = 4,
	.sockets = 8,
	.timeout_ms = 30000,
	.only = -1,
	.max_nth = 2000,
};

/* The module's limits, read before the chroot. */
static struct {
	unsigned long long max_jobs, max_threads, max_finished, max_block;
	unsigned long long max_file;
} prm = { 8, 64, 32, 4U << 20, 1ULL << 40 };

static int family;		/* fsload's generic netlink id */
static uint32_t events_grp;	/* its "events" multicast group */
static uint16_t bad_family;	/* an id no family has */
static atomic_bool failed;
static atomic_uint_fast64_t next_case;
static int64_t fuzz_deadline;	/* now_ms() after which no case starts */
static atomic_bool time_out;

/* ------------------------------------------------------------------ */
/* Statistics                                                          */
/* ------------------------------------------------------------------ */

#define NSTAT_MSG	128

struct stats {
	uint64_t cases, msgs, datagrams, barriers, bytes;
	uint64_t acks, errors, dumps_done, data_msgs, no_reply_ok;
	uint64_t with_extack, invalid_sent, invalid_rejected;
	uint64_t valid_starts, started, ebusy, enomem, enospc, stops, stop_ealready;
	uint64_t sock_closes, dump_abandons, events, events_enobufs;
	uint64_t errno_count[256];
	uint64_t errno_mismatch;
	struct {
		int err;
		char msg[96];
		uint64_t n;
	} msg[NSTAT_MSG];
	int nmsg;
};

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
/* Sockets                                                             */
/* ------------------------------------------------------------------ */

struct nsock {
	int fd;
	uint32_t port;
	uint32_t seq;
	int gen;		/* bumped each time it is reopened */
};

static int nsock_open(struct nsock *s)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t sl = sizeof(sa);
	int one = 1, rcv = 4 << 20;

	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (s->fd < 0)
		return -errno;
	if (bind(s->fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(s->fd, (struct sockaddr *)&sa, &sl) ||
	    setsockopt(s->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one,
		       sizeof(one)) ||
	    setsockopt(s->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one,
		       sizeof(one))) {
		int e = -errno;

		close(s->fd);
		s->fd = -1;
		return e;
	}
	/* Root may go past rmem_max; dumps and events need room. */
	if (setsockopt(s->fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcv, sizeof(rcv)))
		setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	s->port = sa.nl_pid;
	s->gen++;
	return 0;
}

static void nsock_close(struct nsock *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/* A datagram or message under construction. */
struct mbuf {
	unsigned char b[DG_MAX];
	size_t len;
	bool overflow;
};

static void *mb_room(struct mbuf *m, size_t n)
{
	size_t a = NLA_ALIGN(n);
	void *p;

	if (m->len + a > sizeof(m->b)) {
		m->overflow = true;
		return NULL;
	}
	p = m->b + m->len;
	memset(p, 0, a);
	m->len += a;
	return p;
}

/* An attribute with @len bytes of @data (@len may be anything). */
static size_t attr_raw(struct mbuf *m, uint16_t type, const void *data,
		       size_t len, uint16_t nla_len)
{
	size_t off = m->len;
	struct nlattr *a = mb_room(m, NLA_HDRLEN + len);

	if (!a)
		return off;
	a->nla_type = type;
	a->nla_len = nla_len;
	if (len)
		memcpy((unsigned char *)a + NLA_HDRLEN, data, len);
	return off;
}

static size_t attr(struct mbuf *m, uint16_t type, const void *data, size_t len)
{
	return attr_raw(m, type, data, len, NLA_HDRLEN + len);
}

static size_t nest_begin(struct mbuf *m, uint16_t type)
{
	return attr(m, type, NULL, 0);
}

static void nest_end(struct mbuf *m, size_t off)
{
	struct nlattr *a = (struct nlattr *)(m->b + off);

	if (!m->overflow)
		a->nla_len = m->len - off;
}

static size_t msg_begin(struct mbuf *m, uint16_t type, uint16_t flags,
			uint32_t seq, uint8_t cmd, uint8_t version)
{
	size_t off;
	struct nlmsghdr *h;
	struct genlmsghdr *g;

	m->len = NLMSG_ALIGN(m->len);
	off = m->len;
	h = mb_room(m, NLMSG_HDRLEN + GENL_HDRLEN);
	if (!h)
		return off;
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq;
	g = (struct genlmsghdr *)((unsigned char *)h + NLMSG_HDRLEN);
	g->cmd = cmd;
	g->version = version;
	return off;
}

static struct nlmsghdr *msg_hdr(struct mbuf *m, size_t off)
{
	return (struct nlmsghdr *)(m->b + off);
}

static void msg_end(struct mbuf *m, size_t off)
{
	if (!m->overflow)
		msg_hdr(m, off)->nlmsg_len = m->len - off;
}

/* Receive one datagram; 0 on timeout, -errno, or its length. */
static ssize_t nsock_recv(struct nsock *s, void *buf, size_t size,
			  int timeout_ms, bool *trunc)
{
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
	struct sockaddr_nl from;
	struct iovec iov = { buf, size };
	struct msghdr mh = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;
	int p;

	*trunc = false;
	do {
		p = poll(&pfd, 1, timeout_ms);
	} while (p < 0 && errno == EINTR);
	if (p < 0)
		return -errno;
	if (!p)
		return 0;
	n = recvmsg(s->fd, &mh, 0);
	if (n < 0)
		return -errno;
	if (mh.msg_flags & MSG_TRUNC)
		*trunc = true;
	if (from.nl_pid != 0)
		return -EPROTO;	/* not from the kernel */
	return n ? n : -EPROTO;
}

/* Attribute walking over received data. */
static bool attrs_ok(const unsigned char *p, size_t len, int depth);

static const struct nlattr *attr_find(const unsigned char *p, size_t len,
				      int type)
{
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		size_t al = NLA_ALIGN(a->nla_len);

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		if (al > len)
			break;
		p += al;
		len -= al;
	}
	return NULL;
}

static size_t alen(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static const void *adata(const struct nlattr *a)
{
	return (const unsigned char *)a + NLA_HDRLEN;
}

static bool get_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || alen(a) != 4)
		return false;
	memcpy(v, adata(a), 4);
	return true;
}

static bool get_u8(const struct nlattr *a, uint8_t *v)
{
	if (!a || alen(a) != 1)
		return false;
	*v = *(const uint8_t *)adata(a);
	return true;
}

static bool get_u16(const struct nlattr *a, uint16_t *v)
{
	if (!a || alen(a) != 2)
		return false;
	memcpy(v, adata(a), 2);
	return true;
}

/* Every attribute of the kernel's replies is well formed (no nesting check
 * beyond FSLOAD_A_JOB_RESULT and its OPSTAT nests). */
static bool attrs_ok(const unsigned char *p, size_t len, int depth)
{
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		size_t al = NLA_ALIGN(a->nla_len);

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return false;
		if (depth < 2 && (a->nla_type & NLA_F_NESTED) &&
		    !attrs_ok(adata(a), alen(a), depth + 1))
			return false;
		if (al >= len)
			return true;
		p += al;
		len -= al;
	}
	return len == 0;
}

/* Payload of a genl message after the genl header. */
static const unsigned char *gpayload(const struct nlmsghdr *h, size_t *len)
{
	*len = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	return (const unsigned char *)h + NLMSG_HDRLEN + GENL_HDRLEN;
}

/* ------------------------------------------------------------------ */
/* Family resolution (generic netlink controller)                      */
/* ------------------------------------------------------------------ */

/* CTRL_CMD_GETFAMILY by name or id: 0, -ENOENT, or -errno. */
static int ctrl_getfamily(struct nsock *s, const char *name, uint16_t id,
			  uint16_t *id_out, uint32_t *grp_out)
{
	static __thread unsigned char buf[BUF_SIZE];
	struct mbuf *m = calloc(1, sizeof(*m));
	uint32_t seq = ++s->seq;
	int64_t deadline = now_ms() + opt.timeout_ms;
	size_t off;
	int ret = -ETIMEDOUT;

	if (!m)
		return -ENOMEM;
	off = msg_begin(m, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, seq,
			CTRL_CMD_GETFAMILY, 1);
	if (name)
		attr(m, CTRL_ATTR_FAMILY_NAME, name, strlen(name) + 1);
	else
		attr(m, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	msg_end(m, off);
	if (send(s->fd, m->b, m->len, 0) < 0) {
		free(m);
		return -errno;
	}
	free(m);
	while (now_ms() < deadline) {
		bool trunc;
		ssize_t n = nsock_recv(s, buf, sizeof(buf),
				       deadline - now_ms(), &trunc);
		struct nlmsghdr *h;

		if (n <= 0)
			return n ? (int)n : -ETIMEDOUT;
		for (h = (void *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				return e->error ? e->error : ret;
			}
			if (h->nlmsg_type == GENL_ID_CTRL) {
				size_t plen;
				const unsigned char *p = gpayload(h, &plen);
				const struct nlattr *a, *g;

				if (id_out && !get_u16(attr_find(p, plen,
						CTRL_ATTR_FAMILY_ID), id_out))
					return -EPROTO;
				ret = 0;
				a = attr_find(p, plen, CTRL_ATTR_MCAST_GROUPS);
				if (!a || !grp_out)
					continue;
				/* Nests of (name, id). */
				for (size_t l = alen(a), o = 0; o + NLA_HDRLEN <= l;) {
					const struct nlattr *gn = (const void *)((const unsigned char *)adata(a) + o);
					char gname[32] = "";

					if (gn->nla_len < NLA_HDRLEN)
						break;
					g = attr_find(adata(gn), alen(gn),
						      CTRL_ATTR_MCAST_GRP_NAME);
					if (g)
						snprintf(gname, sizeof(gname), "%.*s",
							 (int)alen(g), (const char *)adata(g));
					if (!strcmp(gname, FSLOAD_MCGRP_EVENTS))
						get_u32(attr_find(adata(gn), alen(gn),
							CTRL_ATTR_MCAST_GRP_ID), grp_out);
					o += NLA_ALIGN(gn->nla_len);
				}
			}
		}
	}
	return ret;
}

static int resolve_family(void)
{
	struct nsock s = { .fd = -1 };
	uint16_t id = 0;
	int err, i;

	err = nsock_open(&s);
	if (err)
		return err;
	err = ctrl_getfamily(&s, FSLOAD_FAMILY_NAME, 0, &id, &events_grp);
	if (err)
		goto out;
	family = id;
	/* An id that no family has, for "unknown family" messages. */
	for (i = 0xffff; i > 0x1000; i -= 0x111) {
		err = ctrl_getfamily(&s, NULL, i, NULL, NULL);
		if (err == -ENOENT) {
			bad_family = i;
			err = 0;
			break;
		}
	}
	if (!bad_family)
		err = -EEXIST;
out:
	nsock_close(&s);
	return err;
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
static uint32_t job_pick(struct rng *r)
{
	uint32_t id = 0;

	pthread_mutex_lock(&jobs_mu);
	if (njobs) {
		size_t k = pct(r, 70) ? njobs - 1 - below(r, njobs < 16 ? njobs : 16)
				      : below(r, njobs);
		id = jobs[k].id;
	}
	pthread_mutex_unlock(&jobs_mu);
	return id;
}

/* ------------------------------------------------------------------ */
/* Expectations and the exchange                                       */
/* ------------------------------------------------------------------ */

enum want {
	W_SOME,		/* anything, but an ACK request gets its answer */
	W_ERROR,	/* invalid by construction: an error */
	W_START,	/* a valid program: started, or EBUSY */
	W_QUERY,		/* a valid query: success (or ENOENT/EALREADY, see ok_err) */
};

struct expect {
	/* the request */
	size_t off;		/* in the datagram */
	uint32_t seq;
	uint16_t type, flags;
	uint8_t cmd;
	bool processed;		/* the kernel's walk reaches it */
	bool dump;		/* a genl dump request */
	bool busy_ok;		/* an earlier dump of the datagram may run */
	int want;
	int want_err;		/* W_ERROR: the predicted errno, 0 any */
	bool want_msg;		/* W_ERROR: an extack message expected */
	int ok_err[3];		/* W_QUERY: errors that are fine too */
	const char *what;
	/* what came back */
	int nterm;
	bool done;
	int err;
	bool has_msg;
	char msg[160];
	int ndata;
	uint32_t job_id, job_flags;
	char job_dir[128];
};

struct tctx {
	int index;		/* thread number */
	struct nsock *socks;
	int nsocks;
	struct nsock ev;	/* subscribed to events */
	struct stats st;
	struct mbuf dg;
	unsigned char buf[BUF_SIZE];
	/* jobs this thread started and has not stopped yet */
	struct {
		uint32_t id;
		int sock;
		uint32_t flags;
		int ttl;	/* cases left before we stop it */
	} mine[64];
	int nmine;
	uint64_t cur_case;
	const char *cur_what;
	bool failed;		/* this thread found a failure */
};

static void fail(struct tctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void fail(struct tctx *t, const char *fmt, ...)
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

static void parse_end(struct expect *e, const struct nlmsghdr *h)
{
	const unsigned char *p = NLMSG_DATA(h);
	size_t len = h->nlmsg_len - NLMSG_HDRLEN, off;
	int32_t err = 0;

	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *me = (const void *)p;

		if (len < sizeof(*me)) {
			e->err = EBADMSG;
			return;
		}
		err = me->error;
		off = NLMSG_ALIGN(sizeof(*me));
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			off += NLMSG_ALIGN(me->msg.nlmsg_len - NLMSG_HDRLEN);
	} else {
		e->done = true;
		if (len >= sizeof(err))
			memcpy(&err, p, sizeof(err));
		off = NLMSG_ALIGN(sizeof(err));
	}
	e->err = -err;
	if ((h->nlmsg_flags & NLM_F_ACK_TLVS) && off < len) {
		const struct nlattr *a = attr_find(p + off, len - off,
						   NLMSGERR_ATTR_MSG);

		if (a && alen(a)) {
			e->has_msg = true;
			snprintf(e->msg, sizeof(e->msg), "%.*s", (int)alen(a),
				 (const char *)adata(a));
		}
	}
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
		fail(t, "job message without an id");
		return false;
	}
	if (!get_u8(attr_find(p, plen, FSLOAD_A_JOB_STATE), &state) ||
	    state < FSLOAD_JOB_RUNNING || state > FSLOAD_JOB_FAILED) {
		fail(t, "job %u: state %u", *id, state);
		return false;
	}
	if (state == FSLOAD_JOB_FAILED &&
	    (!get_u32(attr_find(p, plen, FSLOAD_A_JOB_ERRNO), &v) || !v ||
	     !attr_find(p, plen, FSLOAD_A_JOB_ERROR_MSG))) {
		fail(t, "job %u failed without errno and error message", *id);
		return false;
	}
	if (flags && !get_u32(attr_find(p, plen, FSLOAD_A_JOB_FLAGS), flags)) {
		fail(t, "job %u: no flags", *id);
		return false;
	}
	a = attr_find(p, plen, FSLOAD_A_JOB_DIR);
	if (dir) {
		if (!a || !alen(a)) {
			fail(t, "job %u: no dir", *id);
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
		fail(t, "reply of type %u, length %u to %s", h->nlmsg_type,
		     h->nlmsg_len, e->what);
		return;
	}
	if (g->cmd != e->cmd) {
		fail(t, "reply command %u to request command %u", g->cmd,
		     e->cmd);
		return;
	}
	p = gpayload(h, &plen);
	if (!attrs_ok(p, plen, 0)) {
		fail(t, "malformed attributes in a reply to %s", e->what);
		return;
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
			fail(t, "result message without id or result nest");
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
				fail(t, "event of type %u command %u",
				     h->nlmsg_type, g->cmd);
				continue;
			}
			if (check_job_msg(t, h, &id, NULL, NULL, 0) &&
			    g->cmd == FSLOAD_CMD_JOB_DONE_NTF) {
				size_t plen;
				const unsigned char *p = gpayload(h, &plen);
				uint8_t st = 0;

				get_u8(attr_find(p, plen, FSLOAD_A_JOB_STATE), &st);
				if (st < FSLOAD_JOB_DONE)
					fail(t, "JOB_DONE_NTF of job %u in state %u",
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
		fail(t, "send of %zu bytes: %s", dg->len, strerror(errno));
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
			fail(t, "send barrier: %s", strerror(errno));
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
				fail(t, "no answer within %d ms to message %d (%s, seq %u, flags 0x%x, cmd %u)",
				     opt.timeout_ms, k, ex[k].what, ex[k].seq,
				     ex[k].flags, ex[k].cmd);
			else
				fail(t, "no answer to the barrier within %d ms",
				     opt.timeout_ms);
			hexdump("datagram", dg->b, dg->len);
			return false;
		}
		if (len < 0) {
			fail(t, "recv: %s", strerror((int)-len));
			return false;
		}
		if (trunc) {
			fail(t, "a reply datagram larger than %d bytes", BUF_SIZE);
			return false;
		}
		for (h = (void *)t->buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			struct expect *e = NULL;

			if (need_barrier && h->nlmsg_seq == barrier_seq) {
				if (h->nlmsg_type != NLMSG_ERROR ||
				    ((struct nlmsgerr *)NLMSG_DATA(h))->error) {
					fail(t, "odd answer to the barrier");
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
				fail(t, "a reply (type %u, flags 0x%x) with seq %u that matches no open request",
				     h->nlmsg_type, h->nlmsg_flags, h->nlmsg_seq);
				hexdump("datagram", dg->b, dg->len);
				return false;
			}
			if (h->nlmsg_type == NLMSG_ERROR ||
			    h->nlmsg_type == NLMSG_DONE) {
				parse_end(e, h);
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
					fail(t, "NLMSG_DONE for a request that is no dump");
					return false;
				}
			} else if (h->nlmsg_type < NLMSG_MIN_TYPE) {
				fail(t, "control message %u from the kernel",
				     h->nlmsg_type);
				return false;
			} else {
				on_data(t, e, h);
			}
		}
		if (len > 0) {
			fail(t, "%zd trailing bytes in a reply datagram", len);
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
			fail(t, "%d answers to one request (%s)", e->nterm, e->what);
			return false;
		}
		if (!e->nterm && !(e->flags & NLM_F_ACK) && !e->dump &&
		    !e->ndata)
			t->st.no_reply_ok++;
		if (e->nterm && !e->err && !e->done && !(e->flags & NLM_F_ACK)) {
			fail(t, "an ACK that was not asked for (%s)", e->what);
			return false;
		}
	}
	drain_events(t);
	return !t->failed;
}

/* ------------------------------------------------------------------ */
/* Generators                                                          */
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
		FSLOAD_A_JOB_RESULT, FSLOAD_A_JOB_PAD };
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

static bool op_sized(uint8_t t)
{
	return t == FSLOAD_OP_CREATE || t == FSLOAD_OP_APPEND ||
	       t == FSLOAD_OP_WRITE_RANDOM || t == FSLOAD_OP_READ_RANDOM;
}

static uint32_t op_allowed_flags(uint8_t t)
{
	switch (t) {
	case FSLOAD_OP_CREATE:
		return FSLOAD_OP_F_FSYNC | FSLOAD_OP_F_FALLOCATE |
		       FSLOAD_OP_F_DIRECT;
	case FSLOAD_OP_APPEND:
	case FSLOAD_OP_WRITE_RANDOM:
		return FSLOAD_OP_F_FSYNC | FSLOAD_OP_F_DIRECT;
	case FSLOAD_OP_READ_RANDOM:
	case FSLOAD_OP_READ:
		return FSLOAD_OP_F_DIRECT;
	}
	return 0;
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
	} while (o->type == FSLOAD_OP_BIO_WRITE ||
		 o->type == FSLOAD_OP_BIO_READ);
	if (pct(r, 40)) {
		o->h_weight = true;
		o->weight = pct(r, 20) ? PICK(r, ((const uint32_t[]){ 1, 1000000 }))
				       : range(r, 1, 1000);
	}
	allowed = op_allowed_flags(o->type);
	if (allowed && pct(r, 40)) {
		o->flags = rnd(r) & allowed;
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
	if (op_sized(o->type)) {
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
	if (j->h_flags)
		j->flags = rnd(r) & FSLOAD_JOB_F_MASK;
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
		j->progress = PICK(r, ((const uint32_t[]){ 3600001, UINT32_MAX }));
		return "progress_ms too large";
	case 6:
		j->h_flags = true;
		j->flags |= unknown_bit(r, FSLOAD_JOB_F_MASK);
		return "unknown job flag";
	case 7:
		o->h_weight = true;
		o->weight = PICK(r, ((const uint32_t[]){ 0, 1000001, UINT32_MAX }));
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
	static const int top_w[] = { 0, 4, 1, 4, 4, 8, 4, 8, 1, 4, 0 };
	int nattrs = below(r, level == 0 ? 12 : 8), i;
	uint16_t last = 1;

	for (i = 0; i < nattrs && !m->overflow; i++) {
		uint16_t type;
		int kind, w = 0;	/* kind: 0 u8 1 u32 2 u64 3 str 4 nest */

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
		(void)top_w;
		(void)w;
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

static void add_expect(struct expect *ex, int *n, size_t off, uint32_t seq,
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

/* One message of a case: appended to t->dg; its expectation to @ex. */
static void gen_message(struct tctx *t, struct rng *r, struct nsock *s,
			struct expect *ex, int *nex)
{
	struct mbuf *m = &t->dg;
	uint32_t seq = ++s->seq & 0x7fffffff;
	int kind = below(r, 1000);
	struct expect *e;
	size_t off;

	/*
	 * Valid programs are --start-permille of the messages (starting and
	 * reaping a job costs the guest as much as ~30 messages); the rest
	 * keep their proportions: 30% invalid programs, 12% other invalid
	 * requests, 15% valid queries, 20% attribute soup, 12% byte
	 * mutations, 3% control messages and non-requests.
	 */
	if (kind < opt.start_permille) {
		kind = 0;
	} else {
		kind = 8 + (kind - opt.start_permille) * 92 /
			   (1000 - opt.start_permille);
	}
	if (kind < 8) {
		/* A valid, odd program. */
		struct fjob *jj = malloc(sizeof(*jj));
		struct emit em = { .m = m, .r = r, .mut = MUT_NONE, .target = -1 };
		uint16_t flags = NLM_F_REQUEST | (pct(r, 90) ? NLM_F_ACK : 0);

		if (!jj)
			return;
		gen_job(r, jj);
		off = msg_begin(m, family, flags, seq, FSLOAD_CMD_JOB_START,
				pct(r, 95) ? FSLOAD_FAMILY_VERSION : rnd(r));
		emit_job(&em, jj);
		msg_end(m, off);
		free(jj);
		add_expect(ex, nex, off, seq, family, W_START, "valid program");
		ex[*nex - 1].cmd = FSLOAD_CMD_JOB_START;
		t->st.valid_starts++;
		return;
	}
	if (kind < 38) {
		/* A valid program, made invalid in one way. */
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
				seq, FSLOAD_CMD_JOB_START, FSLOAD_FAMILY_VERSION);
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
		add_expect(ex, nex, off, seq, family, W_ERROR, why);
		e = &ex[*nex - 1];
		e->cmd = FSLOAD_CMD_JOB_START;
		e->want_err = mut == MUT_NONE ? err : 0;
		e->want_msg = msg;
		t->st.invalid_sent++;
		return;
	}
	if (kind < 50) {
		/* Invalid requests of other kinds. */
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
		off = msg_begin(m, type, flags, seq, cmd, FSLOAD_FAMILY_VERSION);
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
		add_expect(ex, nex, off, seq, type, W_ERROR, why);
		e = &ex[*nex - 1];
		e->cmd = cmd;
		e->want_err = which <= 7 && which != 1 ? err : 0;
		e->want_msg = msg;
		t->st.invalid_sent++;
		return;
	}
	if (kind < 65) {
		/* A valid query or stop of a job of ours. */
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
			t->st.stops++;
			break;
		}
		off = msg_begin(m, family, flags, seq, cmd, FSLOAD_FAMILY_VERSION);
		if (which != 1)
			attr(m, FSLOAD_A_JOB_ID, &id, 4);
		msg_end(m, off);
		add_expect(ex, nex, off, seq, family, W_QUERY, why);
		e = &ex[*nex - 1];
		e->cmd = cmd;
		e->ok_err[0] = ENOENT;	/* forgotten: max_finished */
		e->ok_err[1] = cmd == FSLOAD_CMD_JOB_STOP ? EALREADY : 0;
		return;
	}
	if (kind < 85) {
		/* Attribute soup. */
		uint16_t flags = rnd_flags(r);
		uint8_t cmd = pct(r, 80) ? range(r, 1, FSLOAD_CMD_MAX) :
			      (uint8_t)rnd(r);
		size_t start;

		off = msg_begin(m, family, flags, seq, cmd,
				pct(r, 90) ? FSLOAD_FAMILY_VERSION : rnd(r));
		if (pct(r, 5))
			((struct genlmsghdr *)NLMSG_DATA(msg_hdr(m, off)))->reserved = rnd(r);
		start = m->len;
		soup(r, m, 0, 0);
		if (pct(r, 10))
			mangle_attr_lens(r, m, start);
		msg_end(m, off);
		add_expect(ex, nex, off, seq, family, W_SOME, "attribute soup");
		ex[*nex - 1].cmd = cmd;
		return;
	}
	if (kind < 97) {
		/* A valid message, then byte-level mutations. */
		struct fjob *jj = malloc(sizeof(*jj));
		struct emit em = { .m = m, .r = r, .target = -1 };
		struct nlmsghdr *h;
		int nmut = range(r, 1, 8), i;
		size_t len;

		if (!jj)
			return;
		gen_job(r, jj);
		off = msg_begin(m, family, NLM_F_REQUEST | NLM_F_ACK, seq,
				pct(r, 85) ? FSLOAD_CMD_JOB_START :
				range(r, 0, FSLOAD_CMD_MAX + 1),
				FSLOAD_FAMILY_VERSION);
		emit_job(&em, jj);
		msg_end(m, off);
		free(jj);
		len = m->len - off;
		for (i = 0; i < nmut && len > NLMSG_HDRLEN; i++) {
			/* Never the type, seq or port of the header. */
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
		add_expect(ex, nex, off, seq, family, W_SOME, "byte mutation");
		ex[*nex - 1].cmd = ((struct genlmsghdr *)NLMSG_DATA(h))->cmd;
		return;
	}
	/* Control messages and non-requests. */
	{
		uint16_t type = PICK(r, ((const uint16_t[]){ NLMSG_NOOP,
			NLMSG_ERROR, NLMSG_DONE, NLMSG_OVERRUN, 5, 15 }));
		uint16_t flags = pct(r, 50) ? NLM_F_ACK : 0;

		if (pct(r, 50)) {
			type = family;
			flags |= pct(r, 50) ? NLM_F_DUMP : 0;	/* no REQUEST */
		} else if (pct(r, 50)) {
			flags |= NLM_F_REQUEST;
		}
		off = msg_begin(m, type, flags, seq, range(r, 0, 8), 1);
		if (pct(r, 50))
			soup(r, m, 0, 0);
		msg_end(m, off);
		add_expect(ex, nex, off, seq, type, W_SOME, "control or non-request");
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
		if (e->busy_ok && e->err == EBUSY)
			continue;
		switch (e->want) {
		case W_ERROR:
			if (!(e->flags & NLM_F_REQUEST))
				break;
			if (!e->err || !e->nterm) {
				fail(t, "invalid message accepted (%s)%s", e->what,
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
				fail(t, "error %s without an extack message (%s)",
				     strerrorname_np(e->err), e->what);
				hexdump("datagram", t->dg.b, t->dg.len);
				return;
			}
			break;
		case W_START:
			if (!e->nterm && !e->ndata) {
				fail(t, "no answer to a valid start");
				return;
			}
			if (e->err == EBUSY) {
				t->st.ebusy++;
				if (!e->has_msg)
					fail(t, "EBUSY without an extack message");
			} else if (e->err == ENOSPC || e->err == EDQUOT) {
				t->st.enospc++;
			} else if (e->err && e->err != ENOMEM) {
				fail(t, "valid program refused: %s: %s",
				     strerrorname_np(e->err), e->msg);
				hexdump("datagram", t->dg.b, t->dg.len);
				return;
			} else if (!e->err && !e->job_id) {
				fail(t, "start succeeded without a job in its reply");
				return;
			}
			break;
		case W_QUERY:
			if (e->err && e->err != e->ok_err[0] &&
			    e->err != e->ok_err[1] && e->err != ENOMEM) {
				fail(t, "valid %s failed: %s: %s", e->what,
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
		fail(t, "reopen socket: %s", strerror(-err));
	t->st.sock_closes++;
}

struct jobstate;
static int list_jobs(struct nsock *s, struct jobstate *out, int max);
static void sweep_kept(struct nsock *s);

static void *fuzz_thread(void *arg)
{
	struct tctx *t = arg;
	struct expect *ex = calloc(MAX_EXPECT, sizeof(*ex));
	int i;

	if (!ex) {
		fail(t, "out of memory");
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
			continue;
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
	free(ex);
	return NULL;
}

/* --only I --dry-run: print case I as built, without a kernel. */
static int run_dry(void)
{
	struct tctx *t = calloc(1, sizeof(*t));
	struct nsock s = { .fd = -1 };

	if (!t)
		return 1;
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

/* Simple synchronous request on @s: 0 or the positive errno. */
struct simple_reply {
	int err;
	char msg[160];
	int ndata;
	unsigned char *data;	/* the data messages, concatenated */
	size_t data_len;
};

/* Collect the answer to @seq: 0 (sr->err the verdict) or -errno. */
static int simple_recv(struct nsock *s, uint32_t seq, struct simple_reply *sr,
		       int timeout_ms)
{
	static __thread unsigned char buf[BUF_SIZE];
	int64_t deadline = now_ms() + timeout_ms;

	for (;;) {
		bool trunc;
		ssize_t n = nsock_recv(s, buf, sizeof(buf),
				       deadline - now_ms() > 0 ? deadline - now_ms() : 0,
				       &trunc);
		struct nlmsghdr *h;

		if (n == 0)
			return -ETIMEDOUT;
		if (n < 0)
			return (int)n;
		for (h = (void *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR ||
			    h->nlmsg_type == NLMSG_DONE) {
				struct expect e = { 0 };

				parse_end(&e, h);
				sr->err = e.err;
				snprintf(sr->msg, sizeof(sr->msg), "%s", e.msg);
				return 0;
			}
			if (h->nlmsg_type == family) {
				unsigned char *d = realloc(sr->data,
						sr->data_len + NLMSG_ALIGN(h->nlmsg_len));

				if (!d)
					return -ENOMEM;
				sr->data = d;
				memcpy(d + sr->data_len, h, h->nlmsg_len);
				sr->data_len += NLMSG_ALIGN(h->nlmsg_len);
				sr->ndata++;
			}
		}
	}
}

static int simple_xfer(struct nsock *s, const void *req, size_t len,
		       uint32_t seq, struct simple_reply *sr, int timeout_ms)
{
	memset(sr, 0, sizeof(*sr));
	if (send(s->fd, req, len, 0) < 0)
		return -errno;
	return simple_recv(s, seq, sr, timeout_ms);
}

/* The job id in the first data message of @sr, or 0. */
static uint32_t reply_job_id(const struct simple_reply *sr)
{
	const struct nlmsghdr *h = (const void *)sr->data;
	const unsigned char *p;
	size_t plen;
	uint32_t id = 0;

	if (!sr->ndata)
		return 0;
	p = gpayload(h, &plen);
	get_u32(attr_find(p, plen, FSLOAD_A_JOB_ID), &id);
	return id;
}

/* GET dump, STOP, GET of @id (cmd) on @s. */
static int id_request(struct nsock *s, uint8_t cmd, uint16_t flags,
		      uint32_t id, struct simple_reply *sr)
{
	struct mbuf *m = malloc(sizeof(*m));
	uint32_t seq = ++s->seq & 0x7fffffff;
	size_t off;
	int ret;

	if (!m)
		return -ENOMEM;
	m->len = 0;
	m->overflow = false;
	off = msg_begin(m, family, NLM_F_REQUEST | NLM_F_ACK | flags, seq, cmd,
			FSLOAD_FAMILY_VERSION);
	if (id)
		attr(m, FSLOAD_A_JOB_ID, &id, 4);
	msg_end(m, off);
	ret = simple_xfer(s, m->b, m->len, seq, sr, opt.timeout_ms);
	free(m);
	return ret;
}

struct jobstate {
	uint32_t id, flags;
	uint8_t state;
	char profile[40];
};

/* All jobs the module lists. */
static int list_jobs(struct nsock *s, struct jobstate *out, int max)
{
	struct simple_reply sr;
	const unsigned char *p;
	size_t left;
	int n = 0, ret;

	ret = id_request(s, FSLOAD_CMD_JOB_GET, NLM_F_DUMP, 0, &sr);
	if (ret || sr.err) {
		free(sr.data);
		return ret ? ret : -sr.err;
	}
	p = sr.data;
	left = sr.data_len;
	while (left >= NLMSG_HDRLEN && n < max) {
		const struct nlmsghdr *h = (const void *)p;
		size_t plen;
		const unsigned char *a = gpayload(h, &plen);
		const struct nlattr *pa;

		memset(&out[n], 0, sizeof(out[n]));
		get_u32(attr_find(a, plen, FSLOAD_A_JOB_ID), &out[n].id);
		get_u32(attr_find(a, plen, FSLOAD_A_JOB_FLAGS), &out[n].flags);
		get_u8(attr_find(a, plen, FSLOAD_A_JOB_STATE), &out[n].state);
		pa = attr_find(a, plen, FSLOAD_A_JOB_PROFILE);
		if (pa)
			snprintf(out[n].profile, sizeof(out[n].profile), "%.*s",
				 (int)alen(pa), (const char *)adata(pa));
		n++;
		if (NLMSG_ALIGN(h->nlmsg_len) > left)
			break;
		left -= NLMSG_ALIGN(h->nlmsg_len);
		p += NLMSG_ALIGN(h->nlmsg_len);
	}
	free(sr.data);
	return n;
}

static bool state_running(uint8_t s)
{
	return s == FSLOAD_JOB_RUNNING || s == FSLOAD_JOB_STOPPING;
}

static int rm_cb(const char *path, const struct stat *st, int flag,
		 struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

static int rm_rf(const char *path)
{
	return nftw(path, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

/* Wait for every listed job to end: 0, or -ETIMEDOUT. */
static int wait_all_ended(struct nsock *s, int timeout_ms, uint32_t *stuck)
{
	int64_t deadline = now_ms() + timeout_ms;
	static struct jobstate js[4096];

	for (;;) {
		int n = list_jobs(s, js, 4096), i;

		if (n < 0)
			return n;
		for (i = 0; i < n; i++)
			if (state_running(js[i].state))
				break;
		if (i == n)
			return 0;
		*stuck = js[i].id;
		if (now_ms() > deadline)
			return -ETIMEDOUT;
		sleep_ms(50);
	}
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

/* Enter DIR: everything the kernel resolves for us stays below it. */
static int enter_dir(const char *dir)
{
	if (mkdir(dir, 0755) && errno != EEXIST) {
		printf("# cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (chdir(dir) || chroot(".") || chdir("/")) {
		printf("# cannot chroot into %s: %s\n", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void read_params(void)
{
	read_param("max_jobs", &prm.max_jobs);
	read_param("max_threads", &prm.max_threads);
	read_param("max_finished", &prm.max_finished);
	read_param("max_block_bytes", &prm.max_block);
	read_param("max_file_bytes", &prm.max_file);
}

static int run_fuzz(void)
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
	printf("# fsload_fuzz: seed %" PRIu64 ", %" PRIu64 " cases, %d threads, %d sockets, dir %s\n",
	       opt.seed, opt.only >= 0 ? 1 : opt.count, opt.threads,
	       opt.sockets, opt.dir);
	printf("# module limits: max_jobs %llu max_threads %llu max_finished %llu max_block_bytes %llu max_file_bytes %llu\n",
	       prm.max_jobs, prm.max_threads, prm.max_finished, prm.max_block,
	       prm.max_file);
	printf("# family %d, events group %u, unknown family id %u\n", family,
	       events_grp, bad_family);
	fflush(stdout);
	if (make_fixtures()) {
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
	if (final_checks())
		ret = 1;
	remove_fixtures();
	printf("# final checks and cleanup done at %.1f s\n",
	       (now_ms() - t0) / 1000.0);
	printf("# fsload_fuzz: %s (seed %" PRIu64 ")\n", ret ? "FAIL" : "pass",
	       opt.seed);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Start/stop cycles                                                   */
/* ------------------------------------------------------------------ */

/* A job that runs until stopped: a few files, then null ops forever. */
static size_t put_long_job(struct mbuf *m, uint32_t seq, uint32_t flags,
			   uint64_t files)
{
	static const char *const names[] = { "create", "spin" };
	size_t off = msg_begin(m, family, NLM_F_REQUEST | NLM_F_ACK, seq,
			       FSLOAD_CMD_JOB_START, FSLOAD_FAMILY_VERSION);
	uint32_t zero = 0, fpd = 10;
	uint64_t never = 1000000000000ULL;
	int p;

	attr(m, FSLOAD_A_JOB_DIR, ".", 2);
	attr(m, FSLOAD_A_JOB_PROFILE, PROFILE, sizeof(PROFILE));
	attr(m, FSLOAD_A_JOB_FLAGS, &flags, 4);
	attr(m, FSLOAD_A_JOB_FILES, &files, 8);
	attr(m, FSLOAD_A_JOB_FILES_PER_DIR, &fpd, 4);
	attr(m, FSLOAD_A_JOB_PROGRESS_MS, &zero, 4);
	for (p = 0; p < 2; p++) {
		size_t ph = nest_begin(m, FSLOAD_A_JOB_PHASE | NLA_F_NESTED);
		size_t op;
		uint8_t type = p ? FSLOAD_OP_NULL : FSLOAD_OP_CREATE;

		attr(m, FSLOAD_A_PHASE_NAME, names[p], strlen(names[p]) + 1);
		if (p)
			attr(m, FSLOAD_A_PHASE_ITERATIONS, &never, 8);
		op = nest_begin(m, FSLOAD_A_PHASE_OP | NLA_F_NESTED);
		attr(m, FSLOAD_A_OP_TYPE, &type, 1);
		nest_end(m, op);
		nest_end(m, ph);
	}
	msg_end(m, off);
	return off;
}

/* Start a long job on @s: its id, or -errno (EBUSY ...). */
static int start_long(struct nsock *s, uint32_t flags, uint64_t files,
		      char *msg, size_t msgsize)
{
	struct mbuf *m = malloc(sizeof(*m));
	struct simple_reply sr;
	uint32_t seq = ++s->seq & 0x7fffffff, id = 0;
	int ret;

	if (!m)
		return -ENOMEM;
	m->len = 0;
	m->overflow = false;
	put_long_job(m, seq, flags, files);
	ret = simple_xfer(s, m->b, m->len, seq, &sr, opt.timeout_ms);
	free(m);
	if (ret)
		return ret;
	if (msg)
		snprintf(msg, msgsize, "%s", sr.msg);
	if (sr.err) {
		free(sr.data);
		return -sr.err;
	}
	id = reply_job_id(&sr);
	free(sr.data);
	return id ? (int)id : -EBADMSG;
}

/* Read DONE notifications from @ev into @ended (by id). */
struct endrec {
	uint32_t id;
	uint8_t state;
	int ndone;
};

static struct endrec *ends;
static size_t nends;

static struct endrec *end_find(uint32_t id, bool add)
{
	size_t i;

	for (i = 0; i < nends; i++)
		if (ends[i].id == id)
			return &ends[i];
	if (!add)
		return NULL;
	ends[nends] = (struct endrec){ .id = id };
	return &ends[nends++];
}

static int read_events(struct nsock *ev, int timeout_ms, int *overruns)
{
	static unsigned char buf[BUF_SIZE];
	int got = 0;

	for (;;) {
		struct pollfd pfd = { .fd = ev->fd, .events = POLLIN };
		struct nlmsghdr *h;
		ssize_t n;

		if (poll(&pfd, 1, timeout_ms) <= 0)
			return got;
		timeout_ms = 0;
		n = recv(ev->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == ENOBUFS) {
			(*overruns)++;
			continue;
		}
		if (n <= 0)
			return got;
		for (h = (void *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			const struct genlmsghdr *g = NLMSG_DATA(h);
			size_t plen;
			const unsigned char *p;
			uint32_t id = 0;
			uint8_t state = 0;
			struct endrec *e;

			if (h->nlmsg_type != family ||
			    g->cmd != FSLOAD_CMD_JOB_DONE_NTF)
				continue;
			p = gpayload(h, &plen);
			get_u32(attr_find(p, plen, FSLOAD_A_JOB_ID), &id);
			get_u8(attr_find(p, plen, FSLOAD_A_JOB_STATE), &state);
			e = end_find(id, false);
			if (!e)
				continue;	/* not one of ours */
			e->ndone++;
			e->state = state;
			got++;
		}
	}
}

static int run_cycles(void)
{
	struct nsock s = { .fd = -1 }, ev = { .fd = -1 }, own = { .fd = -1 };
	uint64_t i, busy = 0;
	int ret = 0, err, overruns = 0, outstanding = 0;
	int64_t t0 = now_ms(), last = t0;
	size_t k;
	int nstates[8] = { 0 };
	char msg[160];

	ends = calloc(opt.count + 1, sizeof(*ends));
	if (!ends || nsock_open(&s) || nsock_open(&ev) ||
	    setsockopt(ev.fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &events_grp,
		       sizeof(events_grp))) {
		printf("# cannot set up sockets: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < opt.count; i++) {
		bool closing = i % 2;
		struct nsock *on = closing ? &own : &s;
		int id;

		if (closing && (err = nsock_open(&own))) {
			printf("# socket: %s\n", strerror(-err));
			return 1;
		}
		for (;;) {
			id = start_long(on, closing ? 0 : FSLOAD_JOB_F_DETACH,
					20, msg, sizeof(msg));
			if (id != -EBUSY)
				break;
			busy++;
			/* Wait for one of ours to end. */
			outstanding -= read_events(&ev, 5000, &overruns);
			if (now_ms() - last > 60000) {
				printf("# FAIL: no job ended for 60 s (cycle %" PRIu64 ")\n", i);
				return 1;
			}
		}
		if (id < 0) {
			printf("# FAIL: cycle %" PRIu64 ": start: %s: %s\n", i,
			       strerror(-id), msg);
			return 1;
		}
		end_find(id, true);
		outstanding++;
		/* Now and then let the workers get going first. */
		if (i % 7 == 3)
			sleep_ms(i % 23);
		if (closing) {
			nsock_close(&own);
		} else {
			struct simple_reply sr;

			if (id_request(&s, FSLOAD_CMD_JOB_STOP, 0, id, &sr) ||
			    (sr.err && sr.err != EALREADY)) {
				printf("# FAIL: cycle %" PRIu64 ": stop of job %d: %s %s\n",
				       i, id, strerrorname_np(sr.err), sr.msg);
				free(sr.data);
				return 1;
			}
			free(sr.data);
		}
		err = read_events(&ev, 0, &overruns);
		if (err)
			last = now_ms();
		outstanding -= err;
	}
	/* The last ones. */
	while (outstanding > 0 && now_ms() - last < 120000) {
		err = read_events(&ev, 1000, &overruns);
		if (err)
			last = now_ms();
		outstanding -= err;
	}
	for (k = 0; k < nends; k++) {
		if (ends[k].ndone != 1 && !overruns) {
			printf("# FAIL: job %u: %d JOB_DONE notifications\n",
			       ends[k].id, ends[k].ndone);
			ret = 1;
		}
		if (ends[k].ndone && ends[k].state != FSLOAD_JOB_STOPPED &&
		    ends[k].state != FSLOAD_JOB_DONE) {
			printf("# FAIL: job %u ended in state %u\n", ends[k].id,
			       ends[k].state);
			ret = 1;
		}
		nstates[ends[k].state & 7]++;
	}
	{
		uint32_t stuck = 0;

		if (wait_all_ended(&s, 120000, &stuck)) {
			printf("# FAIL: job %u still running\n", stuck);
			ret = 1;
		}
	}
	printf("# %" PRIu64 " cycles in %.1f s: %zu jobs, %d stopped, %d done, %" PRIu64
	       " EBUSY retries, %d event overruns\n",
	       opt.count, (now_ms() - t0) / 1000.0, nends,
	       nstates[FSLOAD_JOB_STOPPED], nstates[FSLOAD_JOB_DONE], busy,
	       overruns);
	{
		DIR *d = opendir("/");
		struct dirent *de;

		while (d && (de = readdir(d))) {
			if (!strncmp(de->d_name, "fsload-", 7)) {
				printf("# FAIL: %s left behind\n", de->d_name);
				ret = 1;
			}
		}
		if (d)
			closedir(d);
	}
	nsock_close(&s);
	nsock_close(&ev);
	free(ends);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Allocation failures in JOB_START (fail-nth)                         */
/* ------------------------------------------------------------------ */

/* A short job that completes: create, stat, unlink of 20 files. */
static size_t put_short_job(struct mbuf *m, uint32_t seq)
{
	static const uint8_t ops[] = { FSLOAD_OP_CREATE, FSLOAD_OP_STAT,
				       FSLOAD_OP_UNLINK };
	static const char *const names[] = { "create", "stat", "unlink" };
	size_t off = msg_begin(m, family, NLM_F_REQUEST | NLM_F_ACK, seq,
			       FSLOAD_CMD_JOB_START, FSLOAD_FAMILY_VERSION);
	uint32_t threads = 2, zero = 0, fpd = 10;
	uint64_t files = 20;
	int p;

	attr(m, FSLOAD_A_JOB_DIR, ".", 2);
	attr(m, FSLOAD_A_JOB_PROFILE, PROFILE, sizeof(PROFILE));
	attr(m, FSLOAD_A_JOB_THREADS, &threads, 4);
	attr(m, FSLOAD_A_JOB_FILES, &files, 8);
	attr(m, FSLOAD_A_JOB_FILES_PER_DIR, &fpd, 4);
	attr(m, FSLOAD_A_JOB_PROGRESS_MS, &zero, 4);
	for (p = 0; p < 3; p++) {
		size_t ph = nest_begin(m, FSLOAD_A_JOB_PHASE | NLA_F_NESTED);
		size_t op;

		attr(m, FSLOAD_A_PHASE_NAME, names[p], strlen(names[p]) + 1);
		op = nest_begin(m, FSLOAD_A_PHASE_OP | NLA_F_NESTED);
		attr(m, FSLOAD_A_OP_TYPE, &ops[p], 1);
		nest_end(m, op);
		nest_end(m, ph);
	}
	msg_end(m, off);
	return off;
}

/* Our kthreads: "fsload<id>/<n>" in /proc/<pid>/comm. */
static int count_workers(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		char path[300], comm[64] = "";
		FILE *f;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strncmp(comm, "fsload", 6) && strchr(comm, '/'))
			n++;
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

static int count_job_dirs(void)
{
	DIR *d = opendir(".");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "fsload-", 7))
			n++;
	if (d)
		closedir(d);
	return n;
}

static int run_failnth(void)
{
	struct nsock s = { .fd = -1 };
	static struct jobstate before[4096], after[4096];
	struct mbuf *m = malloc(sizeof(*m));
	char path[64];
	int nth, fd, ret = 0, injected = 0, ok_anyway = 0, sendfail = 0;
	int enomem = 0, lost = 0;
	int64_t t0 = now_ms();

	snprintf(path, sizeof(path), "/proc/self/task/%d/fail-nth", gettid());
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("# %s: %s: no fault injection in this kernel\n", path,
		       strerror(errno));
		return 4;
	}
	if (!m || nsock_open(&s))
		return 1;
	for (nth = 1; nth <= opt.max_nth; nth++) {
		struct simple_reply sr = { 0 };
		uint32_t seq = ++s.seq & 0x7fffffff, stuck, id = 0;
		char buf[32];
		int nb, na, r, i, left, dirs;
		const char *verdict;
		bool sent_fail;

		nb = list_jobs(&s, before, 4096);
		if (nb < 0) {
			printf("# FAIL: list: %s\n", strerror(-nb));
			return 1;
		}
		m->len = 0;
		m->overflow = false;
		put_short_job(m, seq);
		snprintf(buf, sizeof(buf), "%d", nth);
		if (pwrite(fd, buf, strlen(buf), 0) < 0) {
			printf("# FAIL: write fail-nth: %s\n", strerror(errno));
			return 1;
		}
		r = send(s.fd, m->b, m->len, 0) < 0 ? -errno : 0;
		sent_fail = r != 0;
		/* fail-nth reads 0 once the fault was injected. */
		left = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[left > 0 ? left : 0] = '\0';
		left = atoi(buf);
		if (pwrite(fd, "0", 1, 0) < 0)
			return 1;
		if (!r) {
			r = simple_recv(&s, seq, &sr, opt.timeout_ms);
			/*
			 * A failed ACK allocation shows as ENOBUFS on the
			 * socket, ahead of a reply that may still be queued.
			 */
			if (r == -ENOBUFS) {
				int r2 = simple_recv(&s, seq, &sr, 1000);

				if (r2 && r2 != -ETIMEDOUT) {
					printf("# FAIL: fail-nth %d: %s after ENOBUFS\n",
					       nth, strerror(-r2));
					return 1;
				}
			}
			id = reply_job_id(&sr);
		} else {
			sendfail++;
		}
		if (r && r != -ENOBUFS && r != -ENOMEM) {
			printf("# FAIL: fail-nth %d: no answer: %s\n", nth,
			       strerror(-r));
			return 1;
		}
		if (left) {
			printf("# fail-nth %d: no fault point reached: every allocation site of a start was tried\n",
			       nth);
			free(sr.data);
			if (!r && !sr.err && id) {
				uint32_t st;

				wait_all_ended(&s, 120000, &st);
			}
			break;
		}
		injected++;
		if (sent_fail) {
			verdict = "the request's skb (send failed)";
		} else if (r == -ENOBUFS) {
			verdict = id ? "the ACK (ENOBUFS), the reply came" :
				  "the answer (ENOBUFS)";
			lost++;
		} else if (!sr.err) {
			ok_anyway++;
			verdict = "started anyway";
		} else if (sr.err == ENOMEM) {
			enomem++;
			verdict = "ENOMEM";
		} else {
			printf("# FAIL: fail-nth %d: start failed with %s, not ENOMEM: %s\n",
			       nth, strerrorname_np(sr.err), sr.msg);
			ret = 1;
			verdict = "other error";
		}
		if (opt.verbose)
			printf("# fail-nth %d: %s%s%s (job %u)\n", nth, verdict,
			       sr.msg[0] ? ": " : "", sr.msg, id);
		free(sr.data);
		/* Let whatever started end; then compare. */
		if (wait_all_ended(&s, 120000, &stuck)) {
			printf("# FAIL: fail-nth %d: job %u does not end\n", nth,
			       stuck);
			return 1;
		}
		na = list_jobs(&s, after, 4096);
		for (i = 0; i < na; i++) {
			int k;
			bool seen = false;

			for (k = 0; k < nb && !seen; k++)
				seen = before[k].id == after[i].id;
			if (seen)
				continue;
			if (!id && (r != -ENOBUFS || sent_fail)) {
				printf("# FAIL: fail-nth %d: the start failed (%s%s%s) but job %u exists, state %u\n",
				       nth, r ? strerror(-r) : strerrorname_np(sr.err),
				       sr.msg[0] ? ": " : "", sr.msg,
				       after[i].id, after[i].state);
				ret = 1;
			} else if (after[i].state != FSLOAD_JOB_DONE) {
				printf("# FAIL: fail-nth %d: job %u ended in state %u\n",
				       nth, after[i].id, after[i].state);
				ret = 1;
			}
		}
		dirs = count_job_dirs();
		if (dirs) {
			printf("# FAIL: fail-nth %d: %d job directories left\n",
			       nth, dirs);
			ret = 1;
			if (system("rm -rf fsload-*"))
				return 1;
		}
		if (count_workers()) {
			sleep_ms(500);
			if (count_workers()) {
				printf("# FAIL: fail-nth %d: worker threads left\n",
				       nth);
				ret = 1;
			}
		}
		if (ret && !opt.verbose)
			break;
	}
	if (nth > opt.max_nth) {
		printf("# FAIL: still injecting after %d allocation sites\n",
		       opt.max_nth);
		ret = 1;
	}
	printf("# fail-nth: %d faults injected in %.1f s: %d ENOMEM, %d in the request skb, %d answers lost (ENOBUFS), %d started anyway\n",
	       injected, (now_ms() - t0) / 1000.0, enomem, sendfail, lost,
	       ok_anyway);
	/* And without injection a start works. */
	{
		struct simple_reply sr;
		uint32_t seq = ++s.seq & 0x7fffffff, stuck;

		m->len = 0;
		put_short_job(m, seq);
		if (simple_xfer(&s, m->b, m->len, seq, &sr, opt.timeout_ms) ||
		    sr.err) {
			printf("# FAIL: a start without injection: %s %s\n",
			       strerrorname_np(sr.err), sr.msg);
			ret = 1;
		}
		free(sr.data);
		if (wait_all_ended(&s, 120000, &stuck)) {
			printf("# FAIL: job %u does not end\n", stuck);
			ret = 1;
		}
		if (count_job_dirs()) {
			printf("# FAIL: a job directory left behind\n");
			ret = 1;
		}
	}
	nsock_close(&s);
	free(m);
	close(fd);
	return ret;
}

/* ------------------------------------------------------------------ */
/* A program from the command line, for the fault tests                */
/* ------------------------------------------------------------------ */

static const char *const op_names[FSLOAD_OP_MAX + 1] = {
	[FSLOAD_OP_NULL] = "null", [FSLOAD_OP_CREATE] = "create",
	[FSLOAD_OP_STAT] = "stat", [FSLOAD_OP_READ] = "read",
	[FSLOAD_OP_UNLINK] = "unlink", [FSLOAD_OP_FSYNC] = "fsync",
	[FSLOAD_OP_MKDIR] = "mkdir", [FSLOAD_OP_RMDIR] = "rmdir",
	[FSLOAD_OP_SYNCFS] = "syncfs",
};

/*
 * fsload_fuzz start --dir DIR [--files N] [--files-per-dir N]
 *	[--threads N] [--keep] PHASE...
 * PHASE is OP or OP@MS: OP over the file set, or OP until MS ms have
 * passed (a pause, with null).  The job is detached; prints its id.
 */
static int run_start(int argc, char **argv)
{
	struct mbuf *m = calloc(1, sizeof(*m));
	struct nsock s = { .fd = -1 };
	struct simple_reply sr;
	uint32_t threads = opt.threads, flags = FSLOAD_JOB_F_DETACH, zero = 0;
	uint32_t fpd = opt.sockets;	/* --files-per-dir, see main() */
	uint64_t files = opt.count;
	uint32_t seq = 1, id;
	size_t off;
	int i, err;

	if (!m || nsock_open(&s))
		return 1;
	if (opt.keep)
		flags |= FSLOAD_JOB_F_KEEP;
	off = msg_begin(m, family, NLM_F_REQUEST | NLM_F_ACK, seq,
			FSLOAD_CMD_JOB_START, FSLOAD_FAMILY_VERSION);
	attr(m, FSLOAD_A_JOB_DIR, opt.dir, strlen(opt.dir) + 1);
	attr(m, FSLOAD_A_JOB_PROFILE, PROFILE, sizeof(PROFILE));
	attr(m, FSLOAD_A_JOB_FLAGS, &flags, 4);
	attr(m, FSLOAD_A_JOB_THREADS, &threads, 4);
	attr(m, FSLOAD_A_JOB_FILES, &files, 8);
	attr(m, FSLOAD_A_JOB_FILES_PER_DIR, &fpd, 4);
	attr(m, FSLOAD_A_JOB_PROGRESS_MS, &zero, 4);
	for (i = 0; i < argc; i++) {
		char name[FSLOAD_NAME_MAX], *at;
		uint8_t type = 0;
		size_t ph, op;
		int t;

		snprintf(name, sizeof(name), "%s", argv[i]);
		at = strchr(name, '@');
		if (at)
			*at = '\0';
		for (t = 1; t <= FSLOAD_OP_MAX; t++)
			if (op_names[t] && !strcmp(op_names[t], name))
				type = t;
		if (!type) {
			fprintf(stderr, "fsload_fuzz start: unknown op '%s'\n", name);
			return 2;
		}
		ph = nest_begin(m, FSLOAD_A_JOB_PHASE | NLA_F_NESTED);
		attr(m, FSLOAD_A_PHASE_NAME, argv[i], strlen(argv[i]) + 1);
		if (at) {
			uint64_t never = 1000000000000ULL;
			uint32_t ms = atoi(at + 1);

			attr(m, FSLOAD_A_PHASE_ITERATIONS, &never, 8);
			attr(m, FSLOAD_A_PHASE_DURATION_MS, &ms, 4);
		}
		op = nest_begin(m, FSLOAD_A_PHASE_OP | NLA_F_NESTED);
		attr(m, FSLOAD_A_OP_TYPE, &type, 1);
		nest_end(m, op);
		nest_end(m, ph);
	}
	msg_end(m, off);
	err = simple_xfer(&s, m->b, m->len, seq, &sr, opt.timeout_ms);
	if (err || sr.err) {
		fprintf(stderr, "fsload_fuzz start: %s: %s\n",
			strerror(err ? -err : sr.err), sr.msg);
		return 3;
	}
	id = reply_job_id(&sr);
	printf("%u\n", id);
	free(sr.data);
	free(m);
	nsock_close(&s);
	return id ? 0 : 1;
}

/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fsload_fuzz [fuzz] [--seed N] [--count N] [--threads N] [--sockets N]\n"
		"                   [--dir DIR] [--timeout-ms N] [--only INDEX] [--verbose]\n"
		"                   [--start-permille N]   (valid programs per 1000 messages, 20)\n"
		"                   [--time-limit SEC]     (no new case after SEC seconds)\n"
		"                   [--only I --dry-run]   (print case I, send nothing)\n"
		"       fsload_fuzz cycles [--dir DIR] [--count N]\n"
		"       fsload_fuzz failnth [--dir DIR] [--max N]\n"
		"       fsload_fuzz start --dir DIR [--files N] [--files-per-dir N] [--threads N]\n"
		"                   [--keep] OP[@MS]...\n"
		"DIR defaults to $FSLOAD_DIR/fuzz (the process chroots into it).\n");
}

int main(int argc, char **argv)
{
	static char dirbuf[PATH_MAX];
	int i, err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (i == 1 && (!strcmp(a, "fuzz") || !strcmp(a, "cycles") ||
			       !strcmp(a, "failnth") || !strcmp(a, "start"))) {
			opt.mode = a;
			if (!strcmp(a, "cycles"))
				opt.count = 1000;
			if (!strcmp(a, "start")) {
				opt.count = 1000;	/* files */
				opt.sockets = 1000;	/* files per dir */
				opt.threads = 1;
			}
			continue;
		}
		if (!strcmp(a, "--dry-run")) {
			opt.dry = true;
			continue;
		}
		if (!strcmp(a, "--keep")) {
			opt.keep = true;
			continue;
		}
		if (a[0] != '-' && !strcmp(opt.mode, "start"))
			break;	/* the phases */
		if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			opt.verbose = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!v) {
			usage(stderr);
			return 2;
		}
		i++;
		if (!strcmp(a, "--seed"))
			opt.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--count") || !strcmp(a, "--files"))
			opt.count = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--files-per-dir"))
			opt.sockets = atoi(v);
		else if (!strcmp(a, "--threads"))
			opt.threads = atoi(v);
		else if (!strcmp(a, "--sockets"))
			opt.sockets = atoi(v);
		else if (!strcmp(a, "--dir"))
			opt.dir = v;
		else if (!strcmp(a, "--timeout-ms"))
			opt.timeout_ms = atoi(v);
		else if (!strcmp(a, "--only"))
			opt.only = strtoll(v, NULL, 0);
		else if (!strcmp(a, "--time-limit"))
			opt.time_limit = atoi(v);
		else if (!strcmp(a, "--start-permille"))
			opt.start_permille = atoi(v);
		else if (!strcmp(a, "--max"))
			opt.max_nth = atoi(v);
		else {
			usage(stderr);
			return 2;
		}
	}
	if (opt.threads < 1 || opt.sockets < 1 || opt.timeout_ms < 1 ||
	    opt.start_permille < 0 || opt.start_permille > 999) {
		usage(stderr);
		return 2;
	}
	if (opt.dry) {
		/* The ids of a typical guest; nothing is sent. */
		family = 32;
		bad_family = 0xffff;
		if (opt.only < 0)
			opt.only = 0;
		opt.threads = 1;
		return run_dry();
	}
	if (!opt.dir) {
		const char *d = getenv("FSLOAD_DIR");

		if (!d || !*d) {
			fprintf(stderr, "fsload_fuzz: no --dir and no FSLOAD_DIR\n");
			return 2;
		}
		snprintf(dirbuf, sizeof(dirbuf), "%s/fuzz", d);
		opt.dir = dirbuf;
	}
	if (access("/sys/module/fsload", F_OK)) {
		printf("# fsload is not loaded\n");
		return 4;
	}
	read_params();
	err = resolve_family();
	if (err) {
		printf("# cannot resolve the fsload family: %s\n", strerror(-err));
		return 1;
	}
	if (!strcmp(opt.mode, "start"))
		return i < argc ? run_start(argc - i, argv + i) : 2;
	if (!strcmp(opt.mode, "failnth")) {
		/* No chroot: /proc is needed; the job directory is ".". */
		if ((mkdir(opt.dir, 0755) && errno != EEXIST) || chdir(opt.dir)) {
			printf("# %s: %s\n", opt.dir, strerror(errno));
			return 1;
		}
		return run_failnth();
	}
	if (enter_dir(opt.dir))
		return 1;
	if (!strcmp(opt.mode, "cycles"))
		return run_cycles();
	return run_fuzz();
}
