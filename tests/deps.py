#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What a newcomer's first commands need, checked on a machine that has it
all (issue 13).

order_TARGET: on a machine without kernel headers (a private mount
namespace with empty tmpfs over /usr/src and /lib/modules), `make -n
TARGET` parses and its first command is `scripts/deps.sh TARGET`, for
every target that scripts/deps.sh knows (but `build`, the group of the
building blocks make, module, ctl, tests).  `no_headers_message`: there,
`make module` says what to run.

packages_TARGET: every external command that TARGET runs belongs to a
package that `scripts/deps.sh --list TARGET` names, to one of their
dependencies, or to the base system (Essential or Priority: required:
what debootstrap --variant=minbase installs).  The commands are those of
`make -n TARGET` (with kbuild's own dry run of the module's build) and of
the repository's scripts it reaches (a script reaches the files it names,
outside comments): shell words in command position, python's argument
lists, and, for a script that configures a kernel tree (make allnoconfig
or defconfig), kbuild's dry run of that step (flex, bison, gcc) on the
linux-source tree.  A command found on this machine is mapped to its
package with dpkg -S.  Scripts reached through scripts/kernels.sh run
with KERNEL=, for which the Makefile adds the `kernels` packages.  The
kernel build's own later steps (bc, libelf, libssl) are not dry-run.

not_loaded_message: fsloadctl without the module says how to load it.

root_libraries: the guests of other kernels (scripts/kernels.sh's Debian
root) run the host's fsloadctl and test programs: every shared library
they load but libc's comes from a package of kernels.sh's PACKAGES
(by the host's package names, which trixie keeps).

Host-side, KTAP output; exit 0 unless a case failed.

    tests/deps.py [CASE...]
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "lib"))
from ktap import Fail, Skip, run as run_cases  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPS = os.path.join(REPO, "scripts", "deps.sh")
SELF = os.path.abspath(__file__)
PATH = "/usr/sbin:/usr/bin:/sbin:/bin"


def env():
    """The environment of a newcomer's make: none of make check's."""
    e = {k: v for k, v in os.environ.items()
         if k not in ("KDIR", "KRELEASE", "KERNEL", "MAKEFLAGS", "MFLAGS",
                      "MAKELEVEL", "MAKEFILES", "MAKEOVERRIDES")}
    e["LC_ALL"] = "C"
    return e


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, env=env(),
                          **kw)


def deps_targets():
    p = run([DEPS, "--targets"])
    if p.returncode:
        raise Fail("scripts/deps.sh --targets: " + p.stderr.strip())
    return p.stdout.split()


# --- the order ------------------------------------------------------------
# One namespace per command: /usr/src and /lib/modules empty, as on a
# machine that scripts/deps.sh has not set up yet.
BARE = ('mount -t tmpfs none /usr/src && mount -t tmpfs none /lib/modules'
        ' && [ -z "$(ls -A /usr/src)" ] && [ -z "$(ls -A /lib/modules)" ]'
        ' && exec "$@"')


def bare(cmd):
    if os.geteuid() != 0:
        raise Skip("needs root (unshare -m)")
    p = run(["unshare", "-m", "--propagation", "private", "sh", "-c", BARE,
             "bare"] + cmd, cwd=REPO)
    if p.returncode == 127 or "unshare:" in p.stderr:
        raise Skip("no private mount namespace: " + p.stderr.strip())
    return p


def t_order(target):
    p = bare(["make", "-n", "--no-print-directory", target])
    if p.returncode:
        raise Fail(f"make -n {target} without kernel headers exited "
                   f"{p.returncode}: {p.stderr.strip()[-400:]}")
    lines = [l for l in p.stdout.splitlines() if l.strip()]
    first = lines[0].strip() if lines else ""
    want = f"scripts/deps.sh {target}"
    if first != want:
        raise Fail(f"make -n {target}: the first command is '{first}', "
                   f"not '{want}'")
    print(f"# make -n {target}: {first}, then {len(lines) - 1} more")


def t_no_headers_message():
    p = bare(["make", "--no-print-directory", "module"])
    if p.returncode == 0:
        raise Fail("make module without kernel headers succeeded")
    if "scripts/deps.sh build" not in p.stderr:
        raise Fail("make module without kernel headers does not say what "
                   "to run: " + p.stderr.strip()[-300:])
    print("# " + [l for l in p.stderr.splitlines() if "deps.sh" in l][0])


