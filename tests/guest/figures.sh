#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every figure fsloadctl prints must be physically possible (issue 20).
# Every profile and mode runs small, its text on stdout and its JSON in a
# result file (-o) of the same run, and each phase must hold:
#   - latency: min <= avg <= max per op type and in the table's row, and
#     avg x sampled = the latency sum (the sum covers the successful ops
#     timed: all of them, or 1 in N with --lat-sample N), sampled <= ops
#     and the histogram holds sampled ops;
#   - rates: ops/s = ops / elapsed, and the workers cannot have been in
#     their operations longer than threads x elapsed (x depth for bios);
#   - completion: the table's complete column is JSON's "completion",
#     which agrees with "complete" and "stonewalled";
#   - writeback: on a null_blk of NULLB_MBPS MB/s, a smallfiles --sync
#     final sync phase (batch: its fsync-K phases) takes at least half the
#     device time of the data created before it (the sync tail must not
#     have written it back already).
# The block cases run on $FSLOAD_DEV, then ext4 is made on it for the
# others: `scripts/vm-run --fs none` (tests/run-all.sh block-nullb).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/guest/lib.sh
. "$here/lib.sh"
lib_need module
[ -b "${FSLOAD_DEV:-}" ] || { echo "1..0 # SKIP no block device (vm-run --fs none)"; exit 4; }
NULLB_MBPS=20
mnt=$work/mnt
nb=/sys/kernel/config/nullb/fsloadfig
slow_dev=
slow_mnt=$work/slow

fig_cleanup() {
	stop_running 30
	umount "$mnt" 2>/dev/null
	umount "$slow_mnt" 2>/dev/null
	if [ -d "$nb" ]; then
		echo 0 >"$nb/power" 2>/dev/null
		rmdir "$nb" 2>/dev/null
	fi
	rm -rf "$work"
}
trap fig_cleanup EXIT

# sane NAME DEPTH: the checks above over $work/NAME.txt and
# $work/NAME.json (one run: a table in the text; several: JSON only);
# DEPTH bios in flight per thread.
sane() {
	python3 - "$work/$1.json" "$work/$1.txt" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
runs = [j] if "phases" in j else j.get("iterations") or j.get("sweep") or []
bad = []
def b(p, msg):
    bad.append("%s: %s" % (p["name"], msg))
for r in runs:
    for p in r["phases"]:
        el, thr = p["elapsed_ns"], max(p["threads"], 1)
        lat_sum = n_ok = 0
        depth = int(sys.argv[3]) if any(o["op"].startswith("bio_") for o in p["ops_by_type"]) else 1
        for o in p["ops_by_type"]:
            n = o["sampled"]
            if not n <= o["ops"]:
                b(p, "%s: %d ops timed of %d" % (o["op"], n, o["ops"]))
            if sum(h[2] for h in o["latency"]["histogram"]) != n:
                b(p, "%s: the histogram does not hold the %d timed ops" % (o["op"], n))
            if not n:
                continue
            lat_sum += o["lat_sum_ns"]
            n_ok += n
            if not o["lat_min_ns"] <= o["lat_avg_ns"] <= o["lat_max_ns"]:
                b(p, "%s: avg %s not within min %s..max %s" % (o["op"], o["lat_avg_ns"], o["lat_min_ns"], o["lat_max_ns"]))
            if abs(o["lat_avg_ns"] * n - o["lat_sum_ns"]) > n:
                b(p, "%s: avg x sampled != latency sum" % o["op"])
        if el and p["ops_per_sec"] is not None and \
           abs(p["ops_per_sec"] - p["ops"] * 1e9 / el) > 0.01 * p["ops_per_sec"] + 1:
            b(p, "ops/s %s, ops / elapsed %s" % (p["ops_per_sec"], p["ops"] * 1e9 / el))
        # a worker's ops follow one another within the phase
        if lat_sum > thr * depth * el * 1.01 + 1e6:
            b(p, "%.0f ns in operations, more than %d threads x %d ns" % (lat_sum, thr, el))
        want = "yes" if p["complete"] and not p["stonewalled"] else \
               "time" if p["complete"] else "no"
        if p["completion"] != want:
            b(p, "completion %r, complete %r, stonewalled %r" % (p["completion"], p["complete"], p["stonewalled"]))
# the table of a single run: its rows agree with the JSON
if "phases" in j:
    text = open(sys.argv[2]).read().split("\n")
    rows = {}
    for i, l in enumerate(text):
        if l.startswith("phase ") and l.split()[-1] == "complete":
            for r in text[i + 1:]:
                if not r.strip():
                    break
                f = r.split()
                if not r.startswith(" ") and len(f) == 12:
                    rows[f[0]] = f
            break
    for p in j["phases"]:
        f = rows.get(p["name"])
        if f is None:
            b(p, "no row in the table"); continue
        if f[11] != p["completion"]:
            b(p, "table says %s, JSON %s" % (f[11], p["completion"]))
        if f[8] != "-" and not float(f[9]) <= float(f[8]) <= float(f[10]):
            b(p, "table: avg_us %s not within %s..%s" % (f[8], f[9], f[10]))
for x in bad:
    print("# " + x)
print("# %d runs, %d phases: %d problems" % (len(runs), sum(len(r["phases"]) for r in runs), len(bad)))
sys.exit(1 if bad else 0)
PY
}

