// SPDX-License-Identifier: GPL-2.0
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/fsload.yaml */
/* by scripts/nl-gen.py: fsloadctl's attribute tables */

#include <stddef.h>

#include <linux/fsload.h>

#include "nl/attrs.h"
#include "nl/fsload-nl-gen.h"

static const char *const op_attr_names[FSLOAD_A_OP_MAX + 1] = {
	[FSLOAD_A_OP_TYPE] = "type",
	[FSLOAD_A_OP_WEIGHT] = "weight",
	[FSLOAD_A_OP_SIZE_BYTES] = "size",
	[FSLOAD_A_OP_BLOCK_BYTES] = "block",
	[FSLOAD_A_OP_FLAGS] = "flags",
	[FSLOAD_A_OP_PAD] = "pad",
	[FSLOAD_A_OP_PREFIX] = "prefix",
	[FSLOAD_A_OP_DEPTH] = "depth",
	[FSLOAD_A_OP_GROUP] = "group",
};

static const unsigned char op_attr_types[FSLOAD_A_OP_MAX + 1] = {
	[FSLOAD_A_OP_TYPE] = ATTR_U8,
	[FSLOAD_A_OP_WEIGHT] = ATTR_U32,
	[FSLOAD_A_OP_SIZE_BYTES] = ATTR_U64,
	[FSLOAD_A_OP_BLOCK_BYTES] = ATTR_U32,
	[FSLOAD_A_OP_FLAGS] = ATTR_U32,
	[FSLOAD_A_OP_PAD] = ATTR_PAD,
	[FSLOAD_A_OP_PREFIX] = ATTR_U8,
	[FSLOAD_A_OP_DEPTH] = ATTR_U32,
	[FSLOAD_A_OP_GROUP] = ATTR_U8,
};

const struct attr_set op_attrs = {
	.name = "op",
	.max = FSLOAD_A_OP_MAX,
	.names = op_attr_names,
	.types = op_attr_types,
};

static const char *const phase_attr_names[FSLOAD_A_PHASE_MAX + 1] = {
	[FSLOAD_A_PHASE_NAME] = "name",
	[FSLOAD_A_PHASE_ORDER] = "order",
	[FSLOAD_A_PHASE_ITERATIONS] = "iterations",
	[FSLOAD_A_PHASE_OP] = "op",
	[FSLOAD_A_PHASE_PAD] = "pad",
	[FSLOAD_A_PHASE_DURATION_MS] = "duration-ms",
	[FSLOAD_A_PHASE_FLAGS] = "flags",
	[FSLOAD_A_PHASE_PREFIX] = "prefix",
	[FSLOAD_A_PHASE_FIRST] = "first",
	[FSLOAD_A_PHASE_STRIDE] = "stride",
};

static const unsigned char phase_attr_types[FSLOAD_A_PHASE_MAX + 1] = {
	[FSLOAD_A_PHASE_NAME] = ATTR_STRING,
	[FSLOAD_A_PHASE_ORDER] = ATTR_U8,
	[FSLOAD_A_PHASE_ITERATIONS] = ATTR_U64,
	[FSLOAD_A_PHASE_OP] = ATTR_NEST,
	[FSLOAD_A_PHASE_PAD] = ATTR_PAD,
	[FSLOAD_A_PHASE_DURATION_MS] = ATTR_U32,
	[FSLOAD_A_PHASE_FLAGS] = ATTR_U32,
	[FSLOAD_A_PHASE_PREFIX] = ATTR_U8,
	[FSLOAD_A_PHASE_FIRST] = ATTR_U64,
	[FSLOAD_A_PHASE_STRIDE] = ATTR_U32,
};

static const struct attr_set *const phase_nested[FSLOAD_A_PHASE_MAX + 1] = {
	[FSLOAD_A_PHASE_OP] = &op_attrs,
};

const struct attr_set phase_attrs = {
	.name = "phase",
	.max = FSLOAD_A_PHASE_MAX,
	.names = phase_attr_names,
	.types = phase_attr_types,
	.nested = phase_nested,
	.label_attr = FSLOAD_A_PHASE_NAME,
};

static const char *const bucket_attr_names[FSLOAD_A_BUCKET_MAX + 1] = {
	[FSLOAD_A_BUCKET_LOW_NS] = "low-ns",
	[FSLOAD_A_BUCKET_HIGH_NS] = "high-ns",
	[FSLOAD_A_BUCKET_COUNT] = "count",
	[FSLOAD_A_BUCKET_PAD] = "pad",
};

