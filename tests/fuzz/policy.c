// SPDX-License-Identifier: GPL-2.0
/*
 * fsload_fuzz: the verdict of the kernel's generic netlink core (6.1's
 * net/netlink/genetlink.c and lib/nlattr.c, strict validation) on a
 * request for one of fsload's admin commands, which an unprivileged
 * sender gets before the module looks at anything but its pre_doit's
 * CAP_SYS_ADMIN check: the header checks, then the command's policy (the
 * module's own tables, module/fsload-nl-gen.c, compiled here through
 * shim/net/netlink.h), then EPERM.  The unprivileged fuzzer (user.c)
 * expects exactly this errno and extack message.
 */
#include "fuzz.h"

#include <net/netlink.h>	/* shim/: struct nla_policy */
#include "../../module/fsload-nl-gen.h"

/* The admin commands (module/netlink.c's fsload_ops: FSLOAD_NL_ADMIN). */
static const struct admin_op {
	uint8_t cmd;
	const struct nla_policy *policy;
	int maxattr;
} admin_ops[] = {
	{ FSLOAD_CMD_JOB_START, fsload_job_start_nl_policy,
	  ARRAY_SIZE(fsload_job_start_nl_policy) - 1 },
	{ FSLOAD_CMD_JOB_STOP, fsload_job_stop_nl_policy,
	  ARRAY_SIZE(fsload_job_stop_nl_policy) - 1 },
	{ FSLOAD_CMD_JOB_RESUME, fsload_job_resume_nl_policy,
	  ARRAY_SIZE(fsload_job_resume_nl_policy) - 1 },
};

/* include/net/netlink.h */
#define MAX_POLICY_RECURSION_DEPTH	10

static const uint8_t attr_len[] = {
	[NLA_U8] = 1, [NLA_U16] = 2, [NLA_U32] = 4, [NLA_U64] = 8,
	[NLA_S8] = 1, [NLA_S16] = 2, [NLA_S32] = 4, [NLA_S64] = 8,
	[NLA_BE16] = 2, [NLA_BE32] = 4,
};

static const uint8_t attr_minlen[] = {
	[NLA_U8] = 1, [NLA_U16] = 2, [NLA_U32] = 4, [NLA_U64] = 8,
	[NLA_MSECS] = 8, [NLA_NESTED] = NLA_HDRLEN,
	[NLA_S8] = 1, [NLA_S16] = 2, [NLA_S32] = 4, [NLA_S64] = 8,
	[NLA_BE16] = 2, [NLA_BE32] = 4,
};

static int v_parse(const unsigned char *head, int len, int maxtype,
		   const struct nla_policy *policy, unsigned int depth,
		   const char **msg);

static uint64_t v_uint(const struct nlattr *nla, uint8_t type)
{
	const unsigned char *d = adata(nla);
	uint64_t v = 0;

	switch (type) {
	case NLA_U8:
		return d[0];
	case NLA_U16:
		memcpy(&v, d, 2);
		return (uint16_t)v;
	case NLA_U32:
		memcpy(&v, d, 4);
		return (uint32_t)v;
	default:
		memcpy(&v, d, 8);
		return v;
	}
}

/* lib/nlattr.c's validate_nla() for the types the spec uses. */
static int v_nla(const struct nlattr *nla, const struct nla_policy *policy,
		 unsigned int depth, const char **msg)
{
	const struct nla_policy *pt = &policy[nla->nla_type & NLA_TYPE_MASK];
	int attrlen = nla->nla_len - NLA_HDRLEN, minlen;
	const char *d = adata(nla);
	uint64_t v, lo = 0, hi = UINT64_MAX;

	if (pt->type < ARRAY_SIZE(attr_len) && attr_len[pt->type] &&
	    attrlen != attr_len[pt->type]) {
		*msg = "invalid attribute length";
		return -EINVAL;
	}
	if (pt->type == NLA_NESTED && !(nla->nla_type & NLA_F_NESTED)) {
		*msg = "NLA_F_NESTED is missing";
		return -EINVAL;
	}
	if (pt->type != NLA_NESTED && pt->type != NLA_UNSPEC &&
	    (nla->nla_type & NLA_F_NESTED)) {
		*msg = "NLA_F_NESTED not expected";
		return -EINVAL;
	}
	switch (pt->type) {
	case NLA_NUL_STRING:
		minlen = pt->len && attrlen > pt->len + 1 ? pt->len + 1 : attrlen;
		if (!minlen || !memchr(d, '\0', minlen)) {
			*msg = "Attribute failed policy validation";
			return -EINVAL;
		}
		if (pt->len) {
			if (d[attrlen - 1] == '\0')
				attrlen--;
			if (attrlen > pt->len) {
				*msg = "Attribute failed policy validation";
				return -ERANGE;
			}
		}
		break;
	case NLA_NESTED:
		if (attrlen == 0)
			break;
		if (attrlen < NLA_HDRLEN) {
			*msg = "Attribute failed policy validation";
			return -ERANGE;
		}
		if (pt->nested_policy)
			return v_parse(adata(nla), attrlen, pt->len,
				       pt->nested_policy, depth + 1, msg);
		break;
	case NLA_BINARY:
		if (pt->len && attrlen > pt->len) {
			*msg = "Attribute failed policy validation";
			return -ERANGE;
		}
		break;
	case NLA_UNSPEC:
		/* NL_VALIDATE_UNSPEC: strict. */
		*msg = "Unsupported attribute";
		return -EINVAL;
	case NLA_U8:
	case NLA_U32:
	case NLA_U64:
		/* The exact length was checked above. */
		if (attrlen < attr_minlen[pt->type]) {
			*msg = "Attribute failed policy validation";
			return -ERANGE;
		}
		break;
	default:
		/* A type this model does not know: policy_init() refuses it. */
		*msg = "(unmodelled policy type)";
		return -EPROTO;
	}
	switch (pt->validation_type) {
	case NLA_VALIDATE_NONE:
		return 0;
	case NLA_VALIDATE_MASK:
		if (v_uint(nla, pt->type) & ~pt->mask) {
			*msg = "reserved bit set";
			return -EINVAL;
		}
		return 0;
	case NLA_VALIDATE_RANGE:
		lo = pt->min;
		hi = pt->max;
		break;
	case NLA_VALIDATE_RANGE_PTR:
		lo = pt->range->min;
		hi = pt->range->max;
		break;
	case NLA_VALIDATE_MIN:
		lo = pt->min;
		break;
	case NLA_VALIDATE_MAX:
		hi = pt->max;
		break;
	default:
		*msg = "(unmodelled validation)";
		return -EPROTO;
	}
	v = v_uint(nla, pt->type);
	if (v < lo || v > hi) {
		*msg = "integer out of range";
		return -ERANGE;
	}
	return 0;
}

