// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: where the CPU went during a phase.
 *
 * Each worker reads its own scheduler runtime at the start and end of a
 * phase, and counts kernel-mode instructions and cycles with in-kernel
 * perf counters bound to its task where the machine has a PMU (not
 * under QEMU's TCG: then they are absent, and no perf event exists).
 * The machine's busy time (all CPUs, neither idle nor waiting for I/O)
 * is read at the phase's open and close; what the workers did
 * not use of it went to other threads, and the threads that used most
 * are found from their scheduler runtime.  Nothing here runs per
 * operation.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/kernel.h>
#include <linux/kernel_stat.h>
#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include "fsload.h"

/* A hardware counter of the current task, or NULL (no PMU). */
static struct perf_event *fsload_counter(u64 config)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = config,
		/* Workers are kernel threads: all they run is kernel mode. */
		.exclude_user = 1,
		.exclude_hv = 1,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, -1, current, NULL, NULL);
	return IS_ERR(ev) ? NULL : ev;
}

/**
 * fsload_counters_open() - count the current worker
 * @w: the worker, running
 *
 * A counter that cannot be created is left out: its figures are absent.
 *
 * Context: the worker kthread.
 */
void fsload_counters_open(struct fsload_worker *w)
{
	w->ev_insn = fsload_counter(PERF_COUNT_HW_INSTRUCTIONS);
	w->ev_cycles = fsload_counter(PERF_COUNT_HW_CPU_CYCLES);
	if (!w->ev_insn || !w->ev_cycles) {
		if (w->ev_insn)
			perf_event_release_kernel(w->ev_insn);
		if (w->ev_cycles)
			perf_event_release_kernel(w->ev_cycles);
		w->ev_insn = NULL;
		w->ev_cycles = NULL;
	}
}

/* A counter's value, scaled when it was multiplexed. */
static u64 fsload_counter_read(struct perf_event *ev)
{
	u64 enabled, running, v;

	v = perf_event_read_value(ev, &enabled, &running);
	if (running && running < enabled)
		v = mul_u64_u64_div_u64(v, enabled, running);
	return v;
}

/*
 * The current task's CPU time so far.  The scheduler brings a running
 * task's runtime up to date at each tick and each pass through it; a
 * pass while still runnable (picking the next task updates the current
 * one's runtime) makes the figure exact, as perf's task clock, without a
 * perf event: creating the first task-bound event flips a static key
 * patched into __schedule(), which QEMU's multi-threaded TCG has been
 * seen to fault on (an int3 oops on 6.12).
 */
static u64 fsload_self_runtime(void)
{
	schedule();
	return READ_ONCE(current->se.sum_exec_runtime);
}

/**
 * fsload_counters_read() - the current worker's counts so far
 * @w: the worker, running
 * @c: out; zero for counters it does not have
 *
 * Context: the worker kthread; may sleep.
 */
void fsload_counters_read(struct fsload_worker *w, struct fsload_counters *c)
{
	c->cpu_ns = fsload_self_runtime();
	c->instructions = w->ev_insn ? fsload_counter_read(w->ev_insn) : 0;
	c->cycles = w->ev_cycles ? fsload_counter_read(w->ev_cycles) : 0;
}

/**
 * fsload_counters_close() - release the worker's counters
 * @w: the worker
 *
 * Context: the worker kthread.
 */
void fsload_counters_close(struct fsload_worker *w)
{
	struct perf_event **ev[] = { &w->ev_insn, &w->ev_cycles };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		if (*ev[i])
			perf_event_release_kernel(*ev[i]);
		*ev[i] = NULL;
	}
}

/*
 * Idle and I/O wait time of @cpu since boot: precise where the tick stops
 * in idle (NO_HZ), from the tick's accounting otherwise.
 */
static u64 fsload_cpu_idle_ns(unsigned int cpu)
{
	u64 idle = get_cpu_idle_time_us(cpu, NULL);
	u64 iowait = get_cpu_iowait_time_us(cpu, NULL);

	if (idle == (u64)-1 || iowait == (u64)-1)
		return kcpustat_cpu(cpu).cpustat[CPUTIME_IDLE] +
		       kcpustat_cpu(cpu).cpustat[CPUTIME_IOWAIT];
	return (idle + iowait) * NSEC_PER_USEC;
}

/**
 * fsload_sys_snap() - the machine's idle time now
 * @s: out
 *
 * Context: any.
 */
void fsload_sys_snap(struct fsload_sys *s)
{
	unsigned int cpu;

	s->idle_ns = 0;
	s->cpus = 0;
	s->wall_ns = ktime_get_ns();
	for_each_online_cpu(cpu) {
		s->idle_ns += fsload_cpu_idle_ns(cpu);
		s->cpus++;
	}
}

