// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the userspace engine (start --engine user).
 *
 * The kernel's workers and these threads share the workload's definition:
 * include/fsload/engine.h (names, file order, the choice of an operation by
 * weight, random offsets, statistics, histograms, the op table), the phase
 * loop of include/fsload/engine-loop.h and the job's choreography of
 * include/fsload/engine-job.h are compiled here unchanged, over
 * ctl/lib/kshim.h.
 * What differs is only how an operation is done: here through the system
 * call that the kernel's operation stands for, on the same path relative
 * to the job directory (an O_PATH descriptor, as the kernel's pinned
 * path), so the filesystem does the same work and the difference is the
 * system-call boundary.
 *
 * The job runs as a kernel job does (module/worker.c): the same job layout,
 * the same phase barriers (engine-job.h: the last thread to arrive opens
 * or closes a phase), the idle baseline and the loop's own cost measured
 * before the first phase, a timed syncfs tail after a phase, each
 * thread's CPU time, the machine's busy time and the threads that used
 * most CPU meanwhile.  All of them in the scheduler's ns, as the kernel's
 * (module/measure.c): a worker's CPU time from its thread CPU clock, the
 * machine's busy time from /proc/schedstat; only a kernel without that
 * file (no CONFIG_SCHEDSTATS) leaves /proc/stat's ticks, and the report
 * says so.
 * The results fill the structures that the kernel's status and results
 * are parsed into, so they print the same way.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "lib/kshim.h"
/*
 * fsload_engine_run() initialises its permutation only for random order
 * and uses it only then; GCC's -O2 cannot see that once the loop is
 * inlined (the kernel builds with -Wno-maybe-uninitialized).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <fsload/engine.h>
#include <fsload/program.h>

#include "lib/fsloadctl.h"
#include "lib/cpulist.h"
#include "engine/fsutil.h"
#include "lib/print.h"
#include "workload/profile.h"
#include "nl/hist.h"
#include "nl/results.h"
#include "engine/job.h"
#include "engine/ranks.h"
#include "engine/wait.h"
#include "nl/job.h"
#include "engine/uengine.h"
#include "engine/uring.h"
#include "lib/msg.h"
#include "nl/names.h"

/* As the kernel's FSLOAD_TOP_THREADS (module/fsload.h). */
#define UENGINE_TOP_THREADS	8
/*
 * The main thread's longest sleep while the job runs: how long a SIGINT
 * may wait.  It wakes more often only for a tick or the progress line.
 */
#define UENGINE_POLL_MS		200
#define PF_KTHREAD_FLAG		0x00200000	/* include/linux/sched.h */
/* CPUs counted one by one; the busy time of any more is summed in the last. */
#define USYS_CPUS_MAX		CPU_SETSIZE
/*
 * The /proc/schedstat versions read: their "cpuN" lines hold the run time
 * of the CPU's tasks in ns as the seventh number (6.1: 15, 6.12: 16,
 * 6.15 on: 17; Documentation/scheduler/sched-stats.rst).
 */
#define USCHEDSTAT_FIRST	15
#define USCHEDSTAT_LAST		17

/*
 * The busy time of each CPU since boot, at one moment: from
 * /proc/schedstat, the time its tasks ran (ns; the idle task's is not
 * counted, as the kernel's idle time is not), or without it, /proc/stat's
 * ticks of neither idle nor iowait (USER_HZ: 10 ms).
 */
struct usys {
	u64 wall_ns;
	unsigned int cpus;		/* online CPUs; 0: not read */
	u64 busy_ns[USYS_CPUS_MAX];
};

/* A thread's CPU time (/proc/PID/task/TID/schedstat). */
struct utsnap {
	pid_t tid;
	pid_t pid;
	u64 runtime_ns;
};

/* What a phase's result collects; as the kernel's struct fsload_result. */
struct ures {
	bool started;
	u64 start_ns;
	struct fsload_phase_sum sum;
	u64 *hist;
	u64 worker_cpu_ns;
	bool measured;
	bool tail;
	u64 sys_busy_ns;
	u64 tail_ns;
	u64 tail_busy_ns;
	unsigned int ntop;
	struct thread_cpu top[UENGINE_TOP_THREADS];
};

struct ujob;

/* One engine thread; the phase loop's struct fsload_worker. */
struct fsload_worker {
	struct ujob *job;
	pthread_t thread;
	bool created;
	pid_t tid;
	unsigned int index;
	void *buf;		/* I/O buffer, page-aligned, random bytes */
	struct uring *ring;	/* --engine uring: its ops go there */
	struct fsload_engine e;
};

struct ujob {
	/* The program. */
	const struct program *prog;	/* as given (its phases' own flags) */
	struct fsload_phase *phases;
	unsigned int nphases;
	struct fsload_slots slots;
	u32 threads;
	u32 rank;		/* of a multi-client run */
	u32 ranks;		/* > 1: its ranks in one directory */
	u64 files;
	u32 files_per_dir;
	u32 branch;		/* directory tree; 0 flat */
	u32 first_dir;		/* the first directory holding files */
	u32 lat_sample;		/* time 1 op in lat_sample */
	struct fsload_naming naming;
	u64 seed;
	u32 flags;
	u32 idle_ms;
	u32 max_block;
	/* thread groups (at least one): each one's workers */
	unsigned int ngroups;
	u32 group_threads[FSLOAD_GROUPS_MAX];

	bool busy_ticks;	/* the machine's busy time from /proc/stat */
	bool uring;		/* --engine uring, with these options */
	struct uring_opts uring_opts;
	int dir_fd;		/* the job directory, O_PATH */
	int sync_fd;		/* the same, opened for syncfs() */
	struct fsload_worker *workers;

	bool stop;		/* READ_ONCE/WRITE_ONCE; workers poll it */
	struct rank_sync *sync;	/* a multi-client run's barriers, or NULL */
	bool stopped_by_ranks;	/* at a barrier, the ranks stopped */
	/* Protects everything below, the barrier and merging results. */
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* barrier, stop, workers' end */
	unsigned int arrived;
	unsigned int barrier_gen;
	unsigned int running;
	int cur_phase;
	int err;
	char errmsg[FSLOAD_ERRMSG_MAX];
	unsigned int holds;	/* caches dropped before a phase */
	u64 hold_ns;
	struct ures *res;

	/* The phase's opener and closer only. */
	struct usys sys0;
	struct utsnap *threads0;
	unsigned int nthreads0;

	u64 idle_ns;
	u64 idle_busy_ns;
	u64 overhead_ops;
	u64 overhead_ns;
	u8 op_clock;		/* enum fsload_op_clock of overhead_ns */
};

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static u64 thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* The operations, through the system calls they stand for */

static int uop_open_flags(const struct fsload_opdesc *op, int flags)
{
	if (op->flags & FSLOAD_OP_F_DIRECT)
		flags |= O_DIRECT;
	return flags | O_LARGEFILE;
}

static s64 neg_errno(void)
{
	return errno ? -errno : -EIO;
}

/* Close, keeping a failure of the operation before it. */
static s64 uop_close(int fd, s64 ret)
{
	if (close(fd) && ret >= 0)
		return neg_errno();
	return ret;
}

/*
 * Write @bytes from @pos in blocks, or with @at_pos at the file position
 * (write(), append and fs_mark's create); fsync if asked.
 */
static s64 uop_write_all(struct fsload_worker *w, int fd,
			 const struct fsload_opdesc *op, u64 bytes, u64 pos,
			 bool at_pos)
{
	ssize_t n;
	size_t len;

	while (bytes) {
		len = min(bytes, (u64)op->block);
		n = at_pos ? write(fd, w->buf, len) :
			     pwrite(fd, w->buf, len, (off_t)pos);
		if (n <= 0)
			return n ? neg_errno() : -EIO;
		bytes -= n;
		pos += n;
	}
	if ((op->flags & FSLOAD_OP_F_FSYNC) && fsync(fd))
		return neg_errno();
	return 0;
}

/*
 * Before a system call that io_uring has no request for (syncfs, mknod),
 * which either engine makes: the ring's ops queued before it end first,
 * as the system calls before it would have.  0 or their failure.
 */
static s64 uop_ring_settle(struct fsload_worker *w)
{
	u64 last;

	return w->ring ? uring_drain(w->ring, &w->e, &last) : 0;
}

/* mknodat(2) of a regular file (the mknod flag, mdtest -k). */
static s64 uop_mknod(struct fsload_worker *w, unsigned int mode)
{
	s64 err = uop_ring_settle(w);

	if (err)
		return err;
	return mknodat(w->job->dir_fd, w->e.name, S_IFREG | mode, 0) ?
	       neg_errno() : 0;
}

static s64 fsload_op_create(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	bool trunc = op->flags & FSLOAD_OP_F_TRUNC;
	unsigned int mode;
	s64 err = 0;
	int fd, flags;

	flags = fsload_create_flags(op, &mode);
	if (op->flags & FSLOAD_OP_F_MKNOD)
		return uop_mknod(w, mode);
	if (w->ring)
		return uring_op(w->ring, &w->e, op);
	flags = uop_open_flags(op, flags);
	fd = openat(w->job->dir_fd, w->e.name, flags, mode);
	if (fd < 0)
		return neg_errno();
	if ((op->flags & FSLOAD_OP_F_FALLOCATE) && op->size &&
	    fallocate(fd, 0, 0, (off_t)op->size))
		err = neg_errno();
	if (!err)
		err = uop_write_all(w, fd, op, op->size, 0, trunc);
	err = uop_close(fd, err);
	return err ? err : (s64)op->size;
}

