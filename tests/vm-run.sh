#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM harness's own contract about guests that die: a kernel that
# panics while booting, before the initramfs's /init has run, is booted
# again (--boot-retries) and each attempt is said and its console kept,
# ending in 125 if it never comes up; so is one whose /init has not
# started within --boot-timeout (a hang), and one whose kernel reports a
# problem before the module is loaded and COMMAND runs; a guest that panics after /init ran
# (what a module bug would do) is never booted again: 125 at once.  And a
# guest that comes up is not booted twice, and its command sees
# DM_DISABLE_UDEV=1 (no udev runs there).  --kernel takes a series as make
# KERNEL= does (6.12: its newest release, in the kernels root).  KTAP, on
# the host (each case boots guests without the module).
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

# A guest whose /init has not started within --boot-timeout is a boot
# hang: killed and booted again, said, its console kept; 125 at the end.
# No guest reaches /init within 1 s of wall-clock time under TCG.
t_boot_hang_retried() {
	local rc

	vm hang --boot-retries 1 --boot-timeout 1 -- echo ran
	rc=$?
	show hang
	[ $rc -eq 125 ] || fail "exit $rc, not 125"
	[ "$(grep -c 'had not started after 1 s (a boot hang): booting again (1 of 1' \
		"$tmp/hang.stderr")" -eq 1 ] || fail "not one boot retry said"
	grep -q 'had not started after 1 s, in each of 2 boots: killed' \
		"$tmp/hang.stderr" || fail "the end was not said"
	[ -e "$tmp/hang/console-boot1.log" ] || fail "the hung boot's console was not kept"
	[ ! -e "$tmp/hang/console-boot2.log" ] || fail "a second retry"
	! grep -qx ran "$tmp/hang.stdout" || fail "COMMAND ran"
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

# The kernel logs its command line: a report's words there stand for a
# report while booting (a KASAN or WARNING splat that is not fsload's).
t_boot_report_retried() {
	local rc

	vm report --boot-retries 1 --append "fsload.test=WARNING:" -- echo ran
	rc=$?
	show report
	[ $rc -eq 125 ] || fail "exit $rc, not 125"
	[ "$(grep -c 'reported a problem while booting.*booting again' \
		"$tmp/report.stderr")" -eq 1 ] || fail "not one boot retry said"
	grep -q 'before fsload was loaded or COMMAND ran' "$tmp/report.stderr" ||
		fail "the guest did not say why it stopped"
	[ -s "$tmp/report/dmesg-boot.txt" ] || fail "no dmesg-boot.txt kept"
	! grep -qx ran "$tmp/report.stdout" || fail "COMMAND ran"
	[ ! -e "$tmp/report/console-boot2.log" ] || fail "a second retry"
}

t_good_boot_once() {
	local rc

	# shellcheck disable=SC2016 # the guest's shell expands it
	vm good -- echo guest-ran '"$DM_DISABLE_UDEV"'
	rc=$?
	show good
	[ $rc -eq 0 ] || fail "exit $rc"
	grep -qx 'guest-ran 1' "$tmp/good.stdout" ||
		fail "the command's output (with DM_DISABLE_UDEV=1) is missing: $(cat "$tmp/good.stdout")"
	! grep -q 'booting again' "$tmp/good.stderr" || fail "booted again"
}

# A wall-clock TCG guest keeps its time on the TSC and its command has
# FSLOADCTL_FORCE_TSC=1: its TSC is not marked unstable at boot, so the
# op clocks do not read the HPET, an emulated MMIO read (issue 31).
t_tsc_clock() {
	local rc

	# shellcheck disable=SC2016 # the guest's shell expands it
	vm tsc -- 'cat /sys/devices/system/clocksource/clocksource0/current_clocksource; echo "force=$FSLOADCTL_FORCE_TSC"'
	rc=$?
	show tsc
	[ $rc -eq 0 ] || fail "exit $rc"
	grep -qx 'tsc' "$tmp/tsc.stdout" ||
		fail "the clocksource: $(cat "$tmp/tsc.stdout")"
	grep -qx 'force=1' "$tmp/tsc.stdout" ||
		fail "FSLOADCTL_FORCE_TSC: $(cat "$tmp/tsc.stdout")"
}

# --kernel 6.12 boots the release scripts/kernels.sh resolves 6.12 to.
t_kernel_series() {
	local k release kroot rc

	k=$("$repo/scripts/kernels.sh" resolve 6.12 2>/dev/null) ||
		skip "no 6.12 kernel installed (scripts/kernels.sh)"
	read -r release kroot <<<"$k"
	vm series --kernel 6.12 -- uname -r
	rc=$?
	show series
	[ $rc -eq 0 ] || fail "exit $rc"
	grep -qx "$release" "$tmp/series.stdout" ||
		fail "booted $(cat "$tmp/series.stdout"), not $release (root $kroot)"
}

ktap_plan 7
ktap_run boot_panic_retried t_boot_panic_retried
ktap_run boot_hang_retried t_boot_hang_retried
ktap_run panic_after_init_not_retried t_panic_after_init_not_retried
ktap_run boot_report_retried t_boot_report_retried
ktap_run good_boot_once t_good_boot_once
ktap_run wall_clock_guest_on_tsc t_tsc_clock
ktap_run kernel_series_short_name t_kernel_series
ktap_finish
