// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: what the userspace engine measures of the machine, as the
 * kernel's module/measure.c: each CPU's busy time over a phase and its
 * tail, and the threads other than the engine's that used most CPU.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "engine/uengine-int.h"
#include "engine/fsutil.h"

#define PF_KTHREAD_FLAG		0x00200000	/* include/linux/sched.h */
/*
 * The /proc/schedstat versions read: their "cpuN" lines hold the run time
 * of the CPU's tasks in ns as the seventh number (6.1: 15, 6.12: 16,
 * 6.15 on: 17; Documentation/scheduler/sched-stats.rst).
 */
#define USCHEDSTAT_FIRST	15
#define USCHEDSTAT_LAST		17

/* Count @ns as the next online CPU's busy time in @s. */
static void usys_add(struct fsload_sys *s, u64 ns)
{
	if (s->cpus < USYS_CPUS_MAX)
		s->busy_ns[s->cpus] = ns;
	else
		s->busy_ns[USYS_CPUS_MAX - 1] += ns;
	s->cpus++;
}

/* Each CPU's run time from /proc/schedstat into @s; false without. */
bool usys_read_schedstat(struct fsload_sys *s)
{
	unsigned long long run;
	char *line = NULL;
	size_t cap = 0;
	int version = 0;
	bool ok = true;
	FILE *f;

	s->cpus = 0;
	f = fopen("/proc/schedstat", "re");
	if (!f)
		return false;
	while (ok && getline(&line, &cap, f) > 0) {
		if (sscanf(line, "version %d", &version) == 1) {
			ok = version >= USCHEDSTAT_FIRST &&
			     version <= USCHEDSTAT_LAST;
			continue;
		}
		if (strncmp(line, "cpu", 3) || !isdigit((unsigned char)line[3]))
			continue;
		/* cpuN yld_count 0 sched_count sched_goidle ttwu_count ttwu_local rq_cpu_time ... */
		ok = version && sscanf(line + 3, "%*u %*u %*u %*u %*u %*u %*u %llu",
				       &run) == 1;
		if (ok)
			usys_add(s, run);
	}
	free(line);
	fclose(f);
	return ok && s->cpus;
}

