#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The userspace engines (fsloadctl start --engine user, uring) on the
# host: they need neither the module nor a guest.  smallfiles and metadata run in a
# temporary directory; the JSON results must count what the program asked
# for (ops per phase, a latency histogram whose counts sum to the ops),
# the files kept with --keep must be on disk under the job layout, and
# without --keep nothing may be left.  KTAP; "N passed, N failed" last.
set -uo pipefail

# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/lib/host.sh"

# check FILE EXPR WANTED...: Python expressions over the JSON document
# (as `j`; ph(NAME) is a phase); a list prints space-separated.
check() {
	python3 - "$@" <<'EOF' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
def ph(name):
    return [p for p in j["phases"] if p["name"] == name][0]
def hist_ok(p):
    # every op type's histogram counts exactly its operations
    return all(sum(b[2] for b in o["latency"]["histogram"]) == o["ops"]
               for o in p["ops_by_type"])
bad = 0
a = sys.argv[2:]
for i in range(0, len(a), 2):
    expr, want = a[i], a[i + 1]
    try:
        v = eval(expr)
        got = " ".join(map(str, v)) if isinstance(v, list) else str(v)
    except Exception as e:
        got = "exception: %r" % e
    if got != want:
        print("FAIL: %s: got %r, wanted %r" % (expr, got, want))
        bad = 1
sys.exit(bad)
EOF
}

# refused DIR NAME TEXT MESSAGE: the job file TEXT (with \n escapes) is a
# usage error, and says MESSAGE.
refused() {
	printf '%b' "$3" >"$tmp/$2.ini"
	"$ctl" start --engine user --job "$tmp/$2.ini" --dir "$1" \
		>/dev/null 2>"$tmp/$2.err"
	[ $? -eq 2 ] || fail "$2: not a usage error"
	grep -q "$4" "$tmp/$2.err" || fail "$2: $(cat "$tmp/$2.err")"
}

# run DIR NAME ARGS...: start --engine user --json into $tmp/NAME.json
run() {
	local dir=$1 name=$2

	shift 2
	"$ctl" --json start --engine user --dir "$dir" --quiet --idle-ms 0 \
		"$@" >"$tmp/$name.json" ||
		fail "fsloadctl start --engine user $* exited $?"
}

t_smallfiles() {
	local d=$tmp/sf f=$tmp/sf.json

	mkdir -p "$d"
	run "$d" sf --profile smallfiles --threads 2 --files 150 \
		--files-per-dir 100 --size 8192 --block 4096 --seed 7
	check "$f" \
		'j["job"]["state"]' "done" \
		'j["job"]["threads"]' 2 \
		'[p["name"] for p in j["phases"]]' "create stat read unlink" \
		'[p["ops"] for p in j["phases"]]' "300 300 300 300" \
		'[p["errors"] for p in j["phases"]]' "0 0 0 0" \
		'[p["complete"] for p in j["phases"]]' "True True True True" \
		'ph("create")["bytes"]' $((300 * 8192)) \
		'ph("read")["bytes"]' $((300 * 8192)) \
		'all(hist_ok(p) for p in j["phases"])' True \
		'all(p["cpu"]["worker_ns"] > 0 for p in j["phases"])' True \
		'len(j["job"]["worker_pids"])' 2 \
		'j["job"]["overhead_ops"]' 16384 \
		'j["job"]["pmu"]' False
	[ -z "$(ls -A "$d")" ] || fail "left behind: $(ls "$d")"
}

t_smallfiles_keep() {
	local d=$tmp/sfk f=$tmp/sfk.json jd n

	mkdir -p "$d"
	# smallfiles unlinks what it made: a job file that only creates.
	cat >"$tmp/create.job" <<'EOF'
[global]
files = 120
files-per-dir = 50

[phase create]
op = create size=4K block=4K
EOF
	run "$d" sfk --job "$tmp/create.job" --threads 2 --keep
	check "$f" \
		'j["job"]["state"]' "done" \
		'[p["ops"] for p in j["phases"]]' 240 \
		'all(hist_ok(p) for p in j["phases"])' True
	jd=$(find "$d" -mindepth 1 -maxdepth 1 -name 'fsload-*')
	if [ -z "$jd" ] || [ "$(echo "$jd" | wc -l)" -ne 1 ]; then
		fail "one job directory expected: $jd"
	fi
	n=$(find "$jd" -type f | wc -l)
	[ "$n" -eq 240 ] || fail "$n files on disk, wanted 240"
	# the kernel's layout: t<3>/d<5>/f<8>, 50 files a directory
	if [ ! -f "$jd/t000/d00000/f00000000" ] ||
	   [ ! -f "$jd/t001/d00002/f00000119" ]; then
		fail "not the job layout: $(find "$jd" | head -5)"
	fi
	n=$(find "$jd/t001/d00001" -type f | wc -l)
	[ "$n" -eq 50 ] || fail "t001/d00001 holds $n files, wanted 50"
	n=$(stat -c %s "$jd/t000/d00001/f00000077")
	[ "$n" -eq 4096 ] || fail "a file of $n bytes, wanted 4096"
}

