// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/fsload.yaml */
/* YNL-GEN kernel source, policies only: scripts/nl-gen.py */

#include <net/netlink.h>

#include "fsload-nl-gen.h"

#include <uapi/linux/fsload.h>

/* Integer value ranges */
static struct netlink_range_validation fsload_a_job_files_per_dir_range = {
	.min	= 1ULL,
	.max	= FSLOAD_FILES_MAX,
};

static struct netlink_range_validation fsload_a_job_progress_ms_range = {
	.max	= FSLOAD_PROGRESS_MS_MAX,
};

static struct netlink_range_validation fsload_a_job_idle_ms_range = {
	.max	= FSLOAD_IDLE_MS_MAX,
};

static struct netlink_range_validation fsload_a_job_sample_ms_range = {
	.max	= FSLOAD_SAMPLE_MS_MAX,
};

static struct netlink_range_validation fsload_a_job_stall_ms_range = {
	.max	= FSLOAD_STALL_MS_MAX,
};

static struct netlink_range_validation fsload_a_job_tree_branch_range = {
	.max	= FSLOAD_DIRS_MAX,
};

static struct netlink_range_validation fsload_a_job_lat_sample_range = {
	.min	= 1ULL,
	.max	= FSLOAD_LAT_SAMPLE_MAX,
};

static struct netlink_range_validation fsload_a_job_cpu_profile_hz_range = {
	.max	= FSLOAD_PROFILE_HZ_MAX,
};

static struct netlink_range_validation fsload_a_job_cpu_profile_stacks_range = {
	.min	= 1ULL,
	.max	= FSLOAD_PROFILE_STACKS_MAX,
};

static struct netlink_range_validation fsload_a_job_first_dir_range = {
	.max	= FSLOAD_DIRS_MAX,
};

static struct netlink_range_validation fsload_a_job_rank_range = {
	.max	= FSLOAD_RANK_MAX,
};

static struct netlink_range_validation fsload_a_job_ranks_range = {
	.min	= 1ULL,
	.max	= FSLOAD_RANK_MAX,
};

static struct netlink_range_validation fsload_a_op_weight_range = {
	.min	= 1ULL,
	.max	= FSLOAD_WEIGHT_MAX,
};

static struct netlink_range_validation fsload_a_op_block_bytes_range = {
	.min	= 1ULL,
	.max	= FSLOAD_BLOCK_MAX,
};

/* Common nested types */
const struct nla_policy fsload_group_nl_policy[FSLOAD_A_GROUP_THREADS + 1] = {
	[FSLOAD_A_GROUP_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[FSLOAD_A_GROUP_THREADS] = NLA_POLICY_RANGE(NLA_U32, 1, FSLOAD_THREADS_MAX),
};

const struct nla_policy fsload_op_nl_policy[FSLOAD_A_OP_GROUP + 1] = {
	[FSLOAD_A_OP_TYPE] = NLA_POLICY_RANGE(NLA_U8, 1, 16),
	[FSLOAD_A_OP_WEIGHT] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_op_weight_range),
	[FSLOAD_A_OP_SIZE_BYTES] = { .type = NLA_U64, },
	[FSLOAD_A_OP_BLOCK_BYTES] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_op_block_bytes_range),
	[FSLOAD_A_OP_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x1ff),
	[FSLOAD_A_OP_PREFIX] = NLA_POLICY_RANGE(NLA_U8, 97, 122),
	[FSLOAD_A_OP_DEPTH] = NLA_POLICY_RANGE(NLA_U32, 1, FSLOAD_BIO_DEPTH_MAX),
	[FSLOAD_A_OP_GROUP] = NLA_POLICY_MAX(NLA_U8, 7),
};