static const unsigned char bucket_attr_types[FSLOAD_A_BUCKET_MAX + 1] = {
	[FSLOAD_A_BUCKET_LOW_NS] = ATTR_U64,
	[FSLOAD_A_BUCKET_HIGH_NS] = ATTR_U64,
	[FSLOAD_A_BUCKET_COUNT] = ATTR_U64,
	[FSLOAD_A_BUCKET_PAD] = ATTR_PAD,
};

const struct attr_set bucket_attrs = {
	.name = "bucket",
	.max = FSLOAD_A_BUCKET_MAX,
	.names = bucket_attr_names,
	.types = bucket_attr_types,
};

static const char *const opstat_attr_names[FSLOAD_A_OPSTAT_MAX + 1] = {
	[FSLOAD_A_OPSTAT_TYPE] = "type",
	[FSLOAD_A_OPSTAT_OPS] = "ops",
	[FSLOAD_A_OPSTAT_ERRORS] = "errors",
	[FSLOAD_A_OPSTAT_BYTES] = "bytes",
	[FSLOAD_A_OPSTAT_LAT_SUM_NS] = "lat-sum-ns",
	[FSLOAD_A_OPSTAT_LAT_MIN_NS] = "lat-min-ns",
	[FSLOAD_A_OPSTAT_LAT_MAX_NS] = "lat-max-ns",
	[FSLOAD_A_OPSTAT_PAD] = "pad",
	[FSLOAD_A_OPSTAT_BUCKET] = "bucket",
	[FSLOAD_A_OPSTAT_SAMPLED] = "sampled",
	[FSLOAD_A_OPSTAT_MISSES] = "misses",
};

static const unsigned char opstat_attr_types[FSLOAD_A_OPSTAT_MAX + 1] = {
	[FSLOAD_A_OPSTAT_TYPE] = ATTR_U8,
	[FSLOAD_A_OPSTAT_OPS] = ATTR_U64,
	[FSLOAD_A_OPSTAT_ERRORS] = ATTR_U64,
	[FSLOAD_A_OPSTAT_BYTES] = ATTR_U64,
	[FSLOAD_A_OPSTAT_LAT_SUM_NS] = ATTR_U64,
	[FSLOAD_A_OPSTAT_LAT_MIN_NS] = ATTR_U64,
	[FSLOAD_A_OPSTAT_LAT_MAX_NS] = ATTR_U64,
	[FSLOAD_A_OPSTAT_PAD] = ATTR_PAD,
	[FSLOAD_A_OPSTAT_BUCKET] = ATTR_NEST,
	[FSLOAD_A_OPSTAT_SAMPLED] = ATTR_U64,
	[FSLOAD_A_OPSTAT_MISSES] = ATTR_U64,
};

static const struct attr_set *const opstat_nested[FSLOAD_A_OPSTAT_MAX + 1] = {
	[FSLOAD_A_OPSTAT_BUCKET] = &bucket_attrs,
};

const struct attr_set opstat_attrs = {
	.name = "opstat",
	.max = FSLOAD_A_OPSTAT_MAX,
	.names = opstat_attr_names,
	.types = opstat_attr_types,
	.nested = opstat_nested,
};

static const char *const thread_attr_names[FSLOAD_A_THREAD_MAX + 1] = {
	[FSLOAD_A_THREAD_NAME] = "name",
	[FSLOAD_A_THREAD_PID] = "pid",
	[FSLOAD_A_THREAD_CPU_NS] = "cpu-ns",
	[FSLOAD_A_THREAD_PAD] = "pad",
	[FSLOAD_A_THREAD_KERNEL] = "kernel",
};

static const unsigned char thread_attr_types[FSLOAD_A_THREAD_MAX + 1] = {
	[FSLOAD_A_THREAD_NAME] = ATTR_STRING,
	[FSLOAD_A_THREAD_PID] = ATTR_U32,
	[FSLOAD_A_THREAD_CPU_NS] = ATTR_U64,
	[FSLOAD_A_THREAD_PAD] = ATTR_PAD,
	[FSLOAD_A_THREAD_KERNEL] = ATTR_U8,
};

const struct attr_set thread_attrs = {
	.name = "thread",
	.max = FSLOAD_A_THREAD_MAX,
	.names = thread_attr_names,
	.types = thread_attr_types,
	.label_attr = FSLOAD_A_THREAD_NAME,
};