/* Each CPU's busy ticks from /proc/stat into @s, in ns. */
static bool usys_read_stat(struct fsload_sys *s)
{
	unsigned long long v[8];
	long hz = sysconf(_SC_CLK_TCK);
	char line[512];
	FILE *f;

	s->cpus = 0;
	if (hz <= 0)
		return false;
	f = fopen("/proc/stat", "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3))
			break;
		if (!isdigit((unsigned char)line[3]))
			continue;
		/* cpuN user nice system idle iowait irq softirq steal */
		memset(v, 0, sizeof(v));
		if (sscanf(line + 3, "%*u %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) < 4)
			break;
		usys_add(s, (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) *
			    (1000000000ULL / (u64)hz));
	}
	fclose(f);
	return s->cpus;
}

/*
 * Leave the CPU for a moment.  The scheduler books a task's run time in
 * /proc/schedstat when the task leaves its CPU: a short sleep books the
 * caller's own, so that what it ran before the snapshot is not counted
 * after it (the kernel's fsload_self_runtime() passes through the
 * scheduler for the same reason).  A sleep whose timer fired before the
 * thread reached the scheduler did not switch: sleep again.
 */
static void usys_leave_cpu(void)
{
	const struct timespec ts = { .tv_nsec = 1000 };
	struct rusage ru;
	long switches;
	int i;

	/* No timer slack: the sleep is idle time inside a measurement. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	if (getrusage(RUSAGE_THREAD, &ru))
		return;
	switches = ru.ru_nvcsw;
	for (i = 0; i < 3; i++) {
		nanosleep(&ts, NULL);
		if (getrusage(RUSAGE_THREAD, &ru) || ru.ru_nvcsw != switches)
			return;
	}
}

/* The machine's busy time now; s->cpus 0 when it cannot be read. */
void usys_snap(const struct ujob *job, struct fsload_sys *s)
{
	if (!job->busy_ticks)
		usys_leave_cpu();
	s->wall_ns = mono_ns();
	if (!(job->busy_ticks ? usys_read_stat(s) : usys_read_schedstat(s)))
		s->cpus = 0;
}

/*
 * Busy time of all CPUs from @a to @b, ns, each CPU's at most @span_ns
 * (the time measured: never more than 100% of a CPU, whatever a tick or
 * a task that ran across the snapshot added); 0 when CPUs came or went.
 */
u64 fsload_sys_busy(const struct fsload_sys *a, const struct fsload_sys *b, u64 span_ns)
{
	unsigned int i, n = min(a->cpus, (unsigned int)USYS_CPUS_MAX);
	u64 sum = 0, d, cpus;

	if (!a->cpus || a->cpus != b->cpus)
		return 0;
	for (i = 0; i < n; i++) {
		if (b->busy_ns[i] < a->busy_ns[i])
			return 0;
		d = b->busy_ns[i] - a->busy_ns[i];
		/* the last slot holds every CPU beyond it */
		cpus = i < USYS_CPUS_MAX - 1 ? 1 : a->cpus - i;
		sum += min(d, span_ns * cpus);
	}
	return sum;
}

static int utsnap_cmp(const void *a, const void *b)
{
	const struct utsnap *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Every thread's CPU time now, sorted by thread id; NULL on failure. */
struct utsnap *utsnap_take(unsigned int *count)
{
	struct utsnap *v = NULL, *tmp;
	unsigned int n = 0, cap = 0;
	struct dirent *pd, *td;
	DIR *proc, *tasks;
	char path[64], buf[128];
	pid_t pid, tid;
	int tfd;

	proc = opendir("/proc");
	if (!proc)
		return NULL;
	while ((pd = readdir(proc))) {
		if (!isdigit((unsigned char)pd->d_name[0]))
			continue;
		pid = atoi(pd->d_name);
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		tasks = opendir(path);
		if (!tasks)
			continue;	/* gone meanwhile */
		tfd = dirfd(tasks);
		while ((td = readdir(tasks))) {
			if (!isdigit((unsigned char)td->d_name[0]))
				continue;
			tid = atoi(td->d_name);
			snprintf(path, sizeof(path), "%d/schedstat", tid);
			if (!read_small(tfd, path, buf, sizeof(buf)))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 512;
				tmp = realloc(v, cap * sizeof(*v));
				if (!tmp) {
					closedir(tasks);
					goto out;
				}
				v = tmp;
			}
			v[n].tid = tid;
			v[n].pid = pid;
			v[n].runtime_ns = strtoull(buf, NULL, 10);
			n++;
		}
		closedir(tasks);
	}
	qsort(v, n, sizeof(*v), utsnap_cmp);
out:
	closedir(proc);
	*count = n;
	return v;
}

/*
 * Thread @t is the engine's: a worker, or a kernel helper of a worker's
 * ring (its CPU is the worker's: fsload_run_phase()).
 */
static bool ujob_is_engine(const struct ujob *job, const struct utsnap *t)
{
	char path[64], comm[32];
	unsigned int i;

	for (i = 0; i < job->setup.threads; i++) {
		if (job->workers[i].tid == t->tid)
			return true;
	}
	if (!job->uring || t->pid != getpid())
		return false;
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t->tid);
	return read_small(AT_FDCWD, path, comm, sizeof(comm)) &&
	       uring_is_helper(comm);
}

/*
 * Name and kind of thread @top->pid, for the list of top threads: false
 * when /proc no longer has it (it ended since the snapshot).
 */
static bool utop_describe(struct fsload_top *top)
{
	char path[64], buf[512], *p;
	unsigned long flags;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/comm", top->pid);
	if (!read_small(AT_FDCWD, path, buf, sizeof(buf)))
		return false;
	len = strcspn(buf, "\n");
	len = min(len, sizeof(top->comm) - 1);
	memcpy(top->comm, buf, len);
	top->comm[len] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/stat", top->pid);
	if (!read_small(AT_FDCWD, path, buf, sizeof(buf)))
		return false;
	/* After "pid (comm)": state ppid pgrp session tty tpgid flags */
	p = strrchr(buf, ')');
	if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) == 1)
		top->kthread = flags & PF_KTHREAD_FLAG;
	return true;
}

/*
 * The threads other than the engine's that used most CPU since
 * job->threads0 and still there, as the kernel's fsload_threads_top()
 * sees them.
 */
unsigned int utop_threads(struct ujob *job, struct fsload_top *top)
{
	struct utsnap *now, *old;
	struct fsload_top *slot;
	unsigned int n = 0, nnow = 0, i, k;
	u64 d;

	now = utsnap_take(&nnow);
	if (!now)
		return 0;
	for (i = 0; i < nnow; i++) {
		old = bsearch(&now[i], job->threads0, job->nthreads0,
			      sizeof(*old), utsnap_cmp);
		d = fsload_top_delta(now[i].runtime_ns,
				     old ? &old->runtime_ns : NULL);
		if (!d || ujob_is_engine(job, &now[i]))
			continue;
		slot = fsload_top_add(top, &n, d);
		if (slot)
			slot->pid = now[i].tid;
	}
	free(now);
	/* A thread that ended meanwhile is left out: the kernel's are. */
	for (i = 0, k = 0; i < n; i++) {
		if (utop_describe(&top[i]))
			top[k++] = top[i];
	}
	return k;
}
