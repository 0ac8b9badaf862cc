#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS (`make check-dkms`): the module's sources go to /usr/src as
# `make dkms-src` puts them, then dkms adds, builds and installs the module
# for every kernel of the host that has a build tree, and builds it for the
# kernels of each newer-suite root (scripts/kernels.sh), with the dkms of
# that root.  Everything is removed at the end.  Needs root and dkms;
# installs dkms in a root that lacks it (apt, the root's own mirror).
#
#   tests/dkms.sh
#   FSLOAD_DKMS_ROOTS="DIR..."    the roots to build in (default: the one
#                                 of scripts/kernels.sh, when it exists;
#                                 "" for none)
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/ktap.sh
. "$repo/tests/ktap.sh"

[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP dkms needs root"; exit 4; }
command -v dkms >/dev/null || { echo "1..0 # SKIP dkms not installed (scripts/deps.sh)"; exit 4; }

version=$(cat "$repo/VERSION")
mv=fsload/$version
src=/usr/src/fsload-$version

# Never touch an fsload that someone installed with dkms for real.
if [ -n "$(dkms status "$mv" 2>/dev/null)" ] || [ -e "$src" ]; then
	echo "1..0 # SKIP $mv is already in dkms or $src exists: remove it first"
	exit 4
fi

if [ -z "${FSLOAD_DKMS_ROOTS+set}" ]; then
	FSLOAD_DKMS_ROOTS=
	if [ -x "$repo/scripts/kernels.sh" ]; then
		r=$("$repo/scripts/kernels.sh" root 2>/dev/null) || r=
		[ -n "$r" ] && [ -x "$r/usr/bin/apt-get" ] && FSLOAD_DKMS_ROOTS=$r
	fi
fi
read -r -a roots <<<"$FSLOAD_DKMS_ROOTS"

# Releases under DIR/lib/modules with a kernel build tree, newest last.
kernels_in() {
	local d

	for d in "${1%/}"/lib/modules/*/build/; do
		[ -f "$d/Makefile" ] || continue
		d=${d%/build/}
		echo "${d##*/}"
	done | sort -V
}

# in_root DIR COMMAND...: COMMAND chrooted in DIR, with /proc and /dev in
# a private mount namespace that ends with it.
in_root() {
	local root=$1

	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- /bin/bash -ec '
		root=$1
		shift
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
	' in_root "$root" "$@"
}

cleanup_root() { # DIR ("" for the host)
	local root=$1

	if [ -z "$root" ]; then
		dkms remove "$mv" --all >/dev/null 2>&1
	elif [ -x "$root/usr/sbin/dkms" ]; then
		in_root "$root" dkms remove "$mv" --all >/dev/null 2>&1
	fi
	rm -rf "$root$src"
}

# dkms makes a signing key (MOK) on its first build: drop it if it is ours.
mok=/var/lib/dkms/mok.key
[ -e "$mok" ] && mok=

cleanup() {
	local r

	cleanup_root ""
	[ -z "$mok" ] || rm -f "$mok" "${mok%.key}.pub"
	for r in "${roots[@]}"; do
		cleanup_root "$r"
	done
}
trap cleanup EXIT

# Where dkms keeps a built module, and the build's log.
built() { echo "$1/var/lib/dkms/$mv/$2/x86_64/module/fsload.ko${3:-}"; }
buildlog() { echo "$1/var/lib/dkms/$mv/build/make.log"; }

t_conf() {
	local k

	# shellcheck disable=SC1091 # dkms.conf is bash that dkms sources
	(
		kernel_source_dir=/nonexistent dkms_tree=/var/lib/dkms
		. "$repo/dkms.conf"
		[ "$PACKAGE_NAME" = fsload ] || fail "PACKAGE_NAME '$PACKAGE_NAME'"
		[ "$PACKAGE_VERSION" = "$version" ] ||
			fail "PACKAGE_VERSION '$PACKAGE_VERSION', VERSION says '$version'"
		[ "${BUILT_MODULE_NAME[0]}" = fsload ] || fail "BUILT_MODULE_NAME"
		[ "$AUTOINSTALL" = yes ] || fail "AUTOINSTALL"
		[ "$BUILD_EXCLUSIVE_KERNEL_MIN" = 6.1 ] || fail "BUILD_EXCLUSIVE_KERNEL_MIN"
		for k in 6.1.0-57-amd64 6.12.117+deb13-amd64 7.3.0-1-amd64 6.19.2 10.0.1; do
			[[ $k =~ $BUILD_EXCLUSIVE_KERNEL ]] || fail "BUILD_EXCLUSIVE_KERNEL refuses $k"
		done
		for k in 6.0.19 5.10.0-30-amd64 4.19.0-27-amd64 3.16.0; do
			[[ $k =~ $BUILD_EXCLUSIVE_KERNEL ]] && fail "BUILD_EXCLUSIVE_KERNEL accepts $k"
		done
		exit 0
	)
}