static const char *const progress_attr_names[FSLOAD_A_PROGRESS_MAX + 1] = {
	[FSLOAD_A_PROGRESS_PCT] = "pct",
	[FSLOAD_A_PROGRESS_WORKERS] = "workers",
	[FSLOAD_A_PROGRESS_ITEMS] = "items",
	[FSLOAD_A_PROGRESS_ELAPSED_NS] = "elapsed-ns",
	[FSLOAD_A_PROGRESS_PAD] = "pad",
};

static const unsigned char progress_attr_types[FSLOAD_A_PROGRESS_MAX + 1] = {
	[FSLOAD_A_PROGRESS_PCT] = ATTR_U8,
	[FSLOAD_A_PROGRESS_WORKERS] = ATTR_U32,
	[FSLOAD_A_PROGRESS_ITEMS] = ATTR_U64,
	[FSLOAD_A_PROGRESS_ELAPSED_NS] = ATTR_U64,
	[FSLOAD_A_PROGRESS_PAD] = ATTR_PAD,
};

const struct attr_set progress_attrs = {
	.name = "progress",
	.max = FSLOAD_A_PROGRESS_MAX,
	.names = progress_attr_names,
	.types = progress_attr_types,
};

static const char *const res_attr_names[FSLOAD_A_RES_MAX + 1] = {
	[FSLOAD_A_RES_PHASE_INDEX] = "phase-index",
	[FSLOAD_A_RES_PHASE_NAME] = "phase-name",
	[FSLOAD_A_RES_THREADS] = "threads",
	[FSLOAD_A_RES_COMPLETE] = "complete",
	[FSLOAD_A_RES_ELAPSED_NS] = "elapsed-ns",
	[FSLOAD_A_RES_OPS] = "ops",
	[FSLOAD_A_RES_ERRORS] = "errors",
	[FSLOAD_A_RES_BYTES] = "bytes",
	[FSLOAD_A_RES_OPSTAT] = "opstat",
	[FSLOAD_A_RES_PAD] = "pad",
	[FSLOAD_A_RES_STONEWALLED] = "stonewalled",
	[FSLOAD_A_RES_WORKER_CPU_NS] = "worker-cpu-ns",
	[FSLOAD_A_RES_INSTRUCTIONS] = "instructions",
	[FSLOAD_A_RES_CYCLES] = "cycles",
	[FSLOAD_A_RES_SYSTEM_CPU_NS] = "system-cpu-ns",
	[FSLOAD_A_RES_TAIL_NS] = "tail-ns",
	[FSLOAD_A_RES_TAIL_CPU_NS] = "tail-cpu-ns",
	[FSLOAD_A_RES_THREAD] = "thread",
	[FSLOAD_A_RES_START_NS] = "start-ns",
	[FSLOAD_A_RES_PROGRESS] = "progress",
	[FSLOAD_A_RES_PROFILE_SAMPLES] = "profile-samples",
	[FSLOAD_A_RES_PROFILE_DROPPED] = "profile-dropped",
	[FSLOAD_A_RES_PROFILE_NS] = "profile-ns",
	[FSLOAD_A_RES_OP_CLOCK] = "op-clock",
	[FSLOAD_A_RES_OP_CLOCK_BACK_STEPS] = "op-clock-back-steps",
};

static const unsigned char res_attr_types[FSLOAD_A_RES_MAX + 1] = {
	[FSLOAD_A_RES_PHASE_INDEX] = ATTR_U32,
	[FSLOAD_A_RES_PHASE_NAME] = ATTR_STRING,
	[FSLOAD_A_RES_THREADS] = ATTR_U32,
	[FSLOAD_A_RES_COMPLETE] = ATTR_U8,
	[FSLOAD_A_RES_ELAPSED_NS] = ATTR_U64,
	[FSLOAD_A_RES_OPS] = ATTR_U64,
	[FSLOAD_A_RES_ERRORS] = ATTR_U64,
	[FSLOAD_A_RES_BYTES] = ATTR_U64,
	[FSLOAD_A_RES_OPSTAT] = ATTR_NEST,
	[FSLOAD_A_RES_PAD] = ATTR_PAD,
	[FSLOAD_A_RES_STONEWALLED] = ATTR_U8,
	[FSLOAD_A_RES_WORKER_CPU_NS] = ATTR_U64,
	[FSLOAD_A_RES_INSTRUCTIONS] = ATTR_U64,
	[FSLOAD_A_RES_CYCLES] = ATTR_U64,
	[FSLOAD_A_RES_SYSTEM_CPU_NS] = ATTR_U64,
	[FSLOAD_A_RES_TAIL_NS] = ATTR_U64,
	[FSLOAD_A_RES_TAIL_CPU_NS] = ATTR_U64,
	[FSLOAD_A_RES_THREAD] = ATTR_NEST,
	[FSLOAD_A_RES_START_NS] = ATTR_U64,
	[FSLOAD_A_RES_PROGRESS] = ATTR_NEST,
	[FSLOAD_A_RES_PROFILE_SAMPLES] = ATTR_U64,
	[FSLOAD_A_RES_PROFILE_DROPPED] = ATTR_U64,
	[FSLOAD_A_RES_PROFILE_NS] = ATTR_U64,
	[FSLOAD_A_RES_OP_CLOCK] = ATTR_U8,
	[FSLOAD_A_RES_OP_CLOCK_BACK_STEPS] = ATTR_U64,
};

