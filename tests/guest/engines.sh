#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fsloadctl start --engine both, in a guest with fsload.ko loaded and a
# scratch filesystem at $FSLOAD_DIR (scripts/vm-run): the kernel's workers
# and the userspace engine run the same program one after the other, each
# in a fresh job directory, and must count identical operations per phase
# and per op type; the report compares them (user/kernel ratios), in text
# and JSON, and neither run leaves anything behind.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/ktap.sh
. "$here/../ktap.sh"

[ -n "${FSLOAD_DIR:-}" ] || { echo "1..0 # SKIP FSLOAD_DIR not set"; exit 4; }
[ -d /sys/module/fsload ] || { echo "1..0 # SKIP fsload not loaded"; exit 4; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Neither engine's job directory may be left behind.
no_job_dirs() {
	local left

	left=$(find "$FSLOAD_DIR" -maxdepth 1 -name 'fsload-*' | head -5)
	[ -z "$left" ] || fail "left behind: $left"
}

# both NAME ARGS...: start --engine both --json into $work/NAME.json
both() {
	local name=$1

	shift
	fsloadctl --json start --engine both --dir "$FSLOAD_DIR" --quiet \
		--idle-ms 0 "$@" >"$work/$name.json" ||
		fail "fsloadctl start --engine both $* exited $?"
}

# same FILE: kernel and user ran the same phases with the same counts.
same() {
	python3 - "$1" <<'EOF' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
k, u = j["kernel"], j["user"]
def counts(run):
    return [(p["name"], p["ops"], p["errors"], p["bytes"],
             [(o["op"], o["ops"], o["errors"]) for o in p["ops_by_type"]])
            for p in run["phases"]]
bad = []
if k["job"]["state"] != "done" or u["job"]["state"] != "done":
    bad.append("states %s, %s" % (k["job"]["state"], u["job"]["state"]))
if counts(k) != counts(u):
    bad.append("counts differ:\n kernel %s\n user   %s" % (counts(k), counts(u)))
if not j["comparison"] or not all(c["same_ops"] for c in j["comparison"]):
    bad.append("comparison: not the same ops")
if len(j["comparison"]) != len(k["phases"]):
    bad.append("comparison: %d rows for %d phases"
               % (len(j["comparison"]), len(k["phases"])))
# Without the instruction clock, a TCG guest marks its TSC unstable and
# the scheduler's clock is then held within a tick of the timekeeping
# clock (sched_clock_local()): a phase shorter than a few ticks can read
# no CPU time.  Longer ones must have it, and every phase a latency.
TICKS_NS = 20000000
for c in j["comparison"]:
    short = False
    for side in ("kernel", "user"):
        s = c[side]
        if s["ops"] and s["elapsed_ns"] < TICKS_NS:
            short = True
            continue
        if not s["cpu_ns_per_op"] or s["cpu_ns_per_op"] <= 0:
            bad.append("%s: no %s CPU per op in %s ns (%s)"
                       % (c["phase"], side, s["elapsed_ns"], s))
    if not c["lat_ratio"] or (not short and not c["cpu_ratio"]):
        bad.append("%s: no ratio" % c["phase"])
if k["job"]["seed"] != u["job"]["seed"]:
    bad.append("seeds differ")
for run in (k, u):
    for p in run["phases"]:
        for o in p["ops_by_type"]:
            n = sum(b[2] for b in o["latency"]["histogram"])
            if n != o["ops"]:
                bad.append("%s %s: histogram %d, ops %d"
                           % (p["name"], o["op"], n, o["ops"]))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
EOF
}

t_smallfiles() {
	both sf --profile smallfiles --threads 2 --files 100
	same "$work/sf.json"
	no_job_dirs
}

t_metadata() {
	both md --profile metadata --threads 2 --items 60
	same "$work/md.json"
	no_job_dirs
}

# mdtest's options: rotations over runs of 8 directories (a run of 6
# last), strides, a random stat and read order, sized reads, a sync
# inside each phase: the engines do the same operations, none failing.
t_metadata_mdtest() {
	both mdx --profile metadata --threads 2 --items 30 --items-per-dir 8 \
		--size 300 --read-bytes 200 --random --stride 1 --phase-sync
	same "$work/mdx.json"
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(any(p["errors"] for r in ("kernel", "user") for p in j[r]["phases"]))
' "$work/mdx.json" || fail "errors in a phase"
	no_job_dirs
}

# A random order and a weighted mix: the same sequence from one seed.
t_randrw() {
	both rr --profile randrw --threads 2 --files 8 --size 256K --ops 300
	same "$work/rr.json"
	no_job_dirs
}

t_text() {
	local out=$work/both.txt

	fsloadctl start --engine both --profile smallfiles --files 40 \
		--dir "$FSLOAD_DIR" --quiet --idle-ms 0 >"$out" ||
		fail "exited $?"
	grep -q '^== kernel engine ==' "$out" || fail "no kernel section"
	grep -q '^== user engine ==' "$out" || fail "no user section"
	grep -q '^user/kernel, per phase' "$out" || fail "no comparison"
	grep -q '^identical operation counts: yes' "$out" ||
		fail "counts not identical: $(cat "$out")"
	grep -Eq '^create +40 +40 ' "$out" || fail "no create row"
	no_job_dirs
}

ktap_plan 5
ktap_run both_smallfiles_same_ops t_smallfiles
ktap_run both_metadata_same_ops t_metadata
ktap_run both_randrw_same_ops t_randrw
ktap_run both_metadata_mdtest_same_ops t_metadata_mdtest
ktap_run both_text_report t_text
ktap_finish
rc=$?
echo "$ktap_pass passed, $ktap_fail failed"
[ "$rc" -eq 0 ]
