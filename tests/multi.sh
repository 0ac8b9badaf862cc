#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-multi: multi-client runs over MPI across two machines (issue
# 17).  Boots two QEMU guests with scripts/vm-run, joined by a QEMU socket
# network over the host's loopback only (--net listen:PORT on the first,
# connect:PORT on the second: QEMU binds 127.0.0.1:PORT and nothing else;
# inside, the link is 10.77.0.0/24).  The first runs the KTAP suite
# tests/guest/multi.sh: it exports its scratch filesystem over NFSv4,
# mounts it, has the second mount it, and runs mpirun fsloadctl-mpi with
# ranks in both.  The second runs tests/guest/multi-node.sh, the remote
# shell the first drives it with, until told to quit.
#
# Prints the first guest's KTAP; the second guest counts as one more
# failure when its vm-run fails (its set-up, a kernel warning, rmmod,
# umount: its log is in build/test-logs/multi-b.out/).  Last line "N passed,
# N failed"; exit 4 when something it needs is missing.
#
#   VM_ARGS="..."  extra scripts/vm-run options for both guests
#   FSLOAD_MULTI_CASES="t_kernel_ranks ..."  only these MPI cases (the
#                  functions of tests/guest/multi.sh; the others skip)
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1

skip_all() {
	echo "1..0 # SKIP $*"
	exit 4
}
command -v qemu-system-x86_64 >/dev/null || skip_all "no qemu-system-x86_64 (scripts/deps.sh check-multi)"
command -v mpirun >/dev/null || skip_all "no mpirun (Debian's openmpi-bin)"
[ -x ctl/fsloadctl-mpi ] || skip_all "no ctl/fsloadctl-mpi (make ctl-mpi)"
[ -f module/fsload.ko ] || skip_all "no module/fsload.ko (make module)"
for t in rpc.nfsd rpc.mountd exportfs mount.nfs4; do
	PATH=$PATH:/usr/sbin:/sbin command -v "$t" >/dev/null ||
		skip_all "no $t (Debian's nfs-kernel-server, nfs-common)"
done

logs=$repo/build/test-logs
mkdir -p "$logs"
run=$(mktemp -d)
apid=
bpid=
# shellcheck disable=SC2317 # invoked from the traps
cleanup() {
	local p

	for p in $apid $bpid; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# listening PORT: something listens on 127.0.0.1:PORT or on any address.
listening() {
	local hex

	hex=$(printf '%04X' "$1")
	grep -Eq "^ *[0-9]+: (0100007F|00000000):$hex [0-9A-F:]+ 0A " /proc/net/tcp
}
# A port nothing uses (no socket of any state on it).
free_port() {
	local p hex i

	for ((i = 0; i < 100; i++)); do
		p=$((20000 + RANDOM % 40000))
		hex=$(printf '%04X' "$p")
		grep -q ":$hex " /proc/net/tcp /proc/net/tcp6 2>/dev/null || { echo "$p"; return 0; }
	done
	return 1
}

port=$(free_port) || skip_all "no free port on the loopback"
token=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
common=(--fs ext4 --size 512 --timeout 1800
	--env FSLOAD_RSH_TOKEN="$token" --env FSLOAD_MULTI_NET=10.77.0.0/24)
echo "# guests: 10.77.0.1 (fsload-a) and 10.77.0.2 (fsload-b), linked through 127.0.0.1:$port"

# The first guest: its output is the suite's (KTAP).
# shellcheck disable=SC2086 # VM_ARGS: options split on blanks
scripts/vm-run "${common[@]}" --net "listen:$port" --ip 10.77.0.1/24 \
	--hostname fsload-a --env FSLOAD_MULTI_PEER=10.77.0.2 \
	--env FSLOAD_MULTI_CASES="${FSLOAD_MULTI_CASES:-}" \
	--out "$logs/multi-a.out" ${VM_ARGS:-} -- tests/guest/multi.sh \
	>"$run/a.out" 2>"$run/a.err" &
apid=$!
# The second connects once the first's QEMU listens.
for ((i = 0; i < 600; i++)); do
	listening "$port" && break
	kill -0 "$apid" 2>/dev/null || break
	sleep 0.2
done
if ! listening "$port"; then
	wait "$apid"
	echo "not ok 1 guest_a_listens # exit=$?"
	sed 's/^/# /' "$run/a.err" | tail -20
	echo "0 passed, 1 failed"
	exit 1
fi
# shellcheck disable=SC2086
scripts/vm-run "${common[@]}" --net "connect:$port" --ip 10.77.0.2/24 \
	--hostname fsload-b --out "$logs/multi-b.out" ${VM_ARGS:-} -- \
	tests/guest/multi-node.sh >"$run/b.log" 2>&1 &
bpid=$!

# The first guest's KTAP as it comes, but its count line: ours is last.
tail -n +1 -f --pid="$apid" "$run/a.out" | grep --line-buffered -Ev '^[0-9]+ passed, [0-9]+ failed$'
wait "$apid"
arc=$?
apid=
sed 's/^/# guest a: /' "$run/a.err"
# The second guest ends when the first tells it to quit (its last case
# or its exit trap); if the first died, it ends at its own limit: not
# waited for that long.
for ((i = 0; i < 300; i++)); do
	kill -0 "$bpid" 2>/dev/null || break
	sleep 1
done
if kill -0 "$bpid" 2>/dev/null; then
	kill "$bpid"
	echo "# guest b: still running 300 s after guest a ended: stopped"
fi
wait "$bpid"
brc=$?
bpid=
sed 's/^/# guest b: /' "$run/b.log"

pass=$(grep -cE '^ok [0-9]+ ' "$run/a.out" | tr -d ' ')
skipped=$(grep -cE '^ok [0-9]+ .*# SKIP' "$run/a.out" | tr -d ' ')
failed=$(grep -cE '^not ok [0-9]+ ' "$run/a.out" | tr -d ' ')
pass=$((pass - skipped))
if grep -q '^1\.\.0 # SKIP' "$run/a.out" && [ "$arc" -eq 4 ]; then
	exit 4
fi
if [ "$arc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	echo "not ok - guest a: vm-run exited $arc (see $logs/multi-a.out)"
	failed=$((failed + 1))
fi
if [ "$brc" -ne 0 ]; then
	echo "not ok - guest b: vm-run exited $brc (see $logs/multi-b.out)"
	failed=$((failed + 1))
fi
echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$pass" -gt 0 ]