static const struct attr_set *const res_nested[FSLOAD_A_RES_MAX + 1] = {
	[FSLOAD_A_RES_OPSTAT] = &opstat_attrs,
	[FSLOAD_A_RES_THREAD] = &thread_attrs,
	[FSLOAD_A_RES_PROGRESS] = &progress_attrs,
};

const struct attr_set res_attrs = {
	.name = "result",
	.max = FSLOAD_A_RES_MAX,
	.names = res_attr_names,
	.types = res_attr_types,
	.nested = res_nested,
};

static const char *const stall_attr_names[FSLOAD_A_STALL_MAX + 1] = {
	[FSLOAD_A_STALL_THREAD] = "thread",
	[FSLOAD_A_STALL_PID] = "pid",
	[FSLOAD_A_STALL_PHASE_INDEX] = "phase-index",
	[FSLOAD_A_STALL_OP] = "op",
	[FSLOAD_A_STALL_START_NS] = "start-ns",
	[FSLOAD_A_STALL_DURATION_NS] = "duration-ns",
	[FSLOAD_A_STALL_ENDED] = "ended",
	[FSLOAD_A_STALL_PAD] = "pad",
};

static const unsigned char stall_attr_types[FSLOAD_A_STALL_MAX + 1] = {
	[FSLOAD_A_STALL_THREAD] = ATTR_U32,
	[FSLOAD_A_STALL_PID] = ATTR_U32,
	[FSLOAD_A_STALL_PHASE_INDEX] = ATTR_U32,
	[FSLOAD_A_STALL_OP] = ATTR_U8,
	[FSLOAD_A_STALL_START_NS] = ATTR_U64,
	[FSLOAD_A_STALL_DURATION_NS] = ATTR_U64,
	[FSLOAD_A_STALL_ENDED] = ATTR_U8,
	[FSLOAD_A_STALL_PAD] = ATTR_PAD,
};

const struct attr_set stall_attrs = {
	.name = "stall",
	.max = FSLOAD_A_STALL_MAX,
	.names = stall_attr_names,
	.types = stall_attr_types,
};

static const char *const sample_op_attr_names[FSLOAD_A_SAMPLE_OP_MAX + 1] = {
	[FSLOAD_A_SAMPLE_OP_TYPE] = "type",
	[FSLOAD_A_SAMPLE_OP_OPS] = "ops",
	[FSLOAD_A_SAMPLE_OP_BYTES] = "bytes",
	[FSLOAD_A_SAMPLE_OP_PAD] = "pad",
	[FSLOAD_A_SAMPLE_OP_LAT_SUM_NS] = "lat-sum-ns",
	[FSLOAD_A_SAMPLE_OP_LAT_P50_NS] = "lat-p50-ns",
	[FSLOAD_A_SAMPLE_OP_LAT_P99_NS] = "lat-p99-ns",
	[FSLOAD_A_SAMPLE_OP_SAMPLED] = "sampled",
};

static const unsigned char sample_op_attr_types[FSLOAD_A_SAMPLE_OP_MAX + 1] = {
	[FSLOAD_A_SAMPLE_OP_TYPE] = ATTR_U8,
	[FSLOAD_A_SAMPLE_OP_OPS] = ATTR_U64,
	[FSLOAD_A_SAMPLE_OP_BYTES] = ATTR_U64,
	[FSLOAD_A_SAMPLE_OP_PAD] = ATTR_PAD,
	[FSLOAD_A_SAMPLE_OP_LAT_SUM_NS] = ATTR_U64,
	[FSLOAD_A_SAMPLE_OP_LAT_P50_NS] = ATTR_U64,
	[FSLOAD_A_SAMPLE_OP_LAT_P99_NS] = ATTR_U64,
	[FSLOAD_A_SAMPLE_OP_SAMPLED] = ATTR_U64,
};

