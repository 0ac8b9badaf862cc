# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Files from Debian's linux-source package (checkpatch, the kselftest
# headers), extracted on demand into a cache outside the source tree.

# 6.1, Debian 12's kernel: checkpatch and the kselftest headers of the
# kernel the module is built for, and the tree check-debug and
# check-bisect build (the host also has 6.12's, for ynl: nl-gen.py).
LINUX_SOURCE_TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
FSLOAD_CACHE=${FSLOAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fsload}

# linux_source_extract FILE... : prints the directory holding FILE...
linux_source_extract() {
	local top dest f missing=()

	if [ -z "$LINUX_SOURCE_TARBALL" ] || [ ! -f "$LINUX_SOURCE_TARBALL" ]; then
		echo "linux-source tarball not found: install linux-source-6.1 (scripts/deps.sh)" >&2
		return 1
	fi
	top=$(basename "$LINUX_SOURCE_TARBALL" .tar.xz)
	dest=$FSLOAD_CACHE/$top
	for f in "$@"; do
		[ -f "$dest/$f" ] || missing+=("$top/$f")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		mkdir -p "$FSLOAD_CACHE"
		tar -xJf "$LINUX_SOURCE_TARBALL" -C "$FSLOAD_CACHE" "${missing[@]}"
	fi
	echo "$dest"
}
