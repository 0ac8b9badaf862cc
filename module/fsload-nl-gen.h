/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/fsload.yaml */
/* YNL-GEN kernel header, policies only: scripts/nl-gen.py */

#ifndef _FSLOAD_NL_GEN_H
#define _FSLOAD_NL_GEN_H

#include <net/netlink.h>

#include <uapi/linux/fsload.h>

/* Common nested types */
extern const struct nla_policy fsload_group_nl_policy[FSLOAD_A_GROUP_THREADS + 1];
extern const struct nla_policy fsload_op_nl_policy[FSLOAD_A_OP_GROUP + 1];
extern const struct nla_policy fsload_phase_nl_policy[FSLOAD_A_PHASE_STRIDE + 1];

extern const struct nla_policy fsload_job_start_nl_policy[FSLOAD_A_JOB_JOIN_HANDLE + 1];

extern const struct nla_policy fsload_job_stop_nl_policy[FSLOAD_A_JOB_ID + 1];

extern const struct nla_policy fsload_job_get_nl_policy[FSLOAD_A_JOB_ID + 1];

extern const struct nla_policy fsload_result_get_nl_policy[FSLOAD_A_JOB_ID + 1];

extern const struct nla_policy fsload_series_get_nl_policy[FSLOAD_A_JOB_SERIES_FROM + 1];

extern const struct nla_policy fsload_job_resume_nl_policy[FSLOAD_A_JOB_HELD + 1];

extern const struct nla_policy fsload_worker_get_nl_policy[FSLOAD_A_JOB_ID + 1];

extern const struct nla_policy fsload_profile_get_nl_policy[FSLOAD_A_JOB_ID + 1];

#endif /* _FSLOAD_NL_GEN_H */
