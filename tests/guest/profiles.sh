#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every profile and the job files end to end through fsloadctl, in a guest
# with fsload.ko loaded and a scratch filesystem at $FSLOAD_DIR
# (scripts/vm-run).  The counts each one reports are checked against what
# it asked for and against the filesystem; nothing may be left on disk
# without --keep.  Sizes are small: each case takes a few seconds.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/guest/lib.sh
. "$here/lib.sh"
lib_need dir module

# The first job id in a start --json document.
job_id() {
	sed -n 's/.*"job":{"id":\([0-9]*\).*/\1/p' "$1"
}

# ge A B: is A >= B (decimals)?
ge() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'
}

# expect EXPR FILE WANTED: queued, checked by check() in one Python run
# (a Python start costs a good part of a second in the guest).
checks=()
expect() {
	checks+=("$1" "$2" "$3")
}

check() {
	[ ${#checks[@]} -eq 0 ] && return 0
	python3 -c '
import json, sys
docs, bad = {}, 0
a = sys.argv[1:]
for i in range(0, len(a), 3):
    expr, path, want = a[i:i + 3]
    if path not in docs:
        docs[path] = json.load(open(path))
    j = docs[path]
    def ph(name):
        return [p for p in j["phases"] if p["name"] == name][0]
    try:
        v = eval(expr)
        got = " ".join(map(str, v)) if isinstance(v, list) else str(v)
    except Exception as e:
        got = "exception: %r" % e
    if got != want:
        print("FAIL: %s: got %r, wanted %r" % (" ".join(expr.split()), got, want))
        bad = 1
sys.exit(bad)
' "${checks[@]}" || exit "$KSFT_FAIL"
	checks=()
}

# run NAME ARGS...: fsloadctl start --json into $work/NAME.json
run() {
	local name=$1 rc

	shift
	fsloadctl start --dir "$FSLOAD_DIR" --quiet --json "$@" \
		>"$work/$name.json"
	rc=$?
	[ "$rc" -eq 0 ] && return 0
	# What the kernel said: the job's state and error, the age job's.
	head -c 2000 "$work/$name.json"
	echo
	fail "fsloadctl start $* exited $rc"
}


t_smallfiles_batch() {
	local f=$work/batch.json

	# 120 files in rounds of 50: three rounds, of 50, 50 and 20.
	run batch --profile smallfiles --threads 2 --files 120 \
		--files-per-round 50 --sync batch
	expect '[p["name"] for p in j["phases"]]' "$f" \
		"create-0 fsync-0 create-1 fsync-1 create-2 fsync-2 stat read unlink"
	expect '[p["ops"] for p in j["phases"]]' "$f" \
		"100 100 100 100 40 40 240 240 240"
	expect 'sum(p["errors"] for p in j["phases"])' "$f" 0
	expect 'j["job"]["state"]' "$f" "done"
	expect 'j["summary"]["ops"]' "$f" 240
	no_job_dirs
}

t_smallfiles_sync_modes() {
	local f=$work/final.json

	run final --profile smallfiles --threads 2 --files 50 --sync final
	expect '[p["name"] for p in j["phases"]]' "$f" \
		"create sync stat read unlink"
	expect '[p["ops"] for p in j["phases"]]' "$f" "100 2 100 100 100"
	expect 'ph("sync")["ops_by_type"][0]["op"]' "$f" syncfs
	f=$work/fsync.json
	run fsync --profile smallfiles --files 50 --sync fsync
	expect '[p["ops"] for p in j["phases"]]' "$f" "50 50 50 50"
	fsloadctl start --profile smallfiles --dir "$FSLOAD_DIR" --sync bogus \
		>/dev/null 2>&1
	[ $? -eq 2 ] || fail "--sync bogus: not a usage error"
	no_job_dirs
}

t_smallfiles_sweep() {
	local f=$work/sweep.json

	run sweep --profile smallfiles --threads 1,2,3 --files 40
	expect '[s["threads"] for s in j["sweep"]]' "$f" "1 2 3"
	expect '[s["ops"] for s in j["sweep"]]' "$f" "40 80 120"
	expect '[s["state"] for s in j["sweep"]]' "$f" "done done done"
	expect 'all(s["files_per_sec"] > 0 and s["lat_avg_ns"] > 0
		for s in j["sweep"])' "$f" True
	expect '[s["job"]["threads"] for s in j["sweep"]]' "$f" "1 2 3"
	expect 'len(set(s["job"]["id"] for s in j["sweep"]))' "$f" 3
	# the text report: one row per thread count
	fsloadctl start --profile smallfiles --dir "$FSLOAD_DIR" --quiet \
		--threads 1,2 --files 20 >"$work/sweep.txt" || fail "text sweep"
	[ "$(grep -cE '^ +[12] +[0-9]+ done ' "$work/sweep.txt")" -eq 2 ] ||
		fail "text rows: $(cat "$work/sweep.txt")"
	no_job_dirs
}

t_metadata_counts() {
	local f=$work/md.json

	run md --profile metadata --threads 2 --items 50
	expect '[p["name"] for p in j["phases"]]' "$f" \
		"tree-create dir-create dir-stat dir-rename dir-remove file-create file-stat file-read file-remove tree-remove"
	expect 'set(p["ops"] for p in j["phases"][1:-1])' "$f" "{100}"
	# flat: one directory per thread holds its 50 items
	expect '[ph("tree-create")["ops"], ph("tree-remove")["ops"]]' "$f" "2 2"
	expect 'sum(p["errors"] for p in j["phases"])' "$f" 0
	expect 'j["job"]["files_per_dir"]' "$f" 50
	no_job_dirs
}

t_metadata_shared_keep() {
	local f=$work/mdk.json id dir n

	run mdk --profile metadata --threads 3 --items 40 --items-per-dir 10 \
		--shared-dir --keep --size 100 --names fsload
	expect '[p["name"] for p in j["phases"]]' "$f" \
		"tree-create dir-create dir-stat dir-rename file-create file-stat file-read"
	expect 'ph("tree-create")["ops"]' "$f" 12
	id=$(job_id "$f")
	dir=$FSLOAD_DIR/fsload-$id
	# one tree for all threads: t000 only, 120 items in 12 subdirectories
	[ "$(ls "$dir")" = t000 ] || fail "thread dirs: $(ls "$dir")"
	n=$(find "$dir/t000" -mindepth 1 -maxdepth 1 -type d | wc -l)
	[ "$n" -eq 12 ] || fail "$n subdirectories, wanted 12"
	# mdtest's rotation keeps the names
	n=$(find "$dir" -type d -name 'x*' | wc -l)
	[ "$n" -eq 120 ] || fail "$n directories after the rotation, wanted 120"
	n=$(find "$dir" -name '*-XX' | wc -l)
	[ "$n" -eq 0 ] || fail "$n items left moved aside"
	n=$(find "$dir" -type f -name 'f*' -size 100c | wc -l)
	[ "$n" -eq 120 ] || fail "$n files of 100 bytes, wanted 120"
	rm -rf "$dir"
}

# mdtest's semantics in the kernel engine: file-read opens and closes
# only (no bytes) unless --read-bytes; --phases runs only those; the
# rotation leaves mdtest's names (tests/jobs/mdtest-rotate.ini tells the
# files apart by size); a stride makes thread 1 stat thread 0's files,
# which alone exist.
t_metadata_mdtest() {
	local f=$work/mdt.json id

	run mdt --profile metadata --items 6 --size 4096 \
		--phases create,read,rename
	expect '[p["name"] for p in j["phases"]]' "$f" \
		"tree-create dir-create dir-rename file-create file-read"
	expect '[ph(n)["bytes"] for n in ("file-create", "file-read")]' "$f" \
		"24576 0"
	run mdtr --profile metadata --items 6 --size 4096 --read-bytes 1000
	expect 'ph("file-read")["bytes"]' "$work/mdtr.json" 6000
	run mdtrot --job "$repo/tests/jobs/mdtest-rotate.ini"
	id=$(job_id "$work/mdtrot.json")
	[ "$(cd "$FSLOAD_DIR/fsload-$id/t000/d00000" &&
	     stat -c %s f0000000[0-3])" = "$(printf '2\n3\n1\n4')" ] ||
		fail "rotation: $(ls -l "$FSLOAD_DIR/fsload-$id/t000/d00000")"
	rm -rf "$FSLOAD_DIR/fsload-$id"
	run mdts --job "$repo/tests/jobs/stride.ini"
	expect '[(p["ops"], p["errors"]) for p in j["phases"]]' \
		"$work/mdts.json" "(10, 0) (10, 0)"
	no_job_dirs
}

t_metadata_iterations() {
	local f=$work/mdi.json

	run mdi --profile metadata --items 30 --iterations 3
	expect 'len(j["iterations"])' "$f" 3
	expect '[len(i["phases"]) for i in j["iterations"]]' "$f" "10 10 10"
	expect '[s["phase"] for s in j["summary"]]' "$f" \
		"tree-create dir-create dir-stat dir-rename dir-remove file-create file-stat file-read file-remove tree-remove"
	expect 'all(s["runs"] == 3 and s["max"] >= s["mean"] >= s["min"] > 0
		and s["stddev"] >= 0 for s in j["summary"])' "$f" True
	no_job_dirs
}