t_metadata_keep() {
	local d=$tmp/md f=$tmp/md.json jd n

	mkdir -p "$d"
	run "$d" md --profile metadata --threads 2 --items 80 --keep
	check "$f" \
		'j["job"]["state"]' "done" \
		'[p["name"] for p in j["phases"]]' \
		"tree-create dir-create dir-stat dir-rename file-create file-stat file-read" \
		'[p["ops"] for p in j["phases"]]' "2 160 160 160 160 160 160" \
		'[p["errors"] for p in j["phases"]]' "0 0 0 0 0 0 0" \
		'all(hist_ok(p) for p in j["phases"])' True \
		'sum(p["ops"] for p in j["phases"])' 962 \
		'j["job"]["ops"]' 962
	jd=$(find "$d" -mindepth 1 -maxdepth 1 -name 'fsload-*')
	[ -n "$jd" ] || fail "no job directory kept"
	n=$(find "$jd" -mindepth 3 -type f | wc -l)
	[ "$n" -eq 160 ] || fail "$n files on disk, wanted 160"
	# directories made, then renamed to their new first letter
	n=$(find "$jd" -mindepth 3 -type d | wc -l)
	[ "$n" -eq 160 ] || fail "$n item directories on disk, wanted 160"
	n=$(find "$jd" -mindepth 3 -type d -name 'f*' | wc -l)
	[ "$n" -eq 0 ] || fail "$n directories not renamed"
}

# The same seed gives the same operation sequence: two runs of a random
# order mix count the same per op type.
t_same_sequence() {
	local d=$tmp/seq a b

	mkdir -p "$d"
	run "$d" seq1 --profile randrw --ops 400 --files 20 --size 64K \
		--threads 2 --seed 42
	run "$d" seq2 --profile randrw --ops 400 --files 20 --size 64K \
		--threads 2 --seed 42
	a=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print([[(o["op"], o["ops"]) for o in p["ops_by_type"]] for p in j["phases"]])' "$tmp/seq1.json")
	b=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print([[(o["op"], o["ops"]) for o in p["ops_by_type"]] for p in j["phases"]])' "$tmp/seq2.json")
	[ "$a" = "$b" ] || fail "seed 42 twice: $a vs $b"
	[ -z "$(ls -A "$d")" ] || fail "left behind: $(ls "$d")"
}

t_usage() {
	"$ctl" start --engine bogus --profile smallfiles --dir "$tmp" \
		>/dev/null 2>&1
	[ $? -eq 2 ] || fail "--engine bogus: not a usage error"
	"$ctl" start --engine user --detach --profile smallfiles \
		--dir "$tmp" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "--engine user --detach: not a usage error"
	"$ctl" start --engine both --threads 1,2 --profile smallfiles \
		--dir "$tmp" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "--engine both with a thread list: not a usage error"
	"$ctl" start --engine user --profile smallfiles --files 5 --quiet \
		--dir "$tmp/nonexistent" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "a missing --dir: not a usage error"
}

# --engine uring: skip the case unless this kernel lets a process use
# io_uring (kernel.io_uring_disabled, a seccomp filter).
uring_or_skip() {
	"$ctl" start --engine uring --profile null --files 1 --quiet \
		--idle-ms 0 --dir "$tmp" >/dev/null 2>"$tmp/uring.err" ||
		skip "io_uring not usable here: $(cat "$tmp/uring.err")"
}

# engines FILE: the engines of a list ran the same phases, each the same
# ops per type, and the report says so.
engines_same() {
	python3 - "$1" <<'EOF2' || exit "$KSFT_FAIL"
import json, sys
j = json.load(open(sys.argv[1]))
def counts(run):
    return [(p["name"], p["ops"], p["errors"], p["bytes"],
             [(o["op"], o["ops"], o["errors"]) for o in p["ops_by_type"]])
            for p in run["phases"]]
bad = []
runs = [j[e] for e in j["engines"]]
for e, r in zip(j["engines"], runs):
    if r["job"]["state"] != "done" or r["job"]["engine"] != e:
        bad.append("%s: %s, engine %s" % (e, r["job"]["state"], r["job"]["engine"]))
    if counts(r) != counts(runs[0]):
        bad.append("%s counts differ:\n %s\n %s" % (e, counts(runs[0]), counts(r)))
    for p in r["phases"]:
        for o in p["ops_by_type"]:
            if sum(b[2] for b in o["latency"]["histogram"]) != o["ops"]:
                bad.append("%s %s %s: histogram" % (e, p["name"], o["op"]))
if not j["same_ops"] or not all(c["same_ops"] for c in j["comparison"]):
    bad.append("comparison: not the same ops")
ref = j["summary"]["reference"]
for c in j["comparison"]:
    for e in j["engines"]:
        if e != ref and "lat_ratio" not in c[e]:
            bad.append("%s: no %s/%s ratio" % (c["phase"], e, ref))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
EOF2
}

