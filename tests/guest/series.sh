#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Seeing a run as it happens (issue 8): the time series of ops, bytes and
# the device's counters per phase, its table and SVG plots; and a stall
# provoked by suspending the device-mapper device under the filesystem,
# reported with the worker's kernel stack, then a clean stop; the
# progress line (issue 31).
#
#   scripts/vm-run --fs ext4 -- tests/guest/series.sh series
#   scripts/vm-run --fs ext4 -- tests/guest/series.sh progress_line
#   scripts/vm-run --fs none -- tests/guest/series.sh stall
set -uo pipefail

# shellcheck source=tests/guest/lib.sh
. "$(dirname "$0")/lib.sh"
lib_need module

t_series_json() {
	local out=$work/sf.json

	lib_need dir
	fsloadctl start --profile smallfiles --files 1500 --dir "$FSLOAD_DIR" \
		--sample-ms 20 --json --quiet >"$out" || fail "fsloadctl exited $?"
	check_json "$out" '
if j["job"]["sample_ms"] != 20: bad("sample_ms %r" % j["job"]["sample_ms"])
for p in j["phases"]:
    s = p["series"]
    if not s: bad("%s: no series" % p["name"]); continue
    n = len(s["t_ms"])
    if any(len(v) != n for v in s["ops_per_sec"].values()):
        bad("%s: ragged series" % p["name"])
    if s["t_ms"] != sorted(s["t_ms"]): bad("%s: time goes back" % p["name"])
    # Intervals add up to no more than what the phase did.
    dts = [(s["t_ms"][i] - (s["t_ms"][i - 1] if i else 0)) / 1000 for i in range(n)]
    for op, v in s["ops_per_sec"].items():
        done = sum(r * dt for r, dt in zip(v, dts))
        total = sum(o["ops"] for o in p["ops_by_type"] if o["op"] == op)
        print("# %s/%s: %d intervals, %.0f of %d ops" % (p["name"], op, n, done, total))
        if done > total * 1.001 + 1: bad("%s/%s: %.1f ops in intervals, %d done" % (p["name"], op, done, total))
        if p["elapsed_ns"] > 200e6 and done < total * 0.5:
            bad("%s/%s: the series saw only %.0f of %d ops" % (p["name"], op, done, total))
    if p["name"] == "create" and s["device"] is not None and s["device"]["name"] == "":
        bad("device without a name")
    # Percentiles of each interval: present where operations ended, the
    # median no more than the 99th, both within the range of the phase (give
    # or take the 12.5% of their bucket).
    for op, v in s["ops_per_sec"].items():
        o = [o for o in p["ops_by_type"] if o["op"] == op][0]
        p50, p99 = s["lat_p50_us"][op], s["lat_p99_us"][op]
        if len(p50) != n or len(p99) != n:
            bad("%s/%s: ragged percentiles" % (p["name"], op)); continue
        seen = [i for i in range(n) if p99[i] is not None]
        busy = [i for i in range(n) if v[i] * dts[i] >= 2]
        print("# %s/%s: percentiles in %d intervals, %d with 2+ ops; p99 %s us" %
              (p["name"], op, len(seen), len(busy), [p99[i] for i in seen][:4]))
        if len(busy) > len(seen) + 1:
            bad("%s/%s: %d intervals with ops, %d with percentiles" % (p["name"], op, len(busy), len(seen)))
        for i in seen:
            if p50[i] is None or p50[i] > p99[i]:
                bad("%s/%s: interval %d: p50 %r, p99 %r" % (p["name"], op, i, p50[i], p99[i]))
            elif p99[i] * 1e3 > o["lat_max_ns"] * 1.125 + 1 or p50[i] * 1e3 < o["lat_min_ns"] * 0.875 - 1:
                bad("%s/%s: interval %d: p50 %.3f, p99 %.3f us outside %d..%d ns" %
                    (p["name"], op, i, p50[i], p99[i], o["lat_min_ns"], o["lat_max_ns"]))
'
}