t_metadata_stonewall() {
	local f=$work/mdsw.json

	# far more items than 0.2 s allows: every item phase ends by time;
	# the tree of 1000 directories is made whole, as mdtest's is
	run mdsw --profile metadata --items 1000000 --items-per-dir 1000 \
		--stonewall 0.2
	expect 'j["job"]["state"]' "$f" "done"
	expect 'ph("dir-create")["stonewalled"]' "$f" True
	expect 'ph("dir-create")["completion"]' "$f" time
	expect 'ph("dir-create")["ops"] < 1000000' "$f" True
	# the later phases run over the items made (mdtest), no ENOENT
	expect '[ph(n)["errors"] for n in ("dir-stat", "dir-rename",
		"dir-remove", "file-stat", "file-read", "file-remove")]' "$f" \
		"0 0 0 0 0 0"
	expect '(ph("dir-stat")["ops"] <= ph("dir-create")["ops"] and
		ph("file-read")["ops"] <= ph("file-create")["ops"])' "$f" True
	expect 'all(p["elapsed_ns"] < 2e9 for p in j["phases"]
		if not p["name"].startswith("tree-"))' "$f" True
	expect 'ph("tree-create")["ops"]' "$f" 1000
	expect 'ph("tree-create")["stonewalled"]' "$f" False
	no_job_dirs
}