# fig NAME ARGS...: fsloadctl start ARGS, text and result file, then sane
# ($depth bios in flight per thread).
depth=1
fig() {
	local name=$1 t0=$SECONDS

	shift
	fsloadctl start --quiet --idle-ms 0 --progress-ms 0 -o "$work/$name.json" \
		"$@" >"$work/$name.txt" 2>"$work/$name.err" ||
		{ cat "$work/$name.err"; fail "$name: fsloadctl start $* exited $?"; }
	sane "$name" "$depth" || fail "$name: fsloadctl start $*"
	echo "# $name: $((SECONDS - t0)) s"
}

t_block() {
	local m

	depth=4
	for m in write read randwrite randread; do
		fig "block-$m" --profile block --device "$FSLOAD_DEV" --rw "$m" \
			--size 8M --block 64K --depth 4 --threads 2 --force
	done
	fig block-time --profile block --device "$FSLOAD_DEV" --rw randread \
		--size 8M --block 4K --depth 4 --time 0.3 --force
}

# The rest on ext4 made on the device.
t_fs() {
	local d

	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$FSLOAD_DEV" \
		128M || fail "mkfs"
	mkdir -p "$mnt" || fail "mkdir"
	mount "$FSLOAD_DEV" "$mnt" || fail "mount"
	d=(--dir "$mnt")
	fig sf-none --profile smallfiles --files 200 --threads 2 "${d[@]}"
	fig sf-sampled --profile smallfiles --files 200 --threads 2 \
		--lat-sample 8 "${d[@]}"
	fig sf-fsync --profile smallfiles --sync fsync --files 50 "${d[@]}"
	fig sf-batch --profile smallfiles --sync batch --files 100 \
		--files-per-round 50 "${d[@]}"
	fig sf-final --profile smallfiles --sync final --files 100 "${d[@]}"
	fig sf-sweep --profile smallfiles --threads 1,2 --files 50 "${d[@]}"
	fig md --profile metadata --items 100 --threads 2 "${d[@]}"
	fig md-tree --profile metadata --tree-branch 2 --tree-depth 2 \
		--items-per-dir 5 --shared-dir --threads 2 "${d[@]}"
	fig md-stonewall --profile metadata --items 100000 --items-per-dir 1000 \
		--stonewall 0.2 --iterations 2 "${d[@]}"
	fig md-sampled --profile metadata --items 100000 --items-per-dir 1000 \
		--stonewall 0.2 --lat-sample 16 "${d[@]}"
	fig lf --profile largefile --size 4M "${d[@]}"
	fig lf-direct --profile largefile --size 4M --direct --fallocate "${d[@]}"
	fig rrw --profile randrw --files 2 --size 1M --ops 300 "${d[@]}"
	fig rrw-time --profile randrw --files 2 --size 1M --time 0.3 "${d[@]}"
	fig mix --profile mix --files 30 --size 16K --ops 200 "${d[@]}"
	fig mix-time --profile mix --files 30 --size 16K --time 0.3 "${d[@]}"
	fig untar --profile untar --scale 0.01 "${d[@]}"
	fig null --profile null --files 100 "${d[@]}"
	fig job --job "$FSLOAD_REPO/ctl/jobs/mix.ini" --files 20 --time 0.3 \
		"${d[@]}"
	umount "$mnt" || fail "umount"
}

