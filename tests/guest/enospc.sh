#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ENOSPC mid-phase on a filesystem too small for the job: the job must end
# FAILED with a clear error, keep its partial results, and clean up.
# Run on a tiny filesystem: scripts/vm-run --fs ext4 --size 16.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/ktap.sh
. "$here/../ktap.sh"

[ -n "${FSLOAD_DIR:-}" ] || { echo "1..0 # SKIP FSLOAD_DIR not set"; exit 4; }

out=$(mktemp)
tmpfs=$(mktemp -d)
trap 'rm -f "$out"; rmdir "$tmpfs"' EXIT

t_enospc() {
	local rc avail

	avail=$(df -k --output=avail "$FSLOAD_DIR" | tail -1)
	[ "$avail" -lt 65536 ] || skip "filesystem too large ($avail KiB)"
	# 2 x 4000 files of 16 KiB = 125 MiB: far more than there is.
	fsloadctl start --profile smallfiles --dir "$FSLOAD_DIR" --threads 2 \
		--files 4000 --size 16K --json >"$out"
	rc=$?
	[ "$rc" -eq 1 ] || fail "exit $rc, wanted 1 (job failed)"
	python3 - "$out" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
job, ph = j["job"], j["phases"]
def check(ok, what):
    if not ok:
        print("FAIL:", what, json.dumps(j)[:2000])
        sys.exit(1)
check(job["state"] == "failed", "state")
check(job["errno"] == 28, "errno is ENOSPC")
check("create" in job["error"], "error names the op: " + job["error"])
check(len(ph) >= 1 and ph[0]["name"] == "create", "create phase result")
check(ph[0]["ops"] > 0, "partial create count kept")
check(ph[0]["errors"] >= 1, "the failed op counted")
check(not ph[0]["complete"], "create phase not complete")
print("# created", ph[0]["ops"], "files before ENOSPC:", job["error"])
PY
	[ -z "$(find "$FSLOAD_DIR" -maxdepth 1 -name 'fsload-*')" ] ||
		fail "job directory left behind"
}

# Aging (the kernel engine) on the tiny filesystem: its misses (names
# picked at random: EEXIST, ENOENT) are not errors, and its end, at the
# target or at ENOSPC, is a success (issue 31).
t_age() {
	local rc

	fsloadctl start --profile age --age 40 --size 256K --block 64K \
		--dir "$FSLOAD_DIR" --threads 2 --json >"$out"
	rc=$?
	[ "$rc" -eq 0 ] || fail "age 40: exit $rc, wanted 0"
	age_check "$out" target
	[ -z "$(find "$FSLOAD_DIR" -maxdepth 1 -name 'fsload-*')" ] ||
		fail "job directory left behind"
	# ENOSPC before the target: on ext4 root writes on into the blocks
	# reserved for it after df shows 100%; a tmpfs shows 100% only full.
	# One worker: the one whose ENOSPC ends the phase (another could
	# free space with an unlink and go on until fsloadctl's check).
	mount -t tmpfs -o size=4m tmpfs "$tmpfs" || skip "cannot mount a tmpfs"
	fsloadctl start --profile age --age 99.99 --files 40 --threads 1 \
		--dir "$tmpfs" --json >"$out"
	rc=$?
	umount "$tmpfs"
	[ "$rc" -eq 0 ] || fail "age 99.99: exit $rc, wanted 0"
	age_check "$out" full
}

# age_check FILE target|full: the aging result FILE reached its end with
# misses and no error; "full": at ENOSPC, the phase done.
age_check() {
	python3 - "$@" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
full = sys.argv[2] == "full"
ph = j["phases"][0]
def check(ok, what):
    if not ok:
        print("FAIL:", what, json.dumps(j)[:2000])
        sys.exit(1)
check(j["age"]["reached"], "reached")
check(ph["errors"] == 0, "no error")
check(ph["misses"] > 0, "misses counted")
check(sum(o["misses"] for o in ph["ops_by_type"]) == ph["misses"],
      "the ops' misses sum to the phase's")
if full:
    check(j["age"]["full"], "full")
    check(j["job"]["state"] == "done", "state done")
    check(ph["completion"] == "yes", "completion yes")
else:
    check(ph["completion"] in ("target", "yes"), "completion target")
print("# %s: %d ops, %d misses, completion %s" %
      (sys.argv[2], ph["ops"], ph["misses"], ph["completion"]))
PY
}

# A directory the kernel failed to create (ENOSPC in vfs_mkdir) leaves its
# parent usable: from 6.19 a failed vfs_mkdir() unlocks the parent itself,
# and an unbalanced unlock there hangs the next mkdir in it (compat.h).
t_mkdir_enospc() {
	local err rc pid

	# Use up the inodes: then no directory can be made.
	python3 - "$FSLOAD_DIR/fill" <<'PY'
import os, sys
d = sys.argv[1]
os.mkdir(d)
try:
    for i in range(1000000):
        open(os.path.join(d, str(i)), "w").close()
except OSError:
    pass
PY
	mkdir "$FSLOAD_DIR/probe" 2>/dev/null && skip "mkdir still finds space"
	err=$(fsloadctl start --profile smallfiles --dir "$FSLOAD_DIR" \
		--files 10 --quiet 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 3 ] || fail "start on a full filesystem: exit $rc, wanted 3"
	echo "$err" | grep -q 'No space left' || fail "start: '$err'"
	# A task hung on the directory's lock cannot be killed: watch it from
	# here, and keep it off the case's output, which ktap_run reads to
	# its end.
	(rm -rf "$FSLOAD_DIR/fill" && mkdir "$FSLOAD_DIR/after") \
		</dev/null >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$pid" 2>/dev/null &&
		fail "rm and mkdir in the directory hang after the failed mkdir"
	wait "$pid" || fail "rm and mkdir after the failed mkdir: exit $?"
	rmdir "$FSLOAD_DIR/after"
}

ktap_plan 3
ktap_run enospc_fails_cleanly t_enospc
ktap_run age_misses_not_errors t_age
ktap_run mkdir_enospc_leaves_dir_usable t_mkdir_enospc
ktap_finish
