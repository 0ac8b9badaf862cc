// SPDX-License-Identifier: GPL-2.0
/*
 * fsloadctl: the block profile's safety check.  Before a job writes to a
 * raw device, look at the device's first blocks for the signature of a
 * filesystem, a volume or a partition table, as fstests guards its
 * scratch device, and refuse without --force.  No libblkid: the magic
 * numbers of what a test machine is likely to carry are enough.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "lib/fsloadctl.h"
#include "lib/msg.h"
#include "engine/blockdev.h"

#define PROBE_BYTES	(68 * 1024)	/* btrfs's superblock ends at 64K + 4K */

struct signature {
	const char *name;
	unsigned int off;	/* bytes from the device's start */
	unsigned int len;
	const char *magic;
};

static const struct signature signatures[] = {
	{ "ext2/ext3/ext4", 1080, 2, "\x53\xef" },
	{ "xfs", 0, 4, "XFSB" },
	{ "btrfs", 65536 + 64, 8, "_BHRfS_M" },
	{ "f2fs", 1024, 4, "\x10\x20\xf5\xf2" },
	{ "swap", 4096 - 10, 10, "SWAPSPACE2" },
	{ "swap (v0)", 4096 - 10, 10, "SWAP-SPACE" },
	{ "LUKS", 0, 6, "LUKS\xba\xbe" },
	{ "LVM2 physical volume", 512 + 24, 8, "LVM2 001" },
	{ "GPT partition table", 512, 8, "EFI PART" },
	{ "squashfs", 0, 4, "hsqs" },
	{ "NTFS", 3, 8, "NTFS    " },
	{ "FAT", 54, 5, "FAT12" },
	{ "FAT", 54, 5, "FAT16" },
	{ "FAT32", 82, 5, "FAT32" },
	{ "ISO 9660", 32769, 5, "CD001" },
	{ "MD RAID (1.1)", 0, 4, "\xfc\x4e\x2b\xa9" },
	{ "MD RAID (1.2)", 4096, 4, "\xfc\x4e\x2b\xa9" },
	{ "DOS partition table", 510, 2, "\x55\xaa" },
};

int blockdev_probe(const char *dev, bool write, bool force, uint64_t *bytes)
{
	static unsigned char buf[PROBE_BYTES];
	struct stat st;
	ssize_t n;
	size_t got = 0;
	unsigned int i;
	int fd;

	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errsys("%s", dev);
		return EXIT_USAGE;
	}
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode)) {
		errmsg("%s: not a block device", dev);
		close(fd);
		return EXIT_USAGE;
	}
	if (ioctl(fd, BLKGETSIZE64, bytes)) {
		errsys("%s: BLKGETSIZE64", dev);
		close(fd);
		return EXIT_SYSERR;
	}
	if (!write || force) {
		close(fd);
		return EXIT_OK;
	}
	while (got < sizeof(buf)) {
		n = pread(fd, buf + got, sizeof(buf) - got, got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	close(fd);
	for (i = 0; i < ARRAY_SIZE(signatures); i++) {
		const struct signature *s = &signatures[i];

		if (s->off + s->len > got ||
		    memcmp(buf + s->off, s->magic, s->len))
			continue;
		errmsg("%s carries a %s signature: writing to it would destroy it (--force to write anyway)",
		       dev, s->name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
