#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernels fsload is built and tested against, beyond the host's own.
#
# The host is Debian 12 (Linux 6.1, gcc-12). Newer Debian kernels need their
# suite's compiler and build helpers (6.12 and 7.x: gcc-14, glibc >= 2.38),
# so they live in a debootstrap'd Debian 13 (trixie) root, cached outside the
# repository and created by this script. The same root is the VM's root
# filesystem for those kernels (scripts/vm-run --root): it also holds what
# the guest side of the tests runs (bash, kmod, mkfs tools, python3, the
# netlink libraries of ctl/ and tests/, which are built on the host).
# Kernels: 6.12 from trixie, the newest 7.x from trixie-backports, each as
# linux-headers-<release> plus the unsigned image and its modules (no
# initramfs: vm-run makes its own), and unstable's sparse binary (trixie's
# cannot parse 7.x's headers). The package mirror is the host's own (its
# apt sources), read at run time; FSLOAD_MIRROR overrides it.
#
#   scripts/kernels.sh setup [KERNEL...]  create the root when missing, install
#                                          each KERNEL not yet there (default:
#                                          6.12 7.x); without network once done
#   scripts/kernels.sh update [KERNEL...] apt-get update in the root, then
#                                          install the newest release of each
#   scripts/kernels.sh resolve KERNEL     print "RELEASE ROOT": the newest
#                                          installed match; ROOT is / for the
#                                          host's own headers
#   scripts/kernels.sh list               the kernels installed (host, root)
#   scripts/kernels.sh ynl                print the root's linux-source-6.12
#                                          tarball (ynl-gen-c), creating the
#                                          root and installing it if missing:
#                                          nl-gen.py's fallback where the host
#                                          has no linux-source-6.12 (make gen
#                                          installs the host's: deps.sh gen)
#   scripts/kernels.sh root               print the root's directory
#   scripts/kernels.sh run [--repo DIR] -- COMMAND [ARGS...]
#                                          run COMMAND as root in the root, with
#                                          DIR (default: this repository)
#                                          bind-mounted at its own path
#
# KERNEL: a series (6.1, 6.12, 7.3), 7.x (or 7: the newest 7), or an exact
# release (6.12.117+deb13-amd64). The host's headers (/usr/src) are looked
# at first, then the root's. Environment: FSLOAD_CACHE (default
# ~/.cache/fsload; the root is $FSLOAD_CACHE/roots/trixie), FSLOAD_ROOT (the
# root's directory itself), FSLOAD_MIRROR, FSLOAD_SECURITY_MIRROR.

set -euo pipefail

SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$SCRIPTS")
SUITE=trixie
FSLOAD_CACHE=${FSLOAD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fsload}
ROOT=${FSLOAD_ROOT:-$FSLOAD_CACHE/roots/$SUITE}
LOCK=$ROOT.lock
DEFAULT_KERNELS=(6.12 7.x)

# Build and guest tools of the root (see the top of this file).
PACKAGES=(
	# kbuild for external modules; W=1 runs kernel-doc (perl before 7.x,
	# python3 after); lint runs sparse
	gcc-14 make libc6-dev libelf-dev kmod perl python3 sparse
	# the guest: scripts/vm-guest.sh, tests/guest/*.sh, ctl/ and tests/
	bash coreutils util-linux mount procps psmisc findutils grep sed gawk
	e2fsprogs xfsprogs btrfs-progs xz-utils libmnl0 libnl-3-200
	libnl-genl-3-200
	# fsloadctl's libraries besides libc (ctl/Makefile: libmnl, and
	# liburing for --engine uring); built on the host, run in the root
	liburing2
)

usage() { sed -n '3,/^$/s/^# \{0,1\}//p' "$0"; }
say() { echo "kernels.sh: $*" >&2; }
die() {
	say "$*"
	exit 1
}
now() { date +%s; }

# --- kernels: names and releases ----------------------------------------------
# Only Debian's generic flavour: <version>[+debNN]-amd64 (no cloud, rt).
is_release() { [[ $1 =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?(-[0-9]+)?(\+deb[0-9]+)?-amd64$ ]]; }

# Print the regular expression of the releases KERNEL stands for.
kernel_regex() {
	local k=$1
	if is_release "$k"; then
		printf '^%s$' "${k//./\\.}" | sed 's/+/\\+/g'
		return
	fi
	case $k in
	[0-9] | [0-9].x) printf '^%s\\.[0-9]' "${k%.x}" ;;
	[0-9].[0-9] | [0-9].[0-9][0-9] | [0-9][0-9].[0-9] | [0-9][0-9].[0-9][0-9])
		printf '^%s[.-]' "${k//./\\.}" ;;
	*) return 1 ;;
	esac
}

