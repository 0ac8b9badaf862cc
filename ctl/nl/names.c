// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: names of states, operations, errnos and attributes; checked
 * attribute getters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "lib/fsloadctl.h"
#include "lib/kshim.h"
#include "nl/names.h"
#include "nl/attrs.h"
#include "nl/fsload-nl-gen.h"
#include <fsload/engine.h>
#include "lib/msg.h"

const char *state_name(unsigned int state)
{
	if (state < ARRAY_SIZE(fsload_job_state_names) &&
	    fsload_job_state_names[state])
		return fsload_job_state_names[state];
	return "unknown";
}

bool state_is_final(unsigned int state)
{
	return state == FSLOAD_JOB_DONE || state == FSLOAD_JOB_STOPPED ||
	       state == FSLOAD_JOB_FAILED;
}

int state_exit_code(unsigned int state)
{
	return state == FSLOAD_JOB_DONE ? EXIT_OK : EXIT_JOB;
}

const char *op_name(unsigned int op)
{
	return fsload_op_name(op);
}

const char *errno_name(int err, char *buf, size_t len)
{
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(buf, len, "errno %d", err);
	return buf;
}


const char *attr_name(const struct attr_set *set, unsigned int type,
		      char *buf, size_t len)
{
	if (type <= set->max && set->names[type])
		return set->names[type];
	snprintf(buf, len, "%s attribute %u", set->name, type);
	return buf;
}

/* Malformed attributes are reported, a few times at most, and ignored. */
static bool attr_bad(const struct nlattr *a, const struct attr_set *set)
{
	static unsigned int warned;
	char buf[48];

	if (warned++ < 8)
		warnmsg("ignoring malformed %s attribute %s (%u bytes)",
			set->name,
			attr_name(set, mnl_attr_get_type(a), buf, sizeof(buf)),
			mnl_attr_get_payload_len(a));
	return false;
}

bool attr_get_u8(const struct nlattr *a, const struct attr_set *set,
		 uint8_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
		return attr_bad(a, set);
	*v = mnl_attr_get_u8(a);
	return true;
}

bool attr_get_u32(const struct nlattr *a, const struct attr_set *set,
		  uint32_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return attr_bad(a, set);
	*v = mnl_attr_get_u32(a);
	return true;
}

bool attr_get_u64(const struct nlattr *a, const struct attr_set *set,
		  uint64_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
		return attr_bad(a, set);
	*v = mnl_attr_get_u64(a);
	return true;
}

/* A string attribute: non-empty payload; the NUL, if any, ends it. */
static bool attr_str_span(const struct nlattr *a, const struct attr_set *set,
			  const char **s, size_t *n)
{
	if (mnl_attr_validate(a, MNL_TYPE_STRING) < 0)
		return attr_bad(a, set);
	*s = mnl_attr_get_payload(a);
	*n = strnlen(*s, mnl_attr_get_payload_len(a));
	return true;
}

bool attr_get_str(const struct nlattr *a, const struct attr_set *set,
		  char *buf, size_t len)
{
	const char *s;
	size_t n;

	if (!len || !attr_str_span(a, set, &s, &n))
		return false;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

char *attr_dup_str(const struct nlattr *a, const struct attr_set *set)
{
	const char *s;
	size_t n;

	if (!attr_str_span(a, set, &s, &n))
		return NULL;
	return strndup(s, n);
}

bool attr_is_nest(const struct nlattr *a, const struct attr_set *set)
{
	if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
		return attr_bad(a, set);
	return true;
}
