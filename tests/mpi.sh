#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Multi-client runs (issue 17): `mpirun -np N fsloadctl-mpi start ...`,
# several ranks on this host with the user engine (the kernel engine's
# ranks run in the guest suites: tests/guest/profile.sh's mpi_kernel).
# Rank 0's result must be every rank's: the aggregate phases (the ops of
# all, the slowest rank's time), each rank's part; the phases must open
# together (a barrier before each); a rank that cannot start, fails, is
# interrupted or hangs must end every rank promptly with its number in
# rank 0's report; a bad command line at one rank ends them all;
# --iterations runs each iteration on every rank in lockstep, summarised
# as mdtest -i N; --threads and engine lists run in lockstep too.  KTAP;
# "N passed, N failed" last.
set -uo pipefail

# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/lib/host.sh"

mpi=$repo/ctl/fsloadctl-mpi
if ! command -v mpirun >/dev/null; then
	echo "1..0 # SKIP no mpirun (Debian's openmpi-bin)"
	exit 4
fi
if [ ! -x "$mpi" ] && ! make -s -C "$repo/ctl" mpi >/dev/null; then
	echo "1..0 # SKIP cannot build ctl/fsloadctl-mpi (Debian's libopenmpi-dev)"
	exit 4
fi
# As root, Open MPI wants to be told; every rank on this one host.
mpirun=(mpirun --allow-run-as-root --oversubscribe)

# job NAME WAIT: a job file whose first phase lasts WAIT seconds (a null
# phase, stopped by its time), then 50 files made and removed.
job() {
	printf '[global]\nfiles = 50\n[phase wait]\nop = null\niterations = 1000000000000\ntime = %s\n[phase create]\nop = create size=0\n[phase remove]\nop = unlink\n' \
		"$2" >"$tmp/$1.ini"
}

# rank ARGS...: one rank's command line (mpirun's MPMD form joins them).
rank() {
	echo "-np 1 $mpi --json start --engine user --dir $tmp/d --quiet --idle-ms 0 $*"
}