# Aging to 80% of the 256 MiB device ends within a point of it, as
# statfs shows once settled (a sync while the job ran let it write on
# far past the target: 87.7%).  Files of 1 MiB: fewer operations (TCG
# time), and one in flight at the stop is 0.4 point.  Its -o result file
# has the "age" too.
t_age() {
	local f=$work/age.json used

	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$FSLOAD_DEV" ||
		fail "mkfs"
	mkdir -p "$mnt" || fail "mkdir"
	mount "$FSLOAD_DEV" "$mnt" || fail "mount"
	fsloadctl --json start --quiet --idle-ms 0 --progress-ms 0 \
		--profile age --age 80 --size 1M --block 256K --keep --dir "$mnt" \
		-o "$work/age-rec.json" >"$f" ||
		fail "fsloadctl start --profile age exited $?"
	sync
	used=$(used_pct "$mnt")
	echo "# aged to $(jget 'j["age"]["after_pct"]' "$f")%, statfs $used%"
	[ "$(jget 'j["age"]["reached"] and abs(j["age"]["after_pct"] - 80) <= 1' "$f")" = True ] ||
		fail "age: $(jget 'j["age"]' "$f")"
	awk -v u="$used" 'BEGIN { exit !(u >= 79 && u <= 81) }' ||
		fail "statfs: $used% used, not 80 within 1"
	[ "$(jget '"age" in j and j["age"]["target_pct"]' "$work/age-rec.json")" = 80.0 ] ||
		fail "no age in the -o result file"
	rm -rf "$mnt"/fsload-*
	umount "$mnt" || fail "umount"
}

# A sync or fsync phase meant to time the writeback does: on a device of
# NULLB_MBPS MB/s, at least half the data's device time.
t_writeback() {
	local size=$((64 << 10)) files=100 min_ns

	[ -d /sys/kernel/config/nullb ] || skip "no null_blk configfs"
	mkdir "$nb" || skip "cannot make a null_blk device"
	echo 64 >"$nb/size"
	echo 1 >"$nb/memory_backed"
	echo "$NULLB_MBPS" >"$nb/mbps" || skip "null_blk has no mbps"
	echo 1 >"$nb/power" || fail "null_blk: power"
	slow_dev=/dev/fsloadfig
	[ -b "$slow_dev" ] || slow_dev=/dev/nullb$(cat "$nb/index")
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$slow_dev" ||
		fail "mkfs"
	mkdir -p "$slow_mnt" || fail "mkdir"
	mount "$slow_dev" "$slow_mnt" || fail "mount"
	min_ns=$((files * size * 1000 / NULLB_MBPS / 2))
	fig wb-final --profile smallfiles --sync final --files $files \
		--size $size --dir "$slow_mnt"
	fig wb-batch --profile smallfiles --sync batch --files $files \
		--files-per-round 50 --size $size --dir "$slow_mnt"
	python3 - "$work/wb-final.json" "$work/wb-batch.json" "$min_ns" <<'PY' ||
import json, sys
bad = 0
for f, pre in ((sys.argv[1], "sync"), (sys.argv[2], "fsync-")):
    j = json.load(open(f))
    ns = sum(p["elapsed_ns"] for p in j["phases"] if p["name"].startswith(pre))
    print("# %s: %s phases %.1f ms, at least %.1f ms" % (f.split("/")[-1], pre, ns / 1e6, int(sys.argv[3]) / 1e6))
    bad |= ns < int(sys.argv[3])
sys.exit(bad)
PY
		fail "a writeback phase faster than the device"
	umount "$slow_mnt" || fail "umount"
}

# figures.sh [CASE...]: block fs age writeback (default: all)
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(block fs age writeback)
ktap_plan ${#cases[@]}
for c in "${cases[@]}"; do
	case $c in
	block) ktap_run block_figures t_block ;;
	fs) ktap_run fs_figures_every_profile t_fs ;;
	age) ktap_run age_80_within_a_point t_age ;;
	writeback) ktap_run writeback_phases_take_device_time t_writeback ;;
	*) ktap_run "$c" false ;;
	esac
done
ktap_finish