# --- the packages -------------------------------------------------------------
def installed_db():
    """name -> (base, [[alternative, ...], ...]) and virtual -> providers,
    for the installed packages."""
    p = run(["dpkg-query", "-W", "-f",
             "${Package}\t${db:Status-Status}\t${Essential}\t${Priority}\t"
             "${Pre-Depends}, ${Depends}\t${Provides}\n"])
    pkgs, provides = {}, {}
    for line in p.stdout.splitlines():
        name, status, ess, prio, deps, prov = line.split("\t")
        if status != "installed":
            continue
        alts = []
        for d in deps.split(","):
            names = [re.sub(r"[:\s(].*", "", a.strip()) for a in d.split("|")]
            names = [n for n in names if n]
            if names:
                alts.append(names)
        pkgs[name] = (ess == "yes" or prio == "required", alts)
        for v in prov.split(","):
            v = re.sub(r"[:\s(].*", "", v.strip())
            if v:
                provides.setdefault(v, set()).add(name)
    return pkgs, provides


def closure(seed, pkgs, provides):
    seen, todo = set(), list(seed)
    while todo:
        n = todo.pop()
        for m in ({n} if n in pkgs else set()) | provides.get(n, set()):
            if m in seen:
                continue
            seen.add(m)
            for alts in pkgs[m][1]:
                todo.extend(alts)
    return seen


# Words that run the next word as a command; their own options skipped.
PREFIX = {"if", "then", "do", "else", "elif", "while", "until", "time",
          "exec", "command", "nice", "sudo", "env", "timeout", "xargs",
          "!", "{", "(", "-v", "-n", "-i"}
HEREDOC = re.compile(r"(?<![<$(])<<-?\s*['\"]?([A-Za-z_]\w*)['\"]?")
SEP = re.compile(r"\$\(|`|&&|\|\||[|;(){}]|\bthen\b|\bdo\b|\belse\b")
WORD = re.compile(r"^(?:[A-Za-z][A-Za-z0-9_.+-]*|/(?:usr/)?s?bin/[\w.+-]+)$")


def line_commands(line):
    """Words in command position in one line of shell."""
    line = re.sub(r"\$?\(\(.*?\)\)", " ", line)	# arithmetic
    # double quotes: only their command substitutions run
    line = re.sub(r'"((?:[^"\\]|\\.)*)"', lambda m: " ; ".join(
        [""] + re.findall(r"\$\((.*?)\)", m.group(1)) + [""]), line)
    # single quotes: a shell's script (sh -c '...') runs, other text not
    line = re.sub(r"(\bsh\s+-\w*c\s+)?'([^']*)'", lambda m: (
        " ; " + m.group(2) + " ; ") if m.group(1) else " ", line)
    words = set()
    for seg in SEP.split(line):
        toks = seg.split()
        while toks and (toks[0] in PREFIX or re.match(r"^\w+=", toks[0])
                        or re.match(r"^[0-9]+$", toks[0])
                        or toks[0].startswith("${")):
            toks.pop(0)
        if toks and WORD.match(toks[0]):
            words.add(toks[0])
    return words


def lex(line):
    """(LINE without its comment, whether it ends inside a single-quoted
    string), read from outside any quote."""
    stack, sq, i = ["code"], False, 0
    while i < len(line):
        c = line[i]
        if sq:
            sq = c != "'"
        elif c == "\\":
            i += 1
        elif stack[-1] == "code" and c == "'":
            sq = True
        elif stack[-1] == "code" and c == "#" and (i == 0 or
                                                   line[i - 1].isspace()):
            return line[:i], False
        elif c == '"':
            if stack[-1] == "dq":
                stack.pop()
            else:
                stack.append("dq")
        elif line.startswith("$(", i):
            stack.append("code")
            i += 1
        elif c == ")" and stack[-1] == "code" and len(stack) > 1:
            stack.pop()
        i += 1
    return line, sq


def strip_sh_comment(line):
    return lex(line)[0]


def open_quote(line):
    """LINE goes on, inside a single-quoted string, over the next lines."""
    return lex(line)[1]


# What runs in another root (scripts/kernels.sh's in_root, chroot) is not
# the host's business.
ELSEWHERE = re.compile(r"\b(in_root|chroot)\b")


