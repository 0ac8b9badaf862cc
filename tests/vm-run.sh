#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM harness's own contract about guests that die: a kernel that
# panics while booting, before the initramfs's /init has run, is booted
# again (--boot-retries) and each attempt is said and its console kept,
# ending in 125 if it never comes up; a guest that panics after /init ran
# (what a module bug would do) is never booted again: 125 at once.  And a
# guest that comes up is not booted twice.  KTAP, on the host (each case
# boots guests of the default kernel, without the module).
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/ktap.sh
. "$repo/tests/ktap.sh"

command -v qemu-system-x86_64 >/dev/null ||
	{ echo "1..0 # SKIP no qemu-system-x86_64"; exit 4; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# vm NAME ARGS...: run a guest without the module, output in $tmp/NAME.
vm() {
	local name=$1

	shift
	mkdir -p "$tmp/$name"
	"$repo/scripts/vm-run" --no-module --fs none --size 64 --timeout 300 \
		--out "$tmp/$name" "$@" >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"
}

show() {
	sed 's/^/stderr: /' "$tmp/$1.stderr" | tail -n 8
}

# An rdinit= that cannot run makes the kernel panic before any /init.
t_boot_panic_retried() {
	local rc

	vm boot --boot-retries 2 --append "rdinit=/nonexistent init=/nonexistent" \
		-- true
	rc=$?
	show boot
	[ $rc -eq 125 ] || fail "exit $rc, not 125"
	[ "$(grep -c 'died while booting, before /init: booting again' \
		"$tmp/boot.stderr")" -eq 2 ] || fail "not two boot retries said"
	grep -q 'Kernel panic' "$tmp/boot/console-boot2.log" ||
		fail "the second failed boot's console was not kept"
	[ ! -e "$tmp/boot/console-boot3.log" ] || fail "a third retry"
}

# A panic once /init has run is not retried: it could be ours.
t_panic_after_init_not_retried() {
	local rc

	# vm-run joins COMMAND's words for the guest's sh -c.
	vm late --boot-retries 2 -- echo c '>/proc/sysrq-trigger;' sleep 60
	rc=$?
	show late
	[ $rc -eq 125 ] || fail "exit $rc, not 125"
	grep -q 'guest did not finish' "$tmp/late.stderr" || fail "no crash said"
	! grep -q 'booting again' "$tmp/late.stderr" || fail "booted again"
	[ ! -e "$tmp/late/console-boot1.log" ] || fail "a retry's console"
}

t_good_boot_once() {
	local rc

	vm good -- echo guest-ran
	rc=$?
	show good
	[ $rc -eq 0 ] || fail "exit $rc"
	grep -qx 'guest-ran' "$tmp/good.stdout" || fail "the command's output is missing"
	! grep -q 'booting again' "$tmp/good.stderr" || fail "booted again"
}

ktap_plan 3
ktap_run boot_panic_retried t_boot_panic_retried
ktap_run panic_after_init_not_retried t_panic_after_init_not_retried
ktap_run good_boot_once t_good_boot_once
ktap_finish