# mpmd OUT ERR RANK... : run the ranks (each one's "rank" words), the
# result on OUT, stderr on ERR; its exit status.
mpmd() {
	local out=$1 err=$2 args=() r

	shift 2
	for r; do
		[ ${#args[@]} -eq 0 ] || args+=(:)
		# shellcheck disable=SC2206 # a rank's words
		args+=($r)
	done
	timeout 120 "${mpirun[@]}" "${args[@]}" >"$out" 2>"$err"
}

# py FILE EXPR: a Python expression over the JSON document FILE (as j).
py() {
	python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

no_trees() {
	local left

	left=$(find "$tmp/d" -mindepth 1 -maxdepth 1 2>/dev/null | head -3)
	[ -z "$left" ] || fail "trees left behind: $left"
}

# Three ranks: the aggregate is theirs, each part is there, and the
# result file is one compare reads.
t_aggregate() {
	mkdir -p "$tmp/d"
	timeout 120 "${mpirun[@]}" -np 3 "$mpi" --json start --engine user \
		--profile metadata --files 200 --dir "$tmp/d" --quiet \
		--idle-ms 0 -o "$tmp/agg.json" >"$tmp/agg.out" 2>"$tmp/agg.err" ||
		fail "exit $?: $(tail -5 "$tmp/agg.err")"
	python3 - "$tmp/agg.json" <<'PYEOF' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
r = j["ranks"]
bad = []
if r["size"] != 3 or len(r["parts"]) != 3:
    bad.append("size %s, %d parts" % (r["size"], len(r["parts"])))
if j["job"]["state"] != "done":
    bad.append("state %s" % j["job"]["state"])
for p in j["phases"]:
    parts = [[q for q in part["phases"] if q["name"] == p["name"]][0]
             for part in r["parts"]]
    if p["ops"] != sum(q["ops"] for q in parts):
        bad.append("%s: ops %d, the ranks' sum %d" %
                   (p["name"], p["ops"], sum(q["ops"] for q in parts)))
    if p["elapsed_ns"] != max(q["elapsed_ns"] for q in parts):
        bad.append("%s: elapsed %d, not the slowest rank's" %
                   (p["name"], p["elapsed_ns"]))
    if p["threads"] != 3:
        bad.append("%s: threads %d" % (p["name"], p["threads"]))
for part in r["parts"]:
    if part["state"] != "done" or "environment" not in part["machine"]:
        bad.append("rank %d: %s, environment %s" %
                   (part["rank"], part["state"], "machine" in part))
if "environment" not in j or j["result"]["schema"] != "fsload-result":
    bad.append("not a result file")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PYEOF
	"$ctl" compare "$tmp/agg.json" "$tmp/agg.json" >"$tmp/cmp.out" 2>&1 ||
		fail "compare: exit $?: $(tail -3 "$tmp/cmp.out")"
	# one document on stdout: rank 0's
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/agg.out" ||
		fail "stdout is not one JSON document: $(head -c 200 "$tmp/agg.out")"
	no_trees
}

# Rank 1's first phase lasts 1.5 s, rank 0's 0.1 s: the next phases
# still open together (without the barrier, 1.4 s apart).
t_barrier() {
	local skew

	mkdir -p "$tmp/d"
	job fast 0.1
	job slow 1.5
	mpmd "$tmp/bar.json" "$tmp/bar.err" "$(rank --job "$tmp/fast.ini")" \
		"$(rank --job "$tmp/slow.ini")" ||
		fail "exit $?: $(tail -5 "$tmp/bar.err")"
	for i in 1 2; do
		skew=$(py "$tmp/bar.json" "abs(j['ranks']['parts'][1]['phases'][$i]['start_ns'] - j['ranks']['parts'][0]['phases'][$i]['start_ns']) // 1000000")
		echo "phase $((i + 1)): the ranks started ${skew} ms apart"
		[ "$skew" -lt 250 ] || fail "phase $((i + 1)) opened ${skew} ms apart"
	done
	[ "$(py "$tmp/bar.json" "j['phases'][0]['elapsed_ns'] >= 1500000000")" = True ] ||
		fail "the aggregate's first phase is not the slowest rank's"
	no_trees
}

# Rank 1 cannot start (no such directory): rank 0 stops at its next
# barrier and reports rank 1; neither waits for --rank-timeout.
t_rank_no_job() {
	local t0 rc

	mkdir -p "$tmp/d"
	job long 0.5
	t0=$(date +%s)
	mpmd "$tmp/nojob.json" "$tmp/nojob.err" "$(rank --job "$tmp/long.ini")" \
		"$(rank --job "$tmp/long.ini" --dir "$tmp/missing")"
	rc=$?
	[ $rc -ne 0 ] || fail "exit 0"
	[ $(($(date +%s) - t0)) -lt 60 ] || fail "took $(($(date +%s) - t0)) s"
	grep -q "missing" "$tmp/nojob.err" || fail "rank 1's error is not said: $(tail -3 "$tmp/nojob.err")"
	[ "$(py "$tmp/nojob.json" "j['job']['error']")" = "rank 1: started no job (its error is on its stderr)" ] ||
		fail "rank 0's result: $(py "$tmp/nojob.json" "j['job']['error']")"
	[ "$(py "$tmp/nojob.json" "j['ranks']['parts'][0]['state']")" = stopped ] ||
		fail "rank 0's job was not stopped"
	no_trees
}

# signal_rank1 SIG TREES: once rank 1 (the one of --seed 7) runs and
# TREES job directories are there, a second into the phase, send it SIG.
signal_rank1() {
	local pid i

	for ((i = 0; i < 100; i++)); do
		pid=$(pgrep -f -- "^$mpi --json start.* --seed 7" | head -1)
		[ -n "$pid" ] && [ "$(find "$tmp/d" -mindepth 1 -maxdepth 1 | wc -l)" -ge "$2" ] && break
		sleep 0.1
	done
	[ -n "$pid" ] || fail "rank 1 never ran"
	sleep 1
	kill -"$1" "$pid"
}

# SIGINT to rank 1 while every job is in a 30 s phase: rank 0's job is
# stopped within seconds, as rank 1 asked.
t_rank_interrupted() {
	local t0 rc

	mkdir -p "$tmp/d"
	job long 30
	t0=$(date +%s)
	mpmd "$tmp/int.json" "$tmp/int.err" "$(rank --job "$tmp/long.ini")" \
		"$(rank --job "$tmp/long.ini" --seed 7)" &
	signal_rank1 INT 1
	wait $!
	rc=$?
	[ $rc -ne 0 ] || fail "exit 0: rank 0's status does not say the run was stopped"
	[ $(($(date +%s) - t0)) -lt 20 ] || fail "took $(($(date +%s) - t0)) s, not stopped"
	[ "$(py "$tmp/int.json" "j['ranks']['parts'][0]['stopped_by_rank']")" = 1 ] ||
		fail "rank 0: stopped_by_rank $(py "$tmp/int.json" "j['ranks']['parts'][0]['stopped_by_rank']")"
	[ "$(py "$tmp/int.json" "j['job']['state']")" = stopped ] ||
		fail "the aggregate's state: $(py "$tmp/int.json" "j['job']['state']")"
	no_trees
}

# SIGKILL to rank 1 in a 30 s phase: mpirun ends the run (SIGTERM, then
# SIGKILL a second later); rank 0 stops its job and writes a partial
# result at once, rank 1's part lost, its exit status not 0.
t_rank_killed() {
	local t0 rc left

	mkdir -p "$tmp/d"
	job long 30
	t0=$(date +%s)
	mpmd "$tmp/kill.out" "$tmp/kill.err" \
		"$(rank --job "$tmp/long.ini" -o "$tmp/kill.json")" \
		"$(rank --job "$tmp/long.ini" --seed 7)" &
	signal_rank1 KILL 2
	wait $!
	rc=$?
	[ $rc -ne 0 ] || fail "exit 0"
	[ $(($(date +%s) - t0)) -lt 20 ] || fail "took $(($(date +%s) - t0)) s"
	[ -s "$tmp/kill.json" ] || fail "rank 0 wrote no result: $(grep -v '^-' "$tmp/kill.err" | tail -3)"
	[ "$(py "$tmp/kill.json" "(j['job']['state'], [p['lost'] for p in j['ranks']['parts']], j['ranks']['parts'][0]['state'])")" = \
		"('failed', [False, True], 'stopped')" ] ||
		fail "result: $(py "$tmp/kill.json" "(j['job'], [(p['lost'], p.get('state')) for p in j['ranks']['parts']])")"
	py "$tmp/kill.json" "j['job']['error']" | grep -q "^rank 1: no part" ||
		fail "error: $(py "$tmp/kill.json" "j['job']['error']")"
	# rank 0's tree removed; the killed rank's left, as after any SIGKILL
	left=$(find "$tmp/d" -mindepth 1 -maxdepth 1 | wc -l)
	[ "$left" -le 1 ] || fail "$left trees left"
	rm -rf "$tmp/d"
}

# Rank 1's first phase outlasts --rank-timeout: every rank ends, with the
# reason said, long before rank 1's phase would have.
t_rank_timeout() {
	local t0 rc

	mkdir -p "$tmp/d"
	job fast 0.1
	job slow 30
	t0=$(date +%s)
	mpmd "$tmp/to.json" "$tmp/to.err" \
		"$(rank --job "$tmp/fast.ini" --rank-timeout 2)" \
		"$(rank --job "$tmp/slow.ini" --rank-timeout 2)"
	rc=$?
	[ $rc -ne 0 ] || fail "exit 0"
	[ $(($(date +%s) - t0)) -lt 20 ] || fail "took $(($(date +%s) - t0)) s"
	grep -q "rank 0: before phase 2: the other ranks did not arrive within --rank-timeout: ending every rank" \
		"$tmp/to.err" || fail "no timeout said: $(grep fsloadctl "$tmp/to.err" | head -3)"
	# A rank ended by MPI_Abort leaves its job's tree (user engine).
	rm -rf "$tmp/d"
}

# A bad option at one rank ends every rank at once.
t_usage_ends_all() {
	local t0 rc

	mkdir -p "$tmp/d"
	job fast 0.1
	t0=$(date +%s)
	mpmd "$tmp/use.json" "$tmp/use.err" "$(rank --job "$tmp/fast.ini")" \
		"$(rank --job "$tmp/fast.ini" --lat-sample 0)"
	rc=$?
	[ $rc -ne 0 ] || fail "exit 0"
	[ $(($(date +%s) - t0)) -lt 30 ] || fail "took $(($(date +%s) - t0)) s"
	grep -q "lat-sample" "$tmp/use.err" || fail "the error is not said"
	rm -rf "$tmp/d"
}

# mdtest's names carry the rank: rank 1's thread 0 is mdtest's rank 1.
t_names_rank() {
	local n

	mkdir -p "$tmp/d"
	timeout 120 "${mpirun[@]}" -np 2 "$mpi" start --engine user \
		--profile metadata --files 10 --phases create --keep \
		--dir "$tmp/d" --quiet >/dev/null 2>"$tmp/names.err" ||
		fail "exit $?: $(tail -3 "$tmp/names.err")"
	for r in 0 1; do
		n=$(find "$tmp/d" -name "file.mdtest.$r.*" | wc -l)
		[ "$n" -eq 10 ] || fail "rank $r: $n files named file.mdtest.$r.N, not 10"
	done
	rm -rf "$tmp/d"
}

# --one-dir: every rank's job in rank 0's job directory, each rank's
# trees in it as mdtest's ranks' in its test directory; the run removes
# it all.
t_one_dir() {
	mkdir -p "$tmp/d"
	timeout 120 "${mpirun[@]}" -np 3 "$mpi" start --engine user \
		--profile metadata --files 10 --phases create --keep --one-dir \
		--dir "$tmp/d" --quiet --idle-ms 0 >/dev/null 2>"$tmp/od.err" ||
		fail "exit $?: $(tail -3 "$tmp/od.err")"
	[ "$(find "$tmp/d" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1 ] ||
		fail "not one job directory: $(find "$tmp/d" -mindepth 1 -maxdepth 1)"
	for r in 0 1 2; do
		n=$(find "$tmp/d"/*/test-dir.0-0/mdtest_tree.$r.0 -name "file.mdtest.$r.*" | wc -l)
		[ "$n" -eq 10 ] || fail "rank $r: $n files in mdtest_tree.$r.0, not 10"
	done
	rm -rf "$tmp/d"
	mkdir -p "$tmp/d"
	timeout 120 "${mpirun[@]}" -np 3 "$mpi" --json start --engine user \
		--profile metadata --files 20 --one-dir --stride 1 \
		--dir "$tmp/d" --quiet --idle-ms 0 -o "$tmp/od.json" \
		>/dev/null 2>"$tmp/od.err" ||
		fail "exit $?: $(tail -3 "$tmp/od.err")"
	python3 - "$tmp/od.json" <<'PYEOF2' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
parts = j["ranks"]["parts"]
bad = []
if len({p["job_dir"] for p in parts}) != 1:
    bad.append("job directories %s" % [p["job_dir"] for p in parts])
for p in j["phases"]:
    if p["errors"] or p["ops"] != (3 if p["name"].startswith("tree") else 60):
        bad.append("%s: %d ops, %d errors" % (p["name"], p["ops"], p["errors"]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PYEOF2
	no_trees
}

# --shared-dir under MPI: one tree for every rank (IO500's mdtest-hard),
# its directories made and removed once, each rank's items in each.
t_shared_tree() {
	mkdir -p "$tmp/d"
	timeout 120 "${mpirun[@]}" -np 2 "$mpi" start --engine user \
		--profile metadata --files 5 --shared-dir --phases create --keep \
		--dir "$tmp/d" --quiet --idle-ms 0 >/dev/null 2>"$tmp/st.err" ||
		fail "exit $?: $(tail -3 "$tmp/st.err")"
	for r in 0 1; do
		n=$(find "$tmp/d"/*/test-dir.0-0/mdtest_tree.0 -maxdepth 1 -name "file.mdtest.$r.*" | wc -l)
		[ "$n" -eq 5 ] || fail "rank $r: $n files in the one tree, not 5"
	done
	[ "$(find "$tmp/d" -name 'mdtest_tree.*' | wc -l)" -eq 1 ] ||
		fail "not one tree: $(find "$tmp/d" -name 'mdtest_tree.*' | head -3)"
	rm -rf "$tmp/d"
	mkdir -p "$tmp/d"
	timeout 120 "${mpirun[@]}" -np 2 "$mpi" --json start --engine user \
		--profile metadata --files 20 --shared-dir --stride 1 \
		--dir "$tmp/d" --quiet --idle-ms 0 -o "$tmp/st.json" \
		>/dev/null 2>"$tmp/st.err" ||
		fail "exit $?: $(tail -3 "$tmp/st.err")"
	[ "$(py "$tmp/st.json" "[(p['name'], p['ops'], p['errors']) for p in j['phases'] if p['name'].startswith('tree') or p['errors']]")" = \
		"[('tree-create', 1, 0), ('tree-remove', 1, 0)]" ] ||
		fail "$(py "$tmp/st.json" "[(p['name'], p['ops'], p['errors']) for p in j['phases']]")"
	no_trees
}

# A stride across ranks: with --one-dir, rank 1 of 2 (one thread each)
# stats rank 0's files (mdtest -N 1), seen in its system calls.
t_stride_ranks() {
	command -v strace >/dev/null || skip "no strace"
	mkdir -p "$tmp/d"
	mpmd "$tmp/sr.out" "$tmp/sr.err" \
		"$(rank --profile metadata --files 5 --one-dir --stride 1 --phases create,stat)" \
		"-np 1 strace -f -o $tmp/sr.trace $mpi start --engine user --dir $tmp/d --quiet --idle-ms 0 --profile metadata --files 5 --one-dir --stride 1 --phases create,stat" ||
		fail "exit $?: $(tail -3 "$tmp/sr.err")"
	grep -q 'stat.*file\.mdtest\.0\.4"' "$tmp/sr.trace" ||
		fail "rank 1 did not stat rank 0's files: $(grep -c 'file\.mdtest' "$tmp/sr.trace") of its calls name an item"
	no_trees
}

# Rank 0's job removes the directory only when every rank's job is past
# its last phase: rank 1 stats its files 1.5 s after rank 0 has ended.
t_end_hold() {
	mkdir -p "$tmp/d"
	for t in 0.1 1.5; do
		printf '[global]\nfiles = 20\n[phase create]\nop = create size=0\n[phase look]\nop = stat\niterations = 1000000000000\ntime = %s\n' \
			"$t" >"$tmp/look$t.ini"
	done
	mpmd "$tmp/eh.json" "$tmp/eh.err" \
		"$(rank --job "$tmp/look0.1.ini" --one-dir)" \
		"$(rank --job "$tmp/look1.5.ini" --one-dir)" ||
		fail "exit $?: $(tail -3 "$tmp/eh.err")"
	[ "$(py "$tmp/eh.json" "[q['errors'] for p in j['ranks']['parts'] for q in p['phases']]")" = "[0, 0, 0, 0]" ] ||
		fail "errors: $(py "$tmp/eh.json" "[(q['name'], q['errors']) for p in j['ranks']['parts'] for q in p['phases']]")"
	[ "$(py "$tmp/eh.json" "j['ranks']['parts'][1]['phases'][1]['elapsed_ns'] >= 1500000000")" = True ] ||
		fail "rank 1's last phase ended early"
	no_trees
}

# --iterations 3 on 2 ranks (mdtest -i 3): each iteration one job on
# every rank, rank 0's result each iteration's aggregate and its ranks'
# parts, and mdtest's summary over the iterations' aggregate rates.
t_iterations() {
	mkdir -p "$tmp/d"
	timeout 120 "${mpirun[@]}" -np 2 "$mpi" --json start --engine user \
		--profile metadata --files 50 --iterations 3 --dir "$tmp/d" \
		--quiet --idle-ms 0 -o "$tmp/it.json" >"$tmp/it.out" \
		2>"$tmp/it.err" || fail "exit $?: $(tail -5 "$tmp/it.err")"
	python3 - "$tmp/it.json" <<'PYEOF3' || exit "$KSFT_FAIL"
import json, math, sys
j = json.load(open(sys.argv[1]))
its = j.get("iterations", [])
bad = []
dirs = set()
if len(its) != 3:
    bad.append("%d iterations" % len(its))
rates = {}
for n, it in enumerate(its):
    parts = it.get("ranks", {}).get("parts", [])
    if len(parts) != 2 or [p["state"] for p in parts] != ["done", "done"]:
        bad.append("iteration %d: parts %s" % (n + 1, [p.get("state") for p in parts]))
        continue
    dirs.update(p["job_dir"] for p in parts)
    for p in it["phases"]:
        q = [[x for x in part["phases"] if x["name"] == p["name"]][0]
             for part in parts]
        if p["ops"] != sum(x["ops"] for x in q) or p["ops"] != \
           (2 if p["name"].startswith("tree") else 100):
            bad.append("iteration %d %s: ops %d, the ranks' %s" %
                       (n + 1, p["name"], p["ops"], [x["ops"] for x in q]))
        if p["elapsed_ns"] != max(x["elapsed_ns"] for x in q):
            bad.append("iteration %d %s: not the slowest rank's time" %
                       (n + 1, p["name"]))
        rates.setdefault(p["name"], []).append(p["ops"] * 1e9 / p["elapsed_ns"])
if len(dirs) != 6:
    bad.append("not a job of its own on each rank in each iteration: %s" % sorted(dirs))
summ = {s["phase"]: s for s in j.get("summary", [])}
if not rates or set(summ) != set(rates):
    bad.append("summary of %s, not %s" % (sorted(summ), sorted(rates)))
for name, v in rates.items():
    s = summ.get(name)
    if not s:
        continue
    mean = sum(v) / len(v)
    want = {"max": max(v), "min": min(v), "mean": mean, "runs": len(v),
            "stddev": math.sqrt(sum((x - mean) ** 2 for x in v) / len(v))}
    for k, w in want.items():
        # the JSON has 3 decimals
        if not math.isclose(s[k], w, rel_tol=1e-9, abs_tol=0.0015):
            bad.append("%s: %s %s, the iterations' %s" % (name, k, s[k], w))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PYEOF3
	no_trees
}

# A --threads list and an engine list (with --iterations) under two
# ranks: every job of the list on every rank, its figures the ranks' sum,
# a job directory of its own on each rank.
t_lists() {
	mkdir -p "$tmp/d"
	timeout 120 "${mpirun[@]}" -np 2 "$mpi" --json start --engine user \
		--profile metadata --files 50 --threads 1,2 --dir "$tmp/d" \
		--quiet --idle-ms 0 -o "$tmp/tl.json" >/dev/null \
		2>"$tmp/tl.err" || fail "--threads 1,2: exit $?: $(tail -5 "$tmp/tl.err")"
	timeout 120 "${mpirun[@]}" -np 2 "$mpi" --json start \
		--engine user,uring --iterations 2 --profile metadata \
		--files 50 --dir "$tmp/d" --quiet --idle-ms 0 \
		-o "$tmp/el.json" >/dev/null 2>"$tmp/el.err" ||
		fail "--engine user,uring: exit $?: $(tail -5 "$tmp/el.err")"
	python3 - "$tmp/tl.json" "$tmp/el.json" <<'PYEOF4' || exit "$KSFT_FAIL"
import json, sys
bad = []
dirs = set()

def job(what, r, threads):
    parts = r.get("ranks", {}).get("parts", [])
    if [p["state"] for p in parts] != ["done", "done"]:
        bad.append("%s: parts %s" % (what, [p.get("state") for p in parts]))
        return
    dirs.update(p["job_dir"] for p in parts)
    for ph in r["phases"]:
        want = 2 * threads * (1 if ph["name"].startswith("tree") else 50)
        got = sum([x for x in p["phases"] if x["name"] == ph["name"]][0]["ops"]
                  for p in parts)
        if ph["ops"] != want or got != want:
            bad.append("%s %s: ops %d, the ranks' %d, want %d" %
                       (what, ph["name"], ph["ops"], got, want))

tl = json.load(open(sys.argv[1]))
sw = tl.get("sweep", [])
if [r["threads"] for r in sw] != [2, 4]:
    bad.append("sweep of %s threads, not [2, 4]" % [r["threads"] for r in sw])
for r in sw:
    job("threads %d" % r["threads"], r, r["threads"] // 2)
if len(dirs) != 4:
    bad.append("threads list: %d job directories, not 4" % len(dirs))
dirs.clear()
el = json.load(open(sys.argv[2]))
if el.get("order") != [["user", "uring"], ["uring", "user"]]:
    bad.append("engine order %s" % el.get("order"))
for e in ("user", "uring"):
    its = el.get(e, {}).get("iterations", [])
    if len(its) != 2:
        bad.append("%s: %d iterations" % (e, len(its)))
    for it in its:
        if it["job"].get("engine") != e:
            bad.append("%s: a job of engine %s" % (e, it["job"].get("engine")))
        job("%s iteration %d" % (e, it["iteration"]), it, 1)
if len(dirs) != 8:
    bad.append("engine list: %d job directories, not 8" % len(dirs))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PYEOF4
	no_trees
}

# Under several ranks, what a multi-client run cannot do is refused.
t_refused() {
	timeout 60 "${mpirun[@]}" -np 2 "$mpi" start --engine user \
		--profile metadata --age 50 --dir "$tmp" \
		>/dev/null 2>"$tmp/ref.err" && fail "--age accepted"
	grep -q "does not age: each rank would fill" "$tmp/ref.err" ||
		fail "$(grep fsloadctl "$tmp/ref.err" | head -2)"
	timeout 60 "${mpirun[@]}" -np 2 "$mpi" start \
		--profile metadata --cpu-profile 100 --dir "$tmp" \
		>/dev/null 2>"$tmp/ref.err" && fail "--cpu-profile accepted without --folded"
	grep -q -- "--cpu-profile: in a multi-client run each rank writes its own profile" "$tmp/ref.err" ||
		fail "$(grep fsloadctl "$tmp/ref.err" | head -2)"
	# ranks given other iterations: refused at once, not a hang
	mpmd "$tmp/ref.out" "$tmp/ref.err" \
		"$(rank --profile metadata --files 5 --iterations 2)" \
		"$(rank --profile metadata --files 5 --iterations 3)" &&
		fail "ranks of 2 and 3 iterations accepted"
	grep -q "rank 1: --iterations 3, .*rank 0's: 2, .*every rank runs the same jobs" \
		"$tmp/ref.err" || fail "$(grep fsloadctl "$tmp/ref.err" | head -2)"
	"$ctl" start --engine user --profile metadata --one-dir --dir "$tmp" \
		>/dev/null 2>"$tmp/ref.err" && fail "--one-dir accepted without MPI"
	grep -q "one-dir: in a multi-client run only" "$tmp/ref.err" ||
		fail "$(head -2 "$tmp/ref.err")"
}

ktap_plan 15
ktap_run aggregate t_aggregate
ktap_run barrier t_barrier
ktap_run rank_no_job t_rank_no_job
ktap_run rank_interrupted t_rank_interrupted
ktap_run rank_killed t_rank_killed
ktap_run rank_timeout t_rank_timeout
ktap_run usage_ends_all t_usage_ends_all
ktap_run names_rank t_names_rank
ktap_run one_dir t_one_dir
ktap_run shared_tree t_shared_tree
ktap_run stride_ranks t_stride_ranks
ktap_run end_hold t_end_hold
ktap_run iterations t_iterations
ktap_run lists t_lists
ktap_run refused t_refused
ktap_finish
echo "$ktap_pass passed, $ktap_fail failed"