def sh_commands(text):
    """Words in command position, outside comments, heredocs and data
    (python3 heredocs and scripts go through py_commands)."""
    words, lines, i = set(), text.splitlines(), 0
    while i < len(lines):
        line = strip_sh_comment(lines[i])
        line = re.sub(r"\$?\(\(.*?\)\)", " ", line)	# arithmetic
        i += 1
        if re.match(r"^\s*(?:local\s+|declare\s+\S+\s+)?\w+=\($", line):
            while i < len(lines) and lines[i].strip() != ")":
                i += 1	# a list of words, one or more a line
            continue
        m = HEREDOC.search(line)
        if m:
            end, body = m.group(1), []
            while i < len(lines) and lines[i].strip() != end:
                body.append(lines[i])
                i += 1
            i += 1
            if re.search(r"\bpython3\b", line):
                words |= py_commands("\n".join(body))
        elif open_quote(line):
            # a single-quoted string over several lines
            body = [line[line.rindex("'") + 1:]]
            while i < len(lines) and "'" not in lines[i]:
                body.append(lines[i])
                i += 1
            if i < len(lines):
                body.append(lines[i][:lines[i].index("'")])
                i += 1
            opener = line[:line.rindex("'")]
            if re.search(r"\bpython3\b", opener):
                words |= py_commands("\n".join(body))
            elif (re.search(r"\b(ba)?sh\s+-\w*c\s*$", opener) and
                  not ELSEWHERE.search(opener)):
                words |= sh_commands("\n".join(body))
            line = opener
        if not ELSEWHERE.search(line):
            words |= line_commands(line)
    return words


def py_commands(text):
    """The program of each argument list: ["prog", ...] and
    subprocess.*("prog"...)."""
    text = "\n".join(l for l in text.splitlines()
                     if not l.lstrip().startswith("#"))
    found = re.findall(r'\[\s*"([A-Za-z][\w.+-]*)"\s*[,\]]', text)
    found += re.findall(r'subprocess\.\w+\(\s*"([A-Za-z][\w.+-]*)"', text)
    return {w for w in found if WORD.match(w)}


def is_python(path, text):
    return path.endswith(".py") or text.startswith("#!/usr/bin/env python")


def is_script(path, text):
    return is_python(path, text) or path.endswith(".sh") or \
        re.match(r"#!/bin/(ba)?sh", text) is not None


def repo_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        return None


def references(path, text):
    """Repository files that PATH names outside its comments."""
    if is_python(path, text):
        code = "\n".join(l for l in text.splitlines()
                         if not l.lstrip().startswith("#"))
        code = code.replace('", "', "/")	# os.path.join(REPO, "a", "b")
    else:
        # files named to shellcheck are checked, not run (its command
        # line joined with its continuation lines first)
        lines = re.sub(r"\\\n", " ", text).splitlines()
        code = "\n".join(strip_sh_comment(l) for l in lines
                         if not re.match(r"\s*shellcheck\b", l))
    refs = set()
    for m in re.finditer(r"(?<![\w.-])((?:scripts|tests|ctl|\.ci)/[\w./-]+)",
                         code):
        refs.add(os.path.join(REPO, m.group(1).rstrip(".")))
    # "$SCRIPTS/vm-init", "$(dirname "$0")/lib.sh": a name of its directory
    here = os.path.dirname(path)
    for name in os.listdir(here):
        if re.search(r"(?<![\w.-])" + re.escape(name) + r"(?![\w.-])", code):
            refs.add(os.path.join(here, name))
    return {r for r in refs if os.path.isfile(r) and r != path}


def reach(seeds, stop=()):
    """The repository's text files reachable from SEEDS, but not through
    STOP, as {path: text}."""
    out, todo = {}, list(seeds)
    while todo:
        p = todo.pop()
        if p in out or p in stop:
            continue
        text = repo_text(p)
        # Scripts only (not the docs, not the C they build), and not
        # scripts/deps.sh, which installs the packages, nor this test.
        if text is None or not is_script(p, text) or p in (DEPS, SELF):
            continue
        out[p] = text
        todo.extend(references(p, text))
    return out


def commands_of(files):
    words = set()
    for p, text in files.items():
        words |= (py_commands if is_python(p, text) else sh_commands)(text)
    return words


CONFIGURES = re.compile(r"\bmake\b[^\n]*\b(allnoconfig|defconfig)\b")


