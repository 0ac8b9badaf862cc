/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload_fuzz: what its programs (fuzz.c, cycles.c, failnth.c, start.c)
 * share, in lib.c: options, the module's limits, the case's random
 * numbers, raw netlink sockets, messages built byte by byte, attribute
 * walking over replies, synchronous requests, job listing, and the
 * fuzzer's copy of the per-op-type capabilities.  Include it first: it
 * defines _GNU_SOURCE.
 */
#ifndef FSLOAD_FUZZ_H
#define FSLOAD_FUZZ_H

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/fsload.h>

#include "util.h"

#ifndef NLMSGERR_ATTR_MISS_TYPE
#define NLMSGERR_ATTR_MISS_TYPE 5
#endif
#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define BUF_SIZE	(256 * 1024)	/* receive buffer */
#define DG_MAX		(48 * 1024)	/* one datagram we send */
#define PROFILE		"fsload_fuzz"
/* The largest attribute type (NLA_TYPE_MASK is a negative int). */
#define ATTR_TYPE_MAX	0x3fff

/* ------------------------------------------------------------------ */
/* Options, the module's limits, the family                            */
/* ------------------------------------------------------------------ */

struct fuzz_opt {
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
	long uid;		/* --uid: fuzz as this user (user.c), -1 root */
	uint32_t sample_ms;	/* start --sample-ms */
	uint32_t profile_hz;	/* start --cpu-profile */
};
extern struct fuzz_opt opt;

/* The module's limits, read before the chroot (read_params()). */
struct fuzz_limits {
	unsigned long long max_jobs, max_threads, max_finished, max_block;
	unsigned long long max_file;
};
extern struct fuzz_limits prm;

extern int family;		/* fsload's generic netlink id */
extern uint32_t events_grp;	/* its "events" multicast group */
extern uint16_t bad_family;	/* an id no family has */

void read_params(void);
/* Resolve family, events_grp and bad_family: 0 or -errno. */
int resolve_family(void);
/* Enter DIR: everything the kernel resolves for us stays below it. */
int enter_dir(const char *dir);

/* The programs: each returns the process's exit status. */
int run_fuzz(void);
int run_dry(void);
int run_cycles(void);
int run_failnth(void);
int run_start(int argc, char **argv);
/* --uid: become @uid, without any capability: 0 or -1. */
int drop_privileges(uid_t uid);
/* policy.c: the admin commands' policies are ones it models. */
bool policy_init(void);

/* ------------------------------------------------------------------ */
/* Utilities                                                           */
/* ------------------------------------------------------------------ */

void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hexdump(const char *what, const void *p, size_t len);

/*
 * A case's random numbers: case I of seed S is generated from (S, I)
 * alone, whichever thread runs it.
 */
struct rng {
	uint64_t s;
};

static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void rng_init(struct rng *r, uint64_t seed, uint64_t index)
{
	uint64_t x = seed ^ (index * 0xd1342543de82ef95ULL);

	r->s = splitmix64(&x) | 1;
}

