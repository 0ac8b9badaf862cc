# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the guest suites (tests/guest/*.sh) share: KTAP (tests/ktap.sh), the
# checks of the guest's set-up, a work directory, JSON queries and checks
# of fsloadctl's output (jget, check_json), job states, and the checks that
# nothing was left behind.  Host suites have tests/lib/host.sh.  A suite sources it first:
#
#   . "$(dirname "$0")/lib.sh"
#   lib_need dir module      skip the whole suite unless FSLOAD_DIR is set
#                            and fsload is loaded
#
# $work is a temporary directory; at exit it is removed and every job
# still running is stopped (a failed case may leave one).

# shellcheck source=tests/ktap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../ktap.sh"

# lib_need WHAT...: dir (a scratch filesystem at $FSLOAD_DIR), module
# (fsload loaded); otherwise the suite is skipped (KTAP "1..0 # SKIP").
lib_need() {
	local w

	for w; do
		case $w in
		dir) [ -n "${FSLOAD_DIR:-}" ] ||
			{ echo "1..0 # SKIP FSLOAD_DIR not set"; exit 4; } ;;
		module) [ -d /sys/module/fsload ] ||
			{ echo "1..0 # SKIP fsload not loaded"; exit 4; } ;;
		esac
	done
}

# jget EXPR [FILE]: evaluate a Python expression over JSON (as `j`) from
# FILE or stdin; a list prints space-separated.
jget() {
	python3 -c '
import json, sys
j = json.load(open(sys.argv[2]) if len(sys.argv) > 2 else sys.stdin)
v = eval(sys.argv[1])
print(" ".join(map(str, v)) if isinstance(v, list) else v)
' "$@"
}

# The ids of the jobs running or stopping.
running_ids() {
	fsloadctl --json list 2>/dev/null | jget '[x["id"] for x in j["jobs"]
		if x["state"] in ("running", "stopping")]' 2>/dev/null
}

# stop_running SECONDS: stop every running job and wait up to SECONDS
# for each to end (0: do not wait).
stop_running() {
	local id

	for id in $(running_ids); do
		fsloadctl stop "$id" >/dev/null 2>&1
		[ "$1" -eq 0 ] ||
			fsloadctl wait "$id" --timeout "$1" --quiet >/dev/null 2>&1
	done
}

work=$(mktemp -d)
lib_cleanup() {
	stop_running 0
	rm -rf "$work"
}
trap lib_cleanup EXIT

# spin_job: prints the path of a job file of null ops that runs until it
# is stopped: 10^12 iterations a thread, days even for the user engine's
# 30 million null ops a second.  The null profile is no spinner: its
# --files is at most files-max (10^8), which a fast guest runs in seconds.
spin_job() {
	[ -f "$work/spin.job" ] ||
		printf '%s\n' '[global]' 'name = spin' '' '[phase null]' \
			'iterations = 1000000000000' 'op = null' >"$work/spin.job"
	echo "$work/spin.job"
}

state_of() {	# ID
	fsloadctl --json status "$1" | jget 'j["job"]["state"]'
}

# wait_state ID STATE SECONDS
wait_state() {
	local i state=

	for ((i = 0; i < $3 * 10; i++)); do
		state=$(state_of "$1")
		[ "$state" = "$2" ] && return 0
		sleep 0.1
	done
	fail "job $1: state '$state', wanted $2 within $3 s"
}

# wait_ops ID SECONDS: wait until job ID has done at least one op.
wait_ops() {
	local i ops=

	for ((i = 0; i < $2 * 10; i++)); do
		ops=$(fsloadctl --json status "$1" 2>/dev/null | jget 'j["job"]["ops"]')
		[ -n "$ops" ] && [ "$ops" -gt 0 ] && return 0
		sleep 0.1
	done
	fail "job $1: no op done within $2 s"
}

# used_pct DIR: the utilisation of DIR's filesystem as fsloadctl
# computes it (df's Use%).
used_pct() {
	stat -f -c '%b %f %a %S' "$1" |
		awk '{ u = ($1 - $2) * $4; a = $3 * $4
		       printf "%.3f\n", 100 * u / (u + a) }'
}

# No job directory left in $FSLOAD_DIR.
no_job_dirs() {
	local left

	left=$(find "$FSLOAD_DIR" -maxdepth 1 -name 'fsload-*' | head -5)
	[ -z "$left" ] || fail "left behind: $left"
}

# No worker thread of any job left.
# The kernel stacks of every fsload kthread and of every task in
# uninterruptible sleep or in the module (a job that will not end: its
# reaper is a kworker).
dump_workers() {
	local d pid st

	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		st=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || continue
		[ "$st" = D ] || grep -q '^fsload' "/proc/$pid/comm" 2>/dev/null ||
			grep -q fsload "/proc/$pid/stack" 2>/dev/null || continue
		echo "# $(cat "/proc/$pid/comm" 2>/dev/null) ($pid), state $st:"
		sed 's/^/#   /' "/proc/$pid/stack" 2>/dev/null
	done
}