static s64 fsload_op_append(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	s64 err;
	int fd;

	if (w->ring)
		return uring_op(w->ring, &w->e, op);
	fd = openat(w->job->dir_fd, w->e.name,
		    uop_open_flags(op, O_WRONLY | O_APPEND), 0);
	if (fd < 0)
		return neg_errno();
	err = uop_write_all(w, fd, op, op->size, 0, true);
	err = uop_close(fd, err);
	return err ? err : (s64)op->size;
}

static s64 fsload_op_random(struct fsload_worker *w, const struct fsload_opdesc *op,
		      bool write)
{
	ssize_t n;
	s64 err = 0;
	u64 pos;
	int fd;

	if (w->ring)
		return uring_op(w->ring, &w->e, op);
	pos = fsload_random_offset(&w->e, op);
	fd = openat(w->job->dir_fd, w->e.name,
		    uop_open_flags(op, write ? O_WRONLY : O_RDONLY), 0);
	if (fd < 0)
		return neg_errno();
	n = write ? pwrite(fd, w->buf, op->block, (off_t)pos) :
		    pread(fd, w->buf, op->block, (off_t)pos);
	if (n < 0)
		err = neg_errno();
	else if (write && (op->flags & FSLOAD_OP_F_FSYNC) && fsync(fd))
		err = neg_errno();
	err = uop_close(fd, err);
	return err ? err : n;
}

/* To EOF, or with the sized flag op->size bytes (0: open and close). */
static s64 fsload_op_read(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	bool sized = op->flags & FSLOAD_OP_F_SIZED;
	s64 total = 0, err = 0;
	u64 pos = 0, left = op->size;
	ssize_t n = 0;
	int fd;

	if (w->ring)
		return uring_op(w->ring, &w->e, op);
	fd = openat(w->job->dir_fd, w->e.name, uop_open_flags(op, O_RDONLY),
		    0);
	if (fd < 0)
		return neg_errno();
	while (!sized || left) {
		n = pread(fd, w->buf, sized && left < op->block ? left :
				      op->block, (off_t)pos);
		if (n <= 0)
			break;
		total += n;
		pos += n;
		if (sized)
			left -= n;
	}
	if (n < 0)
		err = neg_errno();
	err = uop_close(fd, err);
	return err ? err : total;
}

/* The ring's op of a type without parameters. */
static s64 uop_uring(struct fsload_worker *w, u8 type)
{
	static const struct fsload_opdesc ops[FSLOAD_OP_MAX + 1] = {
		[FSLOAD_OP_STAT] = { .type = FSLOAD_OP_STAT },
		[FSLOAD_OP_FSYNC] = { .type = FSLOAD_OP_FSYNC },
		[FSLOAD_OP_DROP_CACHE] = { .type = FSLOAD_OP_DROP_CACHE },
	};

	return uring_op(w->ring, &w->e, &ops[type]);
}

static s64 fsload_op_fsync(struct fsload_worker *w)
{
	s64 err = 0;
	int fd;

	if (w->ring)
		return uop_uring(w, FSLOAD_OP_FSYNC);
	fd = openat(w->job->dir_fd, w->e.name, O_RDONLY | O_LARGEFILE);
	if (fd < 0)
		return neg_errno();
	if (fsync(fd))
		err = neg_errno();
	return uop_close(fd, err);
}

static s64 fsload_op_stat(struct fsload_worker *w)
{
	struct stat st;

	if (w->ring)
		return uop_uring(w, FSLOAD_OP_STAT);
	return fstatat(w->job->dir_fd, w->e.name, &st, 0) ? neg_errno() : 0;
}

/*
 * unlink, rmdir, mkdir and rename: the system call walks to the name's
 * directory and acts on its last component, as the kernel's operation.
 */
static s64 fsload_op_dirent(struct fsload_worker *w, const struct fsload_opdesc *op)
{
	int dfd = w->job->dir_fd, ret;

	if (w->ring)
		return uring_op(w->ring, &w->e, op);
	switch (op->type) {
	case FSLOAD_OP_MKDIR:
		ret = mkdirat(dfd, w->e.name, 0755);
		break;
	case FSLOAD_OP_RENAME:
		ret = renameat(dfd, w->e.ren_from, dfd, w->e.ren_to);
		break;
	default:
		ret = unlinkat(dfd, w->e.name, op->type == FSLOAD_OP_RMDIR ?
			       AT_REMOVEDIR : 0);
		break;
	}
	return ret ? neg_errno() : 0;
}

static s64 fsload_op_drop_cache(struct fsload_worker *w)
{
	int fd, err;

	if (w->ring)
		return uop_uring(w, FSLOAD_OP_DROP_CACHE);
	fd = openat(w->job->dir_fd, w->e.name, O_RDONLY | O_LARGEFILE);
	if (fd < 0)
		return neg_errno();
	err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return uop_close(fd, -err);
}

/* io_uring has no syncfs: a system call for either (uop_ring_settle()). */
static s64 fsload_op_syncfs(struct fsload_worker *w)
{
	s64 err = uop_ring_settle(w);

	if (err)
		return err;
	return syncfs(w->job->sync_fd) ? neg_errno() : 0;
}

/* A block job is the kernel's alone (fsloadctl start refuses it here). */
static s64 fsload_op_bio(struct fsload_worker *w,
			 const struct fsload_opdesc *op)
{
	(void)w;
	(void)op;
	return -EOPNOTSUPP;
}

static inline bool fsload_stopping(struct fsload_worker *w)
{
	return READ_ONCE(w->job->stop);
}

/* The ring's batch; a system call is synchronous: nothing in flight. */
static inline s64 fsload_drain(struct fsload_worker *w, u64 *last_ns)
{
	if (w->ring)
		return uring_drain(w->ring, &w->e, last_ns);
	*last_ns = 0;
	return 0;
}

static inline u64 fsload_now(void)
{
	return mono_ns();
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * The TSC, where it is a clock (uengine_clock_probe()): mono_ns() reads
 * it too, in the vDSO, under the timekeeper's sequence count.  tsc_ok
 * only turns false, at a phase's start (uengine_clock_check()), with
 * every other thread waiting.
 */
static bool tsc_ok;
static u32 tsc_mult;

static inline bool fsload_cycles_ok(void)
{
	return tsc_ok;
}

static inline u64 fsload_cycles(void)
{
	return __rdtsc();
}

static inline u32 fsload_cycles_mult(void)
{
	return tsc_mult;
}

/* A TSC reading and CLOCK_MONOTONIC's at its middle. */
struct tsc_pair {
	u64 cyc;
	u64 ns;
};

/* The tightest of a few reads of clock_gettime() between two of the TSC. */
static void tsc_pair_read(struct tsc_pair *p)
{
	u64 c0, c1, ns, best = U64_MAX;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		c0 = __rdtsc();
		ns = mono_ns();
		c1 = __rdtsc();
		if (c1 - c0 < best) {
			best = c1 - c0;
			p->cyc = c0 + (c1 - c0) / 2;
			p->ns = ns;
		}
	}
}

/* The TSC's rate is measured over this long, once per process. */
#define TSC_CALIBRATE_NS	20000000ULL

/*
 * The kernel keeps its time on the TSC: its clocksource, which it
 * switches away from when it finds the TSC unstable (the clocksource
 * watchdog), and which the vDSO's clock_gettime() reads too.
 */
static bool tsc_clocksource(void)
{
	char cs[32];

	if (!read_small(AT_FDCWD,
			"/sys/devices/system/clocksource/clocksource0/current_clocksource",
			cs, sizeof(cs)))
		return false;
	cs[strcspn(cs, "\n")] = '\0';
	return !strcmp(cs, "tsc");
}

/*
 * The CPU says that its TSC runs at a constant rate and on in deep
 * C-states: /proc/cpuinfo's flags constant_tsc and nonstop_tsc (the
 * kernel module's test, from the same CPUID bits); or the user does, with
 * FSLOADCTL_FORCE_TSC=1 (a virtual CPU that does not say so: QEMU's TCG).
 */
static bool tsc_constant(void)
{
	const char *force = getenv("FSLOADCTL_FORCE_TSC");
	bool constant = false, nonstop = false;
	char *line = NULL, *tok, *save;
	size_t n = 0;
	FILE *f;

	if (force && !strcmp(force, "1"))
		return true;
	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return false;
	while (getline(&line, &n, f) > 0) {
		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save)) {
			constant |= !strcmp(tok, "constant_tsc");
			nonstop |= !strcmp(tok, "nonstop_tsc");
		}
		break;
	}
	free(line);
	fclose(f);
	return constant && nonstop;
}

/*
 * Time ops with the TSC where it is a clock: the CPU says it is constant
 * and nonstop (tsc_constant()) and the kernel keeps its time on it
 * (tsc_clocksource()).  Its rate is measured against CLOCK_MONOTONIC over
 * TSC_CALIBRATE_NS (a few ppm: each end is read within the tightest of
 * eight reads, a few tens of ns).  No perf event: a task's first perf
 * event flips a static key patched into __schedule(), on which QEMU's
 * multi-threaded TCG was seen to oops (7.3).  Otherwise the loop reads
 * clock_gettime().  Once per process; uengine_clock_check() at each
 * phase's start.
 */
static void uengine_clock_probe(void)
{
	struct timespec ts = { .tv_nsec = TSC_CALIBRATE_NS };
	struct tsc_pair a, b;
	u64 m;

	if (!tsc_clocksource() || !tsc_constant())
		return;
	tsc_pair_read(&a);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	tsc_pair_read(&b);
	if (b.cyc <= a.cyc || b.ns <= a.ns)
		return;
	m = (u64)(((unsigned __int128)(b.ns - a.ns) << FSLOAD_CLOCK_SHIFT) /
		  (b.cyc - a.cyc));
	if (!m || m > UINT32_MAX)
		return;
	tsc_mult = (u32)m;
	tsc_ok = true;
}

