#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of scripts/vm-run: runs as root inside the guest, in the shared
# root, started by scripts/vm-init after its switch_root.
# vm-run copies this file into the per-run share as
# /run/fsload/run/vm-guest.sh next to guest.conf (the settings), cmd (the
# command string) and, unless --no-module, the module to load.
#
# Steps: kernel modules -> scratch device -> mkfs -> mount -> insmod ->
# COMMAND (sh -c, cwd = repository, stdout on ttyS1, stderr on ttyS2) ->
# rmmod -> umount [-> fsck] -> dmesg to $FSLOAD_OUT/dmesg.txt, scanned for
# kernel warnings. The exit status becomes the VM's exit status (see
# vm-run --help for the codes).

set -uo pipefail
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LANG=C.UTF-8 HOME=/tmp TERM=dumb

RUN=/run/fsload/run
OUT=/run/fsload/out
MNT=/run/fsload/mnt

# stdout and stderr of COMMAND go to the second and third serial ports (set
# to raw mode by vm-init); the first one is the kernel console.
exec 3>/dev/ttyS1 4>/dev/ttyS2

msg() { echo "vm-run(guest): $*" >&4; }
vmsg() { [ "$VERBOSE" = 1 ] && msg "$@"; return 0; }
die() { msg "$*"; exit 125; }

# What in the kernel log is a problem: any of these fails the run.
bad='WARNING:|BUG:|Oops|general protection|KASAN|UBSAN|possible circular locking'
bad+='|INFO: task .* blocked|turning off the locking correctness validator'
bad+='|DEBUG_LOCKS_WARN_ON|unreferenced object|suspected memory leak|refcount_t:'
bad+='|Kernel panic|soft lockup|hard LOCKUP|rcu: .*detected stalls|RCU stall'

# shellcheck source=/dev/null
. "$RUN/guest.conf" || die "cannot read guest.conf"
: "${FS:?}" "${DEV:?}" "${SIZE_MIB:?}" "${REPO:?}" "${MODULE:=}" "${MODULE_NAME:=}"
: "${MODULE_ARGS:=}" "${MKFS_CMD:=}" "${FS_IMAGE:=0}" "${FS_IMAGE_SHA:=}" "${FS_IMAGE_MKFS:=}" "${MOUNT_OPTS:=}" "${NULLB_OPTS:=}" "${FSCK:=0}" "${VERBOSE:=0}"
: "${BOOT:=}" "${OUT_HOST:=}" "${DEADLINE:=0}" "${MODS_SHARED:=0}" "${MODDEP:=0}" "${CLOCK:?}"
: "${NET_IP:=}" "${NET_MAC:=}" "${HOST_NAME:=}" "${QEMU_CPU:=}"

read -r krel </proc/sys/kernel/osrelease
t0=${EPOCHREALTIME/./}
elapsed() { # seconds since the start of this script, without forking
	local us=$((${EPOCHREALTIME/./} - t0))
	printf '%d.%d' $((us / 1000000)) $((us / 100000 % 10))
}