no_workers() {
	local left

	left=$(pgrep -c '^fsload[0-9]+/')
	[ "${left:-0}" -eq 0 ] || fail "$left fsload worker threads left"
}

# ---------------------------------------------------------------------
# Jobs that another process tampers with (faults.sh, hostile.sh).

# The netlink fuzzer's program runner (tests/fuzz/start.c).
fuzz=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/build/fsload_fuzz

# wait_ended ID SECONDS [FILE]: the results of the ended job in FILE.
wait_ended() {
	local out=${3:-$work/ended.json} rc

	fsloadctl --json wait "$1" --timeout "$2" --quiet >"$out"
	rc=$?
	if [ "$rc" -eq 6 ]; then
		dump_workers
		fail "job $1 did not end within $2 s"
	fi
	[ "$rc" -le 1 ] || fail "fsloadctl wait $1: exit $rc"
}

# umount_errno DIR: the errno of umount2(DIR, 0), 0 on success.
umount_errno() {
	python3 - "$1" <<'PY'
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
r = libc.umount2(sys.argv[1].encode(), 0)
print(0 if r == 0 else ctypes.get_errno())
PY
}

# umount_ok DIR: unmount DIR; an ended job must not keep it busy.
umount_ok() {
	local e

	e=$(umount_errno "$1")
	[ "$e" = 0 ] && return 0
	echo "umount $1: errno $e with no job running"
	fuser -vm "$1" 2>&1 | head -5
	return 1
}

need_fs() {
	if [ -z "${FSLOAD_DIR:-}" ] || [ -z "${FSLOAD_DEV:-}" ]; then
		skip "needs a scratch filesystem on a block device"
	fi
}

# snapshot DIR...: every entry under DIR, with size, mtime and content hash.
snapshot() {
	find "$@" -printf '%p %y %s %T@ %l\n' | sort
	find "$@" -type f -exec md5sum {} + | sort
}

# start_prog ARGS... PHASE...: a program of our own (fsload_fuzz start),
# detached; prints the id.  OP@MS phases are pauses of MS ms.
start_prog() {
	"$fuzz" start "$@"
}

# The phase a job runs (0-based), None before the first: without Python,
# whose start-up costs seconds on a debug kernel.
phase_of() {
	fsloadctl --json status "$1" |
		sed -n 's/.*"phase_index": *\([0-9]*\|null\).*/\1/p' |
		sed 's/null/None/'
}

# wait_phase ID N: until job ID runs phase N (30 s).
wait_phase() {
	local i p=

	for ((i = 0; i < 300; i++)); do
		p=$(phase_of "$1")
		[ "$p" = "$2" ] && return 0
		[ "$p" != None ] && [ "$p" -gt "$2" ] && break
		sleep 0.1
	done
	fail "job $1: in phase $p, wanted $2"
}

# reached RESULTS PHASE: phase PHASE did all 500 files, or the job failed
# at t000/d00049 (the last subdirectory, the one the test tampers with).
reached() {
	jget '(j["job"]["state"] == "failed" and "d00049" in (j["job"]["error"] or "")) or (len(j["phases"]) > '"$2"' and j["phases"]['"$2"']["ops"] == 500)' "$1" |
		grep -q True
}

# check_json FILE PYTHON: run PYTHON with the result as `j`; it calls
# bad(msg) for each failure.
check_json() {
	python3 - "$1" "$2" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1]))
errors = []
def bad(msg):
    errors.append(msg)
exec(sys.argv[2])
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
}

# pause_for_this_guest: the pause (ms) in which a test plants a trap
# between two phases of a running job: 8 s, or longer when this guest is
# slow (a debug kernel, a loaded host: the status calls and moves of a
# trap must fit in it with room to spare): 40 times a status call's
# time, measured here (the module loaded) as the median of three calls
# after one that reads fsloadctl into the page cache over 9p, and at most
# 30 s: a trap that misses the pause is planted again in a new job
# (hostile.sh's t_trap).
pause_for_this_guest() {
	local t0 t1 i ts=()

	fsloadctl --json list >/dev/null 2>&1
	for ((i = 0; i < 3; i++)); do
		t0=$(date +%s%N)
		fsloadctl --json list >/dev/null 2>&1
		t1=$(date +%s%N)
		ts+=($((t1 - t0)))
	done
	mapfile -t ts <<<"$(printf '%s\n' "${ts[@]}" | sort -n)"
	i=$((ts[1] * 40 / 1000000))
	[ "$i" -ge 8000 ] || i=8000
	[ "$i" -le 30000 ] || i=30000
	echo "$i"
}
