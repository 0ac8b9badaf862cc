# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Files from Debian's linux-source package (checkpatch, the kselftest
# headers), extracted on demand into a cache outside the source tree.

LINUX_SOURCE_TARBALL=${LINUX_SOURCE_TARBALL:-$(printf '%s\n' /usr/src/linux-source-*.tar.xz | sort -V | tail -1)}
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
