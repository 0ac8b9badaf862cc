// SPDX-License-Identifier: GPL-2.0
/*
 * mincore FILE...: print the bytes of the files that are in the page cache
 * (mmap + mincore(2)), their sum over all files; what util-linux's fincore
 * reports, without needing it in the guest's root.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

static int resident(const char *path, uint64_t *bytes)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *vec;
	struct stat st;
	size_t pages, i;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		goto err;
	if (!st.st_size) {
		close(fd);
		return 0;
	}
	map = mmap(NULL, st.st_size, PROT_NONE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		goto err;
	pages = (st.st_size + page - 1) / page;
	vec = malloc(pages);
	if (!vec || mincore(map, st.st_size, vec)) {
		free(vec);
		munmap(map, st.st_size);
		goto err;
	}
	for (i = 0; i < pages; i++)
		if (vec[i] & 1)
			*bytes += page;
	free(vec);
	munmap(map, st.st_size);
	close(fd);
	return 0;
err:
	fprintf(stderr, "mincore: %s: %s\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

int main(int argc, char **argv)
{
	uint64_t bytes = 0;
	int i, ret = 0;

	for (i = 1; i < argc; i++)
		if (resident(argv[i], &bytes))
			ret = 1;
	printf("%" PRIu64 "\n", bytes);
	return ret;
}