# The uring engine does what the user engine does, batched or not, with
# or without SQPOLL: writes beyond one chain (40 KiB in 4 KiB blocks), a
# read to EOF, the directory tree, a random weighted mix, syncfs ops.
t_uring_same() {
	local d=$tmp/ur sq

	uring_or_skip
	mkdir -p "$d"
	for sq in "" --uring-sqpoll; do
		"$ctl" --json start --engine user,uring $sq --dir "$d" --quiet \
			--idle-ms 0 --profile smallfiles --threads 2 --files 30 \
			--size 40K --block 4K --seed 3 >"$tmp/ur-sf.json" ||
			fail "smallfiles $sq exited $?"
		engines_same "$tmp/ur-sf.json"
		"$ctl" --json start --engine uring,user $sq --uring-batch 5 \
			--dir "$d" --quiet --idle-ms 0 --profile metadata \
			--threads 2 --items 40 --seed 3 >"$tmp/ur-md.json" ||
			fail "metadata $sq exited $?"
		engines_same "$tmp/ur-md.json"
		"$ctl" --json start --engine user,uring $sq --uring-batch 1 \
			--dir "$d" --quiet --idle-ms 0 --profile randrw \
			--files 6 --size 64K --ops 200 --seed 3 \
			>"$tmp/ur-rr.json" || fail "randrw $sq exited $?"
		engines_same "$tmp/ur-rr.json"
		# syncfs ops between the rounds: after the ops before them
		"$ctl" --json start --engine user,uring $sq --dir "$d" --quiet \
			--idle-ms 0 --profile smallfiles --sync batch \
			--files 40 --files-per-round 20 --seed 3 \
			>"$tmp/ur-sb.json" || fail "--sync batch $sq exited $?"
		engines_same "$tmp/ur-sb.json"
	done
	check "$tmp/ur-rr.json" \
		'j["uring"]["job"]["uring_batch"]' 1 \
		'j["uring"]["job"]["uring_sqpoll"]' True \
		'j["user"]["job"]["uring_batch"]' None
	[ -z "$(ls -A "$d")" ] || fail "left behind: $(ls "$d")"
}

t_uring_usage() {
	local a

	for a in "--engine uring --uring-batch 0" \
		 "--engine uring --uring-batch 1025" \
		 "--engine user --uring-sqpoll" \
		 "--engine user --uring-batch 4" \
		 "--engine uring,uring" "--engine both,user" \
		 "--engine user,bogus" "--engine user," \
		 "--engine uring --detach" \
		 "--engine user,uring --threads 1,2"; do
		# shellcheck disable=SC2086
		"$ctl" start $a --profile smallfiles --files 5 --quiet \
			--dir "$tmp" >/dev/null 2>&1
		[ $? -eq 2 ] || fail "$a: not a usage error"
	done
}

# --iterations with a list of engines: iteration i runs the list rotated
# by i, so that each engine runs first equally often; the report says
# the order of each iteration, each run's place in it, and per phase each
# engine's means where it ran first and later; compare reads each
# engine's runs.  Three iterations of two engines: one runs first twice.
t_engine_order() {
	local d=$tmp/order

	uring_or_skip
	mkdir -p "$d"
	"$ctl" --json start --engine user,uring --iterations 4 --dir "$d" \
		--quiet --idle-ms 0 --profile smallfiles --files 20 --seed 5 \
		-o "$tmp/order4.json" >"$tmp/order4.out" 2>"$tmp/order4.err" ||
		fail "--iterations 4 exited $?"
	[ ! -s "$tmp/order4.err" ] || fail "4 of 2 engines: $(cat "$tmp/order4.err")"
	check "$tmp/order4.json" \
		'j["engines"]' "user uring" \
		'[",".join(o) for o in j["order"]]' \
		"user,uring uring,user user,uring uring,user" \
		'[(r["iteration"], r["position"], r["job"]["engine"]) for r in j["user"]["iterations"]]' \
		"(1, 1, 'user') (2, 2, 'user') (3, 1, 'user') (4, 2, 'user')" \
		'[r["position"] for r in j["uring"]["iterations"]]' "2 1 2 1" \
		'all(r["job"]["state"] == "done" for e in j["engines"] for r in j[e]["iterations"])' True \
		'j["same_ops"]' True \
		'[(c[e]["runs"], c[e]["first"]["runs"], c[e]["later"]["runs"]) for c in j["comparison"][:1] for e in j["engines"]]' \
		"(4, 2, 2) (4, 2, 2)" \
		'all(c[e]["lat_order_ratio"] is not None and c[e]["cpu_order_ratio"] is not None for c in j["comparison"] for e in j["engines"])' True \
		'all(abs(c[e]["lat_avg_ns"] - (c[e]["first"]["lat_avg_ns"] + c[e]["later"]["lat_avg_ns"]) / 2) < 1e-3 * c[e]["lat_avg_ns"] for c in j["comparison"] for e in j["engines"])' True \
		'"lat_ratio" in j["comparison"][0]["uring"] and "lat_ratio" not in j["comparison"][0]["user"]' True
	cmp -s "$tmp/order4.json" "$tmp/order4.out" ||
		fail "-o and --json differ"
	# text: the order of each iteration, how often each ran first
	"$ctl" start --engine uring,user --iterations 3 --dir "$d" --quiet \
		--idle-ms 0 --profile smallfiles --files 10 --seed 5 \
		>"$tmp/order3.txt" 2>"$tmp/order3.err" ||
		fail "--iterations 3 exited $?"
	# an uneven rotation is said before it runs (issue 31)
	grep -q "warning: --iterations 3 is not a multiple of the 2 engines: uring runs first 2 times, user 1; --iterations 4 rotates evenly" "$tmp/order3.err" ||
		fail "no warning of the uneven rotation: $(cat "$tmp/order3.err")"
	if ! { grep -q "^iteration 1: uring (done, .*), user (done" "$tmp/order3.txt" &&
		grep -q "^iteration 2: user (done, .*), uring (done" "$tmp/order3.txt" &&
		grep -q "^iteration 3: uring (done" "$tmp/order3.txt" &&
		grep -q "^ran first: uring 2, user 1 of 3 iterations" "$tmp/order3.txt" &&
		grep -q "cpu_ord  lat_ord$" "$tmp/order3.txt"; }; then
		fail "text report: $(cat "$tmp/order3.txt")"
	fi
	# one iteration: the order and each run's place, the layout as before
	"$ctl" --json start --engine uring,user --dir "$d" --quiet \
		--idle-ms 0 --profile smallfiles --files 10 --seed 5 \
		>"$tmp/order1.json" || fail "one iteration exited $?"
	check "$tmp/order1.json" 'j["order"]' "['uring', 'user']" \
		'(j["uring"]["position"], j["user"]["position"])' "(1, 2)" \
		'"runs" in j["comparison"][0]["user"]' False
	"$ctl" compare "$tmp/order4.json" "$tmp/order4.json" \
		>"$tmp/order-cmp.txt" || fail "compare exited $?"
	if ! { grep -q "(8 runs, 1 boot)" "$tmp/order-cmp.txt" &&
		grep -q "^uring:create " "$tmp/order-cmp.txt"; }; then
		fail "compare: $(head -5 "$tmp/order-cmp.txt")"
	fi
	[ -z "$(ls -A "$d")" ] || fail "left behind: $(ls "$d")"
}

