// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz cycles: COUNT start/stop cycles in DIR, alternately a start
 * followed by a stop and a start whose socket is then closed; every job
 * must end STOPPED (or DONE), announced once by JOB_DONE_NTF, with
 * nothing left in DIR.
 */
#include "fuzz.h"

#include <dirent.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>

/* A job that runs until stopped: a few files, then null ops forever. */
static const struct fixed_phase long_phases[] = {
	{ .name = "create", .op = FSLOAD_OP_CREATE },
	{ .name = "spin", .op = FSLOAD_OP_NULL, .iterations = 1000000000000ULL },
};

/* Start a long job of @files files on @s: its id, or -errno (EBUSY ...). */
static int start_long(struct nsock *s, uint32_t flags, uint64_t files,
		      char *msg, size_t msgsize)
{
	struct fixed_job j = {
		.dir = ".", .flags = flags, .threads = 1, .fpd = 10,
		.files = files, .phases = long_phases,
		.nphases = ARRAY_SIZE(long_phases),
	};

	return start_fixed_job(s, &j, msg, msgsize);
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

int run_cycles(void)
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

