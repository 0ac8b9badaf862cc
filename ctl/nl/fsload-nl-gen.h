/* SPDX-License-Identifier: GPL-2.0 */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/fsload.yaml */
/* by scripts/nl-gen.py: fsloadctl's attribute tables */

#ifndef FSLOADCTL_NL_GEN_H
#define FSLOADCTL_NL_GEN_H

struct attr_set;

/* The attribute sets of the spec (struct attr_set: attrs.h). */
extern const struct attr_set job_attrs;
extern const struct attr_set phase_attrs;
extern const struct attr_set op_attrs;
extern const struct attr_set res_attrs;
extern const struct attr_set progress_attrs;
extern const struct attr_set group_attrs;
extern const struct attr_set opstat_attrs;
extern const struct attr_set bucket_attrs;
extern const struct attr_set thread_attrs;
extern const struct attr_set sample_attrs;
extern const struct attr_set sample_op_attrs;
extern const struct attr_set stall_attrs;
extern const struct attr_set worker_attrs;
extern const struct attr_set profile_stack_attrs;

/* Names of enum values, indexed by value (NULL: none). */
extern const char *const fsload_job_state_names[FSLOAD_JOB_FAILED + 1];
extern const char *const fsload_names_names[FSLOAD_NAMES_FSMARK + 1];
extern const char *const fsload_op_clock_names[FSLOAD_OP_CLOCK_CLOCK_GETTIME + 1];

#endif /* FSLOADCTL_NL_GEN_H */
