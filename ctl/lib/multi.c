// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: a run of one rank (lib/multi.h), in plain fsloadctl: every
 * call is what the collective call of one rank would do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/multi.h"

int multi_init(int *argc __attribute__((unused)),
	       char ***argv __attribute__((unused)))
{
	return 0;
}

void multi_finish(void)
{
}

unsigned int multi_rank(void)
{
	return 0;
}

unsigned int multi_size(void)
{
	return 1;
}

const char *multi_library(void)
{
	return NULL;
}

void multi_set_ended(bool (*ended)(void) __attribute__((unused)))
{
}

int multi_sync(bool stop, bool more,
	       double timeout_s __attribute__((unused)), bool *any_stop,
	       bool *any_more)
{
	*any_stop = stop;
	*any_more = more;
	return 0;
}

int multi_bcast(void *buf __attribute__((unused)),
		size_t len __attribute__((unused)),
		double timeout_s __attribute__((unused)))
{
	return 0;
}

int multi_gather(const void *buf, size_t len,
		 double timeout_s __attribute__((unused)),
		 void ***bufs, size_t **lens)
{
	*bufs = calloc(1, sizeof(**bufs));
	*lens = calloc(1, sizeof(**lens));
	if (!*bufs || !*lens || !((*bufs)[0] = malloc(len ? len : 1))) {
		free(*bufs);
		free(*lens);
		*bufs = NULL;
		*lens = NULL;
		return -ENOMEM;
	}
	memcpy((*bufs)[0], buf, len);
	(*lens)[0] = len;
	return 0;
}

void multi_alert(void)
{
}

int multi_alerted(void)
{
	return -1;
}

void multi_abort(int code)
{
	exit(code);
}
