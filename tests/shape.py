#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The sources' shape (issue 30): files and functions small enough to read.

  - every .c under ctl/ is at most 1000 lines;
  - every function in ctl/, module/ and include/fsload/ is at most 120
    lines, but the engine's hot loop (include/fsload/engine-loop.h's
    fsload_engine_body).

A function is found the kernel-style way: a line that is exactly "{"
opens its body, the next line that is exactly "}" closes it, and its name
is that of the nearest line before the "{" that holds a "(".  Generated
files (*-gen.c, *-gen.h) are left out.  A function's size is its
body's lines, the "{" and the "}" included.

Host-side, KTAP output; exit 0 unless a case failed.

    tests/shape.py [REPO]
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from ktap import Fail, run  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILE_MAX = 1000
FUNC_MAX = 120
FUNC_DIRS = ["ctl", "module", os.path.join("include", "fsload")]
# The engine's hot loop: one function on purpose (Documentation/design.rst).
EXEMPT = {(os.path.join("include", "fsload", "engine-loop.h"),
           "fsload_engine_body")}
NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def files(repo, top, exts):
    """The non-generated files of @top ending in @exts, relative to @repo."""
    out = []
    for root, dirs, names in os.walk(os.path.join(repo, top)):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(names):
            if f.endswith(exts) and not f.endswith(("-gen.c", "-gen.h")):
                out.append(os.path.relpath(os.path.join(root, f), repo))
    return out


def lines(repo, path):
    with open(os.path.join(repo, path), encoding="utf-8",
              errors="replace") as f:
        return f.read().split("\n")[:-1] or [""]


def functions(text):
    """(name, lines) of each function body of @text, a list of lines."""
    out = []
    name, start = None, None
    for i, line in enumerate(text):
        if line == "{" and start is None:
            for j in range(i - 1, -1, -1):
                if "(" in text[j]:
                    m = NAME.findall(text[j].split("(")[0] + "(")
                    name, start = (m[-1] if m else "?"), i
                    break
            else:
                name, start = "?", i
        elif line == "}" and start is not None:
            out.append((name, i - start + 1))
            start = None
    return out


def t_files(repo):
    bad = [f"{f} ({n})" for f in files(repo, "ctl", (".c",))
           for n in [len(lines(repo, f))] if n > FILE_MAX]
    if bad:
        raise Fail(f"over {FILE_MAX} lines: " + ", ".join(bad))


def t_functions(repo):
    bad = []
    for top in FUNC_DIRS:
        for f in files(repo, top, (".c", ".h")):
            for name, n in functions(lines(repo, f)):
                if n > FUNC_MAX and (f, name) not in EXEMPT:
                    bad.append(f"{f}: {name} ({n})")
    if bad:
        raise Fail(f"functions over {FUNC_MAX} lines: " + ", ".join(bad))


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else REPO)
    return run([("shape_ctl_files_at_most_1000_lines",
                 lambda: t_files(repo)),
                ("shape_functions_at_most_120_lines",
                 lambda: t_functions(repo))])


if __name__ == "__main__":
    sys.exit(main())