# Releases with headers in root DIR (/ = the host), newest last.
releases_in() {
	local d f
	d=${1%/}
	for f in "$d"/usr/src/linux-headers-*-amd64; do
		[ -f "$f/Makefile" ] || continue
		f=${f##*/linux-headers-}
		is_release "$f" && echo "$f"
	done | sort -V
}

# resolve KERNEL: print "RELEASE ROOT" of the newest match, host first.
resolve() {
	local re r d
	re=$(kernel_regex "$1") || die "not a kernel: '$1' (a series like 6.12, 7.x, or a release like 6.12.117+deb13-amd64)"
	for d in / "$ROOT"; do
		r=$(releases_in "$d" | grep -E "$re" | tail -n 1) || true
		if [ -n "$r" ]; then
			echo "$r $d"
			return 0
		fi
	done
	return 1
}

# --- the host's package mirror -------------------------------------------------
# Print "SUITE URI" for every suite of the host's apt sources (deb822 and
# one-line formats; commented-out and disabled entries are skipped).
host_sources() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '
		function flush() {
			if (types ~ /(^| )deb( |$)/ && enabled != "no")
				for (i = 1; i <= ns; i++)
					if (nu) print suites[i], uris[1]
			types = ""; enabled = ""; ns = 0; nu = 0
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		{
			key = tolower($1); sub(/:$/, "", key)
			if (key == "types") { $1 = ""; types = $0 " " }
			else if (key == "enabled") enabled = tolower($2)
			else if (key == "uris") { nu = 0; for (i = 2; i <= NF; i++) uris[++nu] = $i }
			else if (key == "suites") { ns = 0; for (i = 2; i <= NF; i++) suites[++ns] = $i }
		}
		END { flush() }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		# deb [options] URI SUITE COMPONENTS...
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" | awk '$1 == "deb" && NF >= 3 { print $3, $2 }'
	done
}

# Set MIRROR and SECURITY_MIRROR (may stay empty) from the host's sources.
find_mirror() {
	local codename suite uri
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	MIRROR=${FSLOAD_MIRROR:-}
	SECURITY_MIRROR=${FSLOAD_SECURITY_MIRROR:-}
	while read -r suite uri; do
		case $suite in
		"$codename" | "$codename"-updates | "$codename"-backports)
			[ -n "$MIRROR" ] || MIRROR=$uri ;;
		"$codename"-security | "$codename"/updates)
			[ -n "$SECURITY_MIRROR" ] || SECURITY_MIRROR=$uri ;;
		esac
	done < <(host_sources)
	[ -n "$MIRROR" ] || die "no Debian mirror for '$codename' in the host's apt sources (/etc/apt/sources.list.d/*.sources, /etc/apt/sources.list): set FSLOAD_MIRROR"
}

# --- running things in the root ----------------------------------------------------
# in_root [--repo DIR] -- COMMAND...: run COMMAND chrooted in ROOT as root,
# in a private mount namespace that holds /proc, /dev and the bind mount of
# DIR at its own path: they all vanish with the namespace when COMMAND ends,
# however it ends (an interrupted build leaves no mount behind).
in_root() {
	local repo=
	while [ $# -gt 0 ]; do
		case $1 in
		--repo) repo=$(realpath "$2"); shift 2 ;;
		--) shift; break ;;
		*) break ;;
		esac
	done
	[ $# -gt 0 ] || die "run: no COMMAND"
	[ -d "$ROOT/usr" ] || die "no root at $ROOT: run scripts/kernels.sh setup"
	[ "$(id -u)" = 0 ] || die "building in the root needs root (chroot, mounts)"
	if [ -n "$repo" ] && [ ! -d "$ROOT$repo" ]; then
		mkdir -p "$ROOT$repo"
	fi
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- /bin/bash -euc '
		root=$1 repo=$2
		shift 2
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		[ -z "$repo" ] || mount --bind "$repo" "$root$repo"
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
			DEBIAN_FRONTEND=noninteractive INITRD=No \
			/bin/sh -c "cd \"\${0:-/}\" 2>/dev/null || true; exec \"\$@\"" "$repo" "$@"
	' in_root "$ROOT" "$repo" "$@" 9>&-
}

apt_root() { in_root -- apt-get -q -y -o Dpkg::Use-Pty=0 "$@"; }

