#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the standard benchmark set (null, smallfiles, metadata,
# largefile, randrw) on ext4 and xfs on a ramdisk, in a guest under QEMU's
# instruction clock (scripts/vm-run --icount), with the kernel engine and
# the user engine alternately, 5 iterations each.  Prints per-op cost,
# the user/kernel ratio and the coefficient of variation across
# iterations, and writes everything (every run's full result too) to
# build/bench/<date>/.  A benchmark reports figures; it does not pass or
# fail on them.
#
# Under --icount the guest's nanoseconds are instructions: the per-op
# figures are instructions per op, not time (shared/docs: a cache miss is
# one instruction).  Data-path MB/s under icount means nothing: use a
# wall-clock run for those.
#
#   scripts/bench.sh [--fs "ext4 xfs"] [--iterations N] [--wall]
#   --wall: TCG wall clock instead of the instruction clock (noisy)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

fss="ext4 xfs"
iterations=5
clock=--icount
while [ $# -gt 0 ]; do
	case $1 in
	--fs) fss=$2; shift 2 ;;
	--iterations) iterations=$2; shift 2 ;;
	--wall) clock=; shift ;;
	*) echo "usage: $0 [--fs \"ext4 xfs\"] [--iterations N] [--wall]" >&2
	   exit 2 ;;
	esac
done

out=$repo/build/bench/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"
start=$SECONDS
for fs in $fss; do
	size=512
	[ "$fs" = xfs ] && size=1024
	echo "bench: $fs, $iterations iterations per engine${clock:+ (instruction clock)}" >&2
	# shellcheck disable=SC2086 # $clock is one option or none
	scripts/vm-run $clock --fs "$fs" --dev ram --size "$size" \
		--timeout 3600 --out "$out" -- \
		scripts/bench-guest.py "$fs" "$iterations" >"$out/$fs.log" 2>&1 ||
		{ echo "bench: the $fs guest failed (log: $out/$fs.log)" >&2;
		  tail -20 "$out/$fs.log" >&2; exit 1; }
done

# shellcheck disable=SC2086 # one argument per filesystem
python3 - "$out" "$clock" $fss <<'PY'
import json, os, sys
out, clock, fss = sys.argv[1], sys.argv[2], sys.argv[3:]
unit = "insn" if clock else "ns"
rows, docs = [], {}
for fs in fss:
    d = json.load(open(os.path.join(out, fs + ".json")))
    docs[fs] = d
    rows += d["summary"]
def f(v, w=10, p=0):
    return ("%*.*f" % (w, p, v)) if isinstance(v, (int, float)) else "%*s" % (w, "-")
def m(st):
    return st["mean"] if st else None
def c(st):
    return st["cov_percent"] if st else None
print("%-5s %-11s %-12s %10s %10s %10s %10s %7s %7s %7s" % (
    "fs", "profile", "phase", "kern_" + unit, "user_" + unit, "kern_tot",
    "user_tot", "user/k", "cov_k%", "cov_u%"))
for r in rows:
    k, u = r["kernel"], r["user"]
    print("%-5s %-11s %-12s %s %s %s %s %s %s %s" % (
        r["fs"], r["profile"], r["phase"][:12],
        f(m(k["worker_ns_per_op"])), f(m(u["worker_ns_per_op"])),
        f(m(k["total_ns_per_op"])), f(m(u["total_ns_per_op"])),
        f(r["ratio_user_kernel"], 7, 2),
        f(c(k["worker_ns_per_op"]), 7, 3), f(c(u["worker_ns_per_op"]), 7, 3)))
# The engine's own cost per op (the calibration of the same jobs: null
# ops through the phase loop) beside the cheapest ops people measure, and
# its share of them; null: the calibration over 20000 files.
BESIDE = [("null", "null"), ("smallfiles", "stat"),
          ("smallfiles", "create"), ("smallfiles", "read")]
print("\nthe engine's own cost per op (calibration) beside an op:")
print("%-5s %-7s %-6s %10s %10s %8s" % ("fs", "engine", "op", "engine_" + unit,
                                         "op_" + unit, "engine%"))
for e in ("kernel", "user"):
    for fs in fss:
        for profile, phase in BESIDE:
            r = next((r for r in docs[fs]["summary"]
                      if r["profile"] == profile and
                      r["phase"].startswith(phase)), None)
            if not r:
                continue
            cost = m(r[e].get("engine_ns_per_op"))
            op = m(r[e]["worker_ns_per_op"]) if phase != "null" else None
            share = 100.0 * cost / op if cost and op else None
            print("%-5s %-7s %-6s %s %s %s" % (fs, e, phase, f(cost, 10, 1),
                                              f(op), f(share, 8, 2)))
print("per-op figures: worker CPU per op (kern_, user_) and with background"
      " and sync tail (_tot); %s" % ("instructions under QEMU's instruction"
      " clock" if clock else "TCG wall-clock ns"))
json.dump({"clock": "icount" if clock else "wall", "filesystems": docs},
          open(os.path.join(out, "bench.json"), "w"), indent=1)
print("results: %s/bench.json" % out)
PY
echo "bench: $((SECONDS - start)) s" >&2