# Many short phases sampled often: no interval may claim more operations
# than its phase did, nor fewer than none (the last sample of a phase,
# taken while the next one's opener zeroed the counters, used to be kept
# with smaller counts: ~1e21 ops/s).
t_phase_edges() {
	local out=$work/edges.json

	lib_need dir
	fsloadctl start --profile metadata --threads 64 --items 20 \
		--items-per-dir 20 --sample-ms 10 --idle-ms 0 --no-sync-tail \
		--dir "$FSLOAD_DIR" --json --quiet >"$out" ||
		fail "fsloadctl exited $?"
	check_json "$out" '
n = 0
for p in j["phases"]:
    s = p["series"]
    if not s: continue
    t = s["t_ms"]
    for op, v in s["ops_per_sec"].items():
        total = sum(o["ops"] for o in p["ops_by_type"] if o["op"] == op)
        for i, r in enumerate(v):
            n += 1
            dt = (t[i] - (t[i - 1] if i else 0)) / 1000
            if r is None or r < 0 or r * dt > total * 1.001 + 1:
                bad("%s/%s: interval %d of %.3f ms: %r ops/s, %d ops in the phase" %
                    (p["name"], op, i, dt * 1e3, r, total))
print("# %d intervals of %d phases checked" % (n, len(j["phases"])))
if n < len(j["phases"]): bad("too few intervals (%d)" % n)
'
}

# A large file: its bytes show while its single operation runs.
t_io_bytes() {
	local out=$work/lf.json

	lib_need dir
	fsloadctl start --profile largefile --files 1 --size 48M \
		--dir "$FSLOAD_DIR" --sample-ms 20 --json --quiet >"$out" ||
		fail "fsloadctl exited $?"
	check_json "$out" '
p = [p for p in j["phases"] if p["name"] == "write"][0]
s = p["series"]
t = s["t_ms"]
mib = sum(r * (t[i] - (t[i - 1] if i else 0)) / 1000 for i, r in enumerate(s["mib_per_sec"]))
print("# write: %d intervals, %.1f MiB of 48 seen as it was written" % (len(t), mib))
if p["elapsed_ns"] > 200e6 and not (24 <= mib <= 48.5): bad("%.1f MiB in the series" % mib)
if sum(1 for r in s["mib_per_sec"] if r and r > 0) < 2 and p["elapsed_ns"] > 200e6:
    bad("the bytes did not show before the op ended")
'
}

t_table_and_plot() {
	local out=$work/text f n=0

	lib_need dir
	fsloadctl start --profile smallfiles --files 300 --dir "$FSLOAD_DIR" \
		--sample-ms 20 --series --plot "$work/plot" --quiet >"$out" ||
		fail "fsloadctl exited $?"
	grep -q '^series of create, every 20 ms' "$out" || fail "no series table"
	grep -q 't_ms .*ops/s .*MiB/s .*lat_us .*p99_us .*util%' "$out" ||
		fail "no series columns"
	for f in "$work"/plot-*.svg; do
		[ -e "$f" ] || fail "no plot written"
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' \
			"$f" || fail "$f is not well-formed XML"
		grep -q '<polyline' "$f" || fail "$f has no line"
		# every panel has ticks on both axes; the device panel its
		# lines when the series has device figures: the create phase's
		# writeback, not a few ms of stat that the device never sees
		python3 - "$f" <<'PY' || fail "$f: no ticks or no device lines"
import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1])
texts = [t for t in d.getElementsByTagName("text")]
mid = [t for t in texts if t.getAttribute("text-anchor") == "middle"]
if len(mid) < 3 * 3:
    print("# %d x-axis tick labels in 3 panels" % len(mid)); sys.exit(1)
pts = [l.getAttribute("points").strip() for l in d.getElementsByTagName("polyline")]
if "-create.svg" in sys.argv[1] and any(pts[:-4]) and not any(pts[-4:]):
    print("# the device panel (its last 4 lines) has no line"); sys.exit(1)
PY
		n=$((n + 1))
	done
	[ "$n" -eq 4 ] || fail "$n plots, not one per phase (4)"
}