# --sync batch and final: the phase before an fsync or sync phase has no
# sync tail (it would do the writeback that phase is there to time); the
# others keep theirs.  --sync fsync says "fsync on" in the header.
t_sync_modes() {
	local d=$tmp/sync

	mkdir -p "$d"
	run "$d" batch --profile smallfiles --sync batch --files 40 \
		--files-per-round 20
	check "$tmp/batch.json" \
		'[p["name"] for p in j["phases"]]' \
		"create-0 fsync-0 create-1 fsync-1 stat read unlink" \
		'[p["cpu"]["tail_ns"] is None for p in j["phases"]]' \
		"True False True False False False False"
	run "$d" final --profile smallfiles --sync final --files 40
	check "$tmp/final.json" \
		'[p["cpu"]["tail_ns"] is None for p in j["phases"]]' \
		"True False False False False"
	"$ctl" start --engine user --dir "$d" --quiet --idle-ms 0 \
		--profile smallfiles --sync fsync --files 10 >"$tmp/fsync.txt" ||
		fail "--sync fsync"
	grep -q "fsync on," "$tmp/fsync.txt" ||
		fail "--sync fsync: $(head -1 "$tmp/fsync.txt")"
}

# A stonewall that stops the item-making phases: the later phases run
# over the items made (mdtest), without an error for one never made; the
# table's complete column and JSON's completion say "time" for them, and
# the --iterations summary counts the stonewalled runs.
t_stonewall_items() {
	local d=$tmp/sw f=$tmp/sw.json

	mkdir -p "$d"
	"$ctl" --json start --engine user --dir "$d" --quiet --idle-ms 0 \
		--profile metadata --items 1000000 --items-per-dir 1000 \
		--stonewall 0.2 --iterations 2 >"$f" ||
		fail "metadata --stonewall"
	python3 - "$f" <<'PY' || fail "stonewalled metadata"
import json, sys
j = json.load(open(sys.argv[1]))
bad = 0
for it in j["iterations"]:
    ph = {p["name"]: p for p in it["phases"]}
    for made, later in (("dir-create", ("dir-stat", "dir-rename", "dir-remove")),
                        ("file-create", ("file-stat", "file-read", "file-remove"))):
        m = ph[made]
        if not m["stonewalled"] or m["completion"] != "time" or m["errors"]:
            print("%s: stonewalled %s completion %s errors %d" %
                  (made, m["stonewalled"], m["completion"], m["errors"]))
            bad = 1
        for n in later:
            p = ph[n]
            if p["errors"] or p["ops"] > m["ops"] or \
               (not p["stonewalled"] and p["ops"] != m["ops"]):
                print("%s: %d ops %d errors after %d made" %
                      (n, p["ops"], p["errors"], m["ops"]))
                bad = 1
s = {r["phase"]: r for r in j["summary"]}
if s["dir-create"]["stonewalled_runs"] != 2 or s["dir-stat"]["error_runs"]:
    print("summary", s["dir-create"], s["dir-stat"])
    bad = 1
sys.exit(bad)
PY
	"$ctl" start --engine user --dir "$d" --quiet --idle-ms 0 \
		--profile metadata --items 1000000 --items-per-dir 1000 \
		--stonewall 0.2 >"$tmp/sw.txt" || fail "metadata --stonewall (text)"
	awk '$1 == "dir-create" && NF == 12 { print $12 }' "$tmp/sw.txt" |
		grep -qx time || fail "dir-create's complete column is not time"
	[ -z "$(ls -A "$d")" ] || fail "left behind: $(ls "$d")"
}

# The average latency covers the ops the latency sum covers, the
# successful ones: a stat phase where half the files do not exist has an
# average between its minimum and maximum, in JSON and in the table.
t_avg_with_errors() {
	local d=$tmp/avg f=$tmp/avg.json

	mkdir -p "$d"
	cat >"$tmp/half.ini" <<'INI'
[global]
files = 40
[phase create]
iterations = 20
op = create size=1K block=1K
[phase stat]
continue = yes
op = stat
[phase unlink]
continue = yes
op = unlink
INI
	run "$d" avg --job "$tmp/half.ini"
	check "$f" \
		'[(p["ops"], p["errors"], p["misses"]) for p in j["phases"]]' \
		"(20, 0, 0) (20, 0, 20) (20, 0, 20)" \
		'all(o["lat_min_ns"] <= o["lat_avg_ns"] <= o["lat_max_ns"] and
		     abs(o["lat_avg_ns"] * o["sampled"] - o["lat_sum_ns"]) <= o["sampled"]
		     for p in j["phases"] for o in p["ops_by_type"])' True
	"$ctl" start --engine user --dir "$d" --quiet --idle-ms 0 \
		--job "$tmp/half.ini" >"$tmp/avg.txt" || fail "half.ini (text)"
	awk '$1 == "stat" && NF == 12 { exit !($9 >= $10 && $9 <= $11) }' \
		"$tmp/avg.txt" || fail "stat: avg_us not within min_us..max_us:
