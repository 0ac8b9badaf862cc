// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz failnth: fault injection into JOB_START (kernels with
 * CONFIG_FAULT_INJECTION).  For N = 1, 2, ... the Nth allocation site of
 * the sending task fails (/proc/self/task/TID/fail-nth), until a start
 * runs without reaching a fault.  Every failed start must leave no job,
 * no directory and no thread behind; a start that succeeds despite the
 * fault must run to DONE.
 */
#include "fuzz.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* A short job that completes: create, stat, unlink of 20 files. */
static const struct fixed_phase short_phases[] = {
	{ .name = "create", .op = FSLOAD_OP_CREATE },
	{ .name = "stat", .op = FSLOAD_OP_STAT },
	{ .name = "unlink", .op = FSLOAD_OP_UNLINK },
};

static const struct fixed_job short_job = {
	.dir = ".", .threads = 2, .fpd = 10, .files = 20,
	.phases = short_phases, .nphases = ARRAY_SIZE(short_phases),
};

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

int run_failnth(void)
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
		put_fixed_job(m, seq, &short_job);
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
		put_fixed_job(m, seq, &short_job);
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