def kbuild_config_dry_run(config_target, tmp):
    """kbuild's commands for `make CONFIG_TARGET` on Debian's linux-source
    (the files a dry run reads, extracted once into the cache)."""
    sh = (f'. "{REPO}/scripts/lib-source.sh" && '
          '[ -f "$LINUX_SOURCE_TARBALL" ] && echo "$LINUX_SOURCE_TARBALL" '
          '&& echo "$FSLOAD_CACHE"')
    p = run(["bash", "-c", sh])
    if p.returncode:
        return None
    tarball, cache = p.stdout.split("\n")[:2]
    top = os.path.basename(tarball)[:-len(".tar.xz")]
    tree = os.path.join(cache, "deps-test", top)
    if not os.path.isfile(os.path.join(tree, "Makefile")):
        os.makedirs(os.path.dirname(tree), exist_ok=True)
        part = tree + ".part"
        shutil.rmtree(part, ignore_errors=True)
        os.makedirs(part)
        x = run(["tar", "-xJf", tarball, "-C", part, "--wildcards",
                 f"{top}/Makefile", f"{top}/scripts/*",
                 f"{top}/arch/x86/Makefile*"])
        if x.returncode:
            raise Fail("extracting kbuild from the tarball: " + x.stderr)
        os.rename(os.path.join(part, top), tree)
        os.rmdir(part)
    obj = tempfile.mkdtemp(dir=tmp)
    d = run(["make", "-n", "-C", tree, "O=" + obj, config_target])
    if d.returncode:
        raise Fail(f"kbuild's dry run of {config_target}: {d.stderr[-300:]}")
    return d.stdout


def owners(paths):
    """path -> package, for the paths dpkg knows (merged /usr: both ways)."""
    variants = {}
    for p in paths:
        r = os.path.realpath(p)
        for v in {p, r}:
            alt = v[4:] if v.startswith("/usr/") else "/usr" + v
            for x in (v, alt):
                variants.setdefault(x, set()).add(p)
    out = {}
    d = run(["dpkg", "-S"] + sorted(variants))
    for line in d.stdout.splitlines():
        if line.startswith("diversion "):
            continue
        pk, _, path = line.partition(": ")
        for p in variants.get(path, ()):
            out.setdefault(p, pk.split(",")[0].split(":")[0])
    return out


DB = None


def t_packages(target):
    global DB
    p = run([DEPS, "--check", target])
    if p.returncode:
        raise Skip(f"not installed here ({p.stderr.strip()}): run "
                   f"scripts/deps.sh {target} first")
    listed = run([DEPS, "--list", target]).stdout.split()
    roots = run([DEPS, "--list", "kernels"]).stdout.split()
    if DB is None:
        DB = installed_db()
    pkgs, provides = DB
    base = [n for n, (b, _) in pkgs.items() if b]
    allowed = closure(base + listed, pkgs, provides)
    allowed_kernel = closure(base + listed + roots, pkgs, provides)

    dry = run(["make", "-n", "--no-print-directory", target], cwd=REPO)
    if dry.returncode:
        raise Fail(f"make -n {target}: {dry.stderr.strip()[-300:]}")
    seeds = {os.path.join(REPO, m) for m in re.findall(
        r"(?<![\w./-])((?:scripts|tests|ctl|\.ci)/[\w./-]+)", dry.stdout)}
    files = reach(seeds)
    kernels_sh = os.path.join(REPO, "scripts", "kernels.sh")
    own = reach(seeds, stop={kernels_sh})
    via_kernel = {p: t for p, t in files.items() if p not in own}

    found = {w: "make -n " + target for w in sh_commands(dry.stdout)}
    for w in commands_of(via_kernel):
        found.setdefault(w, "scripts/kernels.sh")
    kernel_words = set(found)
    for p, text in own.items():
        for w in commands_of({p: text}):
            found[w] = os.path.relpath(p, REPO)
            kernel_words.discard(w)
        for cfg in set(CONFIGURES.findall(
                "\n".join(strip_sh_comment(l) for l in text.splitlines()))):
            with tempfile.TemporaryDirectory() as tmp:
                out = kbuild_config_dry_run(cfg, tmp)
            if out is None:
                raise Skip(f"{os.path.relpath(p, REPO)} configures a "
                           "kernel, and no linux-source tarball is here")
            for w in sh_commands(out):
                found.setdefault(w, f"kbuild {cfg} (from "
                                 f"{os.path.relpath(p, REPO)})")

    builtins = set(run(["bash", "-c", "compgen -b; compgen -k"]).stdout.split())
    functions = set()
    for text in list(files.values()):
        functions |= set(re.findall(r"^\s*(?:function\s+)?([\w-]+)\s*\(\)",
                                    text, re.M))
        functions |= set(re.findall(r"^def (\w+)", text, re.M))
    paths = {}
    for w in found:
        if w in builtins or w in functions:
            continue
        x = w if w.startswith("/") and os.access(w, os.X_OK) else \
            shutil.which(w, path=PATH)
        if x:
            paths[w] = x
    own_pkg = owners(set(paths.values()))
    bad, checked = [], []
    for w, x in sorted(paths.items()):
        pk = own_pkg.get(x)
        ok = allowed_kernel if w in kernel_words else allowed
        if pk is None:
            bad.append(f"{w} ({x}, in {found[w]}): no Debian package has it")
        elif pk not in ok:
            bad.append(f"{w} (package {pk}, in {found[w]}): not in "
                       f"scripts/deps.sh --list {target} nor in what its "
                       "packages and the base system pull in")
        else:
            checked.append(f"{w}:{pk}")
    print(f"# {target}: {len(files)} files, {len(checked)} commands "
          f"covered: {' '.join(checked)}")
    if bad:
        raise Fail("; ".join(bad))