const struct attr_set sample_op_attrs = {
	.name = "sample-op",
	.max = FSLOAD_A_SAMPLE_OP_MAX,
	.names = sample_op_attr_names,
	.types = sample_op_attr_types,
};

static const char *const sample_attr_names[FSLOAD_A_SAMPLE_MAX + 1] = {
	[FSLOAD_A_SAMPLE_SEQ] = "seq",
	[FSLOAD_A_SAMPLE_TIME_NS] = "time-ns",
	[FSLOAD_A_SAMPLE_PHASE_INDEX] = "phase-index",
	[FSLOAD_A_SAMPLE_OP] = "op",
	[FSLOAD_A_SAMPLE_PAD] = "pad",
	[FSLOAD_A_SAMPLE_IO_BYTES] = "io-bytes",
};

static const unsigned char sample_attr_types[FSLOAD_A_SAMPLE_MAX + 1] = {
	[FSLOAD_A_SAMPLE_SEQ] = ATTR_U64,
	[FSLOAD_A_SAMPLE_TIME_NS] = ATTR_U64,
	[FSLOAD_A_SAMPLE_PHASE_INDEX] = ATTR_U32,
	[FSLOAD_A_SAMPLE_OP] = ATTR_NEST,
	[FSLOAD_A_SAMPLE_PAD] = ATTR_PAD,
	[FSLOAD_A_SAMPLE_IO_BYTES] = ATTR_U64,
};

static const struct attr_set *const sample_nested[FSLOAD_A_SAMPLE_MAX + 1] = {
	[FSLOAD_A_SAMPLE_OP] = &sample_op_attrs,
};

const struct attr_set sample_attrs = {
	.name = "sample",
	.max = FSLOAD_A_SAMPLE_MAX,
	.names = sample_attr_names,
	.types = sample_attr_types,
	.nested = sample_nested,
};

static const char *const group_attr_names[FSLOAD_A_GROUP_MAX + 1] = {
	[FSLOAD_A_GROUP_NAME] = "name",
	[FSLOAD_A_GROUP_THREADS] = "threads",
};

static const unsigned char group_attr_types[FSLOAD_A_GROUP_MAX + 1] = {
	[FSLOAD_A_GROUP_NAME] = ATTR_STRING,
	[FSLOAD_A_GROUP_THREADS] = ATTR_U32,
};

const struct attr_set group_attrs = {
	.name = "group",
	.max = FSLOAD_A_GROUP_MAX,
	.names = group_attr_names,
	.types = group_attr_types,
	.label_attr = FSLOAD_A_GROUP_NAME,
};

static const char *const worker_attr_names[FSLOAD_A_WORKER_MAX + 1] = {
	[FSLOAD_A_WORKER_INDEX] = "index",
	[FSLOAD_A_WORKER_PID] = "pid",
	[FSLOAD_A_WORKER_CPU] = "cpu",
};

static const unsigned char worker_attr_types[FSLOAD_A_WORKER_MAX + 1] = {
	[FSLOAD_A_WORKER_INDEX] = ATTR_U32,
	[FSLOAD_A_WORKER_PID] = ATTR_U32,
	[FSLOAD_A_WORKER_CPU] = ATTR_U32,
};

const struct attr_set worker_attrs = {
	.name = "worker",
	.max = FSLOAD_A_WORKER_MAX,
	.names = worker_attr_names,
	.types = worker_attr_types,
};

static const char *const profile_stack_attr_names[FSLOAD_A_PROFILE_STACK_MAX + 1] = {
	[FSLOAD_A_PROFILE_STACK_PHASE_INDEX] = "phase-index",
	[FSLOAD_A_PROFILE_STACK_OP] = "op",
	[FSLOAD_A_PROFILE_STACK_SAMPLES] = "samples",
	[FSLOAD_A_PROFILE_STACK_FRAMES] = "frames",
	[FSLOAD_A_PROFILE_STACK_PAD] = "pad",
};

static const unsigned char profile_stack_attr_types[FSLOAD_A_PROFILE_STACK_MAX + 1] = {
	[FSLOAD_A_PROFILE_STACK_PHASE_INDEX] = ATTR_U32,
	[FSLOAD_A_PROFILE_STACK_OP] = ATTR_U8,
	[FSLOAD_A_PROFILE_STACK_SAMPLES] = ATTR_U64,
	[FSLOAD_A_PROFILE_STACK_FRAMES] = ATTR_STRING,
	[FSLOAD_A_PROFILE_STACK_PAD] = ATTR_PAD,
};