/* __nla_validate_parse() with NL_VALIDATE_STRICT. */
static int v_parse(const unsigned char *head, int len, int maxtype,
		   const struct nla_policy *policy, unsigned int depth,
		   const char **msg)
{
	int rem = len;

	if (depth >= MAX_POLICY_RECURSION_DEPTH) {
		*msg = "allowed policy recursion depth exceeded";
		return -EINVAL;
	}
	/* nla_for_each_attr(): nla_ok(), nla_next() */
	while (rem >= NLA_HDRLEN) {
		const struct nlattr *nla = (const void *)head;
		int type = nla->nla_type & NLA_TYPE_MASK, err;

		if (nla->nla_len < NLA_HDRLEN || nla->nla_len > rem)
			break;
		if (type == 0 || type > maxtype) {
			*msg = "Unknown attribute type";
			return -EINVAL;
		}
		err = v_nla(nla, policy, depth, msg);
		if (err)
			return err;
		rem -= NLA_ALIGN(nla->nla_len);
		head += NLA_ALIGN(nla->nla_len);
	}
	if (rem > 0) {
		*msg = "bytes leftover after parsing attributes";
		return -EINVAL;
	}
	return 0;
}

static bool policy_known(const struct nla_policy *p, int maxattr, int depth)
{
	int i;

	for (i = 1; i <= maxattr && depth < 8; i++) {
		switch (p[i].type) {
		case NLA_UNSPEC:
		case NLA_U8:
		case NLA_U32:
		case NLA_U64:
		case NLA_NUL_STRING:
		case NLA_BINARY:
			break;
		case NLA_NESTED:
			if (p[i].nested_policy &&
			    !policy_known(p[i].nested_policy, p[i].len, depth + 1))
				return false;
			break;
		default:
			return false;
		}
		if (p[i].validation_type == NLA_VALIDATE_RANGE_WARN_TOO_LONG ||
		    p[i].validation_type == NLA_VALIDATE_FUNCTION)
			return false;
	}
	return true;
}

/* Every policy of an admin command is one this model knows. */
bool policy_init(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(admin_ops); i++)
		if (!policy_known(admin_ops[i].policy, admin_ops[i].maxattr, 0))
			return false;
	return true;
}

bool cmd_is_admin(uint8_t cmd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(admin_ops); i++)
		if (admin_ops[i].cmd == cmd)
			return true;
	return false;
}

/*
 * What an unprivileged sender gets for @h, a request of fsload's family
 * for an admin command (the whole message, as the kernel's walk reached
 * it): a negative errno, and in *@msg the extack message or NULL.  As
 * genl_family_rcv_msg() and genl_family_rcv_msg_doit() check, in order.
 */
int admin_verdict(const struct nlmsghdr *h, const char **msg)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	const struct admin_op *op = NULL;
	uint16_t flags = h->nlmsg_flags;
	size_t i;
	int err;

	*msg = NULL;
	if (h->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EINVAL;
	/* genl_header_check(): resv_start_op is 0. */
	if (g->reserved) {
		*msg = "genlmsghdr.reserved field is not 0";
		return -EINVAL;
	}
	if ((flags & NLM_F_DUMP) == NLM_F_DUMP)
		flags &= ~NLM_F_DUMP;
	if (flags & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO)) {
		*msg = "ambiguous or reserved bits set in nlmsg_flags";
		return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(admin_ops); i++)
		if (admin_ops[i].cmd == g->cmd)
			op = &admin_ops[i];
	if (!op)
		return -EOPNOTSUPP;	/* not asked for: not an admin command */
	/* Do-only: no dumpit. */
	if ((h->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP)
		return -EOPNOTSUPP;
	err = v_parse((const unsigned char *)g + GENL_HDRLEN,
		      (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN,
		      op->maxattr, op->policy, 0, msg);
	if (err)
		return err;
	/* The module's pre_doit: fsload_check_admin(). */
	*msg = "CAP_SYS_ADMIN is required";
	return -EPERM;
}
