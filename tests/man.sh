#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fsloadctl(8) (ctl/fsloadctl.8): renders without a warning, and documents
# what fsloadctl says it has, so that the two cannot drift: every command
# and every long option of `fsloadctl help [COMMAND]`, every profile and
# exit status of `fsloadctl help`, every results column the report prints
# (ctl/report/results.c, read by tests/docs.py --columns) and every
# environment variable that ctl/ reads; and the other way, that every
# option the page gives as an item is one fsloadctl accepts for that
# command, and every --option it names is one of fsloadctl's.  The page
# is thereby the option reference, held to `fsloadctl help` both ways.
# Host-side, no module.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/ktap.sh
. "$repo/tests/ktap.sh"

page=$repo/ctl/fsloadctl.8
tool=$repo/ctl/fsloadctl

command -v man >/dev/null || { echo "1..0 # SKIP man not installed (scripts/deps.sh)"; exit 4; }
command -v groff >/dev/null || { echo "1..0 # SKIP groff not installed (scripts/deps.sh)"; exit 4; }
if [ ! -x "$tool" ]; then
	make -s -C "$repo/ctl" >/dev/null || { echo "1..0 # SKIP cannot build ctl/fsloadctl"; exit 4; }
fi

export LC_ALL=C MANWIDTH=80
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The page as a reader sees it, plain ASCII.
man -l "$page" 2>/dev/null | col -bx >"$tmp/page.txt"

# section NAME: the rendered lines of section NAME (up to the next one).
section() {
	awk -v s="$1" '/^[A-Z]/ { on = ($0 == s); next } on' "$tmp/page.txt"
}

# has_item SECTION WORD: WORD starts a tagged paragraph of SECTION, or
# is one of the tag's comma-separated alternatives ("--json, -j").
has_item() {
	local w

	w=$(printf '%s' "$2" | sed 's/[][\.*^$/+?(){}|]/\\&/g')
	# Not grep -q: it would leave awk writing to a closed pipe, and
	# pipefail would then fail the match on a long section.
	section "$1" | grep -E "^ +([^ ,]+, )*$w(,| |$)" >/dev/null
}

# The lines of `fsloadctl help` between a header line and a blank line.
help_block() {
	"$tool" help | awk -v h="$1" '$0 == h { on = 1; next } /^$/ { on = 0 } on'
}

t_render() {
	local out

	out=$(man --warnings -l "$page" 2>&1 >/dev/null)
	[ -z "$out" ] || fail "man --warnings: $out"
	out=$(groff -man -ww -z "$page" 2>&1)
	[ -z "$out" ] || fail "groff -man -ww: $out"
	[ -s "$tmp/page.txt" ] || fail "man rendered nothing"
	out=$(awk 'length > 80' "$tmp/page.txt")
	[ -z "$out" ] || fail "lines wider than 80 columns: $out"
}

t_commands() {
	local c n=0

	for c in $(help_block "commands:" | awk '{ print $1 }'); do
		n=$((n + 1))
		has_item COMMANDS "$c" || fail "command '$c' is not an item of COMMANDS"
		section SYNOPSIS | grep -qE "fsloadctl( \[--json\])? $c( |$)" ||
			fail "command '$c' is not in the SYNOPSIS"
	done
	[ "$n" -ge 8 ] || fail "only $n commands in 'fsloadctl help'"
}

t_options() {
	local c o sec n=0

	for o in $(help_block "global options:" | grep -oE -- '--?[a-zA-Z]+'); do
		has_item "GLOBAL OPTIONS" "$o" || fail "global option $o is not in GLOBAL OPTIONS"
	done
	grep -q -- '"--version"' "$repo/ctl/cmd/main.c" && ! has_item "GLOBAL OPTIONS" --version &&
		fail "--version (ctl/cmd/main.c) is not in GLOBAL OPTIONS"
	for c in $(help_block "commands:" | awk '{ print $1 }'); do
		# start's options have a section of their own; the others'
		# are items under their command
		sec=COMMANDS
		[ "$c" = start ] && sec="START OPTIONS"
		for o in $("$tool" help "$c" | sed -n '/^options:/,$p' |
			grep -oE -- '^  --[a-z][a-z0-9-]*'); do
			n=$((n + 1))
			has_item "$sec" "$o" || fail "$c $o is not an item of $sec"
		done
	done
	[ "$n" -ge 14 ] || fail "only $n options found in 'fsloadctl help COMMAND'"
}