const struct attr_set profile_stack_attrs = {
	.name = "profile-stack",
	.max = FSLOAD_A_PROFILE_STACK_MAX,
	.names = profile_stack_attr_names,
	.types = profile_stack_attr_types,
};

static const char *const job_attr_names[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_ID] = "id",
	[FSLOAD_A_JOB_DIR] = "dir",
	[FSLOAD_A_JOB_FLAGS] = "flags",
	[FSLOAD_A_JOB_THREADS] = "threads",
	[FSLOAD_A_JOB_FILES] = "files",
	[FSLOAD_A_JOB_FILES_PER_DIR] = "files-per-dir",
	[FSLOAD_A_JOB_SEED] = "seed",
	[FSLOAD_A_JOB_PROFILE] = "profile",
	[FSLOAD_A_JOB_PROGRESS_MS] = "progress-ms",
	[FSLOAD_A_JOB_PHASE] = "phase",
	[FSLOAD_A_JOB_STATE] = "state",
	[FSLOAD_A_JOB_ERRNO] = "errno",
	[FSLOAD_A_JOB_ERROR_MSG] = "error-msg",
	[FSLOAD_A_JOB_PHASE_INDEX] = "phase-index",
	[FSLOAD_A_JOB_PHASES] = "phases",
	[FSLOAD_A_JOB_ELAPSED_NS] = "elapsed-ns",
	[FSLOAD_A_JOB_OPS] = "ops",
	[FSLOAD_A_JOB_BYTES] = "bytes",
	[FSLOAD_A_JOB_WORKER_PID] = "worker-pid",
	[FSLOAD_A_JOB_OWNER_PORTID] = "owner-portid",
	[FSLOAD_A_JOB_RESULT] = "result",
	[FSLOAD_A_JOB_PAD] = "pad",
	[FSLOAD_A_JOB_IDLE_MS] = "idle-ms",
	[FSLOAD_A_JOB_CPUS] = "cpus",
	[FSLOAD_A_JOB_PMU] = "pmu",
	[FSLOAD_A_JOB_IDLE_NS] = "idle-ns",
	[FSLOAD_A_JOB_IDLE_BUSY_NS] = "idle-busy-ns",
	[FSLOAD_A_JOB_OVERHEAD_OPS] = "overhead-ops",
	[FSLOAD_A_JOB_OVERHEAD_NS] = "overhead-ns",
	[FSLOAD_A_JOB_DEVICE] = "device",
	[FSLOAD_A_JOB_DEVICE_BYTES] = "device-bytes",
	[FSLOAD_A_JOB_SAMPLE_MS] = "sample-ms",
	[FSLOAD_A_JOB_STALL_MS] = "stall-ms",
	[FSLOAD_A_JOB_STALL] = "stall",
	[FSLOAD_A_JOB_SERIES_FROM] = "series-from",
	[FSLOAD_A_JOB_SAMPLE] = "sample",
	[FSLOAD_A_JOB_WORKER_CPU] = "worker-cpu",
	[FSLOAD_A_JOB_GROUP] = "group",
	[FSLOAD_A_JOB_TREE_BRANCH] = "tree-branch",
	[FSLOAD_A_JOB_HELD] = "held",
	[FSLOAD_A_JOB_WORKER] = "worker",
	[FSLOAD_A_JOB_DIR_INO] = "dir-ino",
	[FSLOAD_A_JOB_LAT_SAMPLE] = "lat-sample",
	[FSLOAD_A_JOB_CPU_PROFILE_HZ] = "cpu-profile-hz",
	[FSLOAD_A_JOB_CPU_PROFILE_STACKS] = "cpu-profile-stacks",
	[FSLOAD_A_JOB_CPU_PROFILE_CLOCK] = "cpu-profile-clock",
	[FSLOAD_A_JOB_CPU_PROFILE_PERIOD] = "cpu-profile-period",
	[FSLOAD_A_JOB_PROFILE_STACK] = "profile-stack",
	[FSLOAD_A_JOB_NAMES] = "names",
	[FSLOAD_A_JOB_NAME_BYTES] = "name-bytes",
	[FSLOAD_A_JOB_NAME_RANDOM_BYTES] = "name-random-bytes",
	[FSLOAD_A_JOB_FIRST_DIR] = "first-dir",
	[FSLOAD_A_JOB_RANK] = "rank",
	[FSLOAD_A_JOB_RANKS] = "ranks",
	[FSLOAD_A_JOB_JOIN_DIR] = "join-dir",
	[FSLOAD_A_JOB_JOIN_INO] = "join-ino",
	[FSLOAD_A_JOB_OP_CLOCK] = "op-clock",
	[FSLOAD_A_JOB_DIR_NAME] = "dir-name",
	[FSLOAD_A_JOB_DIR_MODE] = "dir-mode",
	[FSLOAD_A_JOB_DIR_BTIME] = "dir-btime",
	[FSLOAD_A_JOB_DIR_HANDLE_TYPE] = "dir-handle-type",
	[FSLOAD_A_JOB_DIR_HANDLE] = "dir-handle",
	[FSLOAD_A_JOB_JOIN_MODE] = "join-mode",
	[FSLOAD_A_JOB_JOIN_BTIME] = "join-btime",
	[FSLOAD_A_JOB_JOIN_HANDLE_TYPE] = "join-handle-type",
	[FSLOAD_A_JOB_JOIN_HANDLE] = "join-handle",
	[FSLOAD_A_JOB_PHASE_ITEMS] = "phase-items",
	[FSLOAD_A_JOB_PHASE_ITEMS_DONE] = "phase-items-done",
};