# mdtest -b 2 -z 3 -I 3: a tree of 15 directories per thread, 3 items in
# each, made by its own phase; then a shared tree of branching 3 removed
# by its phase, children first.
t_metadata_tree() {
	local f=$work/mdt.json g=$work/mdts.json id dir n d

	run mdt --profile metadata --threads 2 --items-per-dir 3 \
		--tree-branch 2 --tree-depth 3 --size 10 --keep --names fsload
	expect 'j["job"]["files_per_thread"]' "$f" 45
	expect 'j["job"]["tree_branch"]' "$f" 2
	expect 'ph("tree-create")["ops"]' "$f" 30
	expect 'ph("file-create")["ops"]' "$f" 90
	check
	id=$(job_id "$f")
	dir=$FSLOAD_DIR/fsload-$id
	for d in t000 t001; do
		n=$(find "$dir/$d" -type d -name 'd*' | wc -l)
		[ "$n" -eq 15 ] || fail "$d: $n tree directories, wanted 15"
		# every directory holds 3 files and 3 renamed directories
		n=$(find "$dir/$d" -type d -name 'd*' -exec sh -c \
			'ls "$1" | grep -c "^f"' _ {} \; | sort -u | tr '\n' ' ')
		[ "$n" = "3 " ] || fail "$d: files per directory: $n"
	done
	# directory 14's parent is 6, 6's is 2, 2's is 0: 3 levels below d00000
	[ -f "$dir/t001/d00000/d00002/d00006/d00014/f00000044" ] ||
		fail "f00000044 is not at d00000/d00002/d00006/d00014"
	n=$(find "$dir/t000" -mindepth 5 -type d -name 'd*' | wc -l)
	[ "$n" -eq 0 ] || fail "a tree directory deeper than 3 levels"
	rm -rf "$dir"

	run mdts --profile metadata --threads 3 --items 26 --tree-branch 3 \
		--tree-depth 2 --shared-dir --names fsload
	expect 'j["job"]["state"]' "$g" "done"
	expect 'j["job"]["files_per_dir"]' "$g" 6
	expect '[ph("tree-create")["ops"], ph("tree-remove")["ops"]]' "$g" "13 13"
	expect 'ph("file-remove")["ops"]' "$g" 78
	expect 'sum(p["errors"] for p in j["phases"])' "$g" 0
	check
	no_job_dirs
}

# start_kept NAME ENGINE ARGS...: a kept job of ENGINE in a directory of its
# own, $work/NAME.json; prints that directory's job directory.
start_kept() {
	local name=$1 eng=$2 d=$FSLOAD_DIR/$1

	shift 2
	mkdir -p "$d" || fail "mkdir $d"
	fsloadctl start --dir "$d" --engine "$eng" --quiet --json --keep "$@" \
		>"$work/$name.json" || fail "fsloadctl start $* ($eng) exited $?"
	find "$d" -mindepth 1 -maxdepth 1 -name 'fsload-*'
}

