#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bash completion (ctl/fsloadctl.bash-completion): shellcheck-clean, and
# completes commands, options, profiles, directories and job ids the way
# `fsloadctl help` says.  Host-side: a stand-in tool answers `--json list`
# with two jobs and passes everything else to ctl/fsloadctl.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/ktap.sh
. "$repo/tests/ktap.sh"

comp=$repo/ctl/fsloadctl.bash-completion
if [ ! -x "$repo/ctl/fsloadctl" ]; then
	make -s -C "$repo/ctl" >/dev/null || { echo "1..0 # SKIP cannot build ctl/fsloadctl"; exit 4; }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tool=$tmp/fsloadctl
cat >"$tool" <<EOF
#!/bin/sh
if [ "\$1" = --json ] && [ "\$2" = list ]; then
	echo '{"fsload_json_version":1,"jobs":[{"id":3,"state":"running","dir":"/x"},{"id":17,"state":"done","dir":"/y \\\\"id\\\\":99"}]}'
	exit 0
fi
exec "$repo/ctl/fsloadctl" "\$@"
EOF
chmod +x "$tool"
mkdir "$tmp/cwd" "$tmp/cwd/dir1" "$tmp/cwd/dir2"
touch "$tmp/cwd/file1"

# complete WORDS...: the completions of the last word (may be ""), sorted,
# on one line.
complete_words() {
	(
		# shellcheck source=ctl/fsloadctl.bash-completion
		. "$comp"
		cd "$tmp/cwd" || exit 1
		COMP_WORDS=("$tool" "$@")
		COMP_CWORD=$#
		_fsloadctl
		printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
	)
}

# expect "WANT" WORDS...
expect() {
	local want=$1 got

	shift
	got=$(complete_words "$@")
	[ "$got" = "$want" ] || fail "fsloadctl $* <TAB>: got '$got', want '$want'"
}

t_shellcheck() {
	command -v shellcheck >/dev/null || skip "shellcheck not installed"
	shellcheck "$comp" || fail "shellcheck"
}

t_commands() {
	local all

	all=$("$repo/ctl/fsloadctl" help | awk '/^commands:/ { on = 1; next } /^$/ { on = 0 } on { print $1 }' | sort | tr '\n' ' ' | sed 's/ $//')
	[ -n "$all" ] || fail "no commands in fsloadctl help"
	expect "$all" ""
	expect "$all" --json ""
	expect "$all" help ""
	expect "start status stop" st
	expect "--help --json --version -V -h -j" -
}

t_options() {
	local c want

	for c in start stop wait; do
		want=$( ("$repo/ctl/fsloadctl" help "$c" | sed -n '/^options:/,$p' |
			grep -oE '^  --[a-z][a-z0-9-]*' | tr -d ' '; echo --help) |
			sort -u | tr '\n' ' ' | sed 's/ $//')
		expect "$want" "$c" --
	done
	want=$("$repo/ctl/fsloadctl" help start | grep -oE '^  --f[a-z0-9-]*' |
		tr -d ' ' | sort | tr '\n' ' ' | sed 's/ $//')
	expect "$want" start --profile null --f
	expect "--json" results 3 --j
}

t_values() {
	local profiles

	profiles=$("$repo/ctl/fsloadctl" help | sed -n '/^profiles/,/^$/p' |
		awk 'NR > 1 && $1 ~ /^[a-z][a-z0-9_-]*$/ { print $1 }' | sort | tr '\n' ' ' | sed 's/ $//')
	[ -n "$profiles" ] || fail "no profiles in fsloadctl help"
	expect "$profiles" start --profile ""
	expect "smallfiles" start --threads 2 --profile sm
	expect "mdtest" start --names md
	expect "dir1 dir2" start --profile null --dir ""
	expect "dir1 dir2 file1" start --job ""
	expect "" start --threads ""
	expect "" start --size 4k --block ""
	expect "" wait 3 --timeout ""
}

t_job_ids() {
	local c

	for c in status stop wait results; do
		expect "17 3" "$c" ""
	done
	expect "17" stop 1
	expect "17 3" stop --wait ""
	expect "17 3" --json wait --timeout 5 ""
	expect "" stop 3 ""
	expect "" list ""
}

ktap_plan 5
ktap_run completion_shellcheck t_shellcheck
ktap_run completion_commands t_commands
ktap_run completion_options t_options
ktap_run completion_values t_values
ktap_run completion_job_ids t_job_ids
ktap_finish
