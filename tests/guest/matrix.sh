#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The option matrix (scripts/matrix.py run) at small scale, on the raw
# scratch device of `scripts/vm-run --fs none --size 512`: a tiny matrix
# (the raw device, ext2, ext4 -I 128, an ext4 mkfs option and an ext2 mount
# option that are refused, xfs agcount=4 when the device is big enough, an
# ext4 external journal on a loop device) whose table, JSON and CSV rows,
# figures and fsck times are checked; a thread dimension; the refusal of a
# device that carries a filesystem or is mounted; `show`.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/guest/lib.sh
. "$here/lib.sh"
lib_need module
if [ -z "${FSLOAD_DEV:-}" ] || [ -n "${FSLOAD_DIR:-}" ]; then
	echo "1..0 # SKIP needs vm-run --fs none (a raw \$FSLOAD_DEV)"
	exit 4
fi

matrix=$repo/scripts/matrix.py
mnt=$work/mnt
dev_mib=$(($(blockdev --getsize64 "$FSLOAD_DEV") >> 20))
# the profile of every cell: two 4 MiB files per thread
pargs=(--files 2 --size 4M)

# check_doc DIR PYTHON: run PYTHON with matrix.json as `j`, the CSV rows
# as `rows` and matrix.txt as `txt`; it calls bad(msg) for each failure.
check_doc() {
	python3 - "$1" "$2" <<'PY'
import csv, json, os, sys
d = sys.argv[1]
j = json.load(open(os.path.join(d, "matrix.json")))
rows = list(csv.DictReader(open(os.path.join(d, "matrix.csv"))))
txt = open(os.path.join(d, "matrix.txt")).read()
errors = []
def bad(msg):
    errors.append(msg)
def cell(name):
    c = [x for x in j["cells"] if x["name"] == name]
    if len(c) != 1:
        bad("cell %r: %d rows" % (name, len(c)))
        return None
    return c[0]
def result(c):
    return json.load(open(os.path.join(d, c["result_file"])))
exec(sys.argv[2])
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
PY
}

# Nothing of a matrix left behind: mounted, loop devices, tmpfs images.
nothing_left() {
	! grep -q " $mnt " /proc/mounts || fail "$mnt still mounted"
	[ -z "$(losetup -n -l 2>/dev/null)" ] || fail "loop devices left: $(losetup -l)"
	! ls /dev/shm/fsload-matrix-* >/dev/null 2>&1 || fail "log image left in /dev/shm"
}

t_refuses_signature() {
	local out rc

	mkfs.ext2 -q -F "$FSLOAD_DEV" || fail "mkfs.ext2"
	out=$("$matrix" run --device "$FSLOAD_DEV" --mnt "$mnt" \
		--out "$work/refused" --fs ext4 -- "${pargs[@]}" 2>&1)
	rc=$?
	echo "$out"
	[ $rc = 2 ] || fail "exit $rc on a device with ext2, wanted 2"
	grep -q "ext2 signature" <<<"$out" || fail "no word of the signature"
	[ "$(blkid -p -o value -s TYPE "$FSLOAD_DEV")" = ext2 ] ||
		fail "the ext2 on $FSLOAD_DEV was touched"
	[ ! -e "$work/refused/matrix.json" ] || fail "a refused matrix wrote a table"
	mkdir -p "$mnt"
	mount -t ext2 "$FSLOAD_DEV" "$mnt" || fail "mount"
	out=$("$matrix" run --device "$FSLOAD_DEV" --mnt "$mnt" --force \
		--out "$work/refused" --fs ext4 -- "${pargs[@]}" 2>&1)
	rc=$?
	umount "$mnt"
	echo "$out"
	[ $rc = 2 ] || fail "exit $rc on a mounted device with --force, wanted 2"
	grep -q "is mounted on" <<<"$out" || fail "no word of the mount"
}

