#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Loading and unloading fsload.ko: the family appears and goes away, and
# a reload works.  Run in a guest by scripts/vm-run (module loaded).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/ktap.sh
. "$here/../ktap.sh"

[ -n "${FSLOAD_MODULE:-}" ] || { echo "1..0 # SKIP FSLOAD_MODULE not set"; exit 4; }

t_unload_reload() {
	local rc

	[ -d /sys/module/fsload ] || fail "not loaded by the harness"
	fsloadctl list >/dev/null || fail "list with the module loaded"
	rmmod fsload || fail "rmmod"
	fsloadctl list >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 4 ] || fail "list without the module: exit $rc, wanted 4"
	insmod "$FSLOAD_MODULE" max_jobs=3 || fail "insmod"
	[ "$(cat /sys/module/fsload/parameters/max_jobs)" = 3 ] ||
		fail "module parameter"
	echo 8 >/sys/module/fsload/parameters/max_jobs
	fsloadctl list >/dev/null || fail "list after reload"
}

ktap_plan 1
ktap_run load_unload_reload t_unload_reload
ktap_finish
