#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every fsloadctl command line of the documentation (README.md,
# Documentation/*.rst: the lines `tests/docs.py --commands` finds in their
# literal blocks) runs as written and exits 0.  In a guest with fsload
# loaded and a scratch filesystem, one KTAP case per command line.
#
# Only what cannot be as written on a test guest is changed, and the case
# says so: --dir is the scratch filesystem; the sizes and counts are
# scaled down (--files, --items, --ops, --size, --time, --stonewall,
# --iterations, --scale, and the sampling rate of --cpu-profile (999):
# never up), so that the whole suite stays near two
# minutes under TCG (a profile's default count too: --files 100 or
# --items 100 appended where the line gives none); a line given again
# runs once; mpirun's -np becomes 2 on this one machine (with -H
# dropped, as root); /dev/nullb0 is a null_blk device this suite makes
# (unmounted, 64 MiB); of a perf record in front, only its fsloadctl part
# runs (perf's own end, its build-id pass over a 9p root, took two
# minutes under TCG).  compare may exit 1, its
# verdict "regressed"; any other command line must exit 0.
#
#   scripts/vm-run --fs ext4 --size 256 -- tests/guest/doc-commands.sh [FILTER]
#
# FILTER: only the command lines whose place (FILE:LINE) contains it.
set -uo pipefail

# shellcheck source=tests/guest/lib.sh
. "$(dirname "$0")/lib.sh"
lib_need dir module

repo=$(cd "$(dirname "$0")/../.." && pwd)

# scale COMMAND: the command line with its sizes scaled down, its --dir
# the scratch filesystem; on stdout, one word a line.
scale() {
	python3 - "$1" "$FSLOAD_DIR" <<'EOF'
import re, shlex, sys

words = shlex.split(sys.argv[1], posix=True)
scratch = sys.argv[2]
caps = {'--files': 100, '--items': 100, '--ops': 500, '--time': 1,
        '--stonewall': 2, '--iterations': 2}
suffix = {'': 1, 'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}


def size(v):
    m = re.match(r'^(\d+)([KMG]?)$', v)
    return int(m.group(1)) * suffix[m.group(2)] if m else None


out = []
i = 0
while i < len(words):
    w = words[i]
    nxt = words[i + 1] if i + 1 < len(words) else None
    if w == 'sudo':
        i += 1
        continue
    if w == 'ctl/fsloadctl':
        w = 'fsloadctl'
    if w == '-H' and 'mpirun' in out:
        i += 2
        continue
    if w == '-np' and nxt:
        out += ['-np', '2', '--allow-run-as-root', '--oversubscribe']
        i += 2
        continue
    if w == '--dir' and nxt:
        out += [w, scratch]
        i += 2
        continue
    if w in caps and nxt and re.match(r'^\d+$', nxt):
        out += [w, str(min(int(nxt), caps[w]))]
        i += 2
        continue
    # the sampling rate of fsloadctl's CPU profile
    if w == '--cpu-profile' and nxt and re.match(r'^\d+$', nxt):
        out += [w, str(min(int(nxt), 999))]
        i += 2
        continue
    if w == '--scale' and nxt:
        out += [w, str(min(float(nxt), 0.01))]
        i += 2
        continue
    if w == '--size' and nxt and size(nxt) is not None:
        out += [w, str(min(size(nxt), 8 << 20))]
        i += 2
        continue
    out.append(w)
    i += 1
# A profile's default count, where the line gives none, scaled too.
if 'start' in out and '--profile' in out:
    prof = out[out.index('--profile') + 1]
    if prof in ('smallfiles', 'fsmark', 'null') and '--files' not in out:
        out += ['--files', '100']
    if prof == 'metadata' and not {'--items', '--files'} & set(out):
        out += ['--items', '100']
print('\n'.join(out))
EOF
}

nullb0() {
	local nb=/sys/kernel/config/nullb/nullb0

	[ -b /dev/nullb0 ] && return 0
	modprobe null_blk nr_devices=0 2>/dev/null || return 1
	mountpoint -q /sys/kernel/config ||
		mount -t configfs configfs /sys/kernel/config || return 1
	mkdir "$nb" && echo 64 >"$nb/size" && echo 1 >"$nb/memory_backed" &&
		echo 1 >"$nb/power" || return 1
	udevadm settle 2>/dev/null
	for _ in $(seq 50); do
		[ -b /dev/nullb0 ] && return 0
		sleep 0.1
	done
	return 1
}

# t_command WHERE COMMAND
t_command() {
	local where=$1 cmd=$2 rc
	local -a argv

	mapfile -t argv <<<"$(scale "$cmd")"
	[ ${#argv[@]} -gt 0 ] || fail "$where: cannot parse the command line"
	case " ${argv[*]} " in
	*" /dev/nullb0 "*) nullb0 || skip "cannot make /dev/nullb0 (null_blk)";;
	esac
	if [ "${argv[0]}" = perf ]; then
		while [ ${#argv[@]} -gt 0 ] && [ "${argv[0]}" != -- ]; do
			argv=("${argv[@]:1}")
		done
		[ ${#argv[@]} -gt 1 ] || fail "$where: no -- before the command perf runs"
		argv=("${argv[@]:1}")
		echo "perf record's fsloadctl command alone"
	fi
	if [ "${argv[0]}" = mpirun ]; then
		command -v mpirun >/dev/null || skip "no mpirun in this root"
		[ -x "$repo/ctl/fsloadctl-mpi" ] || skip "no ctl/fsloadctl-mpi (make ctl-mpi)"
	fi
	echo "as written: $cmd"
	echo "run:        ${argv[*]}"
	# A directory per page, so that a page's -o files are there for its
	# later command lines (--rerun, compare).
	mkdir -p "$work/${where%%:*}" || fail "cannot make $work/${where%%:*}"
	cd "$work/${where%%:*}" || fail "cannot enter $work/${where%%:*}"
	SECONDS=0
	timeout 300 "${argv[@]}" >out.txt 2>err.txt
	rc=$?
	echo "$SECONDS s"
	# compare's 1 is its verdict (a regression), not a failure to run
	[ "$rc" -eq 1 ] && [ "${argv[0]} ${argv[1]:-}" = "fsloadctl compare" ] && rc=0
	[ "$rc" -eq 0 ] || {
		tail -n 5 err.txt
		fail "$where: exit status $rc: ${argv[*]}"
	}
	stop_running 10
}

mapfile -t lines <<<"$(cd "$repo" && python3 tests/docs.py --commands)"
filter=${1:-}
sel=()
for l in "${lines[@]}"; do
	[[ ${l%%$'\t'*} == *"$filter"* ]] && sel+=("$l")
done
[ ${#sel[@]} -gt 0 ] || { echo "1..0 # SKIP no command line${filter:+ matches $filter}"; exit 4; }

# t_same WHERE FIRST: a command line given again, run once, at FIRST.
t_same() {
	echo "$1: the same command line as $2, run there"
}

declare -A first
ktap_plan ${#sel[@]}
for l in "${sel[@]}"; do
	where=${l%%$'\t'*}
	cmd=${l#*$'\t'}
	name=$(printf '%s' "$where" | tr -c 'A-Za-z0-9\n' _)
	if [ -n "${first[$cmd]:-}" ]; then
		ktap_run "doc_$name" t_same "$where" "${first[$cmd]}"
		continue
	fi
	first[$cmd]=$where
	ktap_run "doc_$name" t_command "$where" "$cmd"
done
ktap_finish
