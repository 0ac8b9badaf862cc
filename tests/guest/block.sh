#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The block profile end to end: bios from the kernel to a raw device, in a
# guest started with `scripts/vm-run --fs none` (the device at $FSLOAD_DEV
# is a brd ramdisk or a memory-backed null_blk, not mounted).  Counts are
# checked (bytes = ops x block, latencies per bio), the data must reach
# the device, a device carrying a filesystem is refused without --force,
# and a mounted device is refused for writing with EBUSY (issue 7) while
# reading it works.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/guest/lib.sh
. "$here/lib.sh"
lib_need module
[ -b "${FSLOAD_DEV:-}" ] || { echo "1..0 # SKIP no block device (vm-run --fs none)"; exit 4; }
dev=$FSLOAD_DEV
mnt=$work/mnt

# run NAME ARGS...: fsloadctl start --json of a block job into $work/NAME.json
run() {
	local name=$1

	shift
	fsloadctl start --profile block --device "$dev" --quiet --json \
		--idle-ms 0 --progress-ms 0 "$@" >"$work/$name.json" ||
		fail "fsloadctl start --profile block $* exited $?"
}

# want FILE EXPR VALUE: a Python expression over the JSON (j; ph(name))
want() {
	local got

	got=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
def ph(name):
    return [p for p in j["phases"] if p["name"] == name][0]
v = eval(sys.argv[2])
print(" ".join(map(str, v)) if isinstance(v, list) else v)
' "$1" "$2") || fail "$2: exception"
	[ "$got" = "$3" ] || fail "$2: got '$got', wanted '$3'"
}

# The first bytes of the device, in hex.
head_hex() {
	od -An -tx1 -N"${2:-16}" -j"${1:-0}" "$dev" | tr -d ' \n'
}

zero_head() {
	dd if=/dev/zero of="$dev" bs=1M count=1 oflag=direct status=none
}

t_seq_write() {
	local f=$work/sw.json

	zero_head
	# dd's defaults: 512 KiB blocks, depth 1, sequential; 16 MiB of it
	run sw --size 16M
	want "$f" '[p["name"] for p in j["phases"]]' write
	want "$f" 'ph("write")["ops"]' 32
	want "$f" 'ph("write")["bytes"]' $((16 << 20))
	want "$f" 'ph("write")["errors"]' 0
	want "$f" '[t["op"] for t in ph("write")["ops_by_type"]]' bio_write
	want "$f" 'sum(b[2] for b in ph("write")["ops_by_type"][0]["latency"]["histogram"])' 32
	want "$f" 'ph("write")["ops_by_type"][0]["lat_min_ns"] > 0' True
	want "$f" 'j["job"]["device"]' "$dev"
	want "$f" 'j["summary"]["mib_per_sec"] > 0' True
	[ "$(head_hex 0)" != 00000000000000000000000000000000 ] ||
		fail "the device's first block is still zeroes"
	# the last block of the region written, the next one not
	[ "$(head_hex $(((16 << 20) - 16)))" != 00000000000000000000000000000000 ] ||
		fail "the region's last bytes are zeroes"
}

t_seq_read_depth() {
	local f=$work/sr.json

	run sr --rw read --threads 2 --block 64K --depth 8 --size 32M
	want "$f" 'ph("read")["ops"]' 512
	want "$f" 'ph("read")["bytes"] == ph("read")["ops"] * 65536' True
	want "$f" 'ph("read")["complete"]' True
	want "$f" 'sum(b[2] for b in ph("read")["ops_by_type"][0]["latency"]["histogram"])' 512
}

t_randwrite_depth() {
	local f=$work/rw.json

	run rw --rw randwrite --block 4K --depth 32 --threads 2 --ops 1500 \
		--size 64M --force
	want "$f" 'ph("randwrite")["ops"]' 3000
	want "$f" 'ph("randwrite")["bytes"]' $((3000 * 4096))
	want "$f" '[t["op"] for t in ph("randwrite")["ops_by_type"]]' bio_write
}