/*
 * At a phase's start, with every other thread waiting: a TSC the kernel
 * has left since (marked unstable) is left for the rest of the process.
 */
static void uengine_clock_check(void)
{
	if (tsc_ok && !tsc_clocksource())
		tsc_ok = false;
}

static void uengine_clock_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, uengine_clock_probe);
}
#else
static inline bool fsload_cycles_ok(void)
{
	return false;
}

static inline u64 fsload_cycles(void)
{
	return 0;
}

static inline u32 fsload_cycles_mult(void)
{
	return 0;
}

static void uengine_clock_init(void)
{
}

static void uengine_clock_check(void)
{
}
#endif

/* Userspace threads are preempted: no rescheduling point is needed. */
static inline void fsload_yield(void)
{
}

/* The kernel's tracepoint; userspace has perf's syscall events. */
static inline void fsload_trace_op(struct fsload_worker *w,
				   const struct fsload_opdesc *op, s64 ret,
				   u64 lat)
{
	(void)w;
	(void)op;
	(void)ret;
	(void)lat;
}

/* The phase loop, shared with the kernel's workers. */
#include <fsload/engine-loop.h>
#pragma GCC diagnostic pop

/* The machine's CPU */

/* Count @ns as the next online CPU's busy time in @s. */
static void usys_add(struct usys *s, u64 ns)
{
	if (s->cpus < USYS_CPUS_MAX)
		s->busy_ns[s->cpus] = ns;
	else
		s->busy_ns[USYS_CPUS_MAX - 1] += ns;
	s->cpus++;
}

/* Each CPU's run time from /proc/schedstat into @s; false without. */
static bool usys_read_schedstat(struct usys *s)
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
static bool usys_read_stat(struct usys *s)
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
static void usys_snap(const struct ujob *job, struct usys *s)
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
static u64 usys_busy(const struct usys *a, const struct usys *b, u64 span_ns)
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
static struct utsnap *utsnap_take(unsigned int *count)
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

	for (i = 0; i < job->threads; i++) {
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
 * Name and kind of thread @t, for the list of top threads.  The reader
 * of the user engine's result is its starter, whom the kernel engine
 * deems privy to the names and ids (fsload_privy(), module/netlink.c):
 * they are shown whenever /proc gave the name.
 */
static void utop_describe(const struct utsnap *t, struct thread_cpu *tc)
{
	char path[64], buf[512], *p;
	unsigned long flags;
	size_t len;

	tc->pid = t->tid;
	snprintf(tc->name, sizeof(tc->name), "?");
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", t->pid, t->tid);
	if (read_small(AT_FDCWD, path, buf, sizeof(buf))) {
		len = strcspn(buf, "\n");
		len = min(len, sizeof(tc->name) - 1);
		memcpy(tc->name, buf, len);
		tc->name[len] = '\0';
		tc->named = true;
	}
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", t->pid, t->tid);
	if (!read_small(AT_FDCWD, path, buf, sizeof(buf)))
		return;
	/* After "pid (comm)": state ppid pgrp session tty tpgid flags */
	p = strrchr(buf, ')');
	if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) == 1)
		tc->kernel = flags & PF_KTHREAD_FLAG;
}

/*
 * The threads other than the engine's that used most CPU since
 * job->threads0; as the kernel's fsload_threads_top().
 */
static unsigned int utop_threads(struct ujob *job, struct thread_cpu *top)
{
	struct utsnap *now, *old, tops[UENGINE_TOP_THREADS];
	unsigned int n = 0, nnow = 0, i, j;
	u64 d;

	now = utsnap_take(&nnow);
	if (!now)
		return 0;
	for (i = 0; i < nnow; i++) {
		old = bsearch(&now[i], job->threads0, job->nthreads0,
			      sizeof(*old), utsnap_cmp);
		d = now[i].runtime_ns;
		d = old && d >= old->runtime_ns ? d - old->runtime_ns :
			old ? 0 : d;
		if (!d || ujob_is_engine(job, &now[i]))
			continue;
		if (n == UENGINE_TOP_THREADS && d <= tops[n - 1].runtime_ns)
			continue;
		j = n < UENGINE_TOP_THREADS ? n++ : n - 1;
		while (j && tops[j - 1].runtime_ns < d) {
			tops[j] = tops[j - 1];
			j--;
		}
		tops[j] = now[i];
		tops[j].runtime_ns = d;
	}
	free(now);
	for (i = 0; i < n; i++) {
		memset(&top[i], 0, sizeof(top[i]));
		utop_describe(&tops[i], &top[i]);
		top[i].cpu_ns = tops[i].runtime_ns;
	}
	return n;
}

/* The job */

static void ujob_stop(struct ujob *job)
{
	WRITE_ONCE(job->stop, true);
	pthread_mutex_lock(&job->lock);
	pthread_cond_broadcast(&job->cond);
	pthread_mutex_unlock(&job->lock);
}

/* Record the first failure of the job and stop it. */
static void fsload_fail(struct fsload_worker *w, const char *phase,
			const char *what, int err)
{
	struct ujob *job = w->job;

	pthread_mutex_lock(&job->lock);
	if (!job->err) {
		job->err = err;
		snprintf(job->errmsg, sizeof(job->errmsg),
			 "phase %s, thread %u: %s %s: error %d", phase,
			 w->index, what, w->e.name, err);
	}
	pthread_mutex_unlock(&job->lock);
	ujob_stop(job);
}

/*
 * Before the first phase, with every other thread waiting: the machine's
 * idle baseline, then the cost of the phase loop itself, from running
 * null operations through it; as the kernel's fsload_calibrate().
 */
static void ujob_calibrate(struct fsload_worker *w)
{
	struct ujob *job = w->job;
	struct fsload_phase *ph;
	struct usys a, b;
	struct timespec ts;
	u64 ns;

	if (job->idle_ms) {
		usys_snap(job, &a);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += job->idle_ms / 1000;
		ts.tv_nsec += (long)(job->idle_ms % 1000) * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&job->lock);
		while (!READ_ONCE(job->stop) &&
		       pthread_cond_timedwait(&job->cond, &job->lock, &ts) !=
		       ETIMEDOUT)
			;
		pthread_mutex_unlock(&job->lock);
		usys_snap(job, &b);
		pthread_mutex_lock(&job->lock);
		job->idle_ns = b.wall_ns - a.wall_ns;
		job->idle_busy_ns = usys_busy(&a, &b, job->idle_ns);
		pthread_mutex_unlock(&job->lock);
	}
	ph = calloc(1, sizeof(*ph));
	if (!ph)
		return;
	ns = fsload_engine_overhead(w, &w->e, ph);
	free(ph);
	if (!ns)
		return;
	pthread_mutex_lock(&job->lock);
	job->overhead_ops = FSLOAD_OVERHEAD_OPS;
	job->overhead_ns = ns;
	job->op_clock = w->e.clk_tsc ? FSLOAD_OP_CLOCK_TSC :
				       FSLOAD_OP_CLOCK_CLOCK_GETTIME;
	pthread_mutex_unlock(&job->lock);
}

/* The last thread to arrive opens phase @p. */
static void fsload_phase_open(struct fsload_worker *w, unsigned int p)
{
	struct ujob *job = w->job;

	uengine_clock_check();
	if (p == 0)
		ujob_calibrate(w);
	free(job->threads0);
	job->threads0 = utsnap_take(&job->nthreads0);
	usys_snap(job, &job->sys0);
	pthread_mutex_lock(&job->lock);
	job->res[p].started = true;
	job->res[p].start_ns = job->sys0.wall_ns;
	job->cur_phase = p;
	pthread_mutex_unlock(&job->lock);
}

/*
 * The last thread to finish phase @p closes it: the machine's CPU over
 * the phase, the sync tail, the threads that used most CPU.
 */
static void fsload_phase_close(struct fsload_worker *w, unsigned int p)
{
	struct ujob *job = w->job;
	const struct fsload_phase *ph = &job->phases[p];
	struct ures *res = &job->res[p];
	struct thread_cpu top[UENGINE_TOP_THREADS];
	struct usys s1, s2;
	unsigned int ntop = 0;
	bool tail = false;
	int err = 0;
	u64 elapsed;

	usys_snap(job, &s1);
	s2 = s1;
	if ((ph->flags & FSLOAD_PHASE_F_SYNC) && !READ_ONCE(job->stop)) {
		err = fsload_op_syncfs(w);
		usys_snap(job, &s2);
		tail = true;
	}
	if (job->threads0)
		ntop = utop_threads(job, top);
	free(job->threads0);
	job->threads0 = NULL;

	pthread_mutex_lock(&job->lock);
	if (!READ_ONCE(job->stop) || tail) {
		/* a CPU is busy for at most the phase, as the report divides */
		elapsed = res->sum.end_ns > res->start_ns ?
			  res->sum.end_ns - res->start_ns : 0;
		res->measured = true;
		res->sys_busy_ns = usys_busy(&job->sys0, &s1, elapsed);
		res->tail = tail;
		res->tail_ns = s2.wall_ns - s1.wall_ns;
		res->tail_busy_ns = usys_busy(&s1, &s2, res->tail_ns);
		res->ntop = ntop;
		memcpy(res->top, top, ntop * sizeof(*top));
	}
	pthread_mutex_unlock(&job->lock);
	if (err) {
		w->e.name[0] = '\0';
		fsload_fail(w, ph->name, "syncfs", err);
	}
}

