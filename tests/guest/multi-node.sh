#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The second guest of tests/multi.sh (make check-multi): it only serves
# tests/guest/multi.sh, which runs in the first guest and drives this one
# through tests/guest/multi-rsh.py (mounting the NFS export, Open MPI's
# daemon and ranks, the checks made here).  It listens on its --ip
# address until told "quit" or until FSLOAD_MULTI_LIFE seconds (default
# 1500) have passed, then leaves nothing behind: the NFS mount, jobs and
# processes the first guest's cases may have left when they failed.
# Prints no KTAP: vm-run's exit status says whether this guest's kernel
# log stayed clean, and tests/multi.sh counts it.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
: "${FSLOAD_NET_ADDR:?run by tests/multi.sh: vm-run --net --ip}"
: "${FSLOAD_RSH_TOKEN:?run by tests/multi.sh}"

timeout "${FSLOAD_MULTI_LIFE:-1500}" python3 "$here/multi-rsh.py" serve "$FSLOAD_NET_ADDR"
rc=$?
[ "$rc" -eq 0 ] || echo "multi-node: the listener ended with $rc (124: not told to quit)" >&2

# What a failed case may have left: ranks, Open MPI's daemon, jobs, the
# mount (the server may be gone already: lazy).
for p in $(pgrep -x fsloadctl-mpi) $(pgrep -x orted); do
	kill -9 "$p" 2>/dev/null
done
for id in $(fsloadctl --json list 2>/dev/null |
	python3 -c 'import json, sys; print(" ".join(str(x["id"]) for x in json.load(sys.stdin)["jobs"] if x["state"] in ("running", "stopping")))'); do
	fsloadctl stop "$id" >/dev/null 2>&1
	fsloadctl wait "$id" --timeout 30 --quiet >/dev/null 2>&1
done
if mountpoint -q /run/fsload/nfs; then
	umount /run/fsload/nfs 2>/dev/null || umount -f -l /run/fsload/nfs
fi
exit "$rc"
