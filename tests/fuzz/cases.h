/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload_fuzz's fuzz program: what its exchange (fuzz.c) and its case
 * generators (cases.c) share: a message's expectation, a fuzzing
 * thread's state and statistics.
 */
#ifndef FSLOAD_FUZZ_CASES_H
#define FSLOAD_FUZZ_CASES_H

#include "fuzz.h"

#define MAX_MSGS	8		/* messages per datagram */
#define MAX_EXPECT	(MAX_MSGS + 24)	/* plus headers found in junk */
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

enum want {
	W_SOME,		/* anything, but an ACK request gets its answer */
	W_ERROR,	/* invalid by construction: an error */
	W_START,	/* a valid program: started, or EBUSY */
	W_QUERY,	/* a valid query: success (or ENOENT/EALREADY, see ok_err) */
	W_ADMIN,	/* --uid: an admin command, refused (policy.c) */
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
	const char *want_text;	/* W_ADMIN: the extack message, NULL none */
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
	int parked[4];		/* --uid: sockets of dumps never read */
	int nparked;
	uint64_t cur_case;
	const char *cur_what;
	bool failed;		/* this thread found a failure */
};

void fuzz_fail(struct tctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Append an expectation for the message at @off to @ex (@n of them). */
void add_expect(struct expect *ex, int *n, size_t off, uint32_t seq,
		uint16_t type, int want, const char *what);
/* A job id for queries: one of ours, mostly recent; 0 when none. */
uint32_t job_pick(struct rng *r);

/* Weigh the case generators (after the options are read). */
void cases_init(void);
/* One message of a case: appended to t->dg; its expectation to @ex. */
void gen_message(struct tctx *t, struct rng *r, struct nsock *s,
		 struct expect *ex, int *nex);

/* --uid (user.c, policy.c) */
uint32_t user_job_pick(struct rng *r);
void user_walkaway(struct tctx *t, struct rng *r);
void user_unpark(struct tctx *t);
const char *hidden_leak(const struct nlmsghdr *h);
void hidden_report(void);
int user_discover(void);
int user_final_check(void);
bool cmd_is_admin(uint8_t cmd);
int admin_verdict(const struct nlmsghdr *h, const char **msg);

#endif /* FSLOAD_FUZZ_CASES_H */