/*
 * Before phase @p, with every other thread waiting: a phase of the
 * program with FSLOAD_PHASE_F_HOLD has the caches dropped first, as
 * fsloadctl does for the kernel's job (run.c), a failure stopping the
 * job; in a multi-client run, the phase then waits for the other ranks'
 * jobs, and so does the end (@p the number of phases) of a job with
 * FSLOAD_JOB_F_HOLD_END.  Returns false when the job is stopping.
 */
static bool fsload_hold(struct fsload_worker *w, unsigned int p)
{
	struct ujob *job = w->job;
	u64 ns = 0;
	int err;

	if (READ_ONCE(job->stop))
		return false;
	/* after the last phase: the job's hold, with FSLOAD_JOB_F_HOLD_END */
	if (p == job->nphases && !(job->flags & FSLOAD_JOB_F_HOLD_END))
		return true;
	if (p < job->nphases &&
	    (job->prog->phases[p].flags & FSLOAD_PHASE_F_HOLD)) {
		err = sync_drop_caches(&ns);
		if (err) {
			w->e.name[0] = '\0';
			fsload_fail(w, job->phases[p].name,
				    "sync; echo 3 > /proc/sys/vm/drop_caches",
				    err);
			return false;
		}
		job->holds++;
		job->hold_ns += ns;
	}
	if (job->sync && !rank_sync_phase(job->sync, p)) {
		job->stopped_by_ranks = true;
		ujob_stop(job);
	}
	return !READ_ONCE(job->stop);
}

static bool fsload_barrier_arrive(struct fsload_worker *w, unsigned int gen)
{
	struct ujob *job = w->job;
	bool last;

	pthread_mutex_lock(&job->lock);
	last = ++job->arrived == job->threads * (gen + 1);
	pthread_mutex_unlock(&job->lock);
	return last;
}

static void fsload_barrier_pass(struct fsload_worker *w, unsigned int gen)
{
	struct ujob *job = w->job;

	pthread_mutex_lock(&job->lock);
	job->barrier_gen = gen + 1;
	pthread_cond_broadcast(&job->cond);
	pthread_mutex_unlock(&job->lock);
}

static bool fsload_barrier_wait(struct fsload_worker *w, unsigned int gen)
{
	struct ujob *job = w->job;
	bool passed;

	pthread_mutex_lock(&job->lock);
	while (job->barrier_gen <= gen && !READ_ONCE(job->stop))
		pthread_cond_wait(&job->cond, &job->lock);
	passed = job->barrier_gen > gen;
	pthread_mutex_unlock(&job->lock);
	return passed;
}

static void ujob_merge(struct fsload_worker *w, unsigned int p,
		       enum fsload_run_end end, u64 end_ns, u64 cpu_ns)
{
	struct ujob *job = w->job;
	struct ures *res = &job->res[p];
	unsigned int i;

	pthread_mutex_lock(&job->lock);
	fsload_phase_sum_add(&res->sum, &w->e, end, end_ns);
	res->worker_cpu_ns += cpu_ns;
	for (i = 0; i < fsload_hist_words(&job->slots); i++)
		res->hist[i] += w->e.hist[i];
	pthread_mutex_unlock(&job->lock);
}

static bool fsload_run_phase(struct fsload_worker *w, unsigned int p)
{
	struct ujob *job = w->job;
	const struct fsload_phase *ph = &job->phases[p];
	enum fsload_run_end end;
	u64 end_ns, c0, c1, start_ns;

	pthread_mutex_lock(&job->lock);
	start_ns = job->res[p].start_ns;
	pthread_mutex_unlock(&job->lock);
	if (w->ring) {
		/* a rotating rename is its phase's only op */
		uring_phase(w->ring, ph, (ph->flags & FSLOAD_PHASE_F_DIRS) ||
				     (ph->nops &&
				      (ph->ops[0].flags & FSLOAD_OP_F_ROTATE)),
			    min(w->e.files, w->e.reached));
		uring_helpers_cpu_ns(w->ring);
	}
	c0 = thread_cpu_ns();
	end = fsload_engine_run(w, &w->e, ph, p, start_ns, &end_ns);
	c1 = thread_cpu_ns();
	if (w->ring)
		c1 += uring_helpers_cpu_ns(w->ring);
	ujob_merge(w, p, end, end_ns, c1 - c0);
	if (end == FSLOAD_RUN_FAILED)
		fsload_fail(w, ph->name, op_name(w->e.failed_op->type),
			    w->e.err);
	return end == FSLOAD_RUN_DONE || end == FSLOAD_RUN_STONEWALLED;
}

/* mkdir e->name, a directory of the thread's tree; EEXIST is fine if @ok. */
static int fsload_mkdir_name(struct fsload_worker *w, bool ok)
{
	if (!mkdirat(w->job->dir_fd, w->e.name, 0755) || (errno == EEXIST && ok))
		return 0;
	return neg_errno();
}

/* mkdir the thread's tree root, t<index> (t000 when shared; test-dir.0-0). */
static int fsload_mkdir_root(struct fsload_worker *w)
{
	int err = 0;

	w->e.name[w->e.root_len] = '\0';
	if (mkdirat(w->job->dir_fd, w->e.name, 0755))
		err = neg_errno();
	w->e.name[w->e.root_len] = '/';
	return err;
}

/* The job around the phase loop, shared with the kernel's workers. */
#include <fsload/engine-job.h>

/*
 * --engine uring: the worker's own ring, made by its thread (an SQPOLL
 * thread is named after it).  False when it cannot: the job has failed.
 */
static bool uworker_ring(struct fsload_worker *w)
{
	struct ujob *job = w->job;
	char why[128];
	int err;

	if (!job->uring)
		return true;
	err = uring_open(&w->ring, &job->uring_opts, job->dir_fd, w->buf, why,
			 sizeof(why));
	if (!err)
		return true;
	pthread_mutex_lock(&job->lock);
	if (!job->err) {
		job->err = err;
		snprintf(job->errmsg, sizeof(job->errmsg),
			 "thread %u: io_uring: %s", w->index, why);
	}
	pthread_mutex_unlock(&job->lock);
	ujob_stop(job);
	return false;
}

static void *uworker_fn(void *data)
{
	struct fsload_worker *w = data;
	struct ujob *job = w->job;

	w->tid = gettid();
	if (uworker_ring(w))
		fsload_engine_job(w, &w->e, job->phases, job->nphases, true,
				  job->flags & FSLOAD_JOB_F_SHARED_DIR);
	uring_close(w->ring);
	w->ring = NULL;
	pthread_mutex_lock(&job->lock);
	job->running--;
	pthread_cond_broadcast(&job->cond);
	pthread_mutex_unlock(&job->lock);
	return NULL;
}

/*
 * Start worker @i's thread, bound to the i-th (mod n) CPU of @cpus
 * (--cpus) from its first instruction, as the kernel binds its workers.
 */
static int uworker_start(struct fsload_worker *w, const char *cpus,
			 unsigned int i)
{
	static uint32_t list[FSLOAD_THREADS_MAX];
	pthread_attr_t attr;
	cpu_set_t set;
	int n, err;

	n = cpus ? cpulist_parse(cpus, list, FSLOAD_THREADS_MAX) : 0;
	if (n <= 0)
		return pthread_create(&w->thread, NULL, uworker_fn, w);
	CPU_ZERO(&set);
	CPU_SET(list[i % n], &set);
	err = pthread_attr_init(&attr);
	if (err)
		return err;
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(&w->thread, &attr, uworker_fn, w);
	pthread_attr_destroy(&attr);
	return err;
}

/* The program, as the kernel's start request parser makes it */

/*
 * The job file's key (and the profiles' option) of an op's and a phase's
 * attributes, for the shared checks' refusals (include/fsload/program.h).
 */
static const char *const op_keys[FSLOAD_A_OP_MAX + 1] = {
	[FSLOAD_A_OP_TYPE] = "op",
	[FSLOAD_A_OP_WEIGHT] = "weight",
	[FSLOAD_A_OP_SIZE_BYTES] = "size",
	[FSLOAD_A_OP_BLOCK_BYTES] = "block",
	[FSLOAD_A_OP_FLAGS] = "flags",
	[FSLOAD_A_OP_PREFIX] = "prefix",
	[FSLOAD_A_OP_DEPTH] = "depth",
	[FSLOAD_A_OP_GROUP] = "group",
};

static const char *const phase_keys[FSLOAD_A_PHASE_MAX + 1] = {
	[FSLOAD_A_PHASE_NAME] = "name",
	[FSLOAD_A_PHASE_ORDER] = "order",
	[FSLOAD_A_PHASE_ITERATIONS] = "iterations",
	[FSLOAD_A_PHASE_OP] = "op",
	[FSLOAD_A_PHASE_DURATION_MS] = "time",
	[FSLOAD_A_PHASE_FLAGS] = "continue, hold, dirs, timed-sync",
	[FSLOAD_A_PHASE_PREFIX] = "prefix",
	[FSLOAD_A_PHASE_FIRST] = "first",
	[FSLOAD_A_PHASE_STRIDE] = "stride",
};

/* The start options of the job's attributes that fsload_check_tree() names. */
static const char *const job_keys[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_FILES] = "--files",
	[FSLOAD_A_JOB_FILES_PER_DIR] = "--files-per-dir",
	[FSLOAD_A_JOB_TREE_BRANCH] = "--tree-branch",
	[FSLOAD_A_JOB_FIRST_DIR] = "first-dir",
};

