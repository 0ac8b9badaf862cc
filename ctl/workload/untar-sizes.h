/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsloadctl: the file size distribution of the untar profile, a Linux
 * source tree.  Derived from Debian's linux-source-6.1 tarball
 * (/usr/src/linux-source-6.1.tar.xz) by ctl/workload/untar-buckets.sh: 16 buckets
 * by powers of two of the file size; each bucket's size is the mean size
 * of its files (bytes), its weight the number of its files.  Picking a
 * bucket per file by weight keeps the tree's mean file size (16.1 KiB):
 * 24 000 files are about 397 MB.  The real tree's shape:
 *   78579 files, 1298682509 bytes, 5096 directories (15.4 files a directory).
 */
#ifndef FSLOADCTL_UNTAR_SIZES_H
#define FSLOADCTL_UNTAR_SIZES_H

#include <stdint.h>

/* Files in the tree the profile copies at --scale 1. */
#define UNTAR_FILES	24000

struct size_bucket {
	uint32_t size;		/* bytes written per file */
	uint32_t weight;	/* files of this size in the real tree */
};

static const struct size_bucket untar_sizes[] = {
	{       144,   3967 },	/* [0, 256) */
	{       380,   5088 },	/* [256, 512) */
	{       758,   7503 },	/* [512, 1024) */
	{      1501,  11022 },	/* [1024, 2048) */
	{      2956,  12778 },	/* [2048, 4096) */
	{      5905,  12886 },	/* [4096, 8192) */
	{     11630,  11014 },	/* [8192, 16384) */
	{     23043,   7655 },	/* [16384, 32768) */
	{     45295,   4229 },	/* [32768, 65536) */
	{     88009,   1723 },	/* [65536, 131072) */
	{    174406,    450 },	/* [131072, 262144) */
	{    344943,    129 },	/* [262144, 524288) */
	{    747555,     51 },	/* [524288, 1048576) */
	{   1398714,     44 },	/* [1048576, 2097152) */
	{   3111384,     11 },	/* [2097152, 4194304) */
	{   8811275,     29 },	/* [4194304, inf) */
};

#endif /* FSLOADCTL_UNTAR_SIZES_H */
