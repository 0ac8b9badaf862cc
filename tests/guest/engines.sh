#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fsloadctl start --engine kernel,user,uring (both: kernel,user), in a
# guest with fsload.ko loaded and a scratch filesystem at $FSLOAD_DIR
# (scripts/vm-run): the kernel's workers, the userspace engine and its
# io_uring backend (batched, with and without SQPOLL) run the same program
# one after the other, each in a fresh job directory, and must count
# identical operations per phase and per op type; the report compares them
# (each engine/kernel ratio), in text and JSON, and no run leaves
# anything behind.  And the kernel engine's jobs as the ranks of a
# multi-client run (mpirun, fsloadctl-mpi; the user engine's: tests/mpi.sh).
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

# engines NAME ENGINES ARGS...: start --engine ENGINES --json into
# $work/NAME.json
engines() {
	local name=$1 list=$2

	shift 2
	fsloadctl --json start --engine "$list" --dir "$FSLOAD_DIR" --quiet \
		--idle-ms 0 "$@" >"$work/$name.json" ||
		fail "fsloadctl start --engine $list $* exited $?"
}

# same FILE: every engine ran the same phases with the same counts as the
# kernel's.
same() {
	python3 - "$1" <<'EOF' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
k = j["kernel"]
others = [e for e in j["engines"] if e != "kernel"]
def counts(run):
    return [(p["name"], p["ops"], p["errors"], p["bytes"],
             [(o["op"], o["ops"], o["errors"]) for o in p["ops_by_type"]])
            for p in run["phases"]]
bad = []
if j["summary"]["reference"] != "kernel":
    bad.append("reference %s" % j["summary"]["reference"])
for e in j["engines"]:
    if j[e]["job"]["state"] != "done":
        bad.append("%s: state %s" % (e, j[e]["job"]["state"]))
    if j[e]["job"]["seed"] != k["job"]["seed"]:
        bad.append("%s: seeds differ" % e)
    if counts(j[e]) != counts(k):
        bad.append("counts differ:\n kernel %s\n %-6s %s"
                   % (counts(k), e, counts(j[e])))
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
    for side in j["engines"]:
        s = c[side]
        if s["ops"] and s["elapsed_ns"] < TICKS_NS:
            short = True
            continue
        if not s["cpu_ns_per_op"] or s["cpu_ns_per_op"] <= 0:
            bad.append("%s: no %s CPU per op in %s ns (%s)"
                       % (c["phase"], side, s["elapsed_ns"], s))
    for e in others:
        if not c[e]["lat_ratio"] or (not short and not c[e]["cpu_ratio"]):
            bad.append("%s: no %s/kernel ratio" % (c["phase"], e))
for run in (j[e] for e in j["engines"]):
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

# ENGINES: the engines of the cases; SQPOLL: the uring engine's options
# in the SQPOLL cases (a small batch: several per phase).
ENGINES=kernel,user,uring
SQPOLL=(--uring-sqpoll --uring-batch 4)

t_smallfiles() {
	engines sf "$ENGINES" --profile smallfiles --threads 2 --files 100
	same "$work/sf.json"
	no_job_dirs
}

t_metadata() {
	engines md "$ENGINES" --profile metadata --threads 2 --items 60
	same "$work/md.json"
	no_job_dirs
}

# mdtest's options: rotations over runs of 8 directories (a run of 6
# last), strides, a random stat and read order, sized reads, a sync
# inside each phase: the engines do the same operations, none failing.
t_metadata_mdtest() {
	engines mdx "$ENGINES" --profile metadata --threads 2 --items 30 --items-per-dir 8 \
		--size 300 --read-bytes 200 --random --stride 1 --phase-sync
	same "$work/mdx.json"
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
sys.exit(any(p["errors"] for r in j["engines"] for p in j[r]["phases"]))
' "$work/mdx.json" || fail "errors in a phase"
	no_job_dirs
}

# A random order and a weighted mix: the same sequence from one seed.
t_randrw() {
	engines rr "$ENGINES" --profile randrw --threads 2 --files 8 \
		--size 256K --ops 300
	same "$work/rr.json"
	no_job_dirs
}

t_sqpoll() {
	engines sq-sf kernel,uring "${SQPOLL[@]}" --profile smallfiles \
		--threads 2 --files 100
	same "$work/sq-sf.json"
	engines sq-md kernel,uring "${SQPOLL[@]}" --profile metadata \
		--threads 2 --items 60
	same "$work/sq-md.json"
	engines sq-rr kernel,uring "${SQPOLL[@]}" --profile randrw \
		--threads 2 --files 8 --size 256K --ops 300
	same "$work/sq-rr.json"
	no_job_dirs
}

t_text() {
	local out=$work/both.txt

	fsloadctl start --engine both --profile smallfiles --files 40 \
		--dir "$FSLOAD_DIR" --quiet --idle-ms 0 >"$out" ||
		fail "exited $?"
	grep -q '^== kernel engine ==' "$out" || fail "no kernel section"
	grep -q '^== user engine ==' "$out" || fail "no user section"
	grep -q '^per phase, against the kernel engine' "$out" ||
		fail "no comparison"
	grep -q '^identical operation counts: yes' "$out" ||
		fail "counts not identical: $(cat "$out")"
	grep -Eq '^create +kernel +40 ' "$out" || fail "no kernel create row"
	grep -Eq '^create +user +40 ' "$out" || fail "no user create row"
	no_job_dirs
}

# Two ranks of `mpirun fsloadctl-mpi start`, each its own kernel job:
# both done, each phase opened together (a hold and a barrier before
# each), rank 0's result every rank's ops over the slowest rank's time.
t_mpi_kernel() {
	local mpi=$here/../../ctl/fsloadctl-mpi

	command -v mpirun >/dev/null || skip "no mpirun in this root"
	[ -x "$mpi" ] || skip "no ctl/fsloadctl-mpi"
	timeout 600 mpirun --allow-run-as-root --oversubscribe -np 2 "$mpi" \
		--json start --profile metadata --files 200 --dir "$FSLOAD_DIR" \
		--quiet --idle-ms 0 >"$work/mpi.json" 2>"$work/mpi.err" ||
		fail "exit $?: $(tail -5 "$work/mpi.err")"
	python3 - "$work/mpi.json" <<'PYEOF2' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
parts = j["ranks"]["parts"]
bad = []
if [p["state"] for p in parts] != ["done", "done"]:
    bad.append("states %s" % [p["state"] for p in parts])
if parts[0]["job_id"] == parts[1]["job_id"]:
    bad.append("one job id for both ranks")
for i, ph in enumerate(j["phases"]):
    a, b = parts[0]["phases"][i], parts[1]["phases"][i]
    if ph["ops"] != a["ops"] + b["ops"] or \
       ph["elapsed_ns"] != max(a["elapsed_ns"], b["elapsed_ns"]):
        bad.append("%s: not the ranks' aggregate" % ph["name"])
    skew = abs(a["start_ns"] - b["start_ns"]) / 1e6
    print("%s: the ranks started %.1f ms apart" % (ph["name"], skew))
    if skew > 250:
        bad.append("%s: the ranks started %.1f ms apart" % (ph["name"], skew))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PYEOF2
	no_job_dirs
}

# Two kernel-engine ranks in one tree (--shared-dir, mdtest-hard): rank
# 1's job joins rank 0's job directory, one tree holds both ranks' items,
# a stride of 1 stats and removes the other rank's, and rank 0's job
# removes it all once rank 1's is past its last phase.
t_mpi_kernel_shared() {
	local mpi=$here/../../ctl/fsloadctl-mpi

	command -v mpirun >/dev/null || skip "no mpirun in this root"
	[ -x "$mpi" ] || skip "no ctl/fsloadctl-mpi"
	timeout 600 mpirun --allow-run-as-root --oversubscribe -np 2 "$mpi" \
		start --profile metadata --files 20 --shared-dir \
		--phases create --keep --dir "$FSLOAD_DIR" --quiet --idle-ms 0 \
		>/dev/null 2>"$work/mpis.err" ||
		fail "exit $?: $(tail -5 "$work/mpis.err")"
	for r in 0 1; do
		n=$(find "$FSLOAD_DIR"/fsload-*/test-dir.0-0/mdtest_tree.0 -maxdepth 1 -name "file.mdtest.$r.*" | wc -l)
		[ "$n" -eq 20 ] || fail "rank $r: $n files in the one tree, not 20"
	done
	rm -rf "${FSLOAD_DIR:?}"/fsload-*
	timeout 600 mpirun --allow-run-as-root --oversubscribe -np 2 "$mpi" \
		--json start --profile metadata --files 100 --shared-dir \
		--stride 1 --dir "$FSLOAD_DIR" --quiet --idle-ms 0 \
		>"$work/mpis.json" 2>"$work/mpis.err" ||
		fail "exit $?: $(tail -5 "$work/mpis.err")"
	python3 - "$work/mpis.json" <<'PYEOF2' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
parts = j["ranks"]["parts"]
bad = []
if [p["state"] for p in parts] != ["done", "done"]:
    bad.append("states %s" % [p["state"] for p in parts])
if parts[0]["job_dir"] != parts[1]["job_dir"]:
    bad.append("job directories %s" % [p["job_dir"] for p in parts])
for ph in j["phases"]:
    want = 1 if ph["name"].startswith("tree") else 200
    if ph["errors"] or ph["ops"] != want:
        bad.append("%s: %d ops, %d errors" % (ph["name"], ph["ops"], ph["errors"]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PYEOF2
	no_job_dirs
}

# --cpu-profile on two kernel-engine ranks: each rank writes its own
# folded stacks, the file names carrying the rank, and rank 0's result
# says where each rank's are.
t_mpi_kernel_profile() {
	local mpi=$here/../../ctl/fsloadctl-mpi r n

	command -v mpirun >/dev/null || skip "no mpirun in this root"
	[ -x "$mpi" ] || skip "no ctl/fsloadctl-mpi"
	timeout 600 mpirun --allow-run-as-root --oversubscribe -np 2 "$mpi" \
		--json start --profile metadata --files 200 --phases create \
		--cpu-profile 1000 --folded "$work/prof" --dir "$FSLOAD_DIR" \
		--quiet --idle-ms 0 >"$work/mpip.json" 2>"$work/mpip.err" ||
		fail "exit $?: $(tail -5 "$work/mpip.err")"
	for r in 0 1; do
		n=$(find "$work" -maxdepth 1 -name "prof-rank$r-*.folded" | wc -l)
		[ "$n" -ge 1 ] || fail "rank $r wrote no prof-rank$r-*.folded: $(ls "$work")"
	done
	[ "$(find "$work" -maxdepth 1 -name 'prof-[0-9]*.folded' | wc -l)" -eq 0 ] ||
		fail "folded stacks without the rank in their name"
	python3 - "$work/mpip.json" "$work/prof" <<'PYEOF2' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
want = ["%s-rank%d" % (sys.argv[2], r) for r in (0, 1)]
got = [p.get("cpu_profile", {}).get("folded") for p in j["ranks"]["parts"]]
if got != want:
    print("FAIL: the parts' folded stacks %s, not %s" % (got, want))
    sys.exit(1)
PYEOF2
	no_job_dirs
}

# --read-bytes is one read call of one block: every engine has the one
# limit, the module parameter max_block_bytes, and fsloadctl refuses a
# value above it before any job starts, naming the option; raised, it is
# raised for every engine, which then read the same bytes (issue 31).
t_read_bytes() {
	local param=/sys/module/fsload/parameters/max_block_bytes old e rc

	old=$(cat "$param")
	# shellcheck disable=SC2064 # the value now
	trap "echo $old >$param" EXIT
	for e in kernel user uring; do
		fsloadctl start --engine "$e" --dir "$FSLOAD_DIR" --quiet \
			--idle-ms 0 --profile metadata --items 4 \
			--read-bytes $((old + 1)) >/dev/null 2>"$work/rb.err"
		rc=$?
		[ $rc -eq 2 ] || fail "$e: --read-bytes $((old + 1)): exit $rc: $(cat "$work/rb.err")"
		grep -qF -- "--read-bytes: $((old + 1)) is more than $old bytes" \
			"$work/rb.err" || fail "$e: $(cat "$work/rb.err")"
	done
	no_job_dirs
	echo $((8 << 20)) >"$param"
	engines rb "$ENGINES" --profile metadata --items 4 --size 5M \
		--read-bytes 5M
	same "$work/rb.json"
	python3 - "$work/rb.json" <<'PYEOF' || fail "file-read did not read 4 x 5 MiB"
import json, sys
j = json.load(open(sys.argv[1]))
for e in j["engines"]:
    p = [p for p in j[e]["phases"] if p["name"] == "file-read"][0]
    print("# %s: file-read %d ops, %d bytes" % (e, p["ops"], p["bytes"]))
    if p["ops"] != 4 or p["bytes"] != 4 * 5 << 20:
        sys.exit(1)
PYEOF
	no_job_dirs
}

# engines.sh [CASE...]: those cases only (default: all)
cases=(
	"engines_smallfiles_same_ops t_smallfiles"
	"engines_metadata_same_ops t_metadata"
	"engines_randrw_same_ops t_randrw"
	"uring_sqpoll_same_ops t_sqpoll"
	"engines_metadata_mdtest_same_ops t_metadata_mdtest"
	"both_text_report t_text"
	"mpi_kernel_ranks t_mpi_kernel"
	"mpi_kernel_shared_tree t_mpi_kernel_shared"
	"mpi_kernel_cpu_profile t_mpi_kernel_profile"
	"read_bytes_one_limit t_read_bytes"
)
run=()
for c in "${cases[@]}"; do
	if [ $# -eq 0 ]; then
		run+=("$c")
		continue
	fi
	for w in "$@"; do
		[ "${c%% *}" = "$w" ] && run+=("$c")
	done
done
ktap_plan "${#run[@]}"
for c in "${run[@]}"; do
	# shellcheck disable=SC2086 # name and function
	ktap_run $c
done
ktap_finish
rc=$?
echo "$ktap_pass passed, $ktap_fail failed"
[ "$rc" -eq 0 ]