t_src() {
	local f

	DESTDIR='' make -s -C "$repo" dkms-src || fail "make dkms-src"
	for f in dkms.conf VERSION Kbuild module/Kbuild module/main.c \
		include/uapi/linux/fsload.h; do
		[ -f "$src/$f" ] || fail "$src/$f missing"
	done
	f=$(find "$src" -name '*.o' -o -name '*.ko' -o -name '*.mod.c' -o -name '*.cmd')
	[ -z "$f" ] || fail "build products in $src: $f"
}

# dkms add, build (and with "install", install) for the host's KERNEL.
t_host() { # KERNEL [install]
	local k=$1 v

	dkms status "$mv" | grep -q . || dkms add "$mv" >/dev/null || fail "dkms add"
	if ! dkms build "$mv" -k "$k" >/dev/null; then
		tail -n 30 "$(buildlog "")" >&2
		fail "dkms build -k $k"
	fi
	[ -f "$(built "" "$k")" ] || fail "no $(built "" "$k")"
	v=$(modinfo -F version "$(built "" "$k")")
	[ "$v" = "$version" ] || fail "built module has version '$v'"
	v=$(modinfo -F vermagic "$(built "" "$k")")
	[ "${v%% *}" = "$k" ] || fail "built module has vermagic '$v'"
	[ "${2:-}" = install ] || return 0

	dkms install "$mv" -k "$k" >/dev/null || fail "dkms install -k $k"
	v=$(modinfo -k "$k" -n fsload 2>/dev/null)
	case $v in
	/lib/modules/"$k"/updates/dkms/fsload.ko*) ;;
	*) fail "after dkms install, modinfo -k $k finds '$v'" ;;
	esac
	dkms status "$mv" -k "$k" | grep -q installed || fail "dkms status: not installed"
	dkms uninstall "$mv" -k "$k" >/dev/null || fail "dkms uninstall"
	[ ! -e "/lib/modules/$k/updates/dkms/fsload.ko" ] || fail "still installed"
}

# The root's dkms: add and build for every kernel of the root.
t_root() { # DIR
	local root=$1 k ks suffix

	[ -x "$root/usr/bin/apt-get" ] || skip "no root at $root"
	read -r -a ks <<<"$(kernels_in "$root" | tr '\n' ' ')"
	[ ${#ks[@]} -gt 0 ] || skip "no kernel build tree in $root"
	# The lock of scripts/kernels.sh, when the root has one: exclusive
	# to change the root, shared to build in it.
	if [ -e "$root.lock" ]; then
		exec 8>>"$root.lock"
	else
		exec 8>/dev/null
	fi
	if [ ! -x "$root/usr/sbin/dkms" ]; then
		flock -x 8
		in_root "$root" apt-get -q -y -o Dpkg::Use-Pty=0 \
			--no-install-recommends install dkms >/dev/null ||
			fail "apt-get install dkms in $root"
	fi
	flock -s 8
	echo "$(in_root "$root" dkms --version) in $root: ${ks[*]}"
	rm -rf "$root$src"
	cp -a "$src" "$root$src"
	in_root "$root" dkms add "$mv" >/dev/null || fail "dkms add in $root"
	for k in "${ks[@]}"; do
		if ! in_root "$root" dkms build "$mv" -k "$k" >/dev/null; then
			tail -n 30 "$(buildlog "$root")" >&2
			fail "dkms build -k $k in $root"
		fi
		suffix=
		[ -f "$(built "$root" "$k")" ] || suffix=.xz
		[ -f "$(built "$root" "$k" $suffix)" ] || fail "no $(built "$root" "$k") in $root"
	done
	in_root "$root" dkms remove "$mv" --all >/dev/null || fail "dkms remove in $root"
}

mapfile -t host_kernels < <(kernels_in /)
ktap_plan $((2 + ${#host_kernels[@]} + ${#roots[@]}))
ktap_run dkms_conf t_conf
ktap_run dkms_src t_src
first=install
for k in "${host_kernels[@]}"; do
	# add, build and install for the first kernel; build for the others
	ktap_run "dkms_host_$k" t_host "$k" $first
	first=
done
for r in "${roots[@]}"; do
	ktap_run "dkms_root_$(basename "$r")" t_root "$r"
done
ktap_finish