$(grep '^stat ' "$tmp/avg.txt")"
}

# A job file named after a profile reports that profile's summary; one
# named otherwise, ops/s.
t_jobfile_summary() {
	local d=$tmp/js

	mkdir -p "$d"
	run "$d" jsum --job "$repo/ctl/jobs/smallfiles.ini" --files 30
	check "$tmp/jsum.json" 'j["summary"]["metric"]' "files/s" \
		'j["summary"]["ops"]' 30
	cp "$repo/ctl/jobs/smallfiles.ini" "$tmp/other.ini"
	sed -i '/^name = /d' "$tmp/other.ini"
	run "$d" jother --job "$tmp/other.ini" --files 30
	check "$tmp/jother.json" 'j["summary"]["metric"]' "ops/s"
}

# Short phases (issue 15): the workers' CPU time in ns from their thread
# clocks (not a multiple of /proc/stat's 10 ms ticks), the busy time of
# all CPUs from /proc/schedstat where the kernel has it and else from
# /proc/stat's ticks, said in the JSON and marked in the CPU table; never
# more than 100% of the machine, however short the phase.
t_cpu_short_phases() {
	local d=$tmp/cpu from=ticks n

	mkdir -p "$d"
	[ -r /proc/schedstat ] && from=schedstat
	for n in 1 20; do
		run "$d" "cpu$n" --profile smallfiles --files "$n" --idle-ms 50
		check "$tmp/cpu$n.json" \
			'j["job"]["system_cpu_from"]' "$from" \
			'[p["cpu"]["worker_ns"] % 10000000 != 0 for p in j["phases"]]' "True True True True" \
			'[p["cpu"]["system_ns"] <= p["elapsed_ns"] * j["job"]["cpus"] for p in j["phases"]]' "True True True True" \
			'[p["cpu"]["cpu_percent"] <= 100 for p in j["phases"]]' "True True True True" \
			'j["job"]["idle_busy_ns"] <= j["job"]["idle_ns"] * j["job"]["cpus"]' True
	done
	"$ctl" start --engine user --dir "$d" --quiet --profile smallfiles \
		--files 5 >"$tmp/cpu.txt" || fail "start exited $?"
	if [ $from = ticks ]; then
		grep -q '^cpu_per_op .* backgr_ns\* .* tail_ns\* .* total_ns\* .* cpu_%\* ' "$tmp/cpu.txt" ||
			fail "ticks, but the columns are not marked: $(grep cpu_per_op "$tmp/cpu.txt")"
		grep -q "^\*: from /proc/stat's [0-9]* ms ticks" "$tmp/cpu.txt" ||
			fail "ticks, not said under the table"
	else
		! grep -q 'backgr_ns\*' "$tmp/cpu.txt" || fail "schedstat, but marked as ticks"
	fi
}

# Progress a person can see (issue 31): --progress=line prints a plain
# line on stderr every 5 progress intervals, with phase k/n, the share of
# the phase's items and of the job, ops/s and the time left (a null job
# of 10^8 items, stopped by a SIGINT once a line came); nothing with
# --progress=none or --json (whose stdout stays one document) over a
# phase of 1.5 s; a name that is not a mode is a usage error naming the
# option.
t_progress_line() {
	local d=$tmp/pl rc pid

	mkdir -p "$d"
	"$ctl" start --engine user --dir "$d" --profile null \
		--files 100000000 --files-per-dir 100000000 --idle-ms 0 \
		--progress-ms 100 --progress=line >"$tmp/pl.out" 2>"$tmp/pl.err" &
	pid=$!
	wait_line 'phase 1/1' "$tmp/pl.err"
	kill -INT $pid
	wait $pid
	grep -Eq '^fsloadctl: user engine: running, phase 1/1 null [0-9]+% \([0-9]+ of 100000000 items\), job [0-9]+%, [0-9]+ ops/s, [0-9]+ s, left: phase ' \
		"$tmp/pl.err" || fail "no progress line: $(head -c 600 "$tmp/pl.err")"
	! grep -q 'phase 1/1' "$tmp/pl.out" || fail "progress on stdout"
	pt() {
		"$ctl" start --engine user --dir "$d" --profile randrw \
			--files 2 --size 128K --time 1.5 --idle-ms 0 \
			--progress-ms 100 "$@"
	}
	pt --progress=line >/dev/null 2>"$tmp/pt.err" || fail "randrw: exit $?"
	grep -Eq 'phase 2/3 rw [0-9]+% \([0-9]+ items, 1.5 s limit\), job [0-9]+%' \
		"$tmp/pt.err" || fail "no progress line: $(cat "$tmp/pt.err")"
	pt --progress=none >/dev/null 2>"$tmp/pn.err" || fail "none: exit $?"
	! grep -q 'phase [0-9]/' "$tmp/pn.err" || fail "--progress=none: $(cat "$tmp/pn.err")"
	pt --json >"$tmp/pj.json" 2>"$tmp/pj.err" || fail "--json: exit $?"
	! grep -q 'phase [0-9]/' "$tmp/pj.err" || fail "--json: $(cat "$tmp/pj.err")"
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/pj.json" ||
		fail "--json: stdout is not one JSON document"
	"$ctl" start --engine user --dir "$d" --profile null --files 1 \
		--progress=dots >/dev/null 2>"$tmp/pu.err"
	rc=$?
	[ $rc = 2 ] || fail "--progress=dots: exit $rc, not 2"
	grep -q -- "--progress: 'dots' is not one of none, line, bar" "$tmp/pu.err" ||
		fail "--progress=dots: $(cat "$tmp/pu.err")"
}

