#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what fsload's build, demo and tests need (Debian 12, as root).
# Idempotent: apt-get runs only when a package is missing.
#
#   scripts/deps.sh            install what is missing
#   scripts/deps.sh --check    only report what is missing (exit 1 if any)

set -euo pipefail

PACKAGES=(
	# build: module, control tool, lint
	build-essential make gcc pkg-config libmnl-dev libnl-genl-3-dev libnl-3-dev
	linux-headers-amd64 linux-source-6.1 sparse shellcheck python3 perl
	# the VM harness (scripts/vm-run): kernel, emulator, initramfs, guest tools
	linux-image-amd64 qemu-system-x86 busybox-static kmod cpio xz-utils
	e2fsprogs xfsprogs btrfs-progs fio
	# the fault tests: I/O errors from a device-mapper error target
	dmsetup
	# unpacks zstd-compressed kernels (Debian 6.12+) for vm-run's fast boot
	zstd
	# the Debian 13 root with the 6.12 and 7.x kernels (scripts/kernels.sh)
	debootstrap debian-archive-keyring
	# packaging: make check-dkms, the man page test, tests/spec.py
	dkms man-db groff-base python3-yaml
	# make check-bisect, scripts/bisect: building a kernel from linux-source
	flex bison bc libelf-dev libssl-dev
)

check_only=0
case "${1:-}" in
--check) check_only=1 ;;
"") ;;
-h | --help)
	sed -n '3,9s/^# \{0,1\}//p' "$0"
	exit 0
	;;
*)
	echo "deps.sh: unknown argument '$1' (try --help)" >&2
	exit 2
	;;
esac

installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

missing=()
for p in "${PACKAGES[@]}"; do
	installed "$p" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
if [ $check_only = 1 ]; then
	echo "deps.sh: missing packages: ${missing[*]}" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages: ${missing[*]}" >&2
	echo "deps.sh: run as root to install them (sudo scripts/deps.sh)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "deps.sh: installing ${missing[*]}" >&2
apt-get -qq update
apt-get -qq -y --no-install-recommends install "${missing[@]}" >/dev/null

still=()
for p in "${missing[@]}"; do
	installed "$p" || still+=("$p")
done
if [ ${#still[@]} -gt 0 ]; then
	echo "deps.sh: still missing after apt-get: ${still[*]}" >&2
	exit 1
fi
