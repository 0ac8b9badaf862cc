// SPDX-License-Identifier: GPL-2.0
/*
 * fsload: a job's CPU profile - where each op type's CPU went.
 *
 * One sampling perf event per online CPU (task NULL, cpu N), never one
 * bound to a task: a task-bound event flips the perf_sched_events static
 * key patched into __schedule(), which QEMU's multi-threaded TCG has been
 * seen to oops on (measure.c); a per-CPU event without freq, cgroup,
 * branch stack or context_switch does not (account_event(),
 * kernel/events/core.c).  The event is the CPU's cycle counter where the
 * machine has a PMU, else the cpu-clock timer (under QEMU's instruction
 * clock its period is in instructions, so profiles nearly repeat).
 *
 * The overflow handler (an hrtimer interrupt, or an NMI for cycles) runs
 * on the CPU it samples.  It keeps a sample only when it interrupted a
 * worker of the job inside a phase: the worker's phase (in_phase) and op
 * type (e.op_type, which the phase loop publishes before each op, or
 * before the first for a group's only op) name what the sample is booked
 * to.  The interrupted stack goes into the
 * worker's own tables, fixed open-addressing hashes allocated at the
 * start: its call path (the return addresses, with phase and op type)
 * in one, and the interrupted instruction on that path, with its count,
 * in the other, whose small entries are many: nearly every sample of a
 * deep path interrupts another instruction, while the paths are few (no
 * lookup of a symbol's start is exported to fold instructions into their
 * functions here; the dump's %ps does, and fsloadctl adds up equal
 * stacks).  The handler tells which worker it interrupted from the job's
 * own memory only (fsload_profile_worker()).  A sample that finds no slot
 * within FSLOAD_PROFILE_PROBES in either is counted as dropped.  Only the
 * handler writes a worker's table and counters, and only while it
 * interrupts that worker,
 * so never two at once; the worker reads the counters at its phase's
 * merge (the handler then does not run for it), the profile dump reads
 * the tables once the events are gone (an ended job).  Symbols are
 * resolved at the dump, by the kernel (%ps), so that module functions
 * are named without /proc/kallsyms; an address no symbol names (a
 * module unloaded since) is "[unknown]", never the address.  Only the
 * job's starter or an administrator may read the dump (netlink.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/hash.h>
#include <linux/jhash.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/timekeeping.h>
#include "fsload.h"

/* Slots a sample's stack may try before it is dropped. */
#define FSLOAD_PROFILE_PROBES	16

/*
 * The job's worker the handler interrupted, or NULL.  Only @job's own
 * memory is read, which lives while its events do: the interrupted task
 * may be a worker of another job that is still in do_exit() after
 * kthread_stop() returned, its job freed, so its kthread data is only
 * compared as an address, never followed.  That address is in @job's
 * workers array for each of @job's workers, and for another job's whose
 * freed array @job's now occupies: the worker's own task pointer tells
 * them apart.  It is cleared before the task is unpinned
 * (fsload_job_stop_workers()), so it never names a task that reuses a
 * worker's freed task_struct.
 */
static struct fsload_worker *fsload_profile_worker(struct fsload_job *job)
{
	const size_t size = sizeof(struct fsload_worker);
	struct fsload_worker *w;
	unsigned long off;

	if (!(current->flags & PF_KTHREAD) ||
	    kthread_func(current) != fsload_worker_fn)
		return NULL;
	off = (unsigned long)kthread_data(current) -
	      (unsigned long)job->workers;
	if (off >= job->prog.setup.threads * size || off % size)
		return NULL;
	w = &job->workers[off / size];
	return READ_ONCE(w->task) == current ? w : NULL;
}

/*
 * The interrupted stack in @w's scratch: the interrupted instruction,
 * then at most FSLOAD_PROFILE_DEPTH return addresses (the handler's and
 * the interrupt's own frames skipped).  Returns the instruction's index
 * in scratch and sets *@depth to the return addresses after it; -1 when
 * the interrupted instruction is not on the stack the unwinder saw, or
 * is the last (a worker's stack has its kthread's frames below).
 */
static int fsload_profile_unwind(struct fsload_worker *w,
				 struct pt_regs *regs, unsigned int *depth)
{
	unsigned long ip = instruction_pointer(regs);
	unsigned int n, i;

	n = stack_trace_save(w->pscratch, FSLOAD_PROFILE_SCRATCH, 0);
	for (i = 0; i + 1 < n; i++) {
		if (w->pscratch[i] == ip) {
			*depth = min_t(unsigned int, n - i - 1,
				       FSLOAD_PROFILE_DEPTH);
			return i;
		}
	}
	return -1;
}