def t_not_loaded_message():
    if os.path.isdir("/sys/module/fsload"):
        raise Skip("the module is loaded here")
    tool = os.path.join(REPO, "ctl", "fsloadctl")
    if not os.access(tool, os.X_OK):
        b = run(["make", "-s", "-C", os.path.join(REPO, "ctl")])
        if b.returncode:
            raise Skip("cannot build ctl/fsloadctl: " + b.stderr[-200:])
    p = run([tool, "status"])
    if p.returncode != 4:
        raise Fail(f"fsloadctl status without the module exited "
                   f"{p.returncode}, not 4: {p.stderr.strip()}")
    for want in ("insmod module/fsload.ko", "modprobe fsload",
                 "make install", "--engine user"):
        if want not in p.stderr:
            raise Fail(f"the message does not say '{want}': "
                       f"{p.stderr.strip()}")
    for line in p.stderr.strip().splitlines():
        print("# " + line)


def root_packages():
    """The package names of scripts/kernels.sh's PACKAGES=( ... )."""
    with open(os.path.join(REPO, "scripts", "kernels.sh")) as f:
        m = re.search(r"^PACKAGES=\(\n(.*?)^\)", f.read(), re.M | re.S)
    if not m:
        raise Fail("no PACKAGES=( ... ) in scripts/kernels.sh")
    return {w for line in m.group(1).splitlines()
            for w in line.split("#")[0].split()}


def t_root_libraries():
    bins = [os.path.join(REPO, "ctl", "fsloadctl")]
    bins += [os.path.join(REPO, "tests", "build", b)
             for b in ("fsload_nl_test", "fsload_fuzz", "mincore")]
    bins = [b for b in bins if os.access(b, os.X_OK)]
    if not bins:
        raise Skip("nothing built (make ctl tests)")
    libs = set()
    for b in bins:
        p = run(["ldd", b])
        libs |= set(re.findall(r"=> (/\S+)", p.stdout))
    pkgs = owners(sorted(libs))
    unowned = sorted(set(libs) - set(pkgs))
    if unowned:
        raise Fail("no package has " + ", ".join(unowned))
    want = set(pkgs.values()) - {"libc6"}
    print("# libraries: " + ", ".join(sorted(
        "%s (%s)" % (os.path.basename(k), v) for k, v in pkgs.items())))
    missing = sorted(want - root_packages())
    if missing:
        raise Fail("not in scripts/kernels.sh's PACKAGES (the guests of "
                   "other kernels lack them): " + ", ".join(missing))


def main():
    targets = [t for t in deps_targets() if t != "build"]
    cases = [(f"order_{t}", t_order, t) for t in targets]
    cases.append(("no_headers_message", t_no_headers_message, None))
    cases += [(f"packages_{t}", t_packages, t) for t in targets]
    cases.append(("not_loaded_message", t_not_loaded_message, None))
    cases.append(("root_libraries", t_root_libraries, None))
    want = sys.argv[1:]
    if want:
        cases = [c for c in cases if c[0] in want]
    return run_cases([(name, (lambda fn=fn, arg=arg: fn(arg))
                       if arg is not None else fn)
                      for name, fn, arg in cases])


if __name__ == "__main__":
    sys.exit(main())
