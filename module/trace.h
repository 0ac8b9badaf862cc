/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload: tracepoints, so that perf, ftrace and bpftrace can be aimed at
 * exactly a job's work:
 *
 *	perf record -e 'fsload:*' -a -- fsloadctl start ...
 *	perf trace -e fsload:fsload_op --filter 'lat_ns > 1000000'
 *
 * A disabled tracepoint costs a patched-out branch per operation.
 * fsload_op fires for every synchronous op; its lat_ns is 0 for an op
 * the job's lat-sample did not time.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM fsload

#if !defined(_FSLOAD_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FSLOAD_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(fsload_phase_start,
	    TP_PROTO(u32 job, unsigned int phase, const char *name,
		     unsigned int threads),
	    TP_ARGS(job, phase, name, threads),
	    TP_STRUCT__entry(__field(u32, job)
			     __field(unsigned int, phase)
			     __string(name, name)
			     __field(unsigned int, threads)),
	    TP_fast_assign(__entry->job = job;
			   __entry->phase = phase;
			   FSLOAD_ASSIGN_STR(name, name);
			   __entry->threads = threads;),
	    TP_printk("job=%u phase=%u name=%s threads=%u", __entry->job,
		      __entry->phase, __get_str(name), __entry->threads)
);

TRACE_EVENT(fsload_phase_end,
	    TP_PROTO(u32 job, unsigned int phase, u64 elapsed_ns,
		     u64 tail_ns),
	    TP_ARGS(job, phase, elapsed_ns, tail_ns),
	    TP_STRUCT__entry(__field(u32, job)
			     __field(unsigned int, phase)
			     __field(u64, elapsed_ns)
			     __field(u64, tail_ns)),
	    TP_fast_assign(__entry->job = job;
			   __entry->phase = phase;
			   __entry->elapsed_ns = elapsed_ns;
			   __entry->tail_ns = tail_ns;),
	    TP_printk("job=%u phase=%u elapsed_ns=%llu tail_ns=%llu",
		      __entry->job, __entry->phase, __entry->elapsed_ns,
		      __entry->tail_ns)
);

TRACE_EVENT(fsload_op,
	    TP_PROTO(u32 job, unsigned int thread, u8 type, s64 ret,
		     u64 lat_ns),
	    TP_ARGS(job, thread, type, ret, lat_ns),
	    TP_STRUCT__entry(__field(u32, job)
			     __field(unsigned int, thread)
			     __field(u8, type)
			     __field(s64, ret)
			     __field(u64, lat_ns)),
	    TP_fast_assign(__entry->job = job;
			   __entry->thread = thread;
			   __entry->type = type;
			   __entry->ret = ret;
			   __entry->lat_ns = lat_ns;),
	    TP_printk("job=%u thread=%u op=%u ret=%lld lat_ns=%llu",
		      __entry->job, __entry->thread, __entry->type,
		      __entry->ret, __entry->lat_ns)
);

TRACE_EVENT(fsload_stall,
	    TP_PROTO(u32 job, unsigned int thread, int pid, int phase,
		     u64 still_ns),
	    TP_ARGS(job, thread, pid, phase, still_ns),
	    TP_STRUCT__entry(__field(u32, job)
			     __field(unsigned int, thread)
			     __field(int, pid)
			     __field(int, phase)
			     __field(u64, still_ns)),
	    TP_fast_assign(__entry->job = job;
			   __entry->thread = thread;
			   __entry->pid = pid;
			   __entry->phase = phase;
			   __entry->still_ns = still_ns;),
	    TP_printk("job=%u thread=%u pid=%d phase=%d still_ns=%llu",
		      __entry->job, __entry->thread, __entry->pid,
		      __entry->phase, __entry->still_ns)
);

#endif /* _FSLOAD_TRACE_H */

/* Out of the kernel tree: the header is found next to this file. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