t_table() {
	local fss=block,ext2,ext4,ext4+log xfs=() rc

	if [ "$dev_mib" -ge 300 ]; then
		fss+=,xfs
		xfs=(--mkfs 'xfs=-d agcount=4')
	fi
	# --force: the device carries the ext2 of t_refuses_signature
	"$matrix" run --device "$FSLOAD_DEV" --mnt "$mnt" --out "$work/m" \
		--force --logdev-loop 64 --fs "$fss" \
		--mkfs 'ext4=-I 128' --mkfs 'ext4=-O no_such_feature' \
		--mount 'ext2=' --mount 'ext2=no_such_option' "${xfs[@]}" \
		-- "${pargs[@]}" >"$work/m.out" 2>"$work/m.err"
	rc=$?
	cat "$work/m.out" "$work/m.err"
	[ $rc = 0 ] || fail "matrix exited $rc"
	nothing_left
	check_doc "$work/m" "
xfs = $([ ${#xfs[@]} -gt 0 ] && echo True || echo False)
names = ['block', 'ext2', 'ext2 -o no_such_option', 'ext4 -I 128',
         'ext4 -O no_such_feature', 'ext4+log'] + (['xfs -d agcount=4'] if xfs else [])
if [x['name'] for x in j['cells']] != names:
    bad('cells %r, wanted %r' % ([x['name'] for x in j['cells']], names))
if j['profile'] != 'largefile' or j['metric'] != 'write_MiB/s':
    bad('profile %r, metric %r' % (j['profile'], j['metric']))
if j['logdev'] is None or not j['logdev'].startswith('/dev/loop'):
    bad('log device %r' % j['logdev'])
ok = [n for n in names if 'no_such' not in n]
for n in ok:
    c = cell(n)
    if not c: continue
    if c['status'] != 'ok':
        bad('%s: %s (%s) %s' % (n, c['status'], c['stage'], c['message']))
        continue
    r = result(c)
    if r['job']['state'] != 'done' or r['job']['threads'] != 1:
        bad('%s: job %s, %d threads' % (n, r['job']['state'], r['job']['threads']))
    s = r['summary']
    if not c['value'] or c['value'] <= 0 or c['value'] != s.get('write_mib_per_sec', s.get('mib_per_sec')):
        bad('%s: throughput %r, summary %r' % (n, c['value'], r['summary']))
    if not c['cpu_ns_per_op'] or c['cpu_ns_per_op'] <= 0:
        bad('%s: cpu per op %r' % (n, c['cpu_ns_per_op']))
    if not (0 < c['p50_ns'] <= c['p99_ns']):
        bad('%s: p50 %r, p99 %r' % (n, c['p50_ns'], c['p99_ns']))
    if n == 'block':
        if r['job']['profile'] != 'block' or c['fsck_s'] is not None:
            bad('block: profile %r, fsck %r' % (r['job']['profile'], c['fsck_s']))
        e2 = cell('ext2')
        if e2 and c['metric_bytes'] != e2['metric_bytes']:
            bad('block wrote %r bytes, ext2 %r' % (c['metric_bytes'], e2['metric_bytes']))
        continue
    if c['metric_bytes'] != 2 * 4 << 20 or c['metric_ops'] != 2:
        bad('%s: %r bytes in %r ops, wanted 2 files of 4 MiB' % (n, c['metric_bytes'], c['metric_ops']))
    # one file write is one op: its CPU is the write phase's total
    w = r['phases'][0]['cpu']
    if abs(c['cpu_ns_per_op'] - w['total_ns_per_op']) > 1e-6 * w['total_ns_per_op']:
        bad('%s: cpu per op %r, write phase %r' % (n, c['cpu_ns_per_op'], w['total_ns_per_op']))
    if not c['extents_per_file'] or c['extents_per_file'] < 1:
        bad('%s: extents per file %r' % (n, c['extents_per_file']))
    if not c['fsck_s'] or c['fsck_s'] <= 0 or c['fsck_clean'] is not True:
        bad('%s: fsck %r s, clean %r' % (n, c['fsck_s'], c['fsck_clean']))
    fsck = c['commands'][-1].split()[0]
    if fsck != ('xfs_repair' if n.startswith('xfs') else 'e2fsck'):
        bad('%s: fsck by %r' % (n, fsck))
c = cell('ext4 -I 128')
if c and not any(' -I 128 ' in x for x in c['commands']):
    bad('ext4 -I 128: not in its mkfs: %r' % c['commands'])
c = cell('ext4+log')
if c and not (any('journal_dev' in x for x in c['commands']) and
              any('journal_path=' + j['logdev'] in x for x in c['commands'])):
    bad('ext4+log: no external journal in %r' % c['commands'])
for n, stage, word in (('ext4 -O no_such_feature', 'mkfs', 'no_such_feature'),
                       ('ext2 -o no_such_option', 'mount', 'no_such_option')):
    c = cell(n)
    if not c: continue
    if c['status'] != 'cannot-make' or c['stage'] != stage or word not in c['message']:
        bad('%s: %s (%s) %r' % (n, c['status'], c['stage'], c['message']))
    if c['value'] is not None or c['fsck_s'] is not None or c['result_file']:
        bad('%s: figures in a row that was not made' % n)
    if ('\n    %s\n' % c['message']) not in txt:
        bad('%s: no message line in the table' % n)
if len(rows) != len(j['cells']):
    bad('%d CSV rows, %d cells' % (len(rows), len(j['cells'])))
for row, c in zip(rows, j['cells']):
    if row['name'] != c['name'] or row['status'] != c['status'] or \
       (c['value'] is not None and abs(float(row['value']) - c['value']) > 1e-9) or \
       (c['fsck_s'] is None) != (row['fsck_s'] == ''):
        bad('CSV row %r is not cell %r' % (row, c['name']))
lines = txt.splitlines()
hdr = [l for l in lines if l.lstrip().startswith('#')]
if not hdr or 'write_MiB/s' not in hdr[0] or 'fsck_s' not in hdr[0] or 'p99_us' not in hdr[0]:
    bad('table header %r' % hdr)
for c in j['cells']:
    if not any(l.split()[:2] == [str(c['index']), c['fs']] for l in lines):
        bad('no table line for cell %d' % c['index'])
"
}

t_threads() {
	local rc

	"$matrix" run --device "$FSLOAD_DEV" --mnt "$mnt" --out "$work/t" \
		--force --fs ext2 --threads 1,2 -- "${pargs[@]}" \
		>"$work/t.out" 2>&1
	rc=$?
	cat "$work/t.out"
	[ $rc = 0 ] || fail "matrix exited $rc"
	check_doc "$work/t" "
if [(x['name'], x['threads'], x['status']) for x in j['cells']] != \
   [('ext2 t1', 1, 'ok'), ('ext2 t2', 2, 'ok')]:
    bad('cells %r' % [(x['name'], x['threads'], x['status']) for x in j['cells']])
else:
    for c in j['cells']:
        r = result(c)
        if r['job']['threads'] != c['threads'] or c['metric_ops'] != 2 * c['threads']:
            bad('%s: job threads %r, %r ops' % (c['name'], r['job']['threads'], c['metric_ops']))
"
}

t_show() {
	[ -f "$work/m/matrix.json" ] || skip "no matrix from the table case"
	"$matrix" show "$work/m" >"$work/show.txt" || fail "show exited $?"
	diff -u "$work/m/matrix.txt" "$work/show.txt" || fail "show differs"
	"$matrix" show --csv "$work/m" | cmp - "$work/m/matrix.csv" ||
		fail "show --csv differs"
}

t_usage() {
	local rc

	"$matrix" run --device "$FSLOAD_DEV" --mnt "$mnt" --out "$work/u" \
		--fs ext2 --mkfs 'ext4=-I 128'
	rc=$?
	[ $rc = 2 ] || fail "--mkfs of a filesystem not in --fs: exit $rc"
	"$matrix" run --device "$FSLOAD_DEV" --mnt "$mnt" --out "$work/u" \
		--fs ext2 -- --threads 2
	rc=$?
	[ $rc = 2 ] || fail "--threads to fsloadctl: exit $rc"
	"$matrix" run --device "$FSLOAD_DEV" --mnt "$mnt" --out "$work/u" \
		--fs zfs
	rc=$?
	[ $rc = 2 ] || fail "an unknown filesystem: exit $rc"
	[ ! -e "$work/u" ] || fail "a refused matrix made its output directory"
}

ktap_plan 5
ktap_run matrix_refuses_used_device t_refuses_signature
ktap_run matrix_table_json_csv t_table
ktap_run matrix_threads t_threads
ktap_run matrix_show t_show
ktap_run matrix_usage t_usage
ktap_finish