t_no_series() {
	local out=$work/none.json

	lib_need dir
	fsloadctl start --profile smallfiles --files 50 --dir "$FSLOAD_DIR" \
		--sample-ms 0 --json --quiet >"$out" || fail "fsloadctl exited $?"
	check_json "$out" '
if j["job"]["sample_ms"] is not None: bad("sample_ms %r" % j["job"]["sample_ms"])
if any(p["series"] is not None for p in j["phases"]): bad("a series without sampling")
'
}

# max_samples at its extremes: 0 is taken as a ring of one sample (the
# sampler used to divide by it), 2^32 - 1 as 65 536.  Jobs still run and
# keep what fsloadctl could drain; with one slot it misses samples.
t_ring_bounds() {
	local p=/sys/module/fsload/parameters/max_samples old v out r

	lib_need dir
	old=$(cat $p)
	for v in 0 4294967295; do
		echo "$v" >$p || { echo "$old" >$p; fail "cannot set max_samples"; }
		out=$work/ring-$v.json
		fsloadctl start --profile smallfiles --files 300 \
			--dir "$FSLOAD_DIR" --sample-ms 10 --json --quiet >"$out"
		r=$?
		echo "$old" >$p
		[ $r -eq 0 ] || fail "max_samples=$v: fsloadctl exited $r"
		check_json "$out" '
n = sum(len(p["series"]["t_ms"]) for p in j["phases"] if p["series"])
print("# max_samples='"$v"': %d intervals kept" % n)
if n < 1: bad("no interval kept")
'
	done
}

# A worker in its first, long operation has not stalled: a stall is timed
# from when the sampler saw the worker, not from boot.
t_no_false_stall() {
	local out=$work/nostall.json up

	lib_need dir
	read -r up _ </proc/uptime
	[ "${up%.*}" -ge 8 ] || sleep $((8 - ${up%.*}))
	fsloadctl start --profile largefile --files 1 --size 16M \
		--dir "$FSLOAD_DIR" --stall-sec 4 --json --quiet >"$out" ||
		fail "fsloadctl exited $?"
	check_json "$out" '
w = [p for p in j["phases"] if p["name"] == "write"][0]
print("# write took %.1f s" % (w["elapsed_ns"] / 1e9))
if w["elapsed_ns"] < 4e9 and j["job"]["stalls"]:
    bad("a stall reported: %r" % j["job"]["stalls"])
'
}

# A device that stops completing I/O: suspend the dm device under the
# filesystem (design notes: not fsfreeze, whose sleep cannot be ended).
export DM_DISABLE_UDEV=1	# the guest runs no udev: dmsetup makes the nodes
dm_dev=
dm_mnt=
dm_cleanup() {
	[ -n "$dm_dev" ] && dmsetup resume fsload-stall 2>/dev/null
	stop_running 30
	[ -n "$dm_mnt" ] && umount "$dm_mnt" 2>/dev/null
	[ -n "$dm_dev" ] && dmsetup remove fsload-stall 2>/dev/null
	rm -rf "$work"
}