# mdtest_b2z1 RANK...: what mdtest -u -b 2 -z 1 -I 3 of those ranks makes
# (its test directory, trees and 9 files a rank), sorted.
mdtest_b2z1() {
	python3 -c '
import sys
out = ["test-dir.0-0"]
for r in map(int, sys.argv[1:]):
    t = "test-dir.0-0/mdtest_tree.%d.0" % r
    dirs = [t, t + "/mdtest_tree.%d.1" % r, t + "/mdtest_tree.%d.2" % r]
    out += dirs
    out += ["%s/file.mdtest.%d.%d" % (dirs[n // 3], r, n) for n in range(9)]
print("\n".join(out))' "$@" | LC_ALL=C sort
}

# mdtest_made TOP: the test directory, trees and files under TOP, sorted
# (the directory items apart).
mdtest_made() {
	(cd "$1" && find . -mindepth 1 \( -type f -o \
		-name 'mdtest_tree.*' -o -name 'test-dir.*' \) |
		sed 's|^\./||' | LC_ALL=C sort)
}

# mdtest -u -b 2 -z 1 -I 3, two ranks, through either engine: exactly
# mdtest's test directory, tree and file names, each item where mdtest
# puts it (directory n / 3, mdtest_tree.<rank>.<k> below its parent).
t_names_mdtest() {
	local eng top got

	for eng in kernel user; do
		top=$(start_kept mdn-$eng "$eng" --profile metadata --threads 2 \
			--items-per-dir 3 --tree-branch 2 --tree-depth 1 --size 1 \
			--idle-ms 0)
		expect 'j["job"]["names"]' "$work/mdn-$eng.json" mdtest
		got=$(mdtest_made "$top")
		[ "$got" = "$(mdtest_b2z1 0 1)" ] ||
			fail "$eng: the tree is not mdtest's: $(echo "$got" | head -5)"
		# every directory item is a mdtest item of its rank
		got=$(cd "$top" && find . -mindepth 1 -type d \
			! -name 'mdtest_tree.*' ! -name 'test-dir.*' \
			! -regex '.*/[a-z]+\.mdtest\.[01]\.[0-8]' | head -3)
		[ -z "$got" ] || fail "$eng: directory items not mdtest's: $got"
		rm -rf "$FSLOAD_DIR/mdn-$eng"
	done
	check
}

# A job of rank 3 of a multi-client run, 2 threads, through either engine:
# mdtest -u -b 2 -z 1 -I 3 of mdtest's ranks 6 and 7 exactly; each thread
# stats, reads and removes the other's items (-N 1: numbered in the job,
# named as the run's); the rank in the status and in the result's run.
t_names_rank() {
	local eng top got

	for eng in kernel user; do
		top=$(start_kept mdr-$eng "$eng" --profile metadata --threads 2 \
			--rank 3 --items-per-dir 3 --tree-branch 2 --tree-depth 1 \
			--size 1 --phases create --idle-ms 0)
		expect '[j["job"]["rank"], j["run"]["params"]["rank"]]' \
			"$work/mdr-$eng.json" "3 3"
		got=$(mdtest_made "$top")
		[ "$got" = "$(mdtest_b2z1 6 7)" ] ||
			fail "$eng: not mdtest's ranks 6 and 7: $(echo "$got" | head -5)"
		rm -rf "$FSLOAD_DIR/mdr-$eng"
		run mdr-stride-$eng --profile metadata --engine "$eng" \
			--threads 2 --rank 3 --items 20 --stride 1 --random \
			--idle-ms 0 ||
			fail "$eng: rank 3 with a stride exited $?"
		expect 'sum(p["errors"] for p in j["phases"])' \
			"$work/mdr-stride-$eng.json" 0
		expect 'ph("file-remove")["ops"]' "$work/mdr-stride-$eng.json" 40
	done
	check
}

# mdtest -u -L -k -b 2 -z 2 -I 3, two ranks, through either engine: the
# whole tree of 7 directories, the items in its 4 leaves only, numbered as
# mdtest's (leaf k holds items 3k..3k+2: file.mdtest.<rank>.9 to .20), the
# files regular and empty, made by mknod; both engines make the same tree.
t_leaf_only_mknod() {
	local eng top got want

	want=$(python3 -c '
out = ["test-dir.0-0"]
for r in (0, 1):
    p = {0: "test-dir.0-0/mdtest_tree.%d.0" % r}
    for k in range(1, 7):
        p[k] = "%s/mdtest_tree.%d.%d" % (p[(k - 1) // 2], r, k)
    out += p.values()
    out += ["%s/file.mdtest.%d.%d" % (p[n // 3], r, n) for n in range(9, 21)]
print("\n".join(sorted(out)))')
	for eng in kernel user; do
		top=$(start_kept mdl-$eng "$eng" --profile metadata --threads 2 \
			--items-per-dir 3 --tree-branch 2 --tree-depth 2 \
			--leaf-only --mknod --phases create --idle-ms 0)
		expect '[j["job"]["first_dir"], j["job"]["files_per_thread"]]' \
			"$work/mdl-$eng.json" "3 12"
		expect '[ph("tree-create")["ops"], ph("file-create")["ops"]]' \
			"$work/mdl-$eng.json" "14 24"
		expect 'sum(p["errors"] for p in j["phases"])' \
			"$work/mdl-$eng.json" 0
		got=$(mdtest_made "$top")
		[ "$got" = "$(echo "$want" | LC_ALL=C sort)" ] ||
			fail "$eng: not mdtest's -L tree: $(echo "$got" | head -5)"
		got=$(find "$top" -name 'file.mdtest.*' \( ! -type f -o \
			! -size 0 \) | head -3)
		[ -z "$got" ] || fail "$eng: not an empty regular file: $got"
		(cd "$top" && find . | LC_ALL=C sort) >"$work/mdl-$eng.tree"
		rm -rf "$FSLOAD_DIR/mdl-$eng"
	done
	cmp -s "$work/mdl-kernel.tree" "$work/mdl-user.tree" ||
		fail "the kernel and user engines made different trees"
	check
}

# fs_mark -n 40 -s 51200 -S 6 -k: one directory of fs_mark's 40-byte
# names, every file 51200 bytes, its phases.  Then through either engine a
# job file's fs_mark names in one directory, and its trunc create over
# them: O_TRUNC (no EEXIST, the new size).
t_fsmark_profile() {
	local eng top got jf=$work/trunc.ini

	top=$(start_kept fsm kernel --profile fsmark --files 40 --sync 6 \
		--idle-ms 0)
	expect '[p["name"] for p in j["phases"]]' "$work/fsm.json" \
		"create sync fsync"
	expect '[p["ops"] for p in j["phases"]]' "$work/fsm.json" "40 1 40"
	expect 'j["job"]["name_bytes"]' "$work/fsm.json" 40
	[ "$(ls "$top")" = t000 ] || fail "$(ls "$top")"
	got=$(find "$top/t000" -mindepth 1 -type f -size 51200c \
		-regextype posix-extended \
		-regex '.*/[0-9a-f]{8}~{8}[0-9A-Z]{24}' | wc -l)
	[ "$got" -eq 40 ] || fail "$got fs_mark files of 51200 bytes"
	got=$(find "$top/t000" -mindepth 1 | wc -l)
	[ "$got" -eq 40 ] || fail "$got entries in the directory"
	rm -rf "$FSLOAD_DIR/fsm"

	cat >"$jf" <<-EOF
		[global]
		files = 40
		names = fsmark
		files-per-dir = 40
		[phase big]
		op = create size=8K trunc
		[phase small]
		op = create size=1K block=512 trunc
	EOF
	for eng in kernel user; do
		top=$(start_kept trunc-$eng "$eng" --job "$jf" --idle-ms 0)
		expect 'sum(p["errors"] for p in j["phases"])' \
			"$work/trunc-$eng.json" 0
		got=$(find "$top/t000" -mindepth 1 -maxdepth 1 -type f \
			-size 1024c -regextype posix-extended \
			-regex '.*/[0-9a-f]{8}~{8}[0-9A-Z]{24}' | wc -l)
		[ "$got" -eq 40 ] || fail "$eng: $got fs_mark files emptied to 1 KiB"
		got=$(find "$top/t000" -mindepth 1 | wc -l)
		[ "$got" -eq 40 ] || fail "$eng: $got entries in the directory"
		rm -rf "$FSLOAD_DIR/trunc-$eng"
	done
	check
}

t_largefile_keep() {
	local f=$work/lf.json id dir n bad

	run lf --profile largefile --threads 2 --files 2 --size 2M \
		--block 256K --keep
	expect '[p["name"] for p in j["phases"]]' "$f" "write read"
	expect '[p["ops"] for p in j["phases"]]' "$f" "4 4"
	expect '[p["bytes"] for p in j["phases"]]' "$f" "8388608 8388608"
	expect 'j["summary"]["files_counted"]' "$f" 4
	expect 'j["summary"]["extents_per_file"] >= 1' "$f" True
	expect 'j["summary"]["write_mib_per_sec"] > 0' "$f" True
	id=$(job_id "$f")
	dir=$FSLOAD_DIR/fsload-$id
	n=$(find "$dir" -type f | wc -l)
	[ "$n" -eq 4 ] || fail "$n files on disk, wanted 4"
	bad=$(find "$dir" -type f ! -size 2048k | wc -l)
	[ "$bad" -eq 0 ] || fail "$bad files are not 2 MiB"
	rm -rf "$dir"
}

t_largefile_direct() {
	local f=$work/lfd.json

	run lfd --profile largefile --size 1M --block 128K --direct --fallocate
	expect '[p["bytes"] for p in j["phases"]]' "$f" "1048576 1048576"
	expect 'j["summary"]["files_counted"]' "$f" 1
	expect 'j["summary"]["extents_per_file"] >= 1' "$f" True
	no_job_dirs
}

t_randrw_counts() {
	local f=$work/rrw.json

	run rrw --profile randrw --threads 2 --files 3 --size 256K --block 4K \
		--ops 300 --read-weight 3 --write-weight 1
	expect '[p["name"] for p in j["phases"]]' "$f" "prealloc rw unlink"
	expect 'ph("prealloc")["bytes"]' "$f" $((6 * 256 * 1024))
	expect 'ph("rw")["ops"]' "$f" 600
	expect 'ph("rw")["bytes"]' "$f" $((600 * 4096))
	expect 'ph("rw")["errors"]' "$f" 0
	expect 'sorted(o["op"] for o in ph("rw")["ops_by_type"])' "$f" \
		"read_random write_random"
	# 3:1 weights: reads are most of the 600
	expect '[o["ops"] > 300 for o in ph("rw")["ops_by_type"]
		if o["op"] == "read_random"]' "$f" True
	expect 'j["summary"]["transactions_per_sec"] > 0' "$f" True
	no_job_dirs
}

t_randrw_time() {
	local f=$work/rrwt.json

	run rrwt --profile randrw --files 2 --size 128K --time 0.5
	expect 'ph("rw")["stonewalled"]' "$f" True
	expect 'ph("rw")["bytes"] == ph("rw")["ops"] * 4096' "$f" True
	no_job_dirs
}

t_age_keep() {
	local f=$work/age.json before target after id

	before=$(used_pct "$FSLOAD_DIR")
	target=$(awk -v b="$before" 'BEGIN { printf "%d\n", int(b) + 5 }')
	run age --profile age --age "$target" --threads 2 --keep
	after=$(used_pct "$FSLOAD_DIR")
	id=$(job_id "$f")
	[ -d "$FSLOAD_DIR/fsload-$id" ] || fail "aged files not kept"
	rm -rf "$FSLOAD_DIR/fsload-$id"
	sync
	# within the aging's tolerance of 1 point
	if ! ge "$after" "$((target - 1))" || ! ge "$((target + 1))" "$after"; then
		fail "statfs: $after% used, target $target%"
	fi
	expect 'j["age"]["reached"]' "$f" True
	expect 'abs(j["age"]["after_pct"] - '"$target"') <= 1' "$f" True
	expect '(set(o["op"] for o in j["phases"][0]["ops_by_type"]) <=
		{"create", "append", "unlink"})' "$f" True
}

t_age_before_profile() {
	local f=$work/agesf.json before target after

	before=$(used_pct "$FSLOAD_DIR")
	target=$(awk -v b="$before" 'BEGIN { printf "%d\n", int(b) + 4 }')
	run agesf --profile smallfiles --files 50 --age "$target"
	expect 'j["age"]["reached"]' "$f" True
	expect 'j["age"]["kept"]' "$f" False
	expect 'j["job"]["profile"]' "$f" smallfiles
	expect '[p["ops"] for p in j["phases"]]' "$f" "50 50 50 50"
	no_job_dirs
	sync
	after=$(used_pct "$FSLOAD_DIR")
	if ge "$after" "$target"; then
		fail "aged files left: $after% used"
	fi
}

t_mix() {
	local f=$work/mix.json

	run mix --profile mix --threads 2 --files 50 --size 16K --ops 200
	expect '[p["name"] for p in j["phases"]]' "$f" "populate mix cleanup"
	expect 'ph("populate")["ops"]' "$f" 100
	# a mix phase's misses (a read of a file not made yet, continue) are
	# neither ops nor errors (issue 31): every op tried is one of the three
	expect 'ph("mix")["ops"] + ph("mix")["errors"] + ph("mix")["misses"]' "$f" 400
	expect 'ph("cleanup")["ops"] + ph("cleanup")["errors"] + ph("cleanup")["misses"]' "$f" 100
	no_job_dirs
}

t_jobfile_smallfiles() {
	local a=$work/jf.json b=$work/jfp.json

	run jf --job "$repo/ctl/jobs/smallfiles.ini" --threads 2 --files 60 \
		--files-per-dir 25
	run jfp --profile smallfiles --threads 2 --files 60 --files-per-dir 25
	python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
def key(j):
    return ([(p["name"], p["ops"], p["bytes"], p["errors"], p["threads"])
             for p in j["phases"]],
            [j["job"][k] for k in ("threads", "files_per_thread",
                                   "files_per_dir", "profile", "state")])
if key(a) != key(b):
    sys.exit("FAIL: job file %s, profile %s" % (key(a), key(b)))
' "$a" "$b" || exit "$KSFT_FAIL"
	no_job_dirs
}

t_jobfiles_examples() {
	local f

	run jmix --job "$repo/ctl/jobs/mix.ini" --files 40 --threads 1 --time 0.5 \
		--progress-ms 0 </dev/null &
	run jrrw --job "$repo/ctl/jobs/randrw.ini" --files 1 ||
		fail "randrw.ini"
	wait $! || fail "mix.ini"
	f=$work/jrrw.json
	expect 'ph("rw")["ops"]' "$f" 10000
	expect 'ph("rw")["bytes"]' "$f" $((10000 * 4096))
	f=$work/jmix.json
	expect 'ph("mix")["stonewalled"]' "$f" True
	run jmd --job "$repo/ctl/jobs/metadata.ini" --files 30
	expect '[p["ops"] for p in j["phases"]]' "$work/jmd.json" "60 60 60 60"
	no_job_dirs
}

t_jobfile_errors() {
	local bad=$work/bad.ini err rc

	printf '[global]\nthreads = 1\n[phase a]\nop = create sise=4K\n' >"$bad"
	err=$(fsloadctl start --job "$bad" --dir "$FSLOAD_DIR" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] || fail "bad op: exit $rc"
	echo "$err" | grep -q "bad.ini:4:" || fail "no FILE:LINE: $err"
	printf '[global]\n[phase a]\n' >"$bad"
	fsloadctl start --job "$bad" --dir "$FSLOAD_DIR" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "phase without op accepted"
	printf '[phase r]\nop = rename\n' >"$bad"
	fsloadctl start --job "$bad" --dir "$FSLOAD_DIR" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "rename without prefix accepted"
	# the kernel refuses what only it checks: direct I/O alignment
	printf '[phase w]\nop = create size=1000 block=1000 direct\n' >"$bad"
	fsloadctl start --job "$bad" --dir "$FSLOAD_DIR" >/dev/null 2>&1
	[ $? -eq 3 ] || fail "unaligned direct I/O: not refused by the kernel"
	no_job_dirs
}

t_untar_scale() {
	local f=$work/untar.json id dir n

	run untar --profile untar --scale 0.01 --threads 2 --sync-between
	expect '[p["name"] for p in j["phases"]]' "$f" "create read unlink"
	expect 'j["job"]["files_per_thread"]' "$f" 120
	expect '[ph(n)["ops"] for n in ("create", "read", "unlink")]' \
		"$f" "240 240 240"
	# held before read and unlink for sync; echo 3 > drop_caches
	expect 'j["summary"]["caches_dropped"]' "$f" 2
	expect 'ph("create")["bytes"] == ph("read")["bytes"] > 0' "$f" True
	expect 'len(ph("create")["ops_by_type"])' "$f" 1
	no_job_dirs
	f=$work/untark.json
	run untark --profile untar --scale 0.005 --keep
	id=$(job_id "$f")
	dir=$FSLOAD_DIR/fsload-$id
	n=$(find "$dir" -type f | wc -l)
	[ "$n" -eq 120 ] || fail "$n files on disk, wanted 120"
	n=$(find "$dir" -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
	expect 'ph("create")["bytes"]' "$f" "$n"
	# 15 files a directory, as a kernel tree
	n=$(find "$dir" -mindepth 2 -maxdepth 2 -type d | wc -l)
	[ "$n" -eq 8 ] || fail "$n directories, wanted 8"
	rm -rf "$dir"
}

t_help() {
	local h p

	h=$(fsloadctl help start) || fail "help start"
	for p in smallfiles metadata largefile randrw age mix untar null; do
		echo "$h" | grep -q "^  $p: " || fail "help: no profile $p"
	done
	fsloadctl start --profile nosuch --dir "$FSLOAD_DIR" >/dev/null 2>&1
	[ $? -eq 2 ] || fail "unknown profile: not a usage error"
	fsloadctl start --profile smallfiles --job x --dir "$FSLOAD_DIR" \
		>/dev/null 2>&1
	[ $? -eq 2 ] || fail "--profile with --job accepted"
}

# cached_bytes DIR: bytes of the files under DIR in the page cache.
cached_bytes() {
	find "$1" -type f -exec "$repo/tests/build/mincore" {} + |
		awk '{ s += $1 } END { print s + 0 }'
}

# drop_cache (the op: every file's pages dropped): after create, sync and
# drop, none of the files' pages is in the page cache (mincore).  And a
# phase that holds (untar --sync-between): fsloadctl syncs and writes 3 to
# drop_caches before it (the kernel counts it: drop_pagecache in vmstat),
# so a stat after create leaves the files' pages uncached, while without
# the hold they stay cached.  On older kernels (6.1) drop_caches does not
# drain the per-CPU LRU batches first (7.3 does): up to 31 folios per CPU of what the
# workers wrote last stay cached (by hand too), at most 64 KiB each here;
# 200 files are three times that.
t_drop_cache() {
	local f=$work/drop.json jf=$work/drop.ini id dir res hold drops
	local batch=$((31 * 65536 * $(nproc)))

	printf '%s\n' '[phase create]' 'op = create size=64K block=64K' \
		'[phase sync]' 'iterations = 1' 'op = syncfs' \
		'[phase drop]' 'op = drop_cache' >"$jf"
	run drop --job "$jf" --files 20 --keep
	expect '[p["ops"] for p in j["phases"]]' "$f" "20 1 20"
	check
	id=$(job_id "$f")
	dir=$FSLOAD_DIR/fsload-$id
	res=$(cached_bytes "$dir")
	rm -rf "$dir"
	[ "$res" -eq 0 ] || fail "$res bytes of the files still cached"

	for hold in no yes; do
		f=$work/hold-$hold.json
		printf '%s\n' '[phase create]' 'op = create size=64K block=64K' \
			'[phase stat]' "hold = $hold" 'op = stat' >"$jf"
		drops=$(awk '$1 == "drop_pagecache" { print $2 }' /proc/vmstat)
		run "hold-$hold" --job "$jf" --files 200 --keep
		drops=$(($(awk '$1 == "drop_pagecache" { print $2 }' \
			/proc/vmstat) - drops))
		expect '[p["ops"] for p in j["phases"]]' "$f" "200 200"
		expect 'j["summary"].get("caches_dropped", 0)' "$f" \
			"$([ $hold = yes ] && echo 1 || echo 0)"
		check
		dir=$FSLOAD_DIR/fsload-$(job_id "$f")
		res=$(cached_bytes "$dir")
		echo "hold = $hold: $res bytes of the files cached after the job, $drops drop_caches"
		rm -rf "$dir"
		if [ $hold = yes ]; then
			[ "$drops" -eq 1 ] || fail "$drops drop_caches for one hold"
			[ "$res" -le $batch ] ||
				fail "$res bytes cached after the hold (> $batch)"
		else
			[ "$drops" -eq 0 ] || fail "$drops drop_caches without a hold"
			[ "$res" -gt $((2 * batch)) ] ||
				fail "$res bytes cached without a hold (<= $((2 * batch)))"
		fi
	done
}

# The course of a phase: ten marks, each with the iterations done by then.
t_progress() {
	local f=$work/progress.json

	run progress --profile smallfiles --files 50 --threads 2
	expect '[m["pct"] for m in ph("create")["progress"]]' "$f" \
		"10 20 30 40 50 60 70 80 90 100"
	expect '[m["items"] for m in ph("create")["progress"]]' "$f" \
		"10 20 30 40 50 60 70 80 90 100"
	expect 'set(m["workers"] for m in ph("create")["progress"])' "$f" "{2}"
	expect 'all(a["elapsed_ns"] <= b["elapsed_ns"] for a, b in
		zip(ph("create")["progress"], ph("create")["progress"][1:]))' \
		"$f" True
	expect '(ph("create")["progress"][-1]["elapsed_ns"] <=
		ph("create")["elapsed_ns"])' "$f" True
	no_job_dirs
}

# Thread groups (ctl/jobs/groups.ini): three readers, one writer, each
# group running only its own ops.
t_groups() {
	local f=$work/groups.json

	run groups --job "$repo/ctl/jobs/groups.ini"
	expect '[(p["name"], p["threads"], p["ops"]) for p in j["phases"]]' \
		"$f" "('populate', 4, 800) ('mix', 4, 1600)"
	expect 'sum(t["ops"] for t in ph("mix")["ops_by_type"]
		if t["op"] in ("read", "stat"))' "$f" 1200
	expect 'sum(t["ops"] for t in ph("mix")["ops_by_type"]
		if t["op"] in ("append", "fsync"))' "$f" 400
	expect '[(g["name"], g["threads"]) for g in j["job"]["groups"]]' \
		"$f" "('readers', 3) ('writer', 1)"
	no_job_dirs
}

# timed FUNCTION: run a case and say how long it took.
timed() {
	local t0=$SECONDS rc

	"$@" && check
	rc=$?
	echo "($1: $((SECONDS - t0)) s)"
	return $rc
}

ktap_plan 29
ktap_run smallfiles_sync_batch timed t_smallfiles_batch
ktap_run smallfiles_sync_modes timed t_smallfiles_sync_modes
ktap_run smallfiles_thread_sweep timed t_smallfiles_sweep
ktap_run metadata_counts timed t_metadata_counts
ktap_run metadata_shared_dir_keep timed t_metadata_shared_keep
ktap_run metadata_iterations timed t_metadata_iterations
ktap_run metadata_stonewall timed t_metadata_stonewall
ktap_run metadata_tree timed t_metadata_tree
ktap_run metadata_mdtest_semantics timed t_metadata_mdtest
ktap_run names_mdtest timed t_names_mdtest
ktap_run leaf_only_mknod timed t_leaf_only_mknod
ktap_run names_rank timed t_names_rank
ktap_run fsmark_profile timed t_fsmark_profile
ktap_run largefile_keep_extents timed t_largefile_keep
ktap_run largefile_direct_fallocate timed t_largefile_direct
ktap_run randrw_counts timed t_randrw_counts
ktap_run randrw_time timed t_randrw_time
ktap_run age_keep_statfs timed t_age_keep
ktap_run age_before_profile timed t_age_before_profile
ktap_run mix_counts timed t_mix
ktap_run jobfile_equals_profile timed t_jobfile_smallfiles
ktap_run jobfile_examples timed t_jobfiles_examples
ktap_run jobfile_errors timed t_jobfile_errors
ktap_run untar_scale timed t_untar_scale
ktap_run untar_drop_cache timed t_drop_cache
ktap_run phase_progress_tenths timed t_progress
ktap_run jobfile_thread_groups timed t_groups
ktap_run help_profiles timed t_help
ktap_run nothing_left_behind no_job_dirs
ktap_finish
