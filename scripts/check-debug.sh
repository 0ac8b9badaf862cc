#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check-debug`: the whole suite on the debug kernel (KASAN, lockdep,
# kmemleak, UBSAN, DEBUG_OBJECTS; scripts/debug-kernel.sh builds it once
# per machine).  The module is built against that kernel in a copy of the
# tree under build/, so the default module/fsload.ko stays as it is.  Any
# sanitizer, lockdep, kmemleak or WARNING report fails the run (the VM
# harness scans dmesg and kmemleak after every guest).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

top=$(scripts/debug-kernel.sh)
release=$(cat "$top/release")
kmod=$repo/build/kmod-debug
rm -rf "$kmod"
mkdir -p "$kmod"
cp -r Kbuild VERSION module include "$kmod/"
make -s -C "$top/linux" M="$kmod" modules
make -s -C ctl
make -s -C tests

# A debug guest boots in about a minute and runs several times slower:
# a guest may take longer than run-all's 900 s, and the fault cases that
# tamper with a running job's tree need a longer pause to do it in.
export VM_ARGS="--kernel $top/bzImage --modules $top/modroot/lib/modules/$release --module $kmod/module/fsload.ko --mem 3072 --timeout 2400 --env FSLOAD_PAUSE_MS=30000 ${VM_ARGS:-}"
exec tests/run-all.sh "$@"