static inline uint64_t rnd(struct rng *r)
{
	/* xorshift64* */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static inline uint64_t below(struct rng *r, uint64_t n)
{
	return n ? rnd(r) % n : 0;
}

/* True with probability @p percent. */
static inline bool pct(struct rng *r, unsigned int p)
{
	return below(r, 100) < p;
}

static inline uint64_t range(struct rng *r, uint64_t lo, uint64_t hi)
{
	return lo + below(r, hi - lo + 1);
}

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define PICK(r, arr)	((arr)[below((r), ARRAY_SIZE(arr))])

/* ------------------------------------------------------------------ */
/* Sockets and messages                                                */
/* ------------------------------------------------------------------ */

struct nsock {
	int fd;
	uint32_t port;
	uint32_t seq;
	int gen;		/* bumped each time it is reopened */
};

int nsock_open(struct nsock *s);
void nsock_close(struct nsock *s);
/* Receive one datagram; 0 on timeout, -errno, or its length. */
ssize_t nsock_recv(struct nsock *s, void *buf, size_t size, int timeout_ms,
		   bool *trunc);

/* A datagram or message under construction. */
struct mbuf {
	unsigned char b[DG_MAX];
	size_t len;
	bool overflow;
};

void *mb_room(struct mbuf *m, size_t n);
/* An attribute with @len bytes of @data (@len may be anything). */
size_t attr_raw(struct mbuf *m, uint16_t type, const void *data, size_t len,
		uint16_t nla_len);
size_t attr(struct mbuf *m, uint16_t type, const void *data, size_t len);
size_t nest_begin(struct mbuf *m, uint16_t type);
void nest_end(struct mbuf *m, size_t off);
size_t msg_begin(struct mbuf *m, uint16_t type, uint16_t flags, uint32_t seq,
		 uint8_t cmd, uint8_t version);
struct nlmsghdr *msg_hdr(struct mbuf *m, size_t off);
void msg_end(struct mbuf *m, size_t off);

/* Attribute walking over received data. */
const struct nlattr *attr_find(const unsigned char *p, size_t len, int type);
size_t alen(const struct nlattr *a);
const void *adata(const struct nlattr *a);
bool get_u32(const struct nlattr *a, uint32_t *v);
bool get_u8(const struct nlattr *a, uint8_t *v);
bool get_u16(const struct nlattr *a, uint16_t *v);
bool attrs_ok(const unsigned char *p, size_t len, int depth);
/* Payload of a genl message after the genl header. */
const unsigned char *gpayload(const struct nlmsghdr *h, size_t *len);
/*
 * An NLMSG_ERROR or NLMSG_DONE: its errno (positive) into @err, @done set
 * for NLMSG_DONE, the extack message into @msg.  True when it has one.
 */
bool parse_end(const struct nlmsghdr *h, int *err, bool *done, char *msg,
	       size_t msgsize);

/* ------------------------------------------------------------------ */
/* Synchronous requests and the module's job list                      */
/* ------------------------------------------------------------------ */

/* The answer to one request: its verdict and data messages. */
struct simple_reply {
	int err;
	char msg[160];
	int ndata;
	unsigned char *data;	/* the data messages, concatenated */
	size_t data_len;
};

/* Collect the answer to @seq: 0 (sr->err the verdict) or -errno. */
int simple_recv(struct nsock *s, uint32_t seq, struct simple_reply *sr,
		int timeout_ms);
int simple_xfer(struct nsock *s, const void *req, size_t len, uint32_t seq,
		struct simple_reply *sr, int timeout_ms);
/* The job id in the first data message of @sr, or 0. */
uint32_t reply_job_id(const struct simple_reply *sr);
/* GET dump, STOP, GET of @id (cmd) on @s. */
int id_request(struct nsock *s, uint8_t cmd, uint16_t flags, uint32_t id,
	       struct simple_reply *sr);

struct jobstate {
	uint32_t id, flags;
	uint8_t state;
	char profile[40];
};

/* All jobs the module lists (at most @max): how many, or -errno. */
int list_jobs(struct nsock *s, struct jobstate *out, int max);
bool state_running(uint8_t s);
/* Wait for every listed job to end: 0, or -ETIMEDOUT (@stuck: which). */
int wait_all_ended(struct nsock *s, int timeout_ms, uint32_t *stuck);

/* ------------------------------------------------------------------ */
/* Programs of a few fixed phases (cycles, failnth, start)             */
/* ------------------------------------------------------------------ */

/* A phase of one op type; ITERATIONS and DURATION_MS where not 0. */
struct fixed_phase {
	const char *name;
	uint8_t op;
	uint64_t iterations;
	uint32_t duration_ms;
};

struct fixed_job {
	const char *dir;
	uint32_t flags, threads, fpd;
	uint32_t sample_ms, profile_hz;	/* 0: none */
	uint64_t files;
	const struct fixed_phase *phases;
	int nphases;
};

/* Append a JOB_START of @j (progress notifications off) to @m. */
size_t put_fixed_job(struct mbuf *m, uint32_t seq, const struct fixed_job *j);
/* Start @j on @s: its id, or -errno (EBUSY ...); the extack in @msg. */
int start_fixed_job(struct nsock *s, const struct fixed_job *j, char *msg,
		    size_t msgsize);

/* ------------------------------------------------------------------ */
/* Op types                                                            */
/* ------------------------------------------------------------------ */

/* Op type @t in the engine's op table (include/fsload/engine.h). */
bool op_sized(uint8_t t);
bool op_is_bio(uint8_t t);
uint32_t op_allowed_flags(uint8_t t);

#endif /* FSLOAD_FUZZ_H */
