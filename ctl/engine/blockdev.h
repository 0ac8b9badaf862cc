/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the block profile's look at its device.
 */
#ifndef FSLOADCTL_BLOCKDEV_H
#define FSLOADCTL_BLOCKDEV_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Check that @dev is a block device and read its size into *@bytes.  For
 * a job that will @write to it, refuse (with a message) a device whose
 * first blocks carry a filesystem, volume or partition table signature,
 * unless @force.  Returns EXIT_OK or an exit code.
 */
int blockdev_probe(const char *dev, bool write, bool force, uint64_t *bytes);

#endif /* FSLOADCTL_BLOCKDEV_H */
