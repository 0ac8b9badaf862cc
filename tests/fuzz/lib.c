// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz: the helpers its programs share (fuzz.h): options and the
 * module's limits, raw generic netlink sockets, messages built byte by
 * byte, attribute walking, synchronous requests, the job list, and the
 * per-op-type capabilities the generators respect.
 */
#include "fuzz.h"

#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/kshim.h"
#include <fsload/engine.h>

/* ------------------------------------------------------------------ */
/* Options and shared state                                            */
/* ------------------------------------------------------------------ */

struct fuzz_opt opt = {
	.start_permille = 20,
	.mode = "fuzz",
	.count = 100000,
	.threads = 4,
	.sockets = 8,
	.timeout_ms = 30000,
	.only = -1,
	.max_nth = 2000,
	.uid = -1,
};

/* The module's limits, read before the chroot. */
struct fuzz_limits prm = { 8, 64, 32, 4U << 20, 1ULL << 40 };

int family;		/* fsload's generic netlink id */
uint32_t events_grp;	/* its "events" multicast group */
uint16_t bad_family;	/* an id no family has */

/* ------------------------------------------------------------------ */
/* Utilities                                                           */
/* ------------------------------------------------------------------ */

static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;

void logf_(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_mu);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
	pthread_mutex_unlock(&out_mu);
}

void hexdump(const char *what, const void *p, size_t len)
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

/* ------------------------------------------------------------------ */
/* Sockets                                                             */
/* ------------------------------------------------------------------ */

int nsock_open(struct nsock *s)
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