# The busiest other threads (issue 31): the user engine runs as its
# starter, who is privy to them (as the kernel engine's starter is), so
# their names and ids are shown, not "(a process)".  A busy loop of ours
# runs through the job, so that there is one.
t_top_threads_named() {
	local d=$tmp/top busy

	mkdir -p "$d"
	(while :; do :; done) &
	busy=$!
	run "$d" top --profile smallfiles --files 200
	kill "$busy"
	check "$tmp/top.json" \
		'sum(len(p["top_threads"]) for p in j["phases"]) > 0' True \
		'[t["name"] for p in j["phases"] for t in p["top_threads"] if t["name"] is None or t["pid"] is None]' ""
}

# mdtest's semantics (the metadata profile, job files): the rotation
# leaves mdtest's names (tests/jobs/mdtest-rotate.ini tells the files
# apart by size); a stride makes thread 1 stat thread 0's files, which
# alone exist; file-read reads nothing unless --read-bytes; --phases runs
# only those; a bad --phases is a usage error.
# mdtest -L -k: items only in the leaves of the tree (B^Z x I of them, from
# leaf (B^Z - 1) / (B - 1), numbered as mdtest's), files made by mknod:
# regular and empty; the uring engine makes the same tree.  Refused: -L
# without a tree, -k with data, a job file's first-dir without a tree, a
# mknod op with another flag.
t_leaf_mknod() {
	local d=$tmp/leaf e tree want

	mkdir -p "$d"
	want=$(printf 'mdtest_tree.0.%s\n' 3 4 5 6)
	for e in user uring; do
		[ $e = uring ] && ! "$ctl" start --engine uring --profile null \
			--files 1 --quiet --idle-ms 0 --dir "$d" \
			>/dev/null 2>&1 && continue
		"$ctl" --json start --engine $e --dir "$d" --quiet --idle-ms 0 \
			--profile metadata --tree-branch 2 --tree-depth 2 \
			--items-per-dir 3 --leaf-only --mknod --keep \
			>"$tmp/leaf-$e.json" || fail "$e: exited $?"
		check "$tmp/leaf-$e.json" 'j["job"]["first_dir"]' 3 \
			'j["job"]["files_per_thread"]' 12 \
			'ph("tree-create")["ops"]' 7 \
			'sum(p["errors"] for p in j["phases"])' 0
		tree=$(cd "$d"/fsload-user-*/test-dir.0-0 && find . | sort)
		[ "$(cd "$d"/fsload-user-*/test-dir.0-0 &&
		     find . -name 'file.*' -printf '%h\n' | sort -u |
		     sed 's|.*/||')" = "$(printf '%b' "$want")" ] ||
			fail "$e: files outside the leaves: $tree"
		[ "$(cd "$d"/fsload-user-*/test-dir.0-0 &&
		     find . -name 'file.*' -printf '%y %s %f\n' | sort -t. -k4n |
		     head -1)" = "f 0 file.mdtest.0.9" ] ||
			fail "$e: not mdtest's first leaf item: $tree"
		[ "$(find "$d" -name 'file.*' -type f -size 0 | wc -l)" = 12 ] ||
			fail "$e: not 12 empty regular files: $tree"
		[ $e = user ] && echo "$tree" >"$tmp/leaf-user.tree"
		[ $e = uring ] && [ "$tree" != "$(cat "$tmp/leaf-user.tree")" ] &&
			fail "uring: another tree than user's"
		rm -rf "$d"/fsload-user-*
	done
	"$ctl" start --engine user --profile metadata --leaf-only --dir "$d" \
		>/dev/null 2>&1
	[ $? -eq 2 ] || fail "--leaf-only without a tree: not a usage error"
	"$ctl" start --engine user --profile metadata --mknod --size 1 \
		--dir "$d" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "--mknod --size 1: not a usage error"
	refused "$d" first-dir-flat \
		'[global]\nfirst-dir = 1\n[phase c]\nop = create\n' \
		"(first-dir): first_dir: only in a tree (tree_branch)"
	refused "$d" mknod-fsync '[phase c]\nop = create mknod fsync\n' \
		"mknod makes the file only"
	[ -z "$(ls -A "$d")" ] || fail "left behind: $(ls "$d")"
}