static const unsigned char job_attr_types[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_ID] = ATTR_U32,
	[FSLOAD_A_JOB_DIR] = ATTR_STRING,
	[FSLOAD_A_JOB_FLAGS] = ATTR_U32,
	[FSLOAD_A_JOB_THREADS] = ATTR_U32,
	[FSLOAD_A_JOB_FILES] = ATTR_U64,
	[FSLOAD_A_JOB_FILES_PER_DIR] = ATTR_U32,
	[FSLOAD_A_JOB_SEED] = ATTR_U64,
	[FSLOAD_A_JOB_PROFILE] = ATTR_STRING,
	[FSLOAD_A_JOB_PROGRESS_MS] = ATTR_U32,
	[FSLOAD_A_JOB_PHASE] = ATTR_NEST,
	[FSLOAD_A_JOB_STATE] = ATTR_U8,
	[FSLOAD_A_JOB_ERRNO] = ATTR_U32,
	[FSLOAD_A_JOB_ERROR_MSG] = ATTR_STRING,
	[FSLOAD_A_JOB_PHASE_INDEX] = ATTR_U32,
	[FSLOAD_A_JOB_PHASES] = ATTR_U32,
	[FSLOAD_A_JOB_ELAPSED_NS] = ATTR_U64,
	[FSLOAD_A_JOB_OPS] = ATTR_U64,
	[FSLOAD_A_JOB_BYTES] = ATTR_U64,
	[FSLOAD_A_JOB_WORKER_PID] = ATTR_U32,
	[FSLOAD_A_JOB_OWNER_PORTID] = ATTR_U32,
	[FSLOAD_A_JOB_RESULT] = ATTR_NEST,
	[FSLOAD_A_JOB_PAD] = ATTR_PAD,
	[FSLOAD_A_JOB_IDLE_MS] = ATTR_U32,
	[FSLOAD_A_JOB_CPUS] = ATTR_U32,
	[FSLOAD_A_JOB_PMU] = ATTR_U8,
	[FSLOAD_A_JOB_IDLE_NS] = ATTR_U64,
	[FSLOAD_A_JOB_IDLE_BUSY_NS] = ATTR_U64,
	[FSLOAD_A_JOB_OVERHEAD_OPS] = ATTR_U64,
	[FSLOAD_A_JOB_OVERHEAD_NS] = ATTR_U64,
	[FSLOAD_A_JOB_DEVICE] = ATTR_STRING,
	[FSLOAD_A_JOB_DEVICE_BYTES] = ATTR_U64,
	[FSLOAD_A_JOB_SAMPLE_MS] = ATTR_U32,
	[FSLOAD_A_JOB_STALL_MS] = ATTR_U32,
	[FSLOAD_A_JOB_STALL] = ATTR_NEST,
	[FSLOAD_A_JOB_SERIES_FROM] = ATTR_U64,
	[FSLOAD_A_JOB_SAMPLE] = ATTR_NEST,
	[FSLOAD_A_JOB_WORKER_CPU] = ATTR_U32,
	[FSLOAD_A_JOB_GROUP] = ATTR_NEST,
	[FSLOAD_A_JOB_TREE_BRANCH] = ATTR_U32,
	[FSLOAD_A_JOB_HELD] = ATTR_U32,
	[FSLOAD_A_JOB_WORKER] = ATTR_NEST,
	[FSLOAD_A_JOB_DIR_INO] = ATTR_U64,
	[FSLOAD_A_JOB_LAT_SAMPLE] = ATTR_U32,
	[FSLOAD_A_JOB_CPU_PROFILE_HZ] = ATTR_U32,
	[FSLOAD_A_JOB_CPU_PROFILE_STACKS] = ATTR_U32,
	[FSLOAD_A_JOB_CPU_PROFILE_CLOCK] = ATTR_U8,
	[FSLOAD_A_JOB_CPU_PROFILE_PERIOD] = ATTR_U64,
	[FSLOAD_A_JOB_PROFILE_STACK] = ATTR_NEST,
	[FSLOAD_A_JOB_NAMES] = ATTR_U8,
	[FSLOAD_A_JOB_NAME_BYTES] = ATTR_U32,
	[FSLOAD_A_JOB_NAME_RANDOM_BYTES] = ATTR_U32,
	[FSLOAD_A_JOB_FIRST_DIR] = ATTR_U32,
	[FSLOAD_A_JOB_RANK] = ATTR_U32,
	[FSLOAD_A_JOB_RANKS] = ATTR_U32,
	[FSLOAD_A_JOB_JOIN_DIR] = ATTR_STRING,
	[FSLOAD_A_JOB_JOIN_INO] = ATTR_U64,
	[FSLOAD_A_JOB_OP_CLOCK] = ATTR_U8,
	[FSLOAD_A_JOB_DIR_NAME] = ATTR_STRING,
	[FSLOAD_A_JOB_DIR_MODE] = ATTR_U32,
	[FSLOAD_A_JOB_DIR_BTIME] = ATTR_U64,
	[FSLOAD_A_JOB_DIR_HANDLE_TYPE] = ATTR_U32,
	[FSLOAD_A_JOB_DIR_HANDLE] = ATTR_BINARY,
	[FSLOAD_A_JOB_JOIN_MODE] = ATTR_U32,
	[FSLOAD_A_JOB_JOIN_BTIME] = ATTR_U64,
	[FSLOAD_A_JOB_JOIN_HANDLE_TYPE] = ATTR_U32,
	[FSLOAD_A_JOB_JOIN_HANDLE] = ATTR_BINARY,
	[FSLOAD_A_JOB_PHASE_ITEMS] = ATTR_U64,
	[FSLOAD_A_JOB_PHASE_ITEMS_DONE] = ATTR_U64,
};