t_randread_time() {
	local f=$work/rr.json

	run rr --rw randread --block 8K --depth 4 --time 0.5 --sample-ms 100
	want "$f" 'ph("randread")["stonewalled"]' True
	want "$f" 'ph("randread")["ops"] > 0' True
	want "$f" 'ph("randread")["bytes"] == ph("randread")["ops"] * 8192' True
	# the time series counts the bios' bytes (its MiB/s was always 0):
	# at least half of the phase's bytes, at most 10% more
	want "$f" '(lambda s, b: 0.5 * b <= 2**20 * sum(r * (t1 - t0) / 1000
		for r, t0, t1 in zip(s["mib_per_sec"], [0] + s["t_ms"], s["t_ms"])
		if r is not None) <= 1.1 * b)(ph("randread")["series"],
		ph("randread")["bytes"])' True
}

t_whole_device() {
	local f=$work/wd.json bytes

	bytes=$(blockdev --getsize64 "$dev")
	run wd --rw read --block 1M --depth 16
	want "$f" 'ph("read")["bytes"]' "$((bytes / 1048576 * 1048576))"
	want "$f" 'j["job"]["device_bytes"]' "$bytes"
}

t_signature_and_mounted() {
	local rc out=$work/err

	mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4 failed"
	fsloadctl start --profile block --device "$dev" --size 1M --quiet \
		>/dev/null 2>"$out"
	rc=$?
	[ $rc -eq 2 ] || fail "write over ext4 without --force: exit $rc, wanted 2"
	grep -q "ext2/ext3/ext4 signature" "$out" || fail "no signature message: $(cat "$out")"
	mkdir -p "$mnt"
	mount "$dev" "$mnt" || fail "mount failed"
	# (a subshell: this ends with the case)
	trap 'mountpoint -q "$mnt" && umount "$mnt"' EXIT
	# Mounted: the exclusive open for writing is refused by the kernel.
	fsloadctl start --profile block --device "$dev" --size 1M --force \
		--quiet >/dev/null 2>"$out"
	rc=$?
	[ $rc -eq 3 ] || fail "write to a mounted device: exit $rc, wanted 3"
	grep -q "Device or resource busy: device: busy (mounted" "$out" ||
		fail "no EBUSY message: $(cat "$out")"
	# Reading a mounted device is shared and allowed.
	run mr --rw read --size 4M
	want "$work/mr.json" 'ph("read")["bytes"]' $((4 << 20))
	umount "$mnt" || fail "umount failed"
	# A write job, then another: the first released its exclusive claim.
	run fw --size 2M --force
	run fw2 --size 2M --force
	want "$work/fw2.json" 'ph("write")["bytes"]' $((2 << 20))
	no_workers
}

t_job_file() {
	local f=$work/jf.json

	fsloadctl start --job "$FSLOAD_REPO/ctl/jobs/block-mixed.ini" \
		--device "$dev" --force --quiet --json --idle-ms 0 \
		--progress-ms 0 >"$f" || fail "block-mixed.ini exited $?"
	want "$f" '[p["name"] for p in j["phases"]]' "randrw read"
	want "$f" 'ph("randrw")["ops"]' 4000
	want "$f" 'ph("randrw")["bytes"]' $((4000 * 4096))
	want "$f" 'sorted(t["op"] for t in ph("randrw")["ops_by_type"])' "bio_read bio_write"
	want "$f" 'ph("read")["bytes"]' $((128 * 524288))
}