const struct nla_policy fsload_phase_nl_policy[FSLOAD_A_PHASE_STRIDE + 1] = {
	[FSLOAD_A_PHASE_NAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[FSLOAD_A_PHASE_ORDER] = NLA_POLICY_RANGE(NLA_U8, 1, 2),
	[FSLOAD_A_PHASE_ITERATIONS] = { .type = NLA_U64, },
	[FSLOAD_A_PHASE_OP] = NLA_POLICY_NESTED(fsload_op_nl_policy),
	[FSLOAD_A_PHASE_DURATION_MS] = { .type = NLA_U32, },
	[FSLOAD_A_PHASE_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x3f),
	[FSLOAD_A_PHASE_PREFIX] = NLA_POLICY_RANGE(NLA_U8, 97, 122),
	[FSLOAD_A_PHASE_FIRST] = { .type = NLA_U64, },
	[FSLOAD_A_PHASE_STRIDE] = { .type = NLA_U32, },
};

/* FSLOAD_CMD_JOB_START - do */
const struct nla_policy fsload_job_start_nl_policy[FSLOAD_A_JOB_JOIN_HANDLE + 1] = {
	[FSLOAD_A_JOB_DIR] = { .type = NLA_NUL_STRING, .len = 4095, },
	[FSLOAD_A_JOB_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0xf),
	[FSLOAD_A_JOB_THREADS] = NLA_POLICY_RANGE(NLA_U32, 1, FSLOAD_THREADS_MAX),
	[FSLOAD_A_JOB_FILES] = { .type = NLA_U64, },
	[FSLOAD_A_JOB_FILES_PER_DIR] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_files_per_dir_range),
	[FSLOAD_A_JOB_SEED] = { .type = NLA_U64, },
	[FSLOAD_A_JOB_PROFILE] = { .type = NLA_NUL_STRING, .len = 31, },
	[FSLOAD_A_JOB_PROGRESS_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_progress_ms_range),
	[FSLOAD_A_JOB_PHASE] = NLA_POLICY_NESTED(fsload_phase_nl_policy),
	[FSLOAD_A_JOB_IDLE_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_idle_ms_range),
	[FSLOAD_A_JOB_DEVICE] = { .type = NLA_NUL_STRING, .len = 4095, },
	[FSLOAD_A_JOB_SAMPLE_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_sample_ms_range),
	[FSLOAD_A_JOB_STALL_MS] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_stall_ms_range),
	[FSLOAD_A_JOB_WORKER_CPU] = { .type = NLA_U32, },
	[FSLOAD_A_JOB_GROUP] = NLA_POLICY_NESTED(fsload_group_nl_policy),
	[FSLOAD_A_JOB_TREE_BRANCH] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_tree_branch_range),
	[FSLOAD_A_JOB_LAT_SAMPLE] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_lat_sample_range),
	[FSLOAD_A_JOB_CPU_PROFILE_HZ] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_cpu_profile_hz_range),
	[FSLOAD_A_JOB_CPU_PROFILE_STACKS] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_cpu_profile_stacks_range),
	[FSLOAD_A_JOB_NAMES] = NLA_POLICY_RANGE(NLA_U8, 1, 3),
	[FSLOAD_A_JOB_NAME_BYTES] = NLA_POLICY_RANGE(NLA_U32, FSLOAD_NAME_RANDOM_BYTES_MIN, FSLOAD_NAME_BYTES_MAX),
	[FSLOAD_A_JOB_NAME_RANDOM_BYTES] = NLA_POLICY_RANGE(NLA_U32, FSLOAD_NAME_RANDOM_BYTES_MIN, FSLOAD_NAME_BYTES_MAX),
	[FSLOAD_A_JOB_FIRST_DIR] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_first_dir_range),
	[FSLOAD_A_JOB_RANK] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_rank_range),
	[FSLOAD_A_JOB_RANKS] = NLA_POLICY_FULL_RANGE(NLA_U32, &fsload_a_job_ranks_range),
	[FSLOAD_A_JOB_JOIN_DIR] = { .type = NLA_NUL_STRING, .len = 63, },
	[FSLOAD_A_JOB_JOIN_INO] = { .type = NLA_U64, },
	[FSLOAD_A_JOB_JOIN_MODE] = { .type = NLA_U32, },
	[FSLOAD_A_JOB_JOIN_BTIME] = { .type = NLA_U64, },
	[FSLOAD_A_JOB_JOIN_HANDLE_TYPE] = { .type = NLA_U32, },
	[FSLOAD_A_JOB_JOIN_HANDLE] = { .type = NLA_BINARY, },
};

/* FSLOAD_CMD_JOB_STOP - do */
const struct nla_policy fsload_job_stop_nl_policy[FSLOAD_A_JOB_ID + 1] = {
	[FSLOAD_A_JOB_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* FSLOAD_CMD_JOB_GET - do */
const struct nla_policy fsload_job_get_nl_policy[FSLOAD_A_JOB_ID + 1] = {
	[FSLOAD_A_JOB_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* FSLOAD_CMD_RESULT_GET - dump */
const struct nla_policy fsload_result_get_nl_policy[FSLOAD_A_JOB_ID + 1] = {
	[FSLOAD_A_JOB_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* FSLOAD_CMD_SERIES_GET - dump */
const struct nla_policy fsload_series_get_nl_policy[FSLOAD_A_JOB_SERIES_FROM + 1] = {
	[FSLOAD_A_JOB_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[FSLOAD_A_JOB_SERIES_FROM] = { .type = NLA_U64, },
};

/* FSLOAD_CMD_JOB_RESUME - do */
const struct nla_policy fsload_job_resume_nl_policy[FSLOAD_A_JOB_HELD + 1] = {
	[FSLOAD_A_JOB_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[FSLOAD_A_JOB_HELD] = { .type = NLA_U32, },
};

/* FSLOAD_CMD_WORKER_GET - dump */
const struct nla_policy fsload_worker_get_nl_policy[FSLOAD_A_JOB_ID + 1] = {
	[FSLOAD_A_JOB_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* FSLOAD_CMD_PROFILE_GET - dump */
const struct nla_policy fsload_profile_get_nl_policy[FSLOAD_A_JOB_ID + 1] = {
	[FSLOAD_A_JOB_ID] = NLA_POLICY_MIN(NLA_U32, 1),
};
