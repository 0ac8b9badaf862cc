#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --cpus: workers bound to CPUs before they first run (kthread_bind), in a
# guest with fsload loaded and at least two vCPUs.  The job runs in /tmp
# (any directory will do for null operations).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/guest/lib.sh
. "$here/lib.sh"
lib_need module
[ "$(nproc)" -ge 2 ] || { echo "1..0 # SKIP fewer than 2 CPUs"; exit 4; }
dir=$(mktemp -d /tmp/cpus.XXXXXX)

t_pinned() {
	local id pids cpus i pid want got

	id=$(fsloadctl start --job "$(spin_job)" --dir "$dir" --threads 3 \
		--cpus 1,0 --idle-ms 0 --progress-ms 0 \
		--detach | sed -n 's/^job \([0-9]*\) started$/\1/p')
	[ -n "$id" ] || fail "no job id"
	fsloadctl --json status "$id" >"$work/st.json" || fail "status"
	cpus=$(jget 'j["job"]["worker_cpus"]' "$work/st.json")
	[ "$cpus" = "1 0 1" ] || fail "worker_cpus '$cpus', wanted '1 0 1'"
	read -ra pids <<<"$(jget 'j["job"]["worker_pids"]' "$work/st.json")"
	[ ${#pids[@]} -eq 3 ] || fail "${#pids[@]} worker pids"
	i=0
	for pid in "${pids[@]}"; do
		want=$(( i % 2 == 0 ? 1 : 0 ))
		got=$(sed -n 's/^Cpus_allowed_list:\t*//p' "/proc/$pid/status")
		[ "$got" = "$want" ] || fail "worker $i (pid $pid) may run on '$got', wanted $want"
		i=$((i + 1))
	done
	fsloadctl stop "$id" --wait >/dev/null || fail "stop"
}

t_refused() {
	local rc out=$work/err

	fsloadctl start --profile null --dir "$dir" --cpus 4000 --quiet \
		>/dev/null 2>"$out"
	rc=$?
	[ $rc -eq 3 ] || fail "--cpus 4000: exit $rc, wanted 3"
	grep -q "not an online CPU" "$out" || fail "no message: $(cat "$out")"
	fsloadctl start --profile null --dir "$dir" --cpus 1- --quiet \
		>/dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "--cpus 1-: exit $rc, wanted 2"
}

t_user_engine() {
	fsloadctl start --profile null --dir "$dir" --engine user --threads 2 \
		--cpus 1 --files 1000 --quiet >/dev/null ||
		fail "--engine user --cpus 1 exited $?"
}

ktap_plan 3
ktap_run cpus_workers_bound t_pinned
ktap_run cpus_refused t_refused
ktap_run cpus_user_engine t_user_engine
ktap_finish
rm -rf "$dir"