/* The slot of call path @ips (@depth) in phase @phase, op @op, or -1. */
static int fsload_profile_path(struct fsload_worker *w, u16 phase, u8 op,
			       const unsigned long *ips, unsigned int depth)
{
	u32 n = DIV_ROUND_UP(w->job->prog.profile_stacks,
			     FSLOAD_PROFILE_STACKS_PER_PATH);
	u32 h = jhash(ips, depth * sizeof(*ips), (u32)phase << 8 | op);
	struct fsload_ppath *s;
	unsigned int i, k;

	for (i = 0; i < FSLOAD_PROFILE_PROBES; i++) {
		k = (h + i) % n;
		s = &w->ppaths[k];
		if (!s->depth) {
			s->hash = h;
			s->phase = phase;
			s->op = op;
			memcpy(s->ip, ips, depth * sizeof(*ips));
			s->depth = depth;
			return k;
		}
		if (s->hash == h && s->phase == phase && s->op == op &&
		    s->depth == depth &&
		    !memcmp(s->ip, ips, depth * sizeof(*ips)))
			return k;
	}
	return -1;
}

/* Count a sample at @ip on call path @path. */
static bool fsload_profile_count(struct fsload_worker *w, unsigned long ip,
				 u32 path)
{
	u32 n = w->job->prog.profile_stacks;
	u32 h = hash_long(ip ^ path, 32);
	struct fsload_pstack *s;
	unsigned int i;

	for (i = 0; i < FSLOAD_PROFILE_PROBES; i++) {
		s = &w->pstacks[(h + i) % n];
		if (!s->samples) {
			s->ip = ip;
			s->path = path;
			s->samples = 1;
			return true;
		}
		if (s->ip == ip && s->path == path) {
			s->samples++;
			return true;
		}
	}
	return false;
}

static void fsload_profile_sample(struct perf_event *ev,
				  struct perf_sample_data *data,
				  struct pt_regs *regs)
{
	struct fsload_worker *w;
	unsigned int depth;
	int phase, first, path;
	u64 t0;

	w = fsload_profile_worker(ev->overflow_handler_context);
	if (!w)
		return;
	phase = READ_ONCE(w->in_phase);
	if (!phase)
		return;
	t0 = ktime_get_mono_fast_ns();
	w->prof_samples++;
	first = fsload_profile_unwind(w, regs, &depth);
	path = first < 0 ? -1 :
	       fsload_profile_path(w, phase - 1, READ_ONCE(w->e.op_type),
				   &w->pscratch[first + 1], depth);
	if (path < 0 ||
	    !fsload_profile_count(w, w->pscratch[first], path))
		w->prof_dropped++;
	w->prof_ns += ktime_get_mono_fast_ns() - t0;
}

/**
 * fsload_profile_alloc() - the workers' stack tables of a profiled job
 * @job: its program parsed, its workers allocated
 *
 * Context: process.
 * Return: 0 or -ENOMEM.
 */
int fsload_profile_alloc(struct fsload_job *job)
{
	const struct fsload_program *prog = &job->prog;
	unsigned int i;

	if (!prog->profile_hz)
		return 0;
	job->prof_ev = kcalloc(nr_cpu_ids, sizeof(*job->prof_ev), GFP_KERNEL);
	if (!job->prof_ev)
		return -ENOMEM;
	for (i = 0; i < prog->setup.threads; i++) {
		struct fsload_worker *w = &job->workers[i];

		w->pstacks = kvcalloc(prog->profile_stacks,
				      sizeof(*w->pstacks), GFP_KERNEL);
		w->ppaths = kvcalloc(DIV_ROUND_UP(prog->profile_stacks,
						  FSLOAD_PROFILE_STACKS_PER_PATH),
				     sizeof(*w->ppaths), GFP_KERNEL);
		w->pscratch = kcalloc(FSLOAD_PROFILE_SCRATCH,
				      sizeof(*w->pscratch), GFP_KERNEL);
		if (!w->pstacks || !w->ppaths || !w->pscratch)
			return -ENOMEM;
	}
	return 0;
}

/**
 * fsload_profile_free() - free what fsload_profile_alloc() allocated
 * @job: its events released (fsload_profile_stop())
 *
 * Context: process.
 */
void fsload_profile_free(struct fsload_job *job)
{
	unsigned int i;

	for (i = 0; job->workers && i < job->prog.setup.threads; i++) {
		kvfree(job->workers[i].pstacks);
		kvfree(job->workers[i].ppaths);
		kfree(job->workers[i].pscratch);
	}
	kfree(job->prof_ev);
}

static struct perf_event *fsload_profile_event(struct fsload_job *job,
					       int cpu, u32 type, u64 config)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.sample_period = job->prof_period,
		/* Workers are kernel threads: all they run is kernel mode. */
		.exclude_user = 1,
		.exclude_hv = 1,
		.exclude_idle = 1,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL,
						fsload_profile_sample, job);
}