# A job of rank 3 (2 threads): mdtest's names of ranks 6 and 7 through the
# uring engine too, the rank in the text header; a job file's [global]
# rank; refused: a rank whose threads pass 999999.
t_rank() {
	local d=$tmp/rank e got

	mkdir -p "$d"
	for e in user uring; do
		[ $e = uring ] && ! "$ctl" start --engine uring --profile null \
			--files 1 --quiet --idle-ms 0 --dir "$d" \
			>/dev/null 2>&1 && continue
		"$ctl" start --engine $e --dir "$d" --idle-ms 0 --quiet \
			--profile metadata --threads 2 --rank 3 --items 2 \
			--phases create --keep >"$tmp/rank-$e.txt" ||
			fail "$e: exited $?"
		grep -q " threads 2, rank 3," "$tmp/rank-$e.txt" ||
			fail "$e: no rank in the header: $(head -3 "$tmp/rank-$e.txt")"
		got=$(cd "$d"/fsload-user-*/test-dir.0-0 && find . -type f |
		      sort | tr '\n' ' ')
		[ "$got" = "./mdtest_tree.6.0/file.mdtest.6.0 ./mdtest_tree.6.0/file.mdtest.6.1 ./mdtest_tree.7.0/file.mdtest.7.0 ./mdtest_tree.7.0/file.mdtest.7.1 " ] ||
			fail "$e: not ranks 6 and 7: $got"
		rm -rf "$d"/fsload-user-*
	done
	printf '[global]\nrank = 2\nthreads = 2\n[phase c]\nop = create\n' \
		>"$tmp/rank.ini"
	run "$d" rank-job --job "$tmp/rank.ini" --files 1
	check "$tmp/rank-job.json" 'j["job"]["rank"]' 2 \
		'j["run"]["params"]["rank"]' 2
	"$ctl" start --engine user --profile metadata --threads 2 \
		--rank 500000 --dir "$d" >/dev/null 2>"$tmp/rank.err"
	[ $? -eq 2 ] || fail "rank 500000 of 2 threads: not a usage error"
	grep -q "rank: rank x threads + thread" "$tmp/rank.err" ||
		fail "rank 500000: $(cat "$tmp/rank.err")"
	[ -z "$(ls -A "$d")" ] || fail "left behind: $(ls "$d")"
}

t_mdtest() {
	local d=$tmp/mdtest

	mkdir -p "$d"
	run "$d" rot --job "$repo/tests/jobs/mdtest-rotate.ini"
	[ "$(cd "$d"/fsload-user-*/t000/d00000 && stat -c %s f0000000[0-3])" = \
	  "$(printf '2\n3\n1\n4')" ] || fail "rotation: $(ls -lR "$d")"
	rm -rf "$d"/fsload-user-*
	# io_uring: the rotation's renames one at a time, not a batch
	if "$ctl" start --engine uring --profile null --files 1 --quiet \
		--idle-ms 0 --dir "$d" >/dev/null 2>&1; then
		"$ctl" --json start --engine uring --uring-batch 16 --dir "$d" \
			--quiet --idle-ms 0 \
			--job "$repo/tests/jobs/mdtest-rotate.ini" \
			>"$tmp/rot-uring.json" || fail "uring rotation exited $?"
		[ "$(cd "$d"/fsload-user-*/t000/d00000 &&
		     stat -c %s f0000000[0-3])" = "$(printf '2\n3\n1\n4')" ] ||
			fail "uring rotation: $(ls -lR "$d")"
		rm -rf "$d"/fsload-user-*
	fi
	run "$d" stride --job "$repo/tests/jobs/stride.ini"
	check "$tmp/stride.json" '[(p["ops"], p["errors"]) for p in j["phases"]]' \
		"(10, 0) (10, 0)"
	run "$d" md --profile metadata --items 6 --size 4096 \
		--phases create,read,rename
	check "$tmp/md.json" '[p["name"] for p in j["phases"]]' \
		"tree-create dir-create dir-rename file-create file-read" \
		'ph("file-read")["bytes"]' 0
	run "$d" mdr --profile metadata --items 6 --size 4096 \
		--read-bytes 1000 --random --stride 1 --threads 2 --phase-sync
	check "$tmp/mdr.json" 'ph("file-read")["bytes"]' 12000 \
		'sum(p["errors"] for p in j["phases"])' 0
	"$ctl" start --engine user --profile metadata --phases create,list \
		--dir "$d" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "--phases list: not a usage error"
	# mdtest's open and fs_mark's: one create cannot be both
	refused "$d" rdwr-trunc '[phase c]\nop = create size=1 rdwr trunc\n' \
		"rdwr (mdtest's open) and trunc (fs_mark's) exclude each other"
	[ -z "$(ls -A "$d")" ] || fail "left behind: $(ls "$d")"
}

