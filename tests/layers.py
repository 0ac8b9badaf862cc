#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fsloadctl's layers (Documentation/design.rst, "The sources"): every source file of
ctl/ lives in one of the layer directories, lowest first

    lib/  nl/  workload/  engine/  report/  cmd/

and uses only its own layer and those below it:

  - an #include "..." of ctl/ names a header of the same or a lower layer;
  - no two files include each other in a loop (a file and its header,
    x.c and x.h, count as one unit);
  - in the built objects, a symbol a file uses is defined in the same or a
    lower layer, and no two objects use each other in a loop (calls and
    data, from `nm` on ctl/'s objects, which it builds first: make -C
    ctl, and fsloadctl-mpi's objects where mpicc is).

Host-side, KTAP output; exit 0 unless a case failed.

    tests/layers.py [CTL_DIR]
"""

import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from ktap import Fail, Skip, run  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYERS = ["lib", "nl", "workload", "engine", "report", "cmd"]
# Built, not written: not part of any layer.
GENERATED = {"gitrev.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(ctl):
    """Every .c and .h of @ctl, as paths relative to it."""
    out = []
    for root, dirs, files in os.walk(ctl):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for f in sorted(files):
            if f.endswith((".c", ".h")) and f not in GENERATED:
                out.append(os.path.relpath(os.path.join(root, f), ctl))
    return out


def layer(path):
    top = path.split(os.sep)[0]
    return LAYERS.index(top) if top in LAYERS and os.sep in path else None


def unit(path):
    """x.c and x.h are one unit."""
    return os.path.splitext(path)[0]


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def includes(ctl, files):
    """{file: [included file of ctl/]}, resolved as the compiler does:
    the including file's directory first, then ctl/ (-I.)."""
    out = {}
    for f in files:
        with open(os.path.join(ctl, f), encoding="utf-8") as fh:
            text = fh.read()
        got = []
        for name in INCLUDE.findall(text):
            for cand in (os.path.join(os.path.dirname(f), name), name):
                cand = os.path.normpath(cand)
                if os.path.isfile(os.path.join(ctl, cand)):
                    if os.path.basename(cand) not in GENERATED:
                        got.append(cand)
                    break
        out[f] = got
    return out


def t_in_a_layer(ctl, files):
    bad = [f for f in files if layer(f) is None]
    if bad:
        raise Fail("not in a layer directory (%s): %s"
                   % (" ".join(LAYERS), " ".join(bad)))


def t_include_down(ctl, files):
    bad = []
    for f, incs in includes(ctl, files).items():
        for i in incs:
            lf, li = layer(f), layer(i)
            if lf is None or li is None or li > lf:
                bad.append(f"{f} includes {i}")
    if bad:
        raise Fail("includes a higher layer: " + "; ".join(bad))


def t_include_loops(ctl, files):
    graph = {}
    for f, incs in includes(ctl, files).items():
        for i in incs:
            if unit(i) != unit(f):
                graph.setdefault(unit(f), set()).add(unit(i))
    loops = cycles(graph)
    if loops:
        raise Fail("include loops: "
                   + "; ".join(" <-> ".join(c) for c in loops))


def mpi_sources(ctl):
    """The sources ctl/Makefile compiles with mpicc (its MPI_SRCS)."""
    with open(os.path.join(ctl, "Makefile"), encoding="utf-8") as f:
        m = re.search(r"^MPI_SRCS\s*:=\s*(.*)$", f.read(), re.M)
    return set(m.group(1).split()) if m else set()


def objects(ctl, files):
    """{object: (defined symbols, undefined symbols)} of ctl/, built here:
    fsloadctl's objects and, where mpicc is, fsloadctl-mpi's own (a plain
    `make ctl` does not build them)."""
    mpi = mpi_sources(ctl)
    mpicc = shutil.which(os.environ.get("MPICC", "mpicc"))
    targets = ["all"] + ([f[:-2] + ".o" for f in sorted(mpi)] if mpicc
                         else [])
    b = subprocess.run(["make", "-s", "-C", ctl] + targets,
                       capture_output=True, text=True)
    if b.returncode:
        raise Skip("cannot build ctl/: " + b.stderr[-200:])
    out = {}
    for f in files:
        if not f.endswith(".c"):
            continue
        if f in mpi and not mpicc:
            # its includes are checked all the same
            print(f"# {f}: no mpicc, its symbols not checked")
            continue
        obj = os.path.join(ctl, f[:-2] + ".o")
        if not os.path.isfile(obj):
            raise Fail(f"{f}: no object {obj} after make")
        nm = subprocess.run(["nm", obj], capture_output=True, text=True,
                            check=True).stdout
        defs, undefs = set(), set()
        for line in nm.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                undefs.add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDBRCVW":
                defs.add(parts[2])
        out[f] = (defs, undefs)
    return out


def use_graph(ctl, files):
    objs = objects(ctl, files)
    owner = {}
    for f, (defs, _) in objs.items():
        for s in defs:
            owner[s] = f
    graph = {}
    for f, (_, undefs) in objs.items():
        for s in undefs:
            if s in owner and owner[s] != f:
                graph.setdefault(f, {}).setdefault(owner[s], []).append(s)
    return graph


def t_use_down(ctl, files):
    bad = []
    for f, uses in sorted(use_graph(ctl, files).items()):
        for g, syms in sorted(uses.items()):
            lf, lg = layer(f), layer(g)
            if lf is None or lg is None or lg > lf:
                bad.append(f"{f} uses {g} ({', '.join(sorted(syms)[:3])})")
    if bad:
        raise Fail("uses a higher layer: " + "; ".join(bad))


def t_use_loops(ctl, files):
    graph = {f: set(u) for f, u in use_graph(ctl, files).items()}
    loops = cycles(graph)
    if loops:
        raise Fail("objects that use each other in a loop: "
                   + "; ".join(" <-> ".join(c) for c in loops))


CASES = [
    ("layers_every_file_in_a_layer", t_in_a_layer),
    ("layers_includes_go_down", t_include_down),
    ("layers_no_include_loop", t_include_loops),
    ("layers_symbols_go_down", t_use_down),
    ("layers_no_symbol_loop", t_use_loops),
]


def main():
    ctl = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                          else os.path.join(REPO, "ctl"))
    files = sources(ctl)
    return run([(name, lambda fn=fn: fn(ctl, files)) for name, fn in CASES])


if __name__ == "__main__":
    sys.exit(main())
