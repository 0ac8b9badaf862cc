#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once per machine) the debug kernel that `make check-debug` boots:
# Debian's linux-source-6.1 with tests/config/debug.config (KASAN, lockdep,
# DEBUG_ATOMIC_SLEEP, kmemleak, UBSAN, DEBUG_OBJECTS, failslab and
# fail_page_alloc).  The build is cached outside the repository, keyed on
# the source tarball and the config fragment; it prints the directory
# holding bzImage, the kernel tree (KDIR for the module) and the modules.
#
#   scripts/debug-kernel.sh          build if needed, print the directory
#   scripts/debug-kernel.sh --path   print the directory only if built
#
# On 2 cores the first build takes about 25-40 minutes; it runs niced.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib-source.sh
. "$repo/scripts/lib-source.sh"

fragment=$repo/tests/config/debug.config
[ -f "$LINUX_SOURCE_TARBALL" ] || {
	echo "debug-kernel: linux-source tarball not found (scripts/deps.sh)" >&2
	exit 1
}
key=$( (basename "$LINUX_SOURCE_TARBALL"; cat "$fragment") | sha256sum | cut -c1-12)
top=$FSLOAD_CACHE/debug-kernel/$key
tree=$top/linux
done_stamp=$top/.built

if [ "${1:-}" = --path ]; then
	[ -f "$done_stamp" ] || exit 1
	echo "$top"
	exit 0
fi
if [ -f "$done_stamp" ]; then
	echo "$top"
	exit 0
fi

mkdir -p "$top"
exec 9>"$top/.lock"
flock 9
if [ ! -d "$tree" ]; then
	echo "debug-kernel: extracting $(basename "$LINUX_SOURCE_TARBALL")" >&2
	rm -rf "$top/tmp"
	mkdir -p "$top/tmp"
	tar -xJf "$LINUX_SOURCE_TARBALL" -C "$top/tmp"
	mv "$top/tmp"/linux-source-* "$tree"
	rmdir "$top/tmp"
fi

cd "$tree"
start=$(date +%s)
make -s defconfig >&2
make -s kvm_guest.config >&2
scripts/kconfig/merge_config.sh -m .config "$fragment" >/dev/null
make -s olddefconfig >&2
# Every option of the fragment must have survived olddefconfig.
bad=0
while read -r line; do
	case $line in
	CONFIG_*=n) opt=${line%=n}
		grep -q "^$opt=" .config && { echo "debug-kernel: $opt still set" >&2; bad=1; } ;;
	CONFIG_*) grep -qx "$line" .config || { echo "debug-kernel: $line not applied" >&2; bad=1; } ;;
	esac
done <"$fragment"
[ "$bad" -eq 0 ] || { echo "debug-kernel: config fragment not applied" >&2; exit 1; }

echo "debug-kernel: building in $tree (niced; 25-40 min on 2 cores)" >&2
nice -n 19 make -s -j"$(nproc)" bzImage modules >&2
rm -rf "$top/modroot"
make -s modules_install INSTALL_MOD_PATH="$top/modroot" >&2
cp arch/x86/boot/bzImage "$top/bzImage"
release=$(make -s kernelrelease)
echo "$release" >"$top/release"
touch "$done_stamp"
echo "debug-kernel: $release built in $(( $(date +%s) - start )) s" >&2
echo "$top"