# A failed bio is charged to its own op, not to the one submitted when
# its failure was seen: writes past the first 1 MiB fail (device-mapper
# error target), reads stay in it, and 9 ops in 10 are reads.
t_bio_error_op() {
	local f=$work/be.json ini=$work/be.ini sz rc

	command -v dmsetup >/dev/null || skip "no dmsetup"
	modprobe dm_mod 2>/dev/null
	dmsetup targets | grep -q '^error' || skip "no device-mapper error target"
	sz=$(blockdev --getsz "$dev")
	DM_DISABLE_UDEV=1 dmsetup create fsload-half --table "0 2048 linear $dev 0
2048 $((sz - 2048)) error" || fail "dmsetup create"
	# (a subshell: this ends with the case)
	trap 'DM_DISABLE_UDEV=1 dmsetup remove fsload-half' EXIT
	cat >"$ini" <<-EOF
	[phase mixed]
	iterations = 4000
	op = bio_read weight=9 block=4K size=1M
	op = bio_write weight=1 block=4K size=8M
	EOF
	fsloadctl start --job "$ini" --device /dev/mapper/fsload-half --force \
		--quiet --json --idle-ms 0 --progress-ms 0 >"$f"
	rc=$?
	[ $rc -eq 1 ] || fail "exit $rc, wanted 1 (the job failed)"
	want "$f" 'j["job"]["state"]' failed
	want "$f" '"bio_write" in j["job"]["error"]' True
	want "$f" '[t["errors"] for t in ph("mixed")["ops_by_type"] if t["op"] == "bio_read"]' 0
	want "$f" '[t["errors"] for t in ph("mixed")["ops_by_type"] if t["op"] == "bio_write"]' 1
	no_workers
}

# A --time job over a huge device runs for its time: neither the kernel
# (which took the region for bytes per op) nor fsloadctl (which cut the
# iterations to fit that) may end it early.  A null_blk device of 2^56
# bytes, without memory: reads cost nothing.
t_time_huge_region() {
	local f=$work/hr.json nb=/sys/kernel/config/nullb/fsload-huge big

	modprobe null_blk nr_devices=0 2>/dev/null || skip "no null_blk"
	mountpoint -q /sys/kernel/config ||
		mount -t configfs configfs /sys/kernel/config || skip "no configfs"
	[ -d /sys/kernel/config/nullb ] || skip "null_blk without configfs"
	mkdir "$nb" || fail "cannot create $nb"
	# (a subshell: this ends with the case)
	# shellcheck disable=SC2064 # $nb is local: expanded now
	trap "echo 0 >'$nb/power'; rmdir '$nb'" EXIT
	echo $((1 << 36)) >"$nb/size" || fail "null_blk: size"
	echo 1 >"$nb/power" || fail "null_blk: power"
	big=/dev/fsload-huge
	[ -b "$big" ] || big=/dev/nullb$(cat "$nb/index")
	[ "$(blockdev --getsize64 "$big")" = $((1 << 56)) ] ||
		fail "$big: $(blockdev --getsize64 "$big") bytes"
	# The region given: the whole device, 2^44 blocks of 4 KiB.
	fsloadctl start --profile block --device "$big" --rw randread --bs 4K \
		--size $((1 << 56)) --time 1 --quiet --json --idle-ms 0 \
		--progress-ms 0 >"$f" ||
		fail "fsloadctl exited $?"
	want "$f" 'ph("randread")["stonewalled"]' True
	want "$f" 'ph("randread")["errors"]' 0
	want "$f" 'ph("randread")["elapsed_ns"] >= 0.9e9' True
	no_workers
}

# refused WHY ARGS...: fsloadctl start ARGS must be a usage error (exit 2)
refused() {
	local why=$1 rc

	shift
	fsloadctl start "$@" --quiet >/dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "$why: exit $rc, wanted 2"
}

t_refused() {
	refused /dev/null --profile block --device /dev/null
	refused "--engine user" --profile block --device "$dev" --engine user --force
	refused "--depth 129" --profile block --device "$dev" --depth 129 --force
	refused "--rw sideways" --profile block --device "$dev" --rw sideways --force
	refused "--device with smallfiles" --profile smallfiles --device "$dev"
}

ktap_plan 10
ktap_run block_seq_write_dd_defaults t_seq_write
ktap_run block_seq_read_depth8_2threads t_seq_read_depth
ktap_run block_randwrite_depth32 t_randwrite_depth
ktap_run block_randread_time t_randread_time
ktap_run block_whole_device t_whole_device
ktap_run block_signature_and_mounted_ebusy t_signature_and_mounted
ktap_run block_job_file t_job_file
ktap_run block_refused t_refused
ktap_run block_bio_error_own_op t_bio_error_op
ktap_run block_time_huge_region t_time_huge_region
ktap_finish