/**
 * fsload_profile_start() - create a profiled job's sampling events
 * @job: fsload_profile_alloc() done
 * @extack: where to explain a failure
 *
 * The cycle counter on every online CPU where the first has one, else
 * the cpu-clock timer.  A CPU brought online later is not sampled.
 *
 * Context: process.
 * Return: 0 or a negative errno, with its events released.
 */
int fsload_profile_start(struct fsload_job *job,
			 struct netlink_ext_ack *extack)
{
	struct perf_event *ev;
	u32 type = PERF_TYPE_HARDWARE;
	u64 config = PERF_COUNT_HW_CPU_CYCLES;
	int cpu;

	if (!job->prog.profile_hz)
		return 0;
	job->prof_period = div_u64(NSEC_PER_SEC, job->prog.profile_hz);
	job->prof_clock = FSLOAD_PROFILE_CLOCK_CYCLES;
	for_each_online_cpu(cpu) {
		ev = fsload_profile_event(job, cpu, type, config);
		if (IS_ERR(ev) && type == PERF_TYPE_HARDWARE &&
		    !job->prof_nev) {
			type = PERF_TYPE_SOFTWARE;
			config = PERF_COUNT_SW_CPU_CLOCK;
			job->prof_clock = FSLOAD_PROFILE_CLOCK_CPU_CLOCK;
			ev = fsload_profile_event(job, cpu, type, config);
		}
		if (IS_ERR(ev)) {
			fsload_profile_stop(job);
			NL_SET_ERR_MSG(extack,
				       "cpu-profile-hz: cannot create a sampling event");
			return PTR_ERR(ev);
		}
		job->prof_ev[cpu] = ev;
		job->prof_nev++;
	}
	return 0;
}

/**
 * fsload_profile_stop() - release a job's sampling events
 * @job: the job; may have none
 *
 * Once it returns no handler runs for @job.
 *
 * Context: process.
 */
void fsload_profile_stop(struct fsload_job *job)
{
	int cpu;

	for (cpu = 0; job->prof_ev && cpu < nr_cpu_ids; cpu++) {
		if (job->prof_ev[cpu])
			perf_event_release_kernel(job->prof_ev[cpu]);
		job->prof_ev[cpu] = NULL;
	}
	job->prof_nev = 0;
}

/**
 * fsload_profile_merge() - add a worker's phase counts to its result
 * @w: the worker, out of its phase (the handler ignores it)
 * @res: the phase's result; job->lock held
 *
 * Context: the worker kthread.
 */
void fsload_profile_merge(struct fsload_worker *w, struct fsload_result *res)
{
	res->prof_samples += w->prof_samples;
	res->prof_dropped += w->prof_dropped;
	res->prof_ns += w->prof_ns;
	w->prof_samples = 0;
	w->prof_dropped = 0;
	w->prof_ns = 0;
}

/* What an address no symbol names is shown as: never the address. */
#define FSLOAD_FRAME_UNKNOWN	"[unknown]"

/*
 * Bytes the frame of @ip takes: its function (%ps), or
 * FSLOAD_FRAME_UNKNOWN where %ps would print the address itself (a module
 * unloaded since, no kallsyms), which would undo KASLR for the reader.
 * @leaf is the interrupted instruction.
 */
static int fsload_frame(char *buf, size_t size, unsigned long ip, bool leaf)
{
	char sym[KSYM_SYMBOL_LEN];

	/* A return address may be past a call that is its function's end. */
	snprintf(sym, sizeof(sym), "%ps", (void *)(leaf ? ip : ip - 1));
	/* No symbol begins with a digit: "0x..." is the bare address. */
	if (isdigit(sym[0]))
		return snprintf(buf, size, "%s", FSLOAD_FRAME_UNKNOWN);
	return snprintf(buf, size, "%s", sym);
}

/**
 * fsload_profile_frames() - a stack as folded frames
 * @w: its worker
 * @s: the stack
 * @buf: out, outermost first, ";" between frames, NUL-terminated
 * @size: its size; outermost frames that do not fit are left out
 *
 * Context: process.
 * Return: the string's length.
 */
int fsload_profile_frames(const struct fsload_worker *w,
			  const struct fsload_pstack *s, char *buf, size_t size)
{
	const struct fsload_ppath *p = &w->ppaths[s->path];
	int i, from, len, need;

	/* The interrupted instruction, then return addresses (from 1). */
	need = fsload_frame(NULL, 0, s->ip, true);
	for (from = 0; from < p->depth; from++) {
		len = fsload_frame(NULL, 0, p->ip[from], false) + 1;
		if (need + len >= size)
			break;
		need += len;
	}
	len = 0;
	for (i = from - 1; i >= 0; i--) {
		len += fsload_frame(buf + len, size - len, p->ip[i], false);
		len += scnprintf(buf + len, size - len, ";");
	}
	len += fsload_frame(buf + len, size - len, s->ip, true);
	return len;
}
