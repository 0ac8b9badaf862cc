#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netlink fuzzer (tests/fuzz/) against the loaded module, then
# a normal job, which must still run correctly; then the fuzzer as an
# unprivileged user (fsload_fuzz --uid) against jobs root started, which
# root stops afterwards: no job nor module reference may be left; and
# nothing may be left in the scratch filesystem.
# Run in a guest: scripts/vm-run --fs ext4 -- ...
#
#   FSLOAD_FUZZ_COUNT   cases (default 100000; each one or more messages)
#   FSLOAD_FUZZ_SEED    seed (default 1, so that `make check` repeats;
#                       "random" for a new one, printed)
#   FSLOAD_FUZZ_TIME    no new case after this many seconds (default 540:
#                       a debug kernel runs fewer cases, and says so)
#   FSLOAD_FUZZ_ARGS    more fsload_fuzz options (--threads, --sockets ...)
#   FSLOAD_FUZZ_USER_COUNT, FSLOAD_FUZZ_USER_TIME, FSLOAD_FUZZ_USER_ARGS
#                       the same for the unprivileged run (default 30000
#                       cases, 45 s; its seed is FSLOAD_FUZZ_SEED's)
# A failure prints the seed and case index; replay one case with
#   fsload_fuzz --seed S --only I
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/guest/lib.sh
. "$here/lib.sh"
lib_need dir module

fuzz=$here/../build/fsload_fuzz
count=${FSLOAD_FUZZ_COUNT:-100000}
seed=${FSLOAD_FUZZ_SEED:-1}
[ "$seed" = random ] && seed=$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')

t_fuzz() {
	local rc start=$SECONDS

	[ -x "$fuzz" ] || fail "$fuzz not built (make -C tests)"
	# shellcheck disable=SC2086 # options
	"$fuzz" --seed "$seed" --count "$count" --dir "$FSLOAD_DIR/fuzz" \
		--time-limit "${FSLOAD_FUZZ_TIME:-540}" ${FSLOAD_FUZZ_ARGS:-}
	rc=$?
	echo "fsload_fuzz exited $rc after $((SECONDS - start)) s (seed $seed)"
	[ "$rc" -eq 0 ] || fail "fsload_fuzz failed (seed $seed)"
}

t_normal_job() {
	local out=$work/after.json

	fsloadctl start --profile smallfiles --files 100 --threads 2 \
		--dir "$FSLOAD_DIR" --json >"$out" || fail "fsloadctl exited $?"
	python3 - "$out" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
job, ph = j["job"], j["phases"]
ok = (job["state"] == "done" and
      [p["name"] for p in ph] == ["create", "stat", "read", "unlink"] and
      all(p["ops"] == 200 and p["errors"] == 0 and p["complete"] for p in ph))
if not ok:
    print("FAIL: the job after the fuzzer:", json.dumps(j)[:1500])
    sys.exit(1)
PY
}

# Root's jobs, then uid 65534 fuzzes them (tests/fuzz/user.c): a finished
# job with a CPU profile, a time series and results that name other
# threads, and one that runs throughout (a pause sampled every 10 ms: a
# long series; CPU-profiled: its profile is refused until it ends).  Then
# root stops its job with max_finished 0, so that every finished job is
# forgotten when it ends: no job may be listed, and the dumps the fuzzer
# walked away from must have given back their module references.
t_fuzz_user() {
	local rj=$FSLOAD_DIR/rootjobs mp=/sys/module/fsload/parameters
	local a b rc mf left ref0 ref1 i start=$SECONDS

	[ -x "$fuzz" ] || fail "$fuzz not built (make -C tests)"
	mkdir -p "$rj" || fail "mkdir $rj"
	ref0=$(cat /sys/module/fsload/refcnt)
	fsloadctl start --profile smallfiles --files 300 --threads 2 \
		--dir "$rj" --cpu-profile 997 --sample-ms 10 --json \
		>"$work/a.json" || fail "root's profiled job: fsloadctl exited $?"
	a=$(jget 'j["job"]["id"]' "$work/a.json")
	b=$("$fuzz" start --dir "$rj" --threads 1 --files 1 --sample-ms 10 \
		--cpu-profile 997 null@600000) || fail "root's running job"
	echo "root's jobs: $a (done, CPU profile, series), $b (running)"
	# shellcheck disable=SC2086 # options
	"$fuzz" --uid 65534 --seed "$seed" \
		--count "${FSLOAD_FUZZ_USER_COUNT:-30000}" \
		--dir "$FSLOAD_DIR/fuzz-user" \
		--time-limit "${FSLOAD_FUZZ_USER_TIME:-45}" \
		${FSLOAD_FUZZ_USER_ARGS:-}
	rc=$?
	echo "fsload_fuzz --uid 65534 exited $rc after $((SECONDS - start)) s (seed $seed)"
	mf=$(cat "$mp/max_finished")
	echo 0 >"$mp/max_finished"
	fsloadctl stop "$b" >/dev/null
	for ((i = 0; i < 600; i++)); do
		left=$(fsloadctl --json list | jget '[x["id"] for x in j["jobs"]]')
		[ -n "$left" ] || break
		sleep 0.1
	done
	echo "$mf" >"$mp/max_finished"
	ref1=$(cat /sys/module/fsload/refcnt)
	echo "module references $ref0 before, $ref1 after"
	rm -rf "$rj"
	rmdir "$FSLOAD_DIR/fuzz-user"
	[ "$rc" -eq 0 ] || fail "fsload_fuzz --uid 65534 failed (seed $seed)"
	[ -z "$left" ] || fail "jobs left after root stopped its own: $left"
	[ "$ref1" -le "$ref0" ] || fail "module references: $ref0 before, $ref1 after"
}

t_nothing_left() {
	local left

	rmdir "$FSLOAD_DIR/fuzz" 2>/dev/null
	left=$(find "$FSLOAD_DIR" -mindepth 1 -maxdepth 1 ! -name lost+found)
	[ -z "$left" ] || fail "left in $FSLOAD_DIR: $(echo "$left" | head -5)"
	left=$(running_ids)
	[ -z "$left" ] || fail "jobs still running: $left"
}

ktap_plan 4
ktap_run netlink_fuzz t_fuzz
ktap_run normal_job_after_fuzz t_normal_job
ktap_run netlink_fuzz_unprivileged t_fuzz_user
ktap_run nothing_left_after_fuzz t_nothing_left
ktap_finish