/* A refusal of phase @ph (its op @op, from 1; 0: the phase's own). */
static int bad_program(const char *ph, unsigned int op,
		       const struct fsload_refusal *r)
{
	const char *key = op ? op_keys[r->attr] : phase_keys[r->attr];

	if (op)
		errmsg("user engine: phase %s, op %u%s%s%s: %s", ph, op,
		       key ? " (" : "", key ?: "", key ? ")" : "", r->msg);
	else
		errmsg("user engine: phase %s%s%s%s: %s", ph,
		       key ? " (" : "", key ?: "", key ? ")" : "", r->msg);
	return EXIT_USAGE;
}

uint32_t uengine_block_max(void)
{
	unsigned long long v = FSLOAD_BLOCK_DEFAULT_MAX;
	FILE *f;

	/* the module's, where it is loaded: one limit for every engine */
	f = fopen("/sys/module/fsload/parameters/max_block_bytes", "r");
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = FSLOAD_BLOCK_DEFAULT_MAX;
		fclose(f);
	}
	return v < FSLOAD_BLOCK_MAX ? (uint32_t)v : FSLOAD_BLOCK_MAX;
}

/* What the checks need of the job; @threads: one rank's. */
static void ushape(const struct program *prog, u32 threads, u64 files,
		   u32 flags, struct fsload_job_shape *js)
{
	*js = (struct fsload_job_shape){
		.files = files,
		.max_file_bytes = U64_MAX,
		.max_block_bytes = uengine_block_max(),
		.threads = threads,
		.flags = flags,
		.ngroups = prog->ngroups ? prog->ngroups : 1,
		.block = prog->block,
	};
}

/*
 * Op @po as the module has it from put_program()'s request into @od, and
 * the attributes the request has in *@has.
 */
static void uprog_op(const struct prog_op *po, struct fsload_opdesc *od,
		     u32 *has)
{
	const struct fsload_op_type *t = fsload_op_type(po->type);

	*has = BIT(FSLOAD_A_OP_TYPE) | BIT(FSLOAD_A_OP_WEIGHT);
	od->type = po->type;
	od->weight = po->weight;
	od->size = t->params & FSLOAD_OPP_SIZE ? po->size : 0;
	od->block = t->params & FSLOAD_OPP_BLOCK ? po->block : 4096;
	od->flags = po->flags;
	od->prefix = po->prefix;
	od->depth = t->params & FSLOAD_OPP_BIO && po->depth ? po->depth : 1;
	od->group = po->group ? po->group - 1 : FSLOAD_GROUP_ALL;
	if (t->params & FSLOAD_OPP_SIZE)
		*has |= BIT(FSLOAD_A_OP_SIZE_BYTES);
	if (t->params & FSLOAD_OPP_BLOCK)
		*has |= BIT(FSLOAD_A_OP_BLOCK_BYTES);
	if (po->flags)
		*has |= BIT(FSLOAD_A_OP_FLAGS);
	if (po->prefix || (po->type == FSLOAD_OP_RENAME &&
			   !(po->flags & FSLOAD_OP_F_ROTATE)))
		*has |= BIT(FSLOAD_A_OP_PREFIX);
	if ((t->params & FSLOAD_OPP_BIO) && po->depth)
		*has |= BIT(FSLOAD_A_OP_DEPTH);
	if (po->group)
		*has |= BIT(FSLOAD_A_OP_GROUP);
}

/* Phase @i of @prog as the module has it from the request, into @ph. */
static u32 uprog_phase(const struct program *prog, unsigned int i,
		       u32 phase_flags, u64 files, struct fsload_phase *ph)
{
	const struct prog_phase *pp = &prog->phases[i];
	u32 has = BIT(FSLOAD_A_PHASE_NAME) | BIT(FSLOAD_A_PHASE_ORDER);

	memset(ph, 0, sizeof(*ph));
	snprintf(ph->name, sizeof(ph->name), "%s", pp->name);
	ph->order = pp->order ? pp->order : FSLOAD_ORDER_SEQUENTIAL;
	ph->prefix = pp->prefix ? pp->prefix : 'f';
	ph->flags = pp->flags | program_phase_flags(prog, i, phase_flags);
	ph->first = pp->first;
	ph->stride = pp->stride;
	ph->duration_ns = pp->duration_ms * 1000000ULL;
	ph->iterations = pp->iterations ? pp->iterations : files;
	if (pp->iterations)
		has |= BIT(FSLOAD_A_PHASE_ITERATIONS);
	if (pp->prefix)
		has |= BIT(FSLOAD_A_PHASE_PREFIX);
	if (ph->flags)
		has |= BIT(FSLOAD_A_PHASE_FLAGS);
	return has;
}

/*
 * Make @out[] from @prog as the module does from the request that
 * put_program() builds, refusing what it refuses (the shared checks of
 * include/fsload/program.h), in the job @js.  @phase_flags are added to
 * every phase.
 */
static int uprog_convert(const struct program *prog,
			 const struct fsload_job_shape *js,
			 u32 phase_flags, struct fsload_phase *out,
			 u32 *max_block)
{
	struct fsload_refusal r;
	unsigned int i, j;
	u32 has;

	*max_block = 0;
	for (i = 0; i < prog->nphases; i++) {
		const struct prog_phase *pp = &prog->phases[i];
		struct fsload_phase *ph = &out[i];

		has = uprog_phase(prog, i, phase_flags, js->files, ph);
		if (fsload_check_phase(js, ph, has, pp->nops, &r))
			return bad_program(ph->name, 0, &r);
		for (j = 0; j < pp->nops; j++) {
			struct fsload_opdesc *od = &ph->ops[j];

			uprog_op(&pp->ops[j], od, &has);
			if (fsload_check_op(js, ph, od, has, &r))
				return bad_program(ph->name, j + 1, &r);
			ph->weight_total += od->weight;
			*max_block = max(*max_block, od->block);
		}
		ph->nops = pp->nops;
		if (fsload_check_phase_ops(ph, &r))
			return bad_program(ph->name, 0, &r);
		fsload_phase_groups(ph, js->ngroups);
	}
	return 0;
}

int uengine_check(const struct program *prog, uint32_t threads,
		  uint32_t rank, uint32_t ranks, uint64_t files,
		  uint32_t files_per_dir,
		  uint32_t branch, uint32_t first_dir, uint32_t flags,
		  uint8_t scheme)
{
	static struct fsload_phase phases[FSLOAD_PHASES_MAX];
	struct fsload_tree_shape t;
	struct fsload_job_shape js;
	struct fsload_refusal r;
	u32 max_block;

	if (!threads || threads > FSLOAD_THREADS_MAX) {
		errmsg("user engine: threads: 1 to %d", FSLOAD_THREADS_MAX);
		return EXIT_USAGE;
	}
	if (!fsload_rank_fits(rank, threads)) {
		errmsg("user engine: " FSLOAD_RANK_RANGE);
		return EXIT_USAGE;
	}
	if (!fsload_ranks_fit(rank, ranks, threads,
			      flags & FSLOAD_JOB_F_SHARED_DIR, scheme)) {
		errmsg("user engine: " FSLOAD_RANKS_RANGE);
		return EXIT_USAGE;
	}
	t = (struct fsload_tree_shape){
		.files = files,
		.files_per_dir = files_per_dir,
		/* the run's threads, in one directory */
		.threads = fsload_run_threads(threads, ranks),
		.branch = branch,
		.first_dir = first_dir,
		.flags = flags,
		.scheme = scheme,
		.block = prog->block,
	};
	if (fsload_check_tree(&t, &r)) {
		errmsg("user engine (%s): %s", job_keys[r.attr] ?: "?", r.msg);
		return EXIT_USAGE;
	}
	if (!prog->nphases || prog->nphases > FSLOAD_PHASES_MAX) {
		errmsg("user engine: 1 to %d phases", FSLOAD_PHASES_MAX);
		return EXIT_USAGE;
	}
	ushape(prog, threads, files, flags, &js);
	return uprog_convert(prog, &js, 0, phases, &max_block);
}

/*
 * --engine uring: that this kernel lets a process make a ring with the
 * options and the operations the engine uses (a worker's is its own).
 */
static int uengine_check_uring(const struct params *p)
{
	struct uring_opts o = {
		.sqpoll = p->uring_sqpoll,
		.batch = p->uring_batch,
	};
	struct uring *u;
	char why[128];

	if (uring_open(&u, &o, AT_FDCWD, NULL, why, sizeof(why))) {
		errmsg("uring engine: %s", why);
		return EXIT_SYSERR;
	}
	uring_close(u);
	return 0;
}

/* Running it */

static volatile sig_atomic_t usignals;