# --- kernel modules -----------------------------------------------------------
# When the kernel's modules come as a separate share (not inside the shared
# root), build /lib/modules/<release> from symlinks into that share, plus the
# modules.* indexes vm-run generated when the tree had none.
if [ "$MODS_SHARED" = 1 ]; then
	[ -d /lib/modules ] || die "the shared root has no /lib/modules to mount the kernel's modules on"
	md=/run/fsload/modules/$krel
	mkdir -p "$md"
	ln -s /run/fsload/mods-src/* "$md/"
	if [ "$MODDEP" = 1 ]; then
		cp --remove-destination "$RUN"/moddep/* "$md/"
	fi
	mount --bind /run/fsload/modules /lib/modules || die "cannot bind the kernel's modules on /lib/modules"
fi

# Load a module (or accept it as built in). The kernel's own autoloading works
# too (it runs the shared root's /sbin/modprobe), but explicit loading
# keeps mkfs/mount failures out of the picture (crc32c: see machine-notes).
need_mod() {
	local m
	modprobe -a -q "$@" 2>/dev/null && return 0
	for m in "$@"; do
		modprobe -q "$m" 2>/dev/null && continue
		[ -d "/sys/module/${m//-/_}" ] && continue
		msg "warning: cannot load kernel module $m"
	done
}
# The same, silently: for optional modules (crc32c-intel needs SSE4.2).
want_mod() { modprobe -a -q "$@" 2>/dev/null || true; }

# --- scratch device -------------------------------------------------------------
dev=
case "$FS" in
tmpfs) ;;
*)
	case "$DEV" in
	ram)
		[ -d /sys/module/brd ] && rmmod brd
		modprobe brd rd_nr=1 rd_size=$((SIZE_MIB * 1024)) max_part=0 ||
			die "cannot load brd"
		dev=/dev/ram0
		# Built in, brd takes its size from the command line (vm-run).
		[ "$(blockdev --getsize64 $dev)" = $((SIZE_MIB << 20)) ] ||
			die "$dev is $(blockdev --getsize64 $dev) bytes, not $SIZE_MIB MiB"
		;;
	nullb)
		need_mod configfs
		modprobe null_blk nr_devices=0 || die "cannot load null_blk"
		mountpoint -q /sys/kernel/config ||
			mount -t configfs configfs /sys/kernel/config || die "cannot mount configfs"
		# Since 5.x the disk takes the configfs directory's name, before
		# that it was nullb<index>: "nullb0" gives /dev/nullb0 on both.
		nb=/sys/kernel/config/nullb/nullb0
		mkdir "$nb" || die "cannot create $nb"
		echo "$SIZE_MIB" >"$nb/size"
		echo 1 >"$nb/memory_backed"
		for kv in $NULLB_OPTS; do
			echo "${kv#*=}" >"$nb/${kv%%=*}" || die "null_blk: cannot set ${kv%%=*}=${kv#*=}"
		done
		echo 1 >"$nb/power" || die "null_blk: cannot power on the device"
		read -r idx <"$nb/index"
		dev=/dev/nullb0
		[ -e /sys/block/nullb0 ] || dev=/dev/nullb$idx
		;;
	virtio)
		need_mod virtio_blk
		for _ in $(seq 50); do
			[ -b /dev/vda ] && break
			sleep 0.1
		done
		dev=/dev/vda
		;;
	esac
	[ -b "$dev" ] || die "block device $dev did not appear"
	;;
esac
vmsg "device ${dev:-none} ready at $(elapsed) s"

# --- filesystem -----------------------------------------------------------------
# The mkfs command is vm-run's (MKFS_CMD: fixed identities, --mkfs-opts);
# with --fs-image the host made the filesystem and it is written here.
mkfs_cmd=()
# The crypto API's crc32c: crc32c_generic up to 6.x, crc32c_cryptoapi (alias
# crc32c) from 7.0, where the CPU-optimised code is in the crc32c library.
crc32c=crc32c_generic
modinfo -F name "$crc32c" >/dev/null 2>&1 || crc32c=crc32c
case "$FS" in
ext4 | xfs | btrfs)
	want_mod crc32c-intel
	need_mod "$crc32c" "$FS"
	# shellcheck disable=SC2206 # words separated by blanks
	mkfs_cmd=($MKFS_CMD "$dev")
	;;
esac

mkdir -p "$MNT"
if [ "$FS_IMAGE" = 1 ]; then
	# the host's image: its non-zero extents onto the zeroed device
	vmsg "writing the filesystem image (sha256 $FS_IMAGE_SHA) onto $dev"
	pos=0
	while read -r off len; do
		dd if="$RUN/fsimage.data" of="$dev" bs=65536 iflag=skip_bytes,count_bytes \
			oflag=seek_bytes conv=notrunc skip="$pos" seek="$off" count="$len" \
			status=none 2>&4 || die "cannot write the filesystem image onto $dev"
		pos=$((pos + len))
	done <"$RUN/fsimage.map"
	blockdev --flushbufs "$dev" 2>/dev/null
	# what made it (the host's mkfs), for a test that makes it afresh
	# shellcheck disable=SC2206
	mkfs_cmd=(${FS_IMAGE_MKFS%% (host:*} "$dev")
elif [ ${#mkfs_cmd[@]} -gt 0 ]; then
	vmsg "${mkfs_cmd[*]}"
	if ! out=$("${mkfs_cmd[@]}" 2>&1); then
		printf '%s\n' "$out" >&4
		die "mkfs failed: ${mkfs_cmd[*]}"
	fi
fi
mnt_cmd=()
case "$FS" in
ext4 | xfs | btrfs)
	mnt_cmd=(mount -t "$FS")
	[ -n "$MOUNT_OPTS" ] && mnt_cmd+=(-o "$MOUNT_OPTS")
	mnt_cmd+=("$dev" "$MNT")
	;;
tmpfs)
	mnt_cmd=(mount -t tmpfs -o "size=${SIZE_MIB}m${MOUNT_OPTS:+,$MOUNT_OPTS}" fsload "$MNT")
	;;
esac
if [ ${#mnt_cmd[@]} -gt 0 ]; then
	vmsg "${mnt_cmd[*]}"
	"${mnt_cmd[@]}" >&4 2>&4 || die "mount failed: ${mnt_cmd[*]}"
	FSLOAD_DIR=$MNT
else
	FSLOAD_DIR=
fi
vmsg "filesystem ready at $(elapsed) s"

# --- network (--net, --ip) and host name ----------------------------------------
[ -z "$HOST_NAME" ] || echo "$HOST_NAME" >/proc/sys/kernel/hostname ||
	die "cannot set the host name $HOST_NAME"
net_if=
if [ -n "$NET_IP" ]; then
	need_mod virtio_net
	# busybox's ip (vm-init's): no iproute2 needed in the root
	ipcmd=(/run/fsload/bin/busybox ip)
	for _ in $(seq 100); do
		for d in /sys/class/net/*; do
			[ "$(cat "$d/address" 2>/dev/null)" = "$NET_MAC" ] && net_if=${d##*/}
		done
		[ -n "$net_if" ] && break
		sleep 0.1
	done
	[ -n "$net_if" ] || die "no network interface with MAC $NET_MAC appeared (--net)"
	if ! "${ipcmd[@]}" addr add "$NET_IP" dev "$net_if" >&4 2>&4 ||
		! "${ipcmd[@]}" link set "$net_if" up >&4 2>&4; then
		die "cannot give $net_if the address $NET_IP"
	fi
	vmsg "$net_if: $NET_IP at $(elapsed) s"
