#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fidelity: fs_mark (Debian's fsmark package) beside fsload's fsmark
# profile through the kernel and the user engine, in one guest per
# filesystem (ext4, xfs) under QEMU's instruction clock (vm-run --icount),
# each tool on the filesystem made afresh: 3000 files of 4 KiB, one
# thread, one directory, fs_mark's names, no sync (-S 0); fs_mark run in
# the mount point with a relative -d, so that it walks as many path
# components per call as fsload does from its job directory.  Prints per
# phase the peer's figure, both engines' and the ratios; fs_mark's own
# loop overhead ("App overhead") and fsload's (the engine overhead line)
# apart, and the engines' figures less it.  Writes every figure to
# build/fidelity/<date>/.  A benchmark: it reports, it does not pass or
# fail.
#
# Under --icount the guest's nanoseconds are instructions.  fs_mark's
# create is its loop time less App overhead, per file: its creat(),
# write() and close() with its own timing of each (gettimeofday() on
# either side: about 60 instructions inside each timed call); its unlink
# is its average (-v) in whole microseconds rounded down, taken at the
# middle of that microsecond (+-500 instructions).
#
#   scripts/fidelity.sh [--fs "ext4 xfs"] [--files N] [--size BYTES]
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

fss="ext4 xfs"
files=3000
size=4096
while [ $# -gt 0 ]; do
	case $1 in
	--fs) fss=$2; shift 2 ;;
	--files) files=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	*) echo "usage: $0 [--fs \"ext4 xfs\"] [--files N] [--size BYTES]" >&2
	   exit 2 ;;
	esac
done
command -v fs_mark >/dev/null ||
	{ echo "fidelity: fs_mark is missing: scripts/deps.sh fidelity" >&2; exit 1; }

out=$repo/build/fidelity/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
for fs in $fss; do
	msize=512
	[ "$fs" = xfs ] && msize=1024
	echo "fidelity: $fs, $files files of $size bytes (instruction clock)" >&2
	scripts/vm-run --icount --fs "$fs" --dev ram --size "$msize" \
		--timeout 3600 --out "$out" -- \
		scripts/fidelity-guest.py "$fs" "$files" "$size" \
		>"$out/$fs.log" 2>&1 ||
		{ echo "fidelity: the $fs guest failed (log: $out/$fs.log)" >&2;
		  tail -20 "$out/$fs.log" >&2; exit 1; }
done

# shellcheck disable=SC2086 # one argument per filesystem
python3 - "$out" $fss <<'PY'
import json, os, sys
out, fss = sys.argv[1], sys.argv[2:]
def f(v, w=9, p=0):
    return "%*.*f" % (w, p, v) if v is not None else "%*s" % (w, "-")
def r(a, b):
    return a / b if a is not None and b else None
print("instructions per file (vm-run --icount); fs_mark: its timed calls,"
      " the engines: the op less their own overhead")
print("%-5s %-7s %9s %9s %9s %9s %7s %7s %8s %8s" % (
    "fs", "phase", "fs_mark", "fsm_app", "kernel", "user", "k_oh", "u_oh",
    "user/fsm", "kern/fsm"))
for fs in fss:
    d = json.load(open(os.path.join(out, fs + ".json")))
    peer, kern, user = d["fs_mark"], d["kernel"], d["user"]
    for ph in ("create", "unlink"):
        k = kern.get(ph)
        u = user.get(ph)
        k = k - kern["overhead"] if k is not None else None
        u = u - user["overhead"] if u is not None else None
        print("%-5s %-7s %s %s %s %s %s %s %s %s" % (
            fs, ph, f(peer.get(ph)),
            f(peer["app_overhead"] if ph == "create" else None),
            f(k), f(u), f(kern["overhead"], 7), f(user["overhead"], 7),
            f(r(u, peer.get(ph)), 8, 3), f(r(k, peer.get(ph)), 8, 3)))
print("fsm_app: fs_mark's App overhead per file (names, its mkdir per file,"
      " timers), not in its figure; fs_mark unlink: its whole-us average"
      " + 500 (+-500); k_oh, u_oh: each engine's own cost per"
      " op (its engine overhead line), taken off its figure")
print("full figures: " + out)
PY