static const struct attr_set *const job_nested[FSLOAD_A_JOB_MAX + 1] = {
	[FSLOAD_A_JOB_PHASE] = &phase_attrs,
	[FSLOAD_A_JOB_RESULT] = &res_attrs,
	[FSLOAD_A_JOB_STALL] = &stall_attrs,
	[FSLOAD_A_JOB_SAMPLE] = &sample_attrs,
	[FSLOAD_A_JOB_GROUP] = &group_attrs,
	[FSLOAD_A_JOB_WORKER] = &worker_attrs,
	[FSLOAD_A_JOB_PROFILE_STACK] = &profile_stack_attrs,
};

const struct attr_set job_attrs = {
	.name = "job",
	.max = FSLOAD_A_JOB_MAX,
	.names = job_attr_names,
	.types = job_attr_types,
	.nested = job_nested,
};

const char *const fsload_job_state_names[FSLOAD_JOB_FAILED + 1] = {
	[FSLOAD_JOB_RUNNING] = "running",
	[FSLOAD_JOB_STOPPING] = "stopping",
	[FSLOAD_JOB_DONE] = "done",
	[FSLOAD_JOB_STOPPED] = "stopped",
	[FSLOAD_JOB_FAILED] = "failed",
};

const char *const fsload_names_names[FSLOAD_NAMES_FSMARK + 1] = {
	[FSLOAD_NAMES_FSLOAD] = "fsload",
	[FSLOAD_NAMES_MDTEST] = "mdtest",
	[FSLOAD_NAMES_FSMARK] = "fsmark",
};

const char *const fsload_op_clock_names[FSLOAD_OP_CLOCK_CLOCK_GETTIME + 1] = {
	[FSLOAD_OP_CLOCK_KTIME] = "ktime",
	[FSLOAD_OP_CLOCK_TSC] = "tsc",
	[FSLOAD_OP_CLOCK_CLOCK_GETTIME] = "clock-gettime",
};