/**
 * fsload_sys_busy() - busy CPU time of all CPUs from @a to @b
 * @a: the earlier snapshot
 * @b: the later one
 * @span_ns: the time the figure stands for, at most @b's less @a's
 *
 * As the user engine's: at most @span_ns of each CPU (a phase's busy time
 * is over its elapsed time, which ends at its last op while its closer
 * takes @b a little later: a vCPU its host stops in between would count
 * the stop as busy).
 *
 * Return: ns; 0 when CPUs went on- or offline in between.
 */
u64 fsload_sys_busy(const struct fsload_sys *a, const struct fsload_sys *b,
		    u64 span_ns)
{
	u64 total = (b->wall_ns - a->wall_ns) * a->cpus;
	u64 idle = b->idle_ns - a->idle_ns;

	if (a->cpus != b->cpus || b->idle_ns < a->idle_ns)
		return 0;
	return min(total > idle ? total - idle : 0, span_ns * a->cpus);
}

static int fsload_tsnap_cmp(const void *a, const void *b)
{
	const struct fsload_tsnap *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Room for the threads that may appear while the snapshot is taken. */
#define FSLOAD_TSNAP_SLACK	64

/**
 * fsload_threads_snap() - every thread's CPU time now
 * @s: out; free with fsload_threads_free()
 *
 * Context: process context; sleeps to allocate.
 * Return: 0 or -ENOMEM.
 */
int fsload_threads_snap(struct fsload_threads *s)
{
	struct task_struct *g, *t;
	unsigned int n = 0, cap;

	rcu_read_lock();
	for_each_process_thread(g, t)
		n++;
	rcu_read_unlock();
	cap = n + FSLOAD_TSNAP_SLACK;
	s->v = kvmalloc_array(cap, sizeof(*s->v), GFP_KERNEL);
	s->n = 0;
	if (!s->v)
		return -ENOMEM;
	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (s->n == cap)
			break;
		s->v[s->n].pid = t->pid;
		/* Updated by the scheduler as the thread runs. */
		s->v[s->n].runtime_ns = data_race(t->se.sum_exec_runtime);
		s->n++;
	}
	rcu_read_unlock();
	sort(s->v, s->n, sizeof(*s->v), fsload_tsnap_cmp, NULL);
	return 0;
}

/**
 * fsload_threads_free() - release a snapshot
 * @s: the snapshot
 */
void fsload_threads_free(struct fsload_threads *s)
{
	kvfree(s->v);
	s->v = NULL;
	s->n = 0;
}

static bool fsload_is_worker(const struct fsload_job *job, pid_t pid)
{
	unsigned int i;

	for (i = 0; i < job->prog.setup.threads; i++) {
		if (job->workers[i].pid == pid)
			return true;
	}
	return false;
}

/**
 * fsload_threads_top() - the threads that used most CPU since @s0
 * @s0: the snapshot at the phase's open
 * @job: the job; its workers are left out
 * @top: out: FSLOAD_TOP_THREADS entries, most CPU first
 *
 * Threads that started since count from zero; threads that ended are
 * not seen.  A thread's CPU time is its se.sum_exec_runtime, which the
 * scheduler brings up to date at its CPU's tick and when it switches
 * out (task_sched_runtime(), which would add a running thread's current
 * slice, is not exported): each end of the phase may miss up to a tick
 * of a thread running then, and a phase shorter than a tick may list
 * none.
 *
 * Context: process context.
 * Return: the number of entries of @top filled.
 */
unsigned int fsload_threads_top(const struct fsload_threads *s0,
				const struct fsload_job *job,
				struct fsload_top *top)
{
	struct fsload_tsnap key, *old;
	struct task_struct *g, *t;
	struct fsload_top *slot;
	unsigned int n = 0;
	u64 d;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		key.pid = t->pid;
		old = bsearch(&key, s0->v, s0->n, sizeof(key),
			      fsload_tsnap_cmp);
		/* Updated by the scheduler as the thread runs. */
		d = fsload_top_delta(data_race(t->se.sum_exec_runtime),
				     old ? &old->runtime_ns : NULL);
		if (!d || fsload_is_worker(job, t->pid))
			continue;
		slot = fsload_top_add(top, &n, d);
		if (!slot)
			continue;
		slot->pid = t->pid;
		slot->kthread = t->flags & PF_KTHREAD;
		/* The kernel's own readers copy comm without its lock. */
		strscpy(slot->comm, t->comm, sizeof(slot->comm));
	}
	rcu_read_unlock();
	return n;
}
