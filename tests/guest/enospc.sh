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
trap 'rm -f "$out"' EXIT

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

ktap_plan 1
ktap_run enospc_fails_cleanly t_enospc
ktap_finish
