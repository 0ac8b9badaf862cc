#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the size buckets of the untar profile (ctl/workload/untar-sizes.h) from a
# Linux source tarball: 16 buckets by powers of two of the file size (the
# first is [0, 256), the last 4 MiB and more); each bucket's size is the
# mean size of its files, its weight the number of its files.  Both the
# file count and the total bytes of the tree are thus preserved.
#
#   ctl/workload/untar-buckets.sh [TARBALL]   (default /usr/src/linux-source-6.1.tar.xz)
set -eu

tar -tvf "${1:-/usr/src/linux-source-6.1.tar.xz}" | awk '
$1 ~ /^-/ {
	s = $3; b = 0; lim = 256
	while (s >= lim && b < 15) { b++; lim *= 2 }
	n[b]++; sum[b] += s; files++; total += s
}
$1 ~ /^d/ { dirs++ }
END {
	printf "/* %d files, %d bytes, %d directories */\n", files, total, dirs
	for (b = 0; b < 16; b++) {
		lo = b ? 128 * 2 ^ b : 0
		printf "\t{ %9d, %6d },\t/* [%d, ", n[b] ? int(sum[b] / n[b] + 0.5) : 0, n[b], lo
		if (b < 15)
			printf "%d) */\n", 256 * 2 ^ b
		else
			printf "inf) */\n"
	}
}'