t_stall() {
	local sectors out=$work/stall.json err=$work/stall.err pid i rc

	[ -n "${FSLOAD_DEV:-}" ] || { echo "no scratch device"; exit 4; }
	command -v dmsetup >/dev/null || { echo "no dmsetup"; exit 4; }
	trap dm_cleanup EXIT
	sectors=$(blockdev --getsz "$FSLOAD_DEV")
	dmsetup create fsload-stall --table "0 $sectors linear $FSLOAD_DEV 0" ||
		fail "dmsetup create"
	dm_dev=/dev/mapper/fsload-stall
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dm_dev" ||
		fail "mkfs"
	dm_mnt=$work/mnt
	mkdir -p "$dm_mnt" || fail "mkdir"
	mount "$dm_dev" "$dm_mnt" || fail "mount"
	# Every create fsyncs: the workers wait for the device.
	fsloadctl start --profile smallfiles --files 100000 --fsync \
		--dir "$dm_mnt" --stall-sec 1 --stall-stop --json \
		>"$out" 2>"$err" &
	pid=$!
	sleep 3
	dmsetup suspend --noflush fsload-stall || fail "dmsetup suspend"
	for ((i = 0; i < 300; i++)); do
		grep -q 'has made no progress' "$err" && break
		sleep 0.1
	done
	grep -q 'has made no progress' "$err" ||
		{ cat "$err"; fail "no stall reported in 30 s"; }
	grep -A12 'has made no progress' "$err" | head -14
	dmsetup resume fsload-stall || fail "dmsetup resume"
	wait "$pid"
	rc=$?
	# the job ended stopped: exit status 1, as Documentation/usage.rst says
	[ "$rc" -eq 1 ] || fail "fsloadctl exited $rc after --stall-stop, not 1"
	check_json "$out" '
job = j["job"]
if job["state"] != "stopped": bad("state %r, not stopped" % job["state"])
if not job["stalls"]: bad("no stall in the status")
for s in job["stalls"]:
    if s["duration_ns"] < 1e9: bad("stall of %r ns" % s["duration_ns"])
    if s["pid"] not in job["worker_pids"]: bad("stall of pid %r, not a worker" % s["pid"])
r = j["stall_reports"]
if not r: bad("no stall report")
for x in r:
    if not x["stack"] or "no stack" in x["stack"]: bad("report without a stack: %r" % x)
    else: print("# stack of %d: %s" % (x["pid"], x["stack"].splitlines()[0]))
'
}

# Progress a person can see (issue 31), with the kernel engine in a guest
# (no tty, no TERM: the default is a line): phase k/n, the share of the
# phase's items (the status's phase-items and phase-items-done) and of
# the job, ops/s, the time left, on stderr every 5 progress intervals
# (a null job of 10^8 items, stopped by a SIGINT once a line came);
# nothing with --json or --progress=none over a phase of 2 s.
t_progress_line() {
	local d pid

	lib_need dir
	d=$FSLOAD_DIR/pl
	mkdir -p "$d"
	fsloadctl start --dir "$d" --profile null --files 100000000 \
		--files-per-dir 100000000 --idle-ms 0 --progress-ms 200 \
		>"$work/pl.out" 2>"$work/pl.err" &
	pid=$!
	wait_line 'phase 1/1' "$work/pl.err"
	kill -INT $pid
	wait $pid
	grep -m1 'phase 1/1' "$work/pl.err"
	grep -Eq '^fsloadctl: job [0-9]+: running, phase 1/1 null [0-9]+% \([0-9]+ of 100000000 items\), job [0-9]+%, [0-9]+ ops/s, [0-9]+ s, left: phase ' \
		"$work/pl.err" || fail "no progress line: $(head -c 800 "$work/pl.err")"
	! grep -q 'phase 1/1' "$work/pl.out" || fail "progress on stdout"
	pt() {
		fsloadctl start --dir "$d" --profile randrw --files 2 \
			--size 128K --time 2 --idle-ms 0 --progress-ms 200 "$@"
	}
	pt --progress=none >/dev/null 2>"$work/pn.err" || fail "none: exit $?"
	! grep -q 'phase [0-9]/' "$work/pn.err" || fail "--progress=none: $(cat "$work/pn.err")"
	pt --json >"$work/pj.json" 2>"$work/pj.err" || fail "--json: exit $?"
	! grep -q 'phase [0-9]/' "$work/pj.err" || fail "--json: $(cat "$work/pj.err")"
	jget 'j["job"]["state"]' "$work/pj.json" >/dev/null ||
		fail "--json: stdout is not one JSON document"
	rmdir "$d"
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(series)
plan=()
for c in "${cases[@]}"; do
	case $c in
	series) plan+=(series_json phase_edges io_bytes table_and_plot no_series ring_bounds no_false_stall progress_line) ;;
	stall) plan+=(stall) ;;
	*) plan+=("$c") ;;
	esac
done
ktap_plan ${#plan[@]}
for c in "${plan[@]}"; do
	ktap_run "$c" "t_$c"
done
ktap_finish
