#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netlink fuzzer (tests/fuzz/) against the loaded module, then
# a normal job, which must still run correctly, and nothing may be left in
# the scratch filesystem.  Run in a guest: scripts/vm-run --fs ext4 -- ...
#
#   FSLOAD_FUZZ_COUNT   cases (default 100000; each one or more messages)
#   FSLOAD_FUZZ_SEED    seed (default 1, so that `make check` repeats;
#                       "random" for a new one, printed)
#   FSLOAD_FUZZ_TIME    no new case after this many seconds (default 540:
#                       a debug kernel runs fewer cases, and says so)
#   FSLOAD_FUZZ_ARGS    more fsload_fuzz options (--threads, --sockets ...)
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

t_nothing_left() {
	local left

	rmdir "$FSLOAD_DIR/fuzz" 2>/dev/null
	left=$(find "$FSLOAD_DIR" -mindepth 1 -maxdepth 1 ! -name lost+found)
	[ -z "$left" ] || fail "left in $FSLOAD_DIR: $(echo "$left" | head -5)"
	left=$(running_ids)
	[ -z "$left" ] || fail "jobs still running: $left"
}

ktap_plan 3
ktap_run netlink_fuzz t_fuzz
ktap_run normal_job_after_fuzz t_normal_job
ktap_run nothing_left_after_fuzz t_nothing_left
ktap_finish