static void uengine_on_signal(int sig)
{
	wait_sigterm_note(sig);
	if (++usignals >= 2) {
		/* second Ctrl-C: die, leaving the job directory */
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

static u64 ujob_ops_done(const struct ujob *job, u64 *bytes)
{
	u64 ops = 0;
	unsigned int i;

	*bytes = 0;
	for (i = 0; i < job->threads; i++) {
		ops += READ_ONCE(job->workers[i].e.ops_done);
		*bytes += READ_ONCE(job->workers[i].e.bytes_done);
	}
	return ops;
}

static void uprogress_draw(struct ujob *job, const struct job_req *req,
			   u64 start_ns, struct progress *pr)
{
	struct progress_sample s = { .state = "running" };
	unsigned int i;
	u64 bytes;

	pthread_mutex_lock(&job->lock);
	s.phase = job->cur_phase;
	pthread_mutex_unlock(&job->lock);
	s.nphases = job->nphases;
	s.ops = ujob_ops_done(job, &bytes);
	s.elapsed_s = (mono_ns() - start_ns) / 1e9;
	s.interval_s = req->p->progress_ms / 1e3;
	if (s.phase >= 0) {
		s.name = req->prog->phases[s.phase].name;
		s.limit_s = req->prog->phases[s.phase].duration_ms / 1e3;
		for (i = 0; i < job->threads; i++)
			fsload_engine_items(&job->workers[i].e, &s.items,
					    &s.done);
	}
	progress_show(pr, &s);
}

#define JS_SET(js, attr)	((js)->have |= 1ULL << (attr))

/* The job's end as its status, as the kernel reports it. */
static int ujob_status(const struct ujob *job, const struct job_req *req,
		       const char *dir, u64 elapsed_ns, struct job_status *js)
{
	struct fsload_dir_id id;
	unsigned int i;
	bool complete = true;
	u64 bytes;

	memset(js, 0, sizeof(*js));
	js->dir = strdup(dir);
	js->pids = calloc(job->threads, sizeof(*js->pids));
	if (!js->dir || !js->pids)
		return -ENOMEM;
	JS_SET(js, FSLOAD_A_JOB_DIR);
	if (!dir_fd_id(job->dir_fd, &id)) {
		js->dir_ino = id.ino;
		js->dir_mode = id.mode;
		js->has_dir_btime = id.has_btime;
		js->dir_btime = id.btime_ns;
		js->dir_handle_type = id.handle_type;
		js->dir_handle_bytes = id.handle_bytes;
		memcpy(js->dir_handle, id.handle, id.handle_bytes);
		JS_SET(js, FSLOAD_A_JOB_DIR_INO);
		JS_SET(js, FSLOAD_A_JOB_DIR_MODE);
	}
	js->flags = job->flags;
	JS_SET(js, FSLOAD_A_JOB_FLAGS);
	js->threads = job->threads;
	JS_SET(js, FSLOAD_A_JOB_THREADS);
	if (job->rank) {
		js->rank = job->rank;
		JS_SET(js, FSLOAD_A_JOB_RANK);
	}
	if (job->ranks > 1) {
		js->ranks = job->ranks;
		JS_SET(js, FSLOAD_A_JOB_RANKS);
	}
	js->files = job->files;
	JS_SET(js, FSLOAD_A_JOB_FILES);
	js->files_per_dir = job->files_per_dir;
	JS_SET(js, FSLOAD_A_JOB_FILES_PER_DIR);
	if (job->branch) {
		js->tree_branch = job->branch;
		JS_SET(js, FSLOAD_A_JOB_TREE_BRANCH);
	}
	if (job->first_dir) {
		js->first_dir = job->first_dir;
		JS_SET(js, FSLOAD_A_JOB_FIRST_DIR);
	}
	js->names = job->naming.scheme;
	JS_SET(js, FSLOAD_A_JOB_NAMES);
	if (job->naming.scheme == FSLOAD_NAMES_FSMARK) {
		js->name_bytes = job->naming.bytes;
		JS_SET(js, FSLOAD_A_JOB_NAME_BYTES);
		js->name_random_bytes = job->naming.random;
		JS_SET(js, FSLOAD_A_JOB_NAME_RANDOM_BYTES);
	}
	js->seed = job->seed;
	JS_SET(js, FSLOAD_A_JOB_SEED);
	js->lat_sample = job->lat_sample;
	JS_SET(js, FSLOAD_A_JOB_LAT_SAMPLE);
	snprintf(js->profile, sizeof(js->profile), "%s", req->prog->profile);
	JS_SET(js, FSLOAD_A_JOB_PROFILE);
	js->user_engine = true;
	js->uring = job->uring;
	js->uring_sqpoll = job->uring && job->uring_opts.sqpoll;
	js->uring_batch = job->uring ? job->uring_opts.batch : 0;
	js->busy_ticks = job->busy_ticks;
	js->progress_ms = req->p->progress_ms;
	JS_SET(js, FSLOAD_A_JOB_PROGRESS_MS);

	for (i = 0; i < job->nphases; i++) {
		if (job->res[i].sum.complete != job->threads)
			complete = false;
	}
	js->state = job->err ? FSLOAD_JOB_FAILED : complete ?
		    FSLOAD_JOB_DONE : FSLOAD_JOB_STOPPED;
	JS_SET(js, FSLOAD_A_JOB_STATE);
	if (job->err) {
		js->err = -job->err;
		JS_SET(js, FSLOAD_A_JOB_ERRNO);
		js->error_msg = strdup(job->errmsg);
		if (js->error_msg)
			JS_SET(js, FSLOAD_A_JOB_ERROR_MSG);
	}
	if (job->cur_phase >= 0) {
		js->phase_index = job->cur_phase;
		JS_SET(js, FSLOAD_A_JOB_PHASE_INDEX);
	}
	js->phases = job->nphases;
	JS_SET(js, FSLOAD_A_JOB_PHASES);
	js->elapsed_ns = elapsed_ns;
	JS_SET(js, FSLOAD_A_JOB_ELAPSED_NS);
	js->ops = ujob_ops_done(job, &bytes);
	JS_SET(js, FSLOAD_A_JOB_OPS);
	js->bytes = bytes;
	JS_SET(js, FSLOAD_A_JOB_BYTES);
	for (i = 0; i < job->threads; i++)
		js->pids[i] = job->workers[i].tid;
	js->npids = job->threads;
	JS_SET(js, FSLOAD_A_JOB_WORKER_PID);
	js->cpus = job->sys0.cpus ? job->sys0.cpus :
		   (u32)sysconf(_SC_NPROCESSORS_ONLN);
	JS_SET(js, FSLOAD_A_JOB_CPUS);
	js->pmu = 0;
	JS_SET(js, FSLOAD_A_JOB_PMU);
	if (job->idle_ms) {
		js->idle_ms = job->idle_ms;
		JS_SET(js, FSLOAD_A_JOB_IDLE_MS);
	}
	if (job->idle_ns) {
		js->idle_ns = job->idle_ns;
		js->idle_busy_ns = job->idle_busy_ns;
		JS_SET(js, FSLOAD_A_JOB_IDLE_NS);
		JS_SET(js, FSLOAD_A_JOB_IDLE_BUSY_NS);
	}
	if (job->overhead_ops) {
		js->overhead_ops = job->overhead_ops;
		js->overhead_ns = job->overhead_ns;
		js->op_clock = job->op_clock;
		JS_SET(js, FSLOAD_A_JOB_OVERHEAD_OPS);
		JS_SET(js, FSLOAD_A_JOB_OVERHEAD_NS);
		JS_SET(js, FSLOAD_A_JOB_OP_CLOCK);
	}
	return 0;
}

#define RES_SET(pr, attr)	((pr)->have |= 1ULL << (attr))

/* Op type @t's histogram in phase result @res as buckets. */
static int uhist_buckets(const struct ujob *job, const struct ures *res,
			 unsigned int t, struct opstat *os)
{
	unsigned int slot = job->slots.slot[t];

	if (!slot)
		return 0;
	return opstat_from_hist(os, res->hist +
				(slot - 1) * FSLOAD_HIST_BUCKETS);
}

/* Phase @p's result, as the kernel reports it. */
static int ujob_result(const struct ujob *job, unsigned int p,
		       struct phase_result *pr)
{
	const struct ures *res = &job->res[p];
	unsigned int t, n = 0;
	int err;

	memset(pr, 0, sizeof(*pr));
	pr->index = p;
	RES_SET(pr, FSLOAD_A_RES_PHASE_INDEX);
	snprintf(pr->name, sizeof(pr->name), "%s", job->phases[p].name);
	RES_SET(pr, FSLOAD_A_RES_PHASE_NAME);
	pr->threads = res->sum.threads;
	RES_SET(pr, FSLOAD_A_RES_THREADS);
	pr->complete = res->sum.complete == job->threads;
	RES_SET(pr, FSLOAD_A_RES_COMPLETE);
	pr->stonewalled = !!res->sum.stonewalled;
	RES_SET(pr, FSLOAD_A_RES_STONEWALLED);
	pr->elapsed_ns = res->sum.end_ns > res->start_ns ?
			 res->sum.end_ns - res->start_ns : 0;
	RES_SET(pr, FSLOAD_A_RES_ELAPSED_NS);
	pr->start_ns = res->start_ns;
	RES_SET(pr, FSLOAD_A_RES_START_NS);
	pr->op_clock_back_steps = res->sum.clk_back;
	RES_SET(pr, FSLOAD_A_RES_OP_CLOCK_BACK_STEPS);
	/* once a thread ran the phase: the clock its ops were timed with */
	if (res->sum.threads) {
		pr->op_clock = res->sum.clk_tsc == res->sum.threads ?
			       FSLOAD_OP_CLOCK_TSC :
			       FSLOAD_OP_CLOCK_CLOCK_GETTIME;
		RES_SET(pr, FSLOAD_A_RES_OP_CLOCK);
	}
	/* the phase's course, as the kernel reports it */
	for (t = 0; t < FSLOAD_PROGRESS_MARKS && res->sum.progress[t].workers;
	     t++) {
		struct progress_mark *m = &pr->progress[pr->nprogress++];

		m->pct = (t + 1) * 100 / FSLOAD_PROGRESS_MARKS;
		m->workers = res->sum.progress[t].workers;
		m->items = res->sum.progress[t].items;
		m->elapsed_ns = res->sum.progress[t].end_ns > res->start_ns ?
				res->sum.progress[t].end_ns - res->start_ns : 0;
		RES_SET(pr, FSLOAD_A_RES_PROGRESS);
	}
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		pr->ops += res->sum.op[t].ops;
		pr->errors += res->sum.op[t].errors;
		pr->bytes += res->sum.op[t].bytes;
		n += fsload_opstat_ran(&res->sum.op[t]);
	}
	RES_SET(pr, FSLOAD_A_RES_OPS);
	RES_SET(pr, FSLOAD_A_RES_ERRORS);
	RES_SET(pr, FSLOAD_A_RES_BYTES);
	pr->worker_cpu_ns = res->worker_cpu_ns;
	RES_SET(pr, FSLOAD_A_RES_WORKER_CPU_NS);
	if (res->measured) {
		pr->system_cpu_ns = res->sys_busy_ns;
		RES_SET(pr, FSLOAD_A_RES_SYSTEM_CPU_NS);
		if (res->tail) {
			pr->tail_ns = res->tail_ns;
			pr->tail_cpu_ns = res->tail_busy_ns;
			RES_SET(pr, FSLOAD_A_RES_TAIL_NS);
			RES_SET(pr, FSLOAD_A_RES_TAIL_CPU_NS);
		}
		if (res->ntop) {
			pr->top = calloc(res->ntop, sizeof(*pr->top));
			if (!pr->top)
				return -ENOMEM;
			memcpy(pr->top, res->top, res->ntop * sizeof(*pr->top));
			pr->ntop = res->ntop;
			RES_SET(pr, FSLOAD_A_RES_THREAD);
		}
	}
	if (!n)
		return 0;
	pr->opstats = calloc(n, sizeof(*pr->opstats));
	if (!pr->opstats)
		return -ENOMEM;
	RES_SET(pr, FSLOAD_A_RES_OPSTAT);
	for (t = 1; t <= FSLOAD_OP_MAX; t++) {
		const struct fsload_opstat *s = &res->sum.op[t];
		struct opstat *os;

		if (!fsload_opstat_ran(s))
			continue;
		os = &pr->opstats[pr->nopstats++];
		os->type = t;
		os->ops = s->ops;
		os->errors = s->errors;
		os->misses = s->misses;
		os->bytes = s->bytes;
		os->sampled = fsload_opstat_timed(s);
		os->lat_sum_ns = s->lat_sum;
		os->lat_min_ns = os->sampled ? s->lat_min : 0;
		os->lat_max_ns = s->lat_max;
		os->have |= 1ULL << FSLOAD_A_OPSTAT_TYPE |
			    1ULL << FSLOAD_A_OPSTAT_OPS |
			    1ULL << FSLOAD_A_OPSTAT_ERRORS |
			    1ULL << FSLOAD_A_OPSTAT_MISSES |
			    1ULL << FSLOAD_A_OPSTAT_BYTES |
			    1ULL << FSLOAD_A_OPSTAT_SAMPLED |
			    1ULL << FSLOAD_A_OPSTAT_LAT_SUM_NS |
			    1ULL << FSLOAD_A_OPSTAT_LAT_MIN_NS |
			    1ULL << FSLOAD_A_OPSTAT_LAT_MAX_NS;
		err = uhist_buckets(job, res, t, os);
		if (err)
			return err;
	}
	return 0;
}

static int ujob_results(const struct ujob *job, struct results *r)
{
	unsigned int p, n = 0;
	int err;

	memset(r, 0, sizeof(*r));
	for (p = 0; p < job->nphases; p++)
		n += job->res[p].started;
	if (!n)
		return 0;
	r->phases = calloc(n, sizeof(*r->phases));
	if (!r->phases)
		return -ENOMEM;
	for (p = 0; p < job->nphases; p++) {
		if (!job->res[p].started)
			continue;
		err = ujob_result(job, p, &r->phases[r->nphases++]);
		if (err)
			return err;
	}
	return 0;
}

static void ujob_free(struct ujob *job)
{
	unsigned int i;

	if (job->workers) {
		for (i = 0; i < job->threads; i++) {
			free(job->workers[i].buf);
			free(job->workers[i].e.hist);
		}
	}
	free(job->workers);
	if (job->res) {
		for (i = 0; i < job->nphases; i++)
			free(job->res[i].hist);
	}
	free(job->res);
	free(job->phases);
	free(job->threads0);
	if (job->dir_fd >= 0)
		close(job->dir_fd);
	if (job->sync_fd >= 0)
		close(job->sync_fd);
	pthread_mutex_destroy(&job->lock);
	pthread_cond_destroy(&job->cond);
}

/* A thread's I/O buffer: aligned for O_DIRECT, incompressible data. */
static void *ubuf_alloc(u32 bytes)
{
	size_t len = ((size_t)bytes + 4095) & ~(size_t)4095;
	size_t done = 0;
	ssize_t n;
	void *buf;

	if (posix_memalign(&buf, 4096, len))
		return NULL;
	while (done < len) {
		n = getrandom((char *)buf + done, len - done, 0);
		if (n <= 0 && errno != EINTR) {
			free(buf);
			return NULL;
		}
		if (n > 0)
			done += n;
	}
	return buf;
}

static int ujob_alloc(struct ujob *job)
{
	size_t hist = fsload_hist_words(&job->slots);
	unsigned int i, g = 0;
	u32 gend = job->group_threads[0];

	job->res = calloc(job->nphases, sizeof(*job->res));
	job->workers = calloc(job->threads, sizeof(*job->workers));
	if (!job->res || !job->workers)
		return -ENOMEM;
	for (i = 0; i < job->nphases; i++) {
		job->res[i].hist = calloc(hist, sizeof(u64));
		if (!job->res[i].hist)
			return -ENOMEM;
	}
	for (i = 0; i < job->threads; i++) {
		struct fsload_worker *w = &job->workers[i];

		w->job = job;
		w->index = i;
		fsload_engine_init(&w->e, i, job->threads, job->rank,
				   job->ranks, job->files, job->files_per_dir, job->branch,
				   job->first_dir, job->seed,
				   job->flags & FSLOAD_JOB_F_SHARED_DIR,
				   &job->naming, &job->slots);
		/* the workers, group by group, as the kernel numbers them */
		while (i >= gend && g + 1 < job->ngroups)
			gend += job->group_threads[++g];
		w->e.group = g;
		w->e.lat_sample = job->lat_sample;
		w->e.hist = calloc(hist, sizeof(u64));
		w->buf = ubuf_alloc(job->max_block);
		if (!w->e.hist || !w->buf)
			return -ENOMEM;
	}
	return 0;
}

/* mkdir DIR/fsload-user-<pid>-<n>, a name no other run has taken. */
static int ujob_mkdir(int parent_fd, char *name, size_t len)
{
	static unsigned int seq;
	unsigned int tries;

	for (tries = 0; tries < 1000; tries++) {
		snprintf(name, len, "fsload-user-%d-%u", (int)getpid(), seq++);
		if (!mkdirat(parent_fd, name, 0755))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* The job of @req, before its directory: its settings, phases and slots. */
static int ujob_setup(struct ujob *job, const struct job_req *req)
{
	const struct params *p = req->p;
	struct fsload_job_shape js;
	unsigned int i;

	job->threads = req->threads;
	job->rank = p->rank;
	job->ranks = job_ranks(req);
	job->ngroups = req->prog->ngroups ? req->prog->ngroups : 1;
	for (i = 0; i < req->prog->ngroups; i++)
		job->group_threads[i] = req->prog->groups[i].threads;
	if (!req->prog->ngroups)
		job->group_threads[0] = req->threads;
	job->files = req->files;
	job->files_per_dir = p->files_per_dir;
	job->branch = p->tree_branch;
	job->first_dir = p->first_dir;
	job->lat_sample = p->lat_sample;
	job->naming.scheme = p->scheme;
	job->naming.bytes = p->name_bytes ?: FSLOAD_FSMARK_NAME_BYTES;
	job->naming.random = p->name_random_bytes ?: FSLOAD_FSMARK_RANDOM_BYTES;
	job->seed = p->seed;
	job->flags = req->flags;
	job->idle_ms = p->idle_ms;
	job->uring = req->engine == ENGINE_URING;
	job->uring_opts.sqpoll = p->uring_sqpoll;
	job->uring_opts.batch = p->uring_batch;
	/* the scheduler's ns where the kernel has them, its ticks else */
	job->busy_ticks = !usys_read_schedstat(&job->sys0);
	job->prog = req->prog;
	job->sync = req->sync;
	job->nphases = req->prog->nphases;
	job->phases = calloc(job->nphases, sizeof(*job->phases));
	if (!job->phases)
		goto oom;
	ushape(req->prog, req->threads, job->files, req->flags, &js);
	if (uprog_convert(req->prog, &js, job_phase_flags(req),
			  job->phases, &job->max_block))
		return EXIT_USAGE;
	fsload_slots_init(&job->slots, job->phases, job->nphases);
	if (ujob_alloc(job))
		goto oom;
	return 0;
oom:
	errmsg("out of memory");
	return EXIT_SYSERR;
}

/*
 * The job of a rank but 0 of a run in one directory: it works in rank
 * 0's job's directory (the kernel's join_dir), looked up in the target
 * without following a symlink or crossing a mount, and only if it is
 * still the directory rank 0's job made: as the module, by
 * fsload_dir_differs(), for the starter (its euid, which the user
 * engine's files are made with).
 */
static int ujob_join_dir(struct ujob *job, const struct job_req *req,
			 int parent_fd, const char *resolved, struct run *run)
{
	struct rank_sync *rs = req->sync;
	struct fsload_dir_id id;
	enum fsload_dir_diff d;
	struct stat pst, st;

	if (rank_sync_join_get(rs))
		return EXIT_SYSERR;
	if (asprintf(&run->job_dir, "%s/%s", resolved, rs->join_dir) < 0) {
		run->job_dir = NULL;
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	job->dir_fd = openat(parent_fd, rs->join_dir,
			     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (job->dir_fd < 0) {
		errsys("rank %" PRIu32 ": rank 0's job directory %s",
		       req->p->rank, run->job_dir);
		return EXIT_SYSERR;
	}
	if (fstat(parent_fd, &pst) || fstat(job->dir_fd, &st)) {
		errsys("%s", run->job_dir);
		return EXIT_SYSERR;
	}
	if (st.st_dev != pst.st_dev) {
		errmsg("rank %" PRIu32 ": %s: a mount point, not rank 0's job directory",
		       req->p->rank, run->job_dir);
		return EXIT_SYSERR;
	}
	if (dir_fd_id(job->dir_fd, &id)) {
		errsys("%s", run->job_dir);
		return EXIT_SYSERR;
	}
	d = fsload_dir_differs(&rs->join_id, &id, geteuid());
	if (d != FSLOAD_DIR_SAME) {
		errmsg("rank %" PRIu32 ": %s: %s", req->p->rank, run->job_dir,
		       dir_diff_msgs[d]);
		return EXIT_SYSERR;
	}
	job->sync_fd = openat(job->dir_fd, ".",
			      O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (job->sync_fd < 0) {
		errsys("%s", run->job_dir);
		return EXIT_SYSERR;
	}
	return 0;
}

/*
 * As the kernel: the target directory @parent_fd (@resolved) must exist;
 * the job's is new.  Makes it, names it in @run->job_dir and opens it.
 * 0, or an exit code with nothing left behind but what out_rm removes.
 */
static int ujob_make_job_dir(struct ujob *job, const struct job_req *req,
			     int parent_fd, const char *resolved,
			     struct run *run)
{
	struct rank_sync *rs = req->sync;
	char name[64];
	int err;

	if (job_joins(req))
		return ujob_join_dir(job, req, parent_fd, resolved, run);
	err = ujob_mkdir(parent_fd, name, sizeof(name));
	if (err) {
		errno = -err;
		errsys("cannot make a job directory in %s", req->p->dir);
		return EXIT_SYSERR;
	}
	if (asprintf(&run->job_dir, "%s/%s", resolved, name) < 0) {
		run->job_dir = NULL;
		unlinkat(parent_fd, name, AT_REMOVEDIR);
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	job->dir_fd = openat(parent_fd, name,
			     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	job->sync_fd = openat(parent_fd, name,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (job->dir_fd < 0 || job->sync_fd < 0) {
		errsys("%s", run->job_dir);
		return EXIT_SYSERR;
	}
	if (rs && rs->join) {
		struct fsload_dir_id id;

		if (dir_fd_id(job->dir_fd, &id)) {
			errsys("%s", run->job_dir);
			return EXIT_SYSERR;
		}
		rank_sync_join_put(rs, name, &id);
	}
	return 0;
}

/* The signal handlers the job replaces while it runs. */
struct usig_saved {
	struct sigaction old_int, old_term;
};

/*
 * Start @job's workers, with SIGINT and SIGTERM blocked in them: signals
 * go to this thread, which stops the job.  A worker that cannot be
 * created fails the job as a failed start would.
 */
static void ujob_start_workers(struct ujob *job, const struct job_req *req,
			       struct usig_saved *saved)
{
	struct sigaction sa;
	sigset_t block, old_mask;
	unsigned int i;
	int err;

	usignals = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = uengine_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &saved->old_int);
	sigaction(SIGTERM, &sa, &saved->old_term);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old_mask);
	for (i = 0; i < job->threads; i++) {
		struct fsload_worker *w = &job->workers[i];

		pthread_mutex_lock(&job->lock);
		job->running++;
		pthread_mutex_unlock(&job->lock);
		err = uworker_start(w, req->p->cpus, i);
		if (err) {
			pthread_mutex_lock(&job->lock);
			job->running--;
			/* As a failed start: no thread runs a phase. */
			job->err = -err;
			snprintf(job->errmsg, sizeof(job->errmsg),
				 "thread %u: cannot create it", i);
			pthread_mutex_unlock(&job->lock);
			ujob_stop(job);
			break;
		}
		w->created = true;
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
}

/*
 * Until @job's workers have all returned: stop it on a signal or when
 * @req's tick says so, draw the progress line; then join them and put
 * the signal handlers back.  Returns the time they had all ended.
 */
static u64 ujob_wait(struct ujob *job, const struct job_req *req,
		      struct run *run, u64 start_ns,
		      const struct usig_saved *saved)
{
	const struct params *p = req->p;
	bool progress = (p->progress == PROGRESS_LINE ||
			 p->progress == PROGRESS_BAR) && p->progress_ms;
	unsigned int i, poll_ms = UENGINE_POLL_MS;
	u64 last_draw = 0, last_tick, end_ns;
	struct progress pr;

	progress_init(&pr, progress ? p->progress : PROGRESS_NONE,
		      job->uring ? "uring engine" : "user engine");

	if (req->tick && req->tick_ms)
		poll_ms = min(poll_ms, req->tick_ms);
	if (progress)
		poll_ms = min(poll_ms, p->progress_ms);
	last_tick = mono_ns();
	pthread_mutex_lock(&job->lock);
	while (job->running) {
		struct timespec ts;
		u64 now;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += poll_ms / 1000;
		ts.tv_nsec += (long)(poll_ms % 1000) * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&job->cond, &job->lock, &ts);
		if (!job->running)
			break;
		pthread_mutex_unlock(&job->lock);
		now = mono_ns();
		if (usignals && !READ_ONCE(job->stop))
			ujob_stop(job);
		if (req->tick && !run->stopped_by_us &&
		    now - last_tick >= req->tick_ms * 1000000ULL) {
			last_tick = now;
			if (req->tick(req->tick_arg)) {
				run->stopped_by_us = true;
				ujob_stop(job);
			}
		}
		if (progress && now - last_draw >= p->progress_ms * 1000000ULL) {
			last_draw = now;
			uprogress_draw(job, req, start_ns, &pr);
		}
		pthread_mutex_lock(&job->lock);
	}
	pthread_mutex_unlock(&job->lock);
	for (i = 0; i < job->threads; i++) {
		if (job->workers[i].created)
			pthread_join(job->workers[i].thread, NULL);
	}
	end_ns = mono_ns();
	progress_clear(&pr);
	if (usignals)
		run->interrupted = true;
	sigaction(SIGINT, &saved->old_int, NULL);
	sigaction(SIGTERM, &saved->old_term, NULL);
	return end_ns;
}

/* The ended job's status and results into @run.  0 or EXIT_SYSERR. */
static int ujob_report(struct ujob *job, const struct job_req *req,
		       const char *resolved, u64 elapsed_ns, struct run *run)
{
	if (ujob_status(job, req, resolved, elapsed_ns, &run->js) ||
	    ujob_results(job, &run->r)) {
		job_status_free(&run->js);
		results_free(&run->r);
		errmsg("out of memory");
		return EXIT_SYSERR;
	}
	run->ok = true;
	if (job->stopped_by_ranks)
		run->stopped_by_us = true;
	run->holds = job->holds;
	run->hold_ns = job->hold_ns;
	run->ret = state_exit_code(run->js.state);
	if (run->stopped_by_us && run->js.state == FSLOAD_JOB_STOPPED)
		run->ret = EXIT_OK;
	if (run->js.state != FSLOAD_JOB_STOPPED)
		run->interrupted = false;
	return 0;
}

int uengine_run(const struct job_req *req, struct run *run)
{
	const struct params *p = req->p;
	struct ujob job = {
		.dir_fd = -1,
		.sync_fd = -1,
		.cur_phase = -1,
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	struct usig_saved saved;
	char *resolved = NULL;
	u64 start_ns, end_ns;
	int parent_fd = -1, ret;

	memset(run, 0, sizeof(*run));
	run->threads = req->threads;
	ret = uengine_check(req->prog, req->threads, p->rank, job_ranks(req),
			    req->files,
			    p->files_per_dir, p->tree_branch, p->first_dir,
			    req->flags, p->scheme);
	if (!ret && req->engine == ENGINE_URING)
		ret = uengine_check_uring(p);
	if (ret)
		return ret;
	ret = ujob_setup(&job, req);
	if (ret)
		goto out;

	resolved = realpath(p->dir, NULL);
	parent_fd = open(p->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (parent_fd < 0 || !resolved) {
		errsys("%s", p->dir);
		ret = EXIT_USAGE;
		goto out;
	}
	uengine_clock_init();
	start_ns = mono_ns();
	ret = ujob_make_job_dir(&job, req, parent_fd, resolved, run);
	if (ret)
		goto out_rm;

	ujob_start_workers(&job, req, &saved);
	if (!p->quiet)
		fprintf(stderr, "fsloadctl: %s engine started (%s, %" PRIu32
			" thread%s, in %s)\n", job.uring ? "uring" : "user",
			req->prog->profile,
			req->threads, req->threads == 1 ? "" : "s", p->dir);
	end_ns = ujob_wait(&job, req, run, start_ns, &saved);
	ret = ujob_report(&job, req, resolved, end_ns - start_ns, run);

out_rm:
	/*
	 * From the directory it holds: never what took its name; rank 0's
	 * job's, which it joined, is rank 0's to remove.
	 */
	if (!(req->flags & FSLOAD_JOB_F_KEEP) && job.dir_fd >= 0 &&
	    !job_joins(req))
		tree_remove_fd(job.dir_fd, run->job_dir);
	if (job.dir_fd >= 0)
		close(job.dir_fd);
	if (job.sync_fd >= 0)
		close(job.sync_fd);
	job.dir_fd = job.sync_fd = -1;
out:
	if (parent_fd >= 0)
		close(parent_fd);
	free(resolved);
	ujob_free(&job);
	return ret;
}
