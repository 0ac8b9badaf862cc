# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the host suites that run fsloadctl share (tests/results.sh,
# tests/user-engine.sh): KTAP (tests/ktap.sh), $repo, $ctl (built when
# missing), python3, and a temporary directory $tmp removed at exit.  The
# whole suite is skipped (exit 4) when fsloadctl or python3 is missing.
# Guest suites have tests/guest/lib.sh.

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tests/ktap.sh
. "$repo/tests/ktap.sh"

if [ ! -x "$repo/ctl/fsloadctl" ]; then
	make -s -C "$repo/ctl" >/dev/null ||
		{ echo "1..0 # SKIP cannot build ctl/fsloadctl"; exit 4; }
fi
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 4; }

# shellcheck disable=SC2034 # for the suites
ctl=$repo/ctl/fsloadctl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
