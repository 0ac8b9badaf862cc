// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: names of states, operations, errnos and attributes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *names_name(unsigned int scheme)
{
	if (scheme < ARRAY_SIZE(fsload_names_names) &&
	    fsload_names_names[scheme])
		return fsload_names_names[scheme];
	return "unknown";
}

const char *op_clock_name(unsigned int clock)
{
	if (clock < ARRAY_SIZE(fsload_op_clock_names) &&
	    fsload_op_clock_names[clock])
		return fsload_op_clock_names[clock];
	return "unknown";
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