void nsock_close(struct nsock *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

void *mb_room(struct mbuf *m, size_t n)
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
size_t attr_raw(struct mbuf *m, uint16_t type, const void *data,
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

size_t attr(struct mbuf *m, uint16_t type, const void *data, size_t len)
{
	return attr_raw(m, type, data, len, NLA_HDRLEN + len);
}

size_t nest_begin(struct mbuf *m, uint16_t type)
{
	return attr(m, type, NULL, 0);
}

void nest_end(struct mbuf *m, size_t off)
{
	struct nlattr *a = (struct nlattr *)(m->b + off);

	if (!m->overflow)
		a->nla_len = m->len - off;
}

size_t msg_begin(struct mbuf *m, uint16_t type, uint16_t flags,
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

struct nlmsghdr *msg_hdr(struct mbuf *m, size_t off)
{
	return (struct nlmsghdr *)(m->b + off);
}

void msg_end(struct mbuf *m, size_t off)
{
	if (!m->overflow)
		msg_hdr(m, off)->nlmsg_len = m->len - off;
}

/* Receive one datagram; 0 on timeout, -errno, or its length. */
ssize_t nsock_recv(struct nsock *s, void *buf, size_t size,
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

const struct nlattr *attr_find(const unsigned char *p, size_t len,
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

size_t alen(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

const void *adata(const struct nlattr *a)
{
	return (const unsigned char *)a + NLA_HDRLEN;
}

bool get_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || alen(a) != 4)
		return false;
	memcpy(v, adata(a), 4);
	return true;
}

bool get_u8(const struct nlattr *a, uint8_t *v)
{
	if (!a || alen(a) != 1)
		return false;
	*v = *(const uint8_t *)adata(a);
	return true;
}

bool get_u16(const struct nlattr *a, uint16_t *v)
{
	if (!a || alen(a) != 2)
		return false;
	memcpy(v, adata(a), 2);
	return true;
}

/* Every attribute of the kernel's replies is well formed (no nesting check
 * beyond FSLOAD_A_JOB_RESULT and its OPSTAT nests). */
bool attrs_ok(const unsigned char *p, size_t len, int depth)
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
const unsigned char *gpayload(const struct nlmsghdr *h, size_t *len)
{
	*len = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	return (const unsigned char *)h + NLMSG_HDRLEN + GENL_HDRLEN;
}

bool parse_end(const struct nlmsghdr *h, int *err, bool *done, char *msg,
	       size_t msgsize)
{
	const unsigned char *p = NLMSG_DATA(h);
	size_t len = h->nlmsg_len - NLMSG_HDRLEN, off;
	int32_t e = 0;

	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *me = (const void *)p;

		if (len < sizeof(*me)) {
			*err = EBADMSG;
			return false;
		}
		e = me->error;
		off = NLMSG_ALIGN(sizeof(*me));
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			off += NLMSG_ALIGN(me->msg.nlmsg_len - NLMSG_HDRLEN);
	} else {
		*done = true;
		if (len >= sizeof(e))
			memcpy(&e, p, sizeof(e));
		off = NLMSG_ALIGN(sizeof(e));
	}
	*err = -e;
	if ((h->nlmsg_flags & NLM_F_ACK_TLVS) && off < len) {
		const struct nlattr *a = attr_find(p + off, len - off,
						   NLMSGERR_ATTR_MSG);

		if (a && alen(a)) {
			snprintf(msg, msgsize, "%.*s", (int)alen(a),
				 (const char *)adata(a));
			return true;
		}
	}
	return false;
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

int resolve_family(void)
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
/* Synchronous requests and the job list                               */
/* ------------------------------------------------------------------ */

/* Collect the answer to @seq: 0 (sr->err the verdict) or -errno. */
int simple_recv(struct nsock *s, uint32_t seq, struct simple_reply *sr,
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
				bool done = false;

				sr->msg[0] = '\0';
				parse_end(h, &sr->err, &done, sr->msg,
					  sizeof(sr->msg));
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

int simple_xfer(struct nsock *s, const void *req, size_t len,
		uint32_t seq, struct simple_reply *sr, int timeout_ms)
{
	memset(sr, 0, sizeof(*sr));
	if (send(s->fd, req, len, 0) < 0)
		return -errno;
	return simple_recv(s, seq, sr, timeout_ms);
}

/* The job id in the first data message of @sr, or 0. */
uint32_t reply_job_id(const struct simple_reply *sr)
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
int id_request(struct nsock *s, uint8_t cmd, uint16_t flags,
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

/* All jobs the module lists. */
int list_jobs(struct nsock *s, struct jobstate *out, int max)
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

bool state_running(uint8_t s)
{
	return s == FSLOAD_JOB_RUNNING || s == FSLOAD_JOB_STOPPING;
}

/* Wait for every listed job to end: 0, or -ETIMEDOUT. */
int wait_all_ended(struct nsock *s, int timeout_ms, uint32_t *stuck)
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


/* Enter DIR: everything the kernel resolves for us stays below it. */
int enter_dir(const char *dir)
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

void read_params(void)
{
	param_read("max_jobs", &prm.max_jobs);
	param_read("max_threads", &prm.max_threads);
	param_read("max_finished", &prm.max_finished);
	param_read("max_block_bytes", &prm.max_block);
	param_read("max_file_bytes", &prm.max_file);
}

/* ------------------------------------------------------------------ */
/* Programs of a few fixed phases                                      */
/* ------------------------------------------------------------------ */

size_t put_fixed_job(struct mbuf *m, uint32_t seq, const struct fixed_job *j)
{
	size_t off = msg_begin(m, family, NLM_F_REQUEST | NLM_F_ACK, seq,
			       FSLOAD_CMD_JOB_START, FSLOAD_FAMILY_VERSION);
	uint32_t zero = 0;
	int p;

	attr(m, FSLOAD_A_JOB_DIR, j->dir, strlen(j->dir) + 1);
	attr(m, FSLOAD_A_JOB_PROFILE, PROFILE, sizeof(PROFILE));
	attr(m, FSLOAD_A_JOB_FLAGS, &j->flags, 4);
	attr(m, FSLOAD_A_JOB_THREADS, &j->threads, 4);
	attr(m, FSLOAD_A_JOB_FILES, &j->files, 8);
	attr(m, FSLOAD_A_JOB_FILES_PER_DIR, &j->fpd, 4);
	attr(m, FSLOAD_A_JOB_PROGRESS_MS, &zero, 4);
	if (j->sample_ms)
		attr(m, FSLOAD_A_JOB_SAMPLE_MS, &j->sample_ms, 4);
	if (j->profile_hz)
		attr(m, FSLOAD_A_JOB_CPU_PROFILE_HZ, &j->profile_hz, 4);
	for (p = 0; p < j->nphases; p++) {
		const struct fixed_phase *fp = &j->phases[p];
		size_t ph = nest_begin(m, FSLOAD_A_JOB_PHASE | NLA_F_NESTED);
		size_t op;

		attr(m, FSLOAD_A_PHASE_NAME, fp->name, strlen(fp->name) + 1);
		if (fp->iterations)
			attr(m, FSLOAD_A_PHASE_ITERATIONS, &fp->iterations, 8);
		if (fp->duration_ms)
			attr(m, FSLOAD_A_PHASE_DURATION_MS, &fp->duration_ms, 4);
		op = nest_begin(m, FSLOAD_A_PHASE_OP | NLA_F_NESTED);
		attr(m, FSLOAD_A_OP_TYPE, &fp->op, 1);
		nest_end(m, op);
		nest_end(m, ph);
	}
	msg_end(m, off);
	return off;
}

int start_fixed_job(struct nsock *s, const struct fixed_job *j, char *msg,
		    size_t msgsize)
{
	struct mbuf *m = malloc(sizeof(*m));
	struct simple_reply sr;
	uint32_t seq = ++s->seq & 0x7fffffff, id;
	int ret;

	if (!m)
		return -ENOMEM;
	m->len = 0;
	m->overflow = false;
	put_fixed_job(m, seq, j);
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

/* ------------------------------------------------------------------ */
/* Op types                                                            */
/* ------------------------------------------------------------------ */

/* What each op type takes: the engine's op table (include/fsload/engine.h). */

/* A file size, or the bytes of a write or read (not a bio op's region). */
bool op_sized(uint8_t t)
{
	unsigned int p = fsload_op_type(t)->params;

	return (p & FSLOAD_OPP_SIZE) && !(p & FSLOAD_OPP_BIO);
}

bool op_is_bio(uint8_t t)
{
	return fsload_op_type(t)->params & FSLOAD_OPP_BIO;
}

uint32_t op_allowed_flags(uint8_t t)
{
	return fsload_op_type(t)->flags;
}
