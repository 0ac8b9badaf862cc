/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FSLOADCTL_GEOMETRY_H
#define FSLOADCTL_GEOMETRY_H

#include <stdbool.h>

/*
 * The "geometry" member of the current JSON object: @text, the output of
 * @fstype's tool (dumpe2fs -h, xfs_info, btrfs dump-super), as members
 * one per value; @text is cut up.
 */
void env_print_geometry(const char *fstype, char *text);

/* A filesystem geometry line (@key) that changes with use, not with mkfs. */
bool env_geometry_volatile(const char *key);

#endif /* FSLOADCTL_GEOMETRY_H */
