// SPDX-License-Identifier: GPL-2.0
/*
 * A multi-client run in steps, for tests (lib/multi.h without MPI):
 * tests/build/fsloadctl-steps is fsloadctl with this instead of
 * ctl/lib/multi.c, one rank of a run whose ranks run one after another,
 * so that a test can act between them (tests/guest/hostile.sh's
 * join_reused: rank 0's job ends, another user takes its directory's
 * name, then rank 1's job joins).
 *
 *   FSLOAD_STEP_RANK=R     this process is rank R (default 0)
 *   FSLOAD_STEP_RANKS=N    of a run of N ranks (default 2)
 *   FSLOAD_STEP_BCAST=FILE rank 0's N-th broadcast is written to FILE.N,
 *                          and the others read their N-th from there
 *                          (the jobs every rank runs, then what rank 0's
 *                          job told them of its directory)
 *
 * The barriers pass at once (no other rank is waited for); rank 0's
 * result has the others' parts as lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/multi.h"

static unsigned int rank, size = 2;
static const char *bcast_file;

static unsigned int env_uint(const char *name, unsigned int dflt)
{
	const char *s = getenv(name);

	return s && *s ? (unsigned int)strtoul(s, NULL, 10) : dflt;
}

int multi_init(int *argc __attribute__((unused)),
	       char ***argv __attribute__((unused)))
{
	rank = env_uint("FSLOAD_STEP_RANK", 0);
	size = env_uint("FSLOAD_STEP_RANKS", 2);
	bcast_file = getenv("FSLOAD_STEP_BCAST");
	if (!size || rank >= size || !bcast_file) {
		fprintf(stderr, "fsloadctl-steps: FSLOAD_STEP_RANK below FSLOAD_STEP_RANKS, and FSLOAD_STEP_BCAST, please\n");
		return 2;
	}
	return 0;
}

void multi_finish(void)
{
}

unsigned int multi_rank(void)
{
	return rank;
}

unsigned int multi_size(void)
{
	return size;
}

const char *multi_library(void)
{
	return "steps (tests/lib/multi-steps.c)";
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

int multi_bcast(void *buf, size_t len,
		double timeout_s __attribute__((unused)))
{
	static unsigned int calls;
	char path[4096];
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s.%u", bcast_file, calls++) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	if (!rank) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		n = fd < 0 ? -1 : write(fd, buf, len);
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, buf, len);
	}
	if (fd >= 0)
		close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

int multi_gather(const void *buf, size_t len,
		 double timeout_s __attribute__((unused)),
		 void ***bufs, size_t **lens)
{
	*bufs = NULL;
	*lens = NULL;
	if (rank)
		return 0;
	*bufs = calloc(size, sizeof(**bufs));
	*lens = calloc(size, sizeof(**lens));
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
