/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsload_fuzz: just enough of the kernel's <net/netlink.h> to compile the
 * module's request policies (module/fsload-nl-gen.c, generated from the
 * spec) in userspace, for the fuzzer's model of the genl core's
 * validation (policy.c).  The layout is the fuzzer's own, not the
 * kernel's: only the macros' meaning must match.
 */
#ifndef FSLOAD_FUZZ_SHIM_NET_NETLINK_H
#define FSLOAD_FUZZ_SHIM_NET_NETLINK_H

#include <stdint.h>

enum {
	NLA_UNSPEC,
	NLA_U8,
	NLA_U16,
	NLA_U32,
	NLA_U64,
	NLA_STRING,
	NLA_FLAG,
	NLA_MSECS,
	NLA_NESTED,
	NLA_NESTED_ARRAY,
	NLA_NUL_STRING,
	NLA_BINARY,
	NLA_S8,
	NLA_S16,
	NLA_S32,
	NLA_S64,
	NLA_BITFIELD32,
	NLA_REJECT,
	NLA_BE16,
	NLA_BE32,
};

enum {
	NLA_VALIDATE_NONE,
	NLA_VALIDATE_RANGE,
	NLA_VALIDATE_RANGE_WARN_TOO_LONG,
	NLA_VALIDATE_MIN,
	NLA_VALIDATE_MAX,
	NLA_VALIDATE_MASK,
	NLA_VALIDATE_RANGE_PTR,
	NLA_VALIDATE_FUNCTION,
};

struct netlink_range_validation {
	uint64_t min, max;
};

struct nla_policy {
	uint8_t type;
	uint8_t validation_type;
	uint16_t len;
	const struct nla_policy *nested_policy;
	const struct netlink_range_validation *range;
	uint64_t mask;
	int64_t min, max;
};

#define NLA_POLICY_RANGE(tp, mn, mx) { .type = (tp), \
	.validation_type = NLA_VALIDATE_RANGE, .min = (mn), .max = (mx) }
#define NLA_POLICY_FULL_RANGE(tp, r) { .type = (tp), \
	.validation_type = NLA_VALIDATE_RANGE_PTR, .range = (r) }
#define NLA_POLICY_MIN(tp, mn) { .type = (tp), \
	.validation_type = NLA_VALIDATE_MIN, .min = (mn) }
#define NLA_POLICY_MAX(tp, mx) { .type = (tp), \
	.validation_type = NLA_VALIDATE_MAX, .max = (mx) }
#define NLA_POLICY_MASK(tp, m) { .type = (tp), \
	.validation_type = NLA_VALIDATE_MASK, .mask = (m) }
#define NLA_POLICY_NESTED(p) { .type = NLA_NESTED, .nested_policy = (p), \
	.len = sizeof(p) / sizeof((p)[0]) - 1 }

#endif /* FSLOAD_FUZZ_SHIM_NET_NETLINK_H */