# --- creating the root -------------------------------------------------------------
# Suites of the root: the same set as the host has, for trixie, plus
# backports (7.x kernels).
write_sources() { # DIR
	local dir=$1
	rm -f "$dir/etc/apt/sources.list"
	mkdir -p "$dir/etc/apt/sources.list.d"
	{
		echo "# Written by fsload's scripts/kernels.sh from the host's apt sources."
		echo "Types: deb"
		echo "URIs: $MIRROR"
		echo "Suites: $SUITE $SUITE-updates $SUITE-backports"
		echo "Components: main"
		echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
		if [ -n "$SECURITY_MIRROR" ]; then
			echo
			echo "Types: deb"
			echo "URIs: $SECURITY_MIRROR"
			echo "Suites: $SUITE-security"
			echo "Components: main"
			echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
		fi
	} >"$dir/etc/apt/sources.list.d/debian.sources"
	cat >"$dir/etc/apt/apt.conf.d/90fsload" <<-'EOF'
		// fsload's build and guest root: no recommends, no translations.
		APT::Install-Recommends "false";
		APT::Install-Suggests "false";
		Acquire::Languages "none";
	EOF
	cat >"$dir/etc/dpkg/dpkg.cfg.d/90fsload" <<-'EOF'
		# fsload's build and guest root: no documentation.
		path-exclude=/usr/share/doc/*
		path-exclude=/usr/share/man/*
		path-exclude=/usr/share/info/*
		path-exclude=/usr/share/locale/*
		path-include=/usr/share/locale/locale.alias
	EOF
}

create_root() {
	local tmp t0 inc
	command -v debootstrap >/dev/null || die "debootstrap not installed (scripts/deps.sh)"
	find_mirror
	tmp=$ROOT.new
	# What an interrupted creation left (never below another mount).
	rm -rf --one-file-system "$tmp"
	mkdir -p "$(dirname "$ROOT")"
	t0=$(now)
	inc=$(
		IFS=,
		echo "${PACKAGES[*]}"
	)
	say "creating the $SUITE root in $ROOT (debootstrap from $MIRROR)"
	# In a mount namespace of its own: the /proc and /sys it mounts in the
	# new root go away with it, even when it is killed.
	if ! unshare --mount --propagation private -- \
		debootstrap --variant=minbase --include="$inc" "$SUITE" "$tmp" "$MIRROR" \
		>"$tmp.log" 2>&1 9>&-; then
		tail -n 20 "$tmp.log" >&2
		die "debootstrap failed (log: $tmp.log)"
	fi
	rm -f "$tmp.log"
	write_sources "$tmp"
	# The guest mounts its own /proc, /dev, /tmp and /run on these.
	mkdir -p "$tmp/proc" "$tmp/sys" "$tmp/dev" "$tmp/tmp" "$tmp/run"
	mv -T "$tmp" "$ROOT"
	say "root created in $(($(now) - t0)) s"
	apt_root update >/dev/null
}

# What PACKAGES gained since the root was made (debootstrap installed
# the list of its day): installed into it now.
ensure_packages() {
	local p missing=()
	for p in "${PACKAGES[@]}"; do
		# shellcheck disable=SC2016 # dpkg-query's field, not shell
		in_root -- dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q ' installed$' || missing+=("$p")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	say "installing ${missing[*]} in $ROOT"
	apt_root install "${missing[@]}" >"$ROOT.apt.log" 2>&1 || {
		tail -n 20 "$ROOT.apt.log" >&2
		die "apt-get install failed (log: $ROOT.apt.log)"
	}
	rm -f "$ROOT.apt.log"
}

# --- kernels in the root ---------------------------------------------------------------
# The newest Debian release of KERNEL the root's apt knows, from the
# linux-headers-amd64 versions of every suite (trixie: 6.12, backports: 7.x).
available_release() {
	local re v dep rel best=
	re=$(kernel_regex "$1") || die "not a kernel: '$1'"
	while read -r v; do
		dep=$(in_root -- apt-cache show "linux-headers-amd64=$v" 2>/dev/null |
			sed -n 's/^Depends: .*\(linux-headers-[^ ,]*-amd64\).*/\1/p' | head -n 1)
		rel=${dep#linux-headers-}
		is_release "$rel" || continue
		echo "$rel" | grep -qE "$re" || continue
		best=$(printf '%s\n' "$best" "$rel" | sed '/^$/d' | sort -V | tail -n 1)
	done < <(in_root -- apt-cache madison linux-headers-amd64 | awk -F'|' '{gsub(/ /, "", $2); print $2}' | sort -u)
	# An exact release that is not the current one of a suite.
	if [ -z "$best" ] && is_release "$1" &&
		in_root -- apt-cache show "linux-headers-$1" >/dev/null 2>&1; then
		best=$1
	fi
	echo "$best"
}

# 7.x's image stays in /usr/lib/modules/<release>/ (the linux-image
# package, which would link it into /boot, also brings an initramfs
# generator): link it where vm-run and 6.x kernels have it, relatively so
# that the link also resolves from the host.
link_image() {
	local rel=$1 f
	[ -e "$ROOT/boot/vmlinuz-$rel" ] && return 0
	for f in vmlinuz vmlinuz.unsigned; do
		if [ -f "$ROOT/usr/lib/modules/$rel/$f" ]; then
			mkdir -p "$ROOT/boot"
			ln -sfn "../usr/lib/modules/$rel/$f" "$ROOT/boot/vmlinuz-$rel"
			return 0
		fi
	done
}

# Install the headers, the unsigned image and the modules of RELEASE.
install_release() {
	local rel=$1 t0 pkgs
	t0=$(now)
	pkgs=("linux-headers-$rel")
	# 7.x splits the image: linux-binary-unsigned-* (vmlinuz) and
	# linux-modules-*; up to 6.x linux-image-*-unsigned has both.
	if in_root -- apt-cache show "linux-binary-unsigned-$rel" >/dev/null 2>&1; then
		pkgs+=("linux-binary-unsigned-$rel" "linux-modules-$rel")
	else
		pkgs+=("linux-image-$rel-unsigned")
	fi
	say "installing ${pkgs[*]}"
	# INITRD=No (set by in_root): no initramfs, vm-run builds its own.
	apt_root install "${pkgs[@]}" >"$ROOT.apt.log" 2>&1 || {
		tail -n 20 "$ROOT.apt.log" >&2
		die "apt-get install failed (log: $ROOT.apt.log)"
	}
	rm -f "$ROOT.apt.log"
	link_image "$rel"
	[ -f "$ROOT/boot/vmlinuz-$rel" ] || die "$rel: no /boot/vmlinuz-$rel after the install"
	[ -f "$ROOT/usr/lib/modules/$rel/modules.dep" ] || in_root -- depmod "$rel"
	say "$rel installed in $(($(now) - t0)) s"
}

# sparse: Debian 13's (0.6.4) cannot parse 7.x's headers (__typeof_unqual__,
# the test of 7.x's scripts/checker-valid.sh, which Debian's headers leave
# out). Use unstable's in /usr/local/bin, only its binary, which needs libc
# alone (the package would bring gcc-16): apt-get download with a sources
# and lists folder of its own, so that the root's apt never sees unstable.
SPARSE_TEST='static inline int u(const int *q) { __typeof_unqual__(*q) v = *q; return v; }'
sparse_ok() {
	# shellcheck disable=SC2016 # expanded by the root's shell
	in_root sh -c 'command -v sparse >/dev/null || exit 1
		printf "%s\n" "$0" >/tmp/fsload-sparse.c
		out=$(sparse /tmp/fsload-sparse.c 2>&1)
		rm -f /tmp/fsload-sparse.c
		[ -z "$out" ]' "$SPARSE_TEST"
}
ensure_sparse() {
	local t0 apt
	if [ "$UPDATE" = 0 ] && sparse_ok; then
		return 0
	fi
	t0=$(now)
	[ -n "${MIRROR:-}" ] || find_mirror
	mkdir -p "$ROOT/etc/apt/fsload-unstable" "$ROOT/var/lib/apt/fsload-unstable/partial"
	cat >"$ROOT/etc/apt/fsload-unstable/unstable.sources" <<-EOF
		Types: deb
		URIs: $MIRROR
		Suites: unstable
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	apt=(apt-get -q -o Dir::Etc::SourceList=/dev/null
		-o Dir::Etc::SourceParts=/etc/apt/fsload-unstable
		-o Dir::State::Lists=/var/lib/apt/fsload-unstable
		-o APT::Sandbox::User=root
		# A mirror that is a snapshot serves unstable past its
		# Valid-Until; the signature is still checked.
		-o Acquire::Check-Valid-Until=false)
	if in_root "${apt[@]}" update >/dev/null &&
		in_root sh -c 'cd /tmp && rm -f sparse_*.deb && "$@" download sparse &&
			rm -rf /opt/sparse-unstable && dpkg-deb -x sparse_*.deb /opt/sparse-unstable &&
			rm -f sparse_*.deb &&
			ln -sfn /opt/sparse-unstable/usr/bin/sparse /usr/local/bin/sparse' \
			sh "${apt[@]}" >/dev/null && sparse_ok; then
		say "sparse from unstable: $(in_root sparse --version) in $(($(now) - t0)) s"
	else
		rm -f "$ROOT/usr/local/bin/sparse"
		say "warning: no sparse that parses 7.x's headers: lint against 7.x will fail"
	fi
	rm -rf "$ROOT/var/lib/apt/fsload-unstable"
}

# Make sure KERNEL is installed; with UPDATE=1, the newest release of it.
ensure_kernel() {
	local k=$1 have want
	have=$(resolve "$k" 2>/dev/null) || have=
	if [ -n "$have" ] && [ "${have#* }" = / ]; then
		say "$k: the host's ${have% *}"
		return 0
	fi
	if [ -n "$have" ] && [ "$UPDATE" = 0 ]; then
		link_image "${have% *}"
		if [ -f "$ROOT/boot/vmlinuz-${have% *}" ]; then
			say "$k: ${have% *} (installed)"
			return 0
		fi
		# Headers without the image: an interrupted install.
		install_release "${have% *}"
		return 0
	fi
	want=$(available_release "$k")
	[ -n "$want" ] || die "$k: no such kernel in Debian $SUITE (or its backports)"
	link_image "$want"
	if [ -f "$ROOT/usr/src/linux-headers-$want/Makefile" ] &&
		[ -f "$ROOT/boot/vmlinuz-$want" ]; then
		say "$k: $want (installed, the newest)"
		return 0
	fi
	install_release "$want"
}

# Everything that changes the root runs under an exclusive lock; builds
# and VMs (readers) take a shared one.
with_lock() { # MODE COMMAND...
	local mode=$1
	shift
	mkdir -p "$(dirname "$LOCK")"
	exec 9>>"$LOCK"
	if ! flock -n "$mode" 9; then
		say "waiting for another kernels.sh using $ROOT"
		flock "$mode" 9
	fi
	"$@"
}

setup() {
	local k t0
	t0=$(now)
	[ "$(id -u)" = 0 ] || die "setup needs root (debootstrap, chroot)"
	[ $# -gt 0 ] || set -- "${DEFAULT_KERNELS[@]}"
	for k in "$@"; do
		kernel_regex "$k" >/dev/null || die "not a kernel: '$k'"
	done
	if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
		create_root
	elif [ "$UPDATE" = 1 ]; then
		say "apt-get update in $ROOT"
		apt_root update >/dev/null
	fi
	ensure_packages
	for k in "$@"; do
		ensure_kernel "$k"
	done
	ensure_sparse
	apt_root clean
	say "done in $(($(now) - t0)) s; root: $ROOT"
}

# The kernel's netlink code generator (ynl-gen-c, 6.4 and newer) comes
# with its source: the root's suite has it, as has Debian 12's
# bookworm-security (linux-source-6.12, which make gen installs on the
# host and scripts/nl-gen.py prefers).
YNL_SOURCE=linux-source-6.12
YNL_TARBALL=$ROOT/usr/src/$YNL_SOURCE.tar.xz
ynl() {
	if [ ! -f "$YNL_TARBALL" ]; then
		[ "$(id -u)" = 0 ] || die "$YNL_SOURCE is not in $ROOT: run scripts/kernels.sh ynl as root"
		[ -x "$ROOT/usr/bin/apt-get" ] || create_root
		say "installing $YNL_SOURCE in $ROOT"
		apt_root install "$YNL_SOURCE" >"$ROOT.apt.log" 2>&1 || {
			tail -n 20 "$ROOT.apt.log" >&2
			die "apt-get install failed (log: $ROOT.apt.log)"
		}
		rm -f "$ROOT.apt.log"
		apt_root clean
	fi
}

list() {
	local r
	for r in $(releases_in /); do echo "$r /"; done
	[ -d "$ROOT/usr/src" ] || return 0
	for r in $(releases_in "$ROOT"); do echo "$r $ROOT"; done
}

UPDATE=0
cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
setup) with_lock -x setup "$@" ;;
update)
	UPDATE=1
	with_lock -x setup "$@"
	;;
resolve)
	[ $# = 1 ] || die "usage: kernels.sh resolve KERNEL"
	resolve "$1" || die "kernel $1 is not installed: make kernels KERNEL=$1 (scripts/kernels.sh setup $1)"
	;;
list) list ;;
ynl)
	# Without the lock when there: builds and VMs may hold it.
	[ -f "$YNL_TARBALL" ] || with_lock -x ynl
	echo "$YNL_TARBALL"
	;;
root) echo "$ROOT" ;;
run)
	args=(--repo "$REPO")
	if [ "${1:-}" = --repo ]; then
		args=(--repo "$2")
		shift 2
	fi
	[ "${1:-}" = -- ] && shift
	with_lock -s in_root "${args[@]}" -- "$@"
	;;
-h | --help | help) usage ;;
*)
	usage >&2
	exit 2
	;;
esac