# Every numeric option is checked against the protocol's range (the
# spec's limits) before a request is sent: a usage error naming the
# option and its range, with either engine (the kernel engine's without
# the module: nothing reaches netlink).  --read-bytes is one read call of
# one block: above max_block_bytes (the module's default here) both
# engines refuse it up front (issue 31).
t_option_ranges() {
	local d=$tmp/ranges e a want rc

	mkdir -p "$d"
	for e in kernel user; do
		while IFS='|' read -r a want; do
			# shellcheck disable=SC2086 # the option and its value
			"$ctl" start --engine "$e" --profile metadata --items 4 \
				--dir "$d" --quiet --idle-ms 0 $a \
				>/dev/null 2>"$tmp/range.err"
			rc=$?
			[ $rc -eq 2 ] ||
				fail "$e $a: exit $rc: $(cat "$tmp/range.err")"
			grep -qF -- "$want" "$tmp/range.err" ||
				fail "$e $a: $(cat "$tmp/range.err")"
		done <<'EOF2'
--threads 0|--threads: 0 is not 1 to 999
--threads 1000|--threads: 1000 is not 1 to 999
--threads 2,1000|--threads: 1000 is not 1 to 999
--items 0|--files (--items): 0 is not 1 to 100000000
--items-per-dir 0|--files-per-dir (--items-per-dir): 0 is not 1 to 100000000
--read-bytes 5M|--read-bytes: 5242880 is more than
--read-bytes 17M|--read-bytes: 17825792 is more than
--block 0|--block (--bs): 0 is not 1 to 16777216
--progress-ms 5|--progress-ms: 5 is not 0 or 10 to 3600000
--sample-ms 3600001|--sample-ms: 3600001 is not 0 or 10 to 60000
--idle-ms 60001|--idle-ms: 60001 is not 0 to 60000
--lat-sample 0|--lat-sample: 0 is not 1 to 65536
--cpu-profile 100001|--cpu-profile: 100001 is not 0 to 100000
--rank 1000000|--rank: 1000000 is not 0 to 999999
--stall-sec 0.05|--stall-sec: 0.05 is not 0 or 0.1 to 86400 seconds
EOF2
	done
	# untar (and age) derive their files: no --files is not --files 0
	"$ctl" start --engine user --profile untar --scale 0.001 --dir "$d" \
		--quiet --idle-ms 0 >/dev/null 2>"$tmp/range.err" ||
		fail "untar without --files: $(cat "$tmp/range.err")"
	[ -z "$(ls -A "$d")" ] || fail "left behind: $(ls "$d")"
}

# age_on_tmpfs NAME SIZE ARGS...: start --engine user --json ARGS on a
# tmpfs of SIZE of its own (a private mount namespace) into $tmp/NAME.json;
# the exit status in $tmp/NAME.rc.
age_on_tmpfs() {
	local name=$1 size=$2 d=$tmp/$1

	shift 2
	mkdir -p "$d"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- /bin/bash -c '
		d=$1 size=$2 out=$3
		shift 3
		mount -t tmpfs -o size="$size" tmpfs "$d" || exit 99
		"$@" --dir "$d" >"$out"
		echo $? >"$out.rc"
		[ -z "$(ls -A "$d")" ] || echo "left behind: $(ls "$d")"
	' age "$d" "$size" "$tmp/$name.json" \
		"$ctl" --json start --engine user --quiet --idle-ms 0 \
		--profile age "$@"
	[ $? -ne 99 ] || skip "cannot mount a tmpfs"
	[ "$(cat "$tmp/$name.json.rc")" -eq 0 ] ||
		fail "$name: exited $(cat "$tmp/$name.json.rc")"
}

# Aging picks names at random: the creates that meet a name taken, the
# appends and unlinks that meet none, are misses, not errors; its end,
# at the target (fsloadctl's stop) or at ENOSPC, is a success (issue 31).
t_age_misses() {
	[ "$(id -u)" -eq 0 ] || skip "mounts a tmpfs: needs root"
	command -v unshare >/dev/null || skip "no unshare"
	# a target: stopped there (or full before the first check)
	age_on_tmpfs age30 64m --age 30 --threads 2
	check "$tmp/age30.json" \
		'j["age"]["reached"]' True \
		'j["phases"][0]["errors"]' 0 \
		'j["phases"][0]["misses"] > 0' True \
		'sum(o["misses"] for o in j["phases"][0]["ops_by_type"]) == j["phases"][0]["misses"]' True \
		'j["phases"][0]["completion"] in ("target", "yes")' True \
		'j["job"]["state"] in ("stopped", "done")' True
	# ENOSPC first: the fill's end, the phase done
	age_on_tmpfs age100 4m --age 99.99 --threads 1 --files 100
	check "$tmp/age100.json" \
		'j["age"]["reached"]' True \
		'j["age"]["full"]' True \
		'j["job"]["state"]' "done" \
		'j["phases"][0]["errors"]' 0 \
		'j["phases"][0]["misses"] > 0' True \
		'j["phases"][0]["completion"]' yes
}

ktap_plan 20
ktap_run smallfiles t_smallfiles
ktap_run smallfiles_keep_layout t_smallfiles_keep
ktap_run metadata_keep t_metadata_keep
ktap_run same_seed_same_sequence t_same_sequence
ktap_run usage_errors t_usage
ktap_run sync_modes_no_tail_before_writeback t_sync_modes
ktap_run stonewall_later_phases_over_made_items t_stonewall_items
ktap_run avg_latency_with_errors t_avg_with_errors
ktap_run jobfile_named_after_profile_summary t_jobfile_summary
ktap_run cpu_ns_never_over_100_pct t_cpu_short_phases
ktap_run uring_same_ops_as_user t_uring_same
ktap_run uring_usage_errors t_uring_usage
ktap_run engine_order_rotated_over_iterations t_engine_order
ktap_run mdtest_semantics t_mdtest
ktap_run mdtest_leaf_only_mknod t_leaf_mknod
ktap_run rank_names_and_limit t_rank
ktap_run progress_line t_progress_line
ktap_run top_threads_named_for_the_starter t_top_threads_named
ktap_run option_ranges_before_any_request t_option_ranges
ktap_run age_misses_not_errors t_age_misses
ktap_finish
rc=$?
echo "$ktap_pass passed, $ktap_fail failed"
[ "$rc" -eq 0 ]
