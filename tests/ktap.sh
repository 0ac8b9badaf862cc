# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# KTAP output for shell tests, in the manner of kselftest's ktap_helpers.sh:
# a test file sources this, calls ktap_plan N, runs each case through
# ktap_run NAME FUNCTION (0 pass, 4 skip, anything else fail), then
# ktap_finish, which prints the totals and exits 0 only if nothing failed.

# shellcheck disable=SC2034 # for the test files
KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

ktap_pass=0
ktap_fail=0
ktap_skip=0
ktap_num=0

ktap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

# Diagnostics go through here so that they stay KTAP comments.
ktap_diag() {
	echo "# $*"
}

ktap_run() {
	local name=$1 fn=$2 rc

	shift 2
	ktap_num=$((ktap_num + 1))
	# A subshell: a case's `exit` (fail, skip) ends only that case.
	( "$fn" "$@" ) 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	case $rc in
	0)
		ktap_pass=$((ktap_pass + 1))
		echo "ok $ktap_num $name";;
	4)
		ktap_skip=$((ktap_skip + 1))
		echo "ok $ktap_num $name # SKIP";;
	*)
		ktap_fail=$((ktap_fail + 1))
		echo "not ok $ktap_num $name # exit=$rc";;
	esac
}

ktap_finish() {
	echo "# Totals: pass:$ktap_pass fail:$ktap_fail xfail:0 xpass:0 skip:$ktap_skip error:0"
	[ "$ktap_fail" -eq 0 ]
}

# wait_line PATTERN FILE: wait up to 30 s for a line matching PATTERN
# (grep -E) in FILE, which a process in the background writes (host and
# guest suites).
wait_line() {
	local _

	for _ in $(seq 150); do
		grep -Eq -- "$1" "$2" && return 0
		sleep 0.2
	done
	return 1
}

# fail MESSAGE: end the current case as failed.
fail() {
	echo "FAIL: $*" >&2
	exit "$KSFT_FAIL"
}

skip() {
	echo "SKIP: $*" >&2
	exit "$KSFT_SKIP"
}