fi

# --- record what makes this run repeatable ------------------------------------
{
	read -r cmdline </proc/cmdline
	read -r tainted </proc/sys/kernel/tainted
	read -r kver </proc/sys/kernel/version
	echo "kernel: $krel $kver"
	echo "cmdline: $cmdline"
	echo "boot: ${BOOT:-?}$([ "$BOOT" = pvh ] && echo ' (no KASLR)')"
	echo "cpus: $(nproc)"
	# QEMU's -cpu, and what the kernel made of it: the string routines
	# it picked follow rep_good, erms, fsrm (fsrs: not in /proc/cpuinfo;
	# fsloadctl reads CPUID)
	echo "qemu_cpu: ${QEMU_CPU:-?}"
	awk -F': *' '/^vendor_id/ { v = $2 } /^cpu family/ { f = $2 }
		/^model\t/ { m = $2 } /^stepping/ { s = $2 }
		/^flags/ { n = split($2, a, " ")
			for (i = 1; i <= n; i++)
				if (a[i] ~ /^(rep_good|erms|fsrm|fsrs)$/) str = str " " a[i]
			printf "cpu: %s family %s model %s stepping %s, string flags:%s\n",
				v, f, m, s, str == "" ? " none" : str
			exit }' /proc/cpuinfo
	echo "fs: $FS"
	echo "dev: $DEV ${dev:-}"
	echo "size_mib: $SIZE_MIB"
	[ ${#mkfs_cmd[@]} -gt 0 ] && echo "mkfs: ${mkfs_cmd[*]}"
	[ "$FS_IMAGE" = 0 ] || echo "fs_image: sha256 $FS_IMAGE_SHA, made by $FS_IMAGE_MKFS"
	[ ${#mnt_cmd[@]} -gt 0 ] && echo "mount: ${mnt_cmd[*]}"
	wc=/sys/block/${dev#/dev/}/queue/write_cache
	if [ -n "$dev" ] && [ -r "$wc" ]; then
		read -r v <"$wc"
		echo "write_cache: $v"
	fi
	if [ "$DEV" = nullb ] && [ -n "${nb:-}" ]; then
		for a in "$nb"/*; do
			[ -f "$a" ] && read -r v <"$a" 2>/dev/null && echo "nullb.${a##*/}: $v"
		done
	fi
	[ -z "$net_if" ] || echo "net: $net_if $NET_IP $NET_MAC"
	[ -z "$HOST_NAME" ] || echo "hostname: $HOST_NAME"
	echo "tainted_before: $tainted"
} >"$OUT/vm-info.txt" 2>/dev/null

# --- a kernel that reported a problem before anything of ours ran ----------------
# A report now (QEMU's TCG was seen to make the KASAN kernel report a wild
# access in identify_boot_cpu, in one boot of several) is not fsload's,
# but it would hide fsload's: KASAN prints only its first report, lockdep
# turns itself off after one.  Such a guest says so and stops; vm-run
# boots it again (--boot-retries) and fails if it never comes up clean.
if hits=$(dmesg | grep -E -- "$bad"); then
	dmesg >"$OUT/dmesg-boot.txt" 2>&1
	msg "the kernel reported a problem before fsload was loaded or COMMAND ran (not fsload's; full log: ${OUT_HOST:-\$FSLOAD_OUT}/dmesg-boot.txt):"
	printf '%s\n' "$hits" | head -n 10 | sed 's/^/    /' >&4
	echo "<2>FSLOAD-VM-BOOT-REPORT" >/dev/kmsg
	exit 125
fi

# --- the module -------------------------------------------------------------------
rc=0
if [ -n "$MODULE" ]; then
	deps=$(modinfo -F depends "$MODULE" 2>/dev/null)
	# shellcheck disable=SC2086
	[ -n "$deps" ] && need_mod ${deps//,/ }
	# shellcheck disable=SC2086 # K=V words
	if ! out=$(insmod "$MODULE" $MODULE_ARGS 2>&1); then
		msg "insmod $MODULE_NAME failed: $out"
		dmesg | tail -n 20 >&4
		rc=1
	else
		vmsg "$MODULE_NAME loaded at $(elapsed) s"
	fi
fi

# --- COMMAND -----------------------------------------------------------------------
timed_out=0
if [ $rc = 0 ]; then
	envs=(PATH="$REPO/ctl:$PATH" HOME=/tmp TERM=dumb LANG=C.UTF-8
		FSLOAD_DIR="$FSLOAD_DIR" FSLOAD_DEV="$dev" FSLOAD_FS="$FS"
		FSLOAD_OUT="$OUT" FSLOAD_REPO="$REPO" FSLOAD_VM=1
		FSLOAD_MODULE="$MODULE" FSLOAD_MODULE_NAME="$MODULE_NAME"
		FSLOAD_MKFS="${mkfs_cmd[*]}" FSLOAD_MOUNT="${mnt_cmd[*]}"
		FSLOAD_FS_IMAGE="$FS_IMAGE_SHA"
		FSLOAD_CLOCK="$CLOCK"	# icount or wall: recorded in results
		FSLOAD_NET_IF="$net_if" FSLOAD_NET_ADDR="${NET_IP%/*}"
		DM_DISABLE_UDEV=1)	# no udev: dmsetup makes /dev/mapper nodes
	if [ -f "$RUN/env" ]; then
		while IFS= read -r -d '' kv; do
			envs+=("$kv")
		done <"$RUN/env"
	fi
	cmd=$(<"$RUN/cmd")

	# A guest-side limit below vm-run's --timeout, so that a stuck command
	# still gets its dmesg (and a sysrq-w dump of blocked tasks) saved.
	tmo=()
	if [ "$DEADLINE" != 0 ]; then
		read -r up _ </proc/uptime
		left=$((DEADLINE - ${up%.*}))
		# vm-run's wall-clock deadline, when the guest's clock agrees
		# with the host's (set from the RTC): it counts the boot too.
		if read -r dl 2>/dev/null <"$RUN/deadline"; then
			now=$(date +%s)
			[ $((dl - now)) -le "$DEADLINE" ] && left=$((dl - now))
		fi
		[ $left -lt 1 ] && left=1
		tmo=(timeout -k 10 "$left")
		(
			sleep $((left + 15))
			msg "COMMAND did not exit after its timeout; dumping blocked tasks"
			echo w >/proc/sysrq-trigger
			dmesg >"$OUT/dmesg.txt" 2>/dev/null
		) &
		watchdog=$!
	fi
	vmsg "running at $(elapsed) s: $cmd"
	cd "$REPO" || die "cannot cd to $REPO"
	started=$SECONDS
	"${tmo[@]}" env -i "${envs[@]}" /bin/sh -c "$cmd" </dev/null >&3 2>&4
	rc=$?
	cd /
	[ -n "${watchdog:-}" ] && kill "$watchdog" 2>/dev/null
	# timeout(1) exits 124, or 137 when it had to follow up with SIGKILL.
	if [ ${#tmo[@]} -gt 0 ] && { [ $rc = 124 ] || [ $rc = 137 ]; } &&
		[ $((SECONDS - started)) -ge "$left" ]; then
		timed_out=1
		msg "COMMAND timed out (guest-side limit ${left} s); dumping blocked tasks"
		echo w >/proc/sysrq-trigger
	fi
	vmsg "COMMAND exited with $rc at $(elapsed) s"
fi

fail_rc() { [ $rc = 0 ] && rc=1; return 0; }

# --- clean up: rmmod, umount, fsck ---------------------------------------------------
if [ -n "$MODULE_NAME" ] && [ -d "/sys/module/$MODULE_NAME" ]; then
	if ! out=$(rmmod "$MODULE_NAME" 2>&1); then
		msg "rmmod $MODULE_NAME failed: $out"
		fail_rc
	fi
fi
if [ -n "$FSLOAD_DIR" ]; then
	if ! out=$(umount "$MNT" 2>&1); then
		msg "umount $MNT failed: $out"
		fuser -vm "$MNT" >&4 2>&4
		fail_rc
	elif [ "$FSCK" = 1 ]; then
		case "$FS" in
		ext4) fsck_cmd=(e2fsck -fn "$dev") ;;
		xfs) fsck_cmd=(xfs_repair -n "$dev") ;;
		btrfs) fsck_cmd=(btrfs check --readonly "$dev") ;;
		*) fsck_cmd=() ;;
		esac
		if [ ${#fsck_cmd[@]} -gt 0 ]; then
			if ! out=$("${fsck_cmd[@]}" 2>&1); then
				msg "${fsck_cmd[*]} found problems:"
				echo "$out" >&4
				fail_rc
			else
				vmsg "${fsck_cmd[*]}: clean"
			fi
		fi
	fi
fi

# --- kernel log -----------------------------------------------------------------------
km=/sys/kernel/debug/kmemleak
leaks=
if [ -w "$km" ]; then
	# An object is reported once it is older than 5 s and unreferenced
	# in two scans in a row.
	echo scan >"$km" 2>/dev/null
	sleep 6
	echo scan >"$km" 2>/dev/null
	leaks=$(cat "$km" 2>/dev/null)
fi
dmesg >"$OUT/dmesg.txt" 2>&1
if [ -n "$leaks" ]; then
	echo "$leaks" >"$OUT/kmemleak.txt"
	printf '%s\n' "$leaks" >>"$OUT/dmesg.txt"
fi
read -r tainted </proc/sys/kernel/tainted
echo "tainted_after: $tainted" >>"$OUT/vm-info.txt"

if hits=$(grep -E -- "$bad" "$OUT/dmesg.txt"); then
	msg "kernel log reports problems (full log: ${OUT_HOST:-\$FSLOAD_OUT}/dmesg.txt):"
	printf '%s\n' "$hits" | head -n 50 | sed 's/^/    /' >&4
	fail_rc
fi

[ $timed_out = 1 ] && rc=124
exec 3>&- 4>&-
exit $rc