# The page's option items, from its source: "COMMAND OPTION" for each
# tagged paragraph whose tag is an option (GLOBAL OPTIONS: command
# "global"; START OPTIONS: "start"; COMMANDS: the command of the item
# around the .RS block it is in), every alternative of a tag ("--json, -j").
man_option_items() {
	awk '
	/^\.SH / { sec = substr($0, 5); gsub(/"/, "", sec); depth = 0; cmd = ""; next }
	/^\.RS/ { depth++; next }
	/^\.RE/ { depth--; next }
	/^\.TP/ { tag = 1; next }
	tag {
		tag = 0
		line = $0
		gsub(/\\f[BIRP]/, "", line)
		gsub(/\\-/, "-", line)
		sub(/^\.[BIR]+ /, "", line)
		gsub(/"/, "", line)
		if (sec == "COMMANDS" && depth == 0) {
			split(line, w, " ")
			cmd = w[1]
			next
		}
		c = sec == "GLOBAL OPTIONS" ? "global" : \
		    sec == "START OPTIONS" ? "start" : \
		    sec == "COMMANDS" ? cmd : ""
		if (c == "" || line !~ /^-/)
			next
		n = split(line, w, /[ ,]+/)
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^--?[a-zA-Z][a-zA-Z0-9-]*$/)
				print c, w[i]
	}' "$page"
}

# The options fsloadctl accepts for COMMAND ("global": before any command):
# those `fsloadctl help COMMAND` lists, which it prints from the table it
# parses with (ctl/lib/parse.c), with the short forms it gives, and
# --json, -j, --help, -h, which every command takes; before a command,
# those ctl/cmd/main.c compares.
accepted_options() {
	if [ "$1" = global ]; then
		grep -oE 'strcmp\(argv\[i\], "-[^"]+"\)' "$repo/ctl/cmd/main.c" |
			sed -E 's/.*"(.*)".*/\1/'
		return
	fi
	"$tool" help "$1" | sed -n '/^options:/,$p' | grep -oE -- '^  --[a-z][a-z0-9-]*' |
		tr -d ' '
	# a short form, which the help gives as "(-o)" after the option's text
	"$tool" help "$1" | sed -n '/^options:/,$p' | grep -E -- '^  --' |
		grep -oE -- '\(-[a-zA-Z]\)$' | tr -d '()'
	printf '%s\n' --json -j --help -h
}

# The other direction of t_options: every option the page gives as an
# item is one fsloadctl accepts for that command, and every --option the
# page names anywhere is one of some fsloadctl command's (or, on a line
# that names scripts/, one of the repository's scripts').
t_options_accepted() {
	local c o n=0 all

	while read -r c o; do
		n=$((n + 1))
		accepted_options "$c" | grep -xF -- "$o" >/dev/null ||
			fail "$o, an item of the page for ${c/global/the global options}, is not an option fsloadctl ${c/global/} accepts"
	done < <(man_option_items)
	[ "$n" -ge 60 ] || fail "only $n option items found in the page"
	all=$(for c in global $(help_block "commands:" | awk '{ print $1 }'); do
		accepted_options "$c"
	done | sort -u)
	while read -r o; do
		printf '%s\n' "$all" | grep -xF -- "$o" >/dev/null ||
			fail "the page names $o, which no fsloadctl command accepts"
	done < <(grep -v 'scripts/' "$page" |
		grep -oE '\\-\\-[a-z][a-z0-9]*(\\-[a-z0-9]+)*' | sed 's/\\//g' | sort -u)
}

t_profiles() {
	local p n=0

	# profile names; "(start --job FILE)" is not one
	for p in $(help_block "profiles (start --profile):" | awk '$1 ~ /^[a-z][a-z0-9_-]*$/ { print $1 }'); do
		n=$((n + 1))
		has_item PROFILES "$p" || fail "profile '$p' is not an item of PROFILES"
	done
	[ "$n" -ge 1 ] || fail "no profiles in 'fsloadctl help'"
}

# The operations a job file names (include/fsload/engine.h), in JOB FILES.
t_job_file_ops() {
	local op n=0

	while read -r op; do
		n=$((n + 1))
		section "JOB FILES" | grep -qE "(^|[ ,])$op([ ,.;]|$)" ||
			fail "operation '$op' (include/fsload/engine.h) is not in JOB FILES"
	done < <(grep -oE '\.name = "[a-z_]+"' "$repo/include/fsload/engine.h" |
		sed -E 's/.*"(.*)"/\1/' | grep -vx unknown)
	[ "$n" -ge 5 ] || fail "only $n operations found in include/fsload/engine.h"
}

t_exit_status() {
	local c

	for c in $(help_block "exit status:" | grep -oE '^  [0-9]+'); do
		has_item "EXIT STATUS" "$c" || fail "exit status $c is not in EXIT STATUS"
	done
}

t_columns() {
	local c n=0

	# The results table's columns, as ctl/report/results.c prints them
	for c in $(python3 "$repo/tests/docs.py" --columns results); do
		n=$((n + 1))
		has_item OUTPUT "$c" || fail "column '$c' (ctl/report/results.c) is not an item of OUTPUT"
	done
	[ "$n" -ge 10 ] || fail "only $n columns found in ctl/report/results.c"
}

t_environment() {
	local v

	while read -r v; do
		has_item ENVIRONMENT "$v" || fail "environment variable $v is not in ENVIRONMENT"
	done < <(cat "$repo"/ctl/*/*.c | grep -oE 'getenv\("[A-Z_a-z0-9]+"\)' |
		sed -E 's/getenv\("(.*)"\)/\1/' | sort -u)
}

t_sections() {
	local s

	for s in NAME SYNOPSIS DESCRIPTION COMMANDS "START OPTIONS" PROFILES \
		"JOB FILES" OUTPUT "JSON OUTPUT" "EXIT STATUS" ENVIRONMENT FILES EXAMPLES \
		"SEE ALSO"; do
		grep -qx "$s" "$tmp/page.txt" || fail "no section $s"
	done
}

ktap_plan 10
ktap_run man_renders_without_warnings t_render
ktap_run man_sections t_sections
ktap_run man_commands t_commands
ktap_run man_options t_options
ktap_run man_options_accepted t_options_accepted
ktap_run man_profiles t_profiles
ktap_run man_job_file_ops t_job_file_ops
ktap_run man_exit_status t_exit_status
ktap_run man_columns t_columns
ktap_run man_environment t_environment
ktap_finish
