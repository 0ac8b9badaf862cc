// SPDX-License-Identifier: GPL-2.0
/*
 * fsload tests: the helpers the guest's C tests share (util.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include "util.h"

int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int param_read(const char *name, unsigned long long *v)
{
	char path[128], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", PARAM_DIR, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	*v = strtoull(buf, NULL, 0);
	return 0;
}

int param_write(const char *name, unsigned long long v)
{
	char path[128], buf[64];
	int fd, len, ok;

	snprintf(path, sizeof(path), "%s/%s", PARAM_DIR, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%llu\n", v);
	ok = write(fd, buf, len) == len;
	close(fd);
	return ok ? 0 : -EIO;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

int rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return 0;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int cap_sets(uint64_t *effective, uint64_t *permitted)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	*effective = data[0].effective | (uint64_t)data[1].effective << 32;
	*permitted = data[0].permitted | (uint64_t)data[1].permitted << 32;
	return 0;
}
