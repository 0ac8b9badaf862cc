#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make install` and `make uninstall` into a staging root (DESTDIR): every
# file lands where scripts/install.sh says, with its mode and content, and
# nothing else; no depmod, no warnings; uninstall removes exactly those
# files.  Host-side; builds the module and fsloadctl when needed.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/ktap.sh
. "$repo/tests/ktap.sh"

# The host's default kernel headers, whatever kernel `make check` was
# pointed at: this checks the packaging, not a kernel.
unset KERNEL KDIR KRELEASE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(cat "$repo/VERSION")

# run_make STAGE PREFIX TARGET: make TARGET into STAGE ("" PREFIX: the
# default); its stderr in $tmp/err.
run_make() {
	local args=(DESTDIR="$1")

	[ -z "$2" ] || args+=(PREFIX="$2")
	make -s -C "$repo" "$3" "${args[@]}" >"$tmp/out" 2>"$tmp/err" || {
		cat "$tmp/out" "$tmp/err"
		fail "make $3 ${args[*]}"
	}
}

# make_eval RECIPE [VAR=VALUE...]: run RECIPE with the top Makefile's
# variables (KDIR, KRELEASE, PREFIX...).
make_eval() {
	local recipe=$1

	shift
	make -s --no-print-directory -C "$repo" -f Makefile \
		-f <(printf '__eval:\n\t@%s\n' "$recipe") __eval "$@"
}

# files STAGE PREFIX: what install writes, as scripts/install.sh lists it.
files() {
	local args=(DESTDIR="$1")

	[ -z "$2" ] || args+=(PREFIX="$2")
	make_eval 'scripts/install.sh list' "${args[@]}"
}

# check STAGE PREFIX WANT_PREFIX: install, check, uninstall, check.
check() {
	local stage=$1 prefix=$2 want=$3 f n

	run_make "$stage" "$prefix" install
	if grep -iE 'warning|error' "$tmp/err"; then
		fail "make install printed warnings"
	fi
	mapfile -t list < <(files "$stage" "$prefix")
	[ ${#list[@]} -eq 5 ] || fail "install.sh list: ${list[*]}"
	for f in "${list[@]}"; do
		[ -f "$f" ] || fail "$f not installed"
		case $f in
		"$stage"/lib/modules/*/updates/fsload.ko*) ;;
		"$stage$want"/*) ;;
		*) fail "$f is outside $stage$want" ;;
		esac
	done
	n=$(find "$stage" -type f -o -type l | wc -l)
	[ "$n" -eq 5 ] || { find "$stage" -type f; fail "$n files installed, 5 expected"; }

	f=${list[0]}
	case $f in
	*.ko) cmp -s "$f" "$repo/module/fsload.ko" || fail "$f differs from module/fsload.ko" ;;
	esac
	[ "$(modinfo -F version "$f")" = "$version" ] || fail "$f: version is not $version"
	[ ! -e "$stage/lib/modules/$KRELEASE/modules.dep" ] || fail "depmod ran with DESTDIR"
	[ "${f%/updates/*}" = "$stage/lib/modules/$KRELEASE" ] || fail "$f: not for $KRELEASE"
	[ "$(stat -c %a "$stage$want/sbin/fsloadctl")" = 755 ] || fail "fsloadctl mode"
	"$stage$want/sbin/fsloadctl" help >/dev/null || fail "installed fsloadctl does not run"
	for f in "${list[@]:2}"; do
		[ "$(stat -c %a "$f")" = 644 ] || fail "$f: mode $(stat -c %a "$f")"
	done
	cmp -s "$stage$want/share/man/man8/fsloadctl.8" "$repo/ctl/fsloadctl.8" || fail "man page"
	cmp -s "$stage$want/include/linux/fsload.h" "$repo/include/uapi/linux/fsload.h" ||
		fail "uapi header"
	cmp -s "$stage$want/share/bash-completion/completions/fsloadctl" \
		"$repo/ctl/fsloadctl.bash-completion" || fail "bash completion"
	if command -v man >/dev/null; then
		MANPATH=$stage$want/share/man man -w fsloadctl >/dev/null 2>&1 ||
			fail "man does not find fsloadctl(8) under $stage$want/share/man"
	fi

	run_make "$stage" "$prefix" uninstall
	n=$(find "$stage" -type f -o -type l | wc -l)
	[ "$n" -eq 0 ] || { find "$stage" -type f; fail "$n files left after uninstall"; }
}

t_prefix_usr() {
	check "$tmp/stage1" /usr /usr
}

t_prefix_default() {
	check "$tmp/stage2" "" /usr/local
}

# An unrelated file in the staging root survives uninstall.
t_uninstall_exact() {
	local stage=$tmp/stage3

	mkdir -p "$stage/usr/local/sbin" "$stage/lib/modules/$KRELEASE/updates"
	touch "$stage/usr/local/sbin/other" "$stage/lib/modules/$KRELEASE/updates/other.ko"
	run_make "$stage" "" install
	run_make "$stage" "" uninstall
	[ -f "$stage/usr/local/sbin/other" ] || fail "uninstall removed sbin/other"
	[ -f "$stage/lib/modules/$KRELEASE/updates/other.ko" ] ||
		fail "uninstall removed updates/other.ko"
	[ "$(find "$stage" -type f | wc -l)" -eq 2 ] || fail "uninstall left files behind"
}

# shellcheck disable=SC2016 # a make variable, expanded by make
KRELEASE=$(make_eval 'echo $(KRELEASE)' 2>/dev/null)
[ -n "$KRELEASE" ] || { echo "1..0 # SKIP no kernel build tree (KDIR)"; exit 4; }
make -s -C "$repo" all >"$tmp/build.log" 2>&1 || {
	sed 's/^/# /' "$tmp/build.log"
	echo "Bail out! make all failed"
	exit 1
}

ktap_plan 3
ktap_run install_prefix_usr t_prefix_usr
ktap_run install_prefix_default t_prefix_default
ktap_run uninstall_exact t_uninstall_exact
ktap_finish
