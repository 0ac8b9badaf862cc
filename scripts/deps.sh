#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what fsload's make targets need (Debian 12, as root); every
# target of the Makefile runs it first, for that target.  Idempotent:
# apt-get runs only when a package is missing.
#
#   scripts/deps.sh [TARGET...]          install what TARGET needs (default:
#                                        check, which covers demo too)
#   scripts/deps.sh --check [TARGET...]  only report what is missing (exit 1
#                                        if anything is)
#   scripts/deps.sh --list [TARGET...]   print TARGET's packages, one a line
#   scripts/deps.sh --targets            print the targets, one a line
#
# TARGET: a make target below, or "all" for every one.

set -euo pipefail

# Package groups.  A package belongs to one group.
declare -A GROUP=(
	# the module (kbuild against linux-headers-amd64), fsloadctl (libmnl;
	# liburing: --engine uring), the tests' programs (libnl), `make
	# install` (depmod)
	[build]="build-essential make gcc pkg-config libmnl-dev liburing-dev
		libnl-genl-3-dev libnl-3-dev linux-headers-amd64 kmod"
	# Debian's kernel source: checkpatch and the kselftest headers (lint,
	# the tests), the tree of make check-debug and check-bisect
	[source]="linux-source-6.1"
	# the kernel's netlink code generator, ynl-gen-c (6.4 and newer; Debian
	# 12 has 6.12's in bookworm-security), and the schema check it and
	# tests/spec.py make of the spec: make gen, and make check's
	# regeneration of the protocol (tests/spec.py)
	[ynl]="linux-source-6.12 python3-jsonschema"
	# make lint: checkpatch (perl), sparse (C=2), shellcheck
	[lint]="sparse shellcheck perl"
	# the VM harness (scripts/vm-run): the kernel it boots, the emulator,
	# the initramfs (busybox, cpio, xz, zstd for the 6.12+ kernels), and
	# what the guest runs from the host's root: mkfs and fsck of each
	# filesystem, python3 (the guest side of the tests, bench, matrix),
	# fuser (who holds a mount that does not unmount)
	[vm]="linux-image-amd64 qemu-system-x86 busybox-static cpio xz-utils zstd
		e2fsprogs xfsprogs btrfs-progs python3 psmisc"
	# the suites of tests/run-all.sh beyond the VM: the device-mapper
	# fault cases, pgrep (the workers' kthreads), the man page (man,
	# groff), the netlink spec (yaml), a rank's system calls (strace:
	# tests/mpi.sh's stride across ranks), the documentation's pages
	# (tests/docs.py parses them with docutils)
	[suite]="dmsetup procps man-db groff-base python3-yaml strace
		python3-docutils"
	# the Debian 13 root with the 6.12 and 7.x kernels (scripts/kernels.sh)
	[roots]="debootstrap debian-archive-keyring"
	# a kernel built from source (make check-debug, check-bisect): kconfig's
	# parsers (flex, bison), the timer constants (bc), objtool (libelf),
	# certificates and sign-file (libssl); no debug info is built, so no
	# pahole
	[kbuild]="flex bison bc libelf-dev libssl-dev"
	# make check-bisect: the kernel tree is a git repository
	[git]="git"
	# make check-dkms
	[dkms]="dkms"
	# make fidelity: fs_mark, the peer fsload is measured beside
	[fidelity]="fsmark"
	# fsloadctl-mpi (ctl/Makefile builds it where mpicc is) and mpirun:
	# multi-client runs (tests/mpi.sh, tests/guest/engines.sh)
	[mpi]="libopenmpi-dev openmpi-bin"
	# make check-multi: the NFS server and client userspace that two
	# guests run from the host's root (rpc.nfsd, rpc.mountd, exportfs,
	# mount.nfs); the guest kernel's nfsd does the rest.  No service is
	# started on the host.
	[nfs]="nfs-kernel-server nfs-common rpcbind"
)

# The groups of each target; the Makefile passes its target's name.
declare -A TARGET=(
	[build]="build"
	[install]="build"
	[demo]="build vm"
	[bench]="build vm"
	[matrix]="build vm"
	[lint]="build source lint"
	[check]="build source lint vm suite mpi ynl"
	[kernels]="roots"
	[gen]="ynl suite"
	[check-all]="build source lint vm suite roots mpi ynl"
	[check-multi]="build source vm suite mpi nfs"
	[check-debug]="build source lint vm suite kbuild mpi"
	[check-bisect]="build source vm kbuild git"
	[check-dkms]="build dkms"
	[compare-kernels]="build vm roots"
	[check-compare-kernels]="build vm roots"
	[fidelity]="build vm fidelity"
)

usage() { sed -n '3,/^$/s/^# \{0,1\}//p' "$0"; }

mode=install
case "${1:-}" in
--check) mode=check; shift ;;
--list) mode=list; shift ;;
--targets)
	printf '%s\n' "${!TARGET[@]}" | sort
	exit 0
	;;
-h | --help)
	usage
	exit 0
	;;
-*)
	echo "deps.sh: unknown option '$1' (try --help)" >&2
	exit 2
	;;
esac
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(check)
[ "${targets[*]}" != all ] || mapfile -t targets < <(printf '%s\n' "${!TARGET[@]}" | sort)

PACKAGES=()
for t in "${targets[@]}"; do
	if [ -z "${TARGET[$t]+set}" ]; then
		echo "deps.sh: unknown target '$t' (known: all $(printf '%s\n' "${!TARGET[@]}" | sort | paste -sd ' '))" >&2
		exit 2
	fi
	for g in ${TARGET[$t]}; do
		# shellcheck disable=SC2206 # one package a word
		PACKAGES+=(${GROUP[$g]})
	done
done
mapfile -t PACKAGES < <(printf '%s\n' "${PACKAGES[@]}" | sort -u)

if [ $mode = list ]; then
	printf '%s\n' "${PACKAGES[@]}"
	exit 0
fi

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
	echo "deps.sh: not a Debian system (no dpkg-query, apt-get): install the equivalents of: ${PACKAGES[*]}" >&2
	exit 1
fi

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
if [ $mode = check ]; then
	echo "deps.sh: missing packages: ${missing[*]}" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages: ${missing[*]}" >&2
	echo "deps.sh: install them as root, then run make again:" >&2
	echo "    sudo scripts/deps.sh ${targets[*]}" >&2
	echo "or: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "deps.sh: installing ${missing[*]}" >&2
# apt-get update exits 0 when it cannot reach a mirror: its warnings say
# so, and say why the install then fails.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Another make target's deps.sh (or a boot-time apt) may hold dpkg's lock:
# wait for it rather than fail.
lock=(-o DPkg::Lock::Timeout=900)
apt-get -qq "${lock[@]}" update >"$log" 2>&1 || true
if ! apt-get -qq -y "${lock[@]}" --no-install-recommends install "${missing[@]}" >>"$log" 2>&1; then
	grep -E '^(W|E):' "$log" | head -n 5 >&2
	if grep -Eq '^(W|E): (Failed to fetch|Some index files failed)' "$log"; then
		echo "deps.sh: apt-get cannot reach the package mirror (no network?); once it can, run:" >&2
		echo "    scripts/deps.sh ${targets[*]}" >&2
	else
		echo "deps.sh: apt-get install failed; to see why, run:" >&2
		echo "    apt-get install --no-install-recommends ${missing[*]}" >&2
	fi
	exit 1
fi

still=()
for p in "${missing[@]}"; do
	installed "$p" || still+=("$p")
done
if [ ${#still[@]} -gt 0 ]; then
	echo "deps.sh: still missing after apt-get: ${still[*]}" >&2
	exit 1
fi
