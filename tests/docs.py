#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The documentation (README.md, Documentation/*.rst) names only what
exists, and every member of a list it gives as complete:

- op types: the spec's (Documentation/netlink/specs/fsload.yaml) and the
  job files' names for them (with their aliases, ctl/workload/jobfile.c);
  a paragraph or table naming eight or more of them is a list of op types
  and must name all of them; FSLOAD_OP_* names are the uapi header's;
- profiles: `fsloadctl help`'s; every `--profile NAME` names one, and
  Documentation/profiles.rst has a section for each;
- options: every option of an fsloadctl command line in a literal block
  is an option of that command (`fsloadctl help COMMAND`); every other
  ``--option`` the pages name is fsloadctl's, fsloadctl-mpi's,
  scripts/vm-run's or one of the other tools' listed below;
- output columns: each table fsloadctl prints (COLUMN_TABLES below: the
  results, latency, progress, CPU, series, CPU-profile, list and engines
  tables) has a column table in Documentation/ (a list-table after its
  label), and that table names exactly the columns, in order, that the
  print calls of its header in ctl/ print;
- the threat table (Documentation/security.rst): a row for every
  netlink command and multicast group of the spec, every attribute of
  every attribute set named in its set's row, and a row for every
  fsloadctl command; a row for one that does not exist fails too;
- the pages themselves: each parses as reStructuredText without a
  warning, is in index.rst's toctree, and every :ref:, :doc: and README
  link resolves.

The option reference is the man page, which tests/man.sh holds to
`fsloadctl help`.  Host-side, KTAP output, last line "N passed, N failed".

    tests/docs.py [FILE...]     default: README.md Documentation/*.rst
    tests/docs.py --commands [FILE...]
                                print the fsloadctl command lines of the
                                pages (tests/guest/doc-commands.sh runs
                                them)
    tests/docs.py --columns TABLE
                                print the columns of fsloadctl's TABLE
                                (results, latency, ...), one a line, as
                                its sources print them (tests/man.sh)
"""

import glob
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(REPO, 'ctl', 'fsloadctl')
DOCDIR = os.path.join(REPO, 'Documentation')

# ``--option``s of other tools that the pages name, by tool.
OTHER_OPTIONS = {
    'mpirun': ['--allow-run-as-root', '--oversubscribe', '--mca', '--host'],
    'make/kbuild, git, dkms, apt': ['--all', '--list', '--strict', '--no-tree',
                                    '--bisect', '--first-parent', '--always',
                                    '--dirty'],
    'perf, ynl, qemu, mkfs': ['--spec', '--schema', '--dump', '--do', '--json',
                              '--subscribe', '--sleep', '--call-graph',
                              '--no-inline'],
    'dmsetup': ['--noflush'],
    'fio': ['--iodepth'],
}


def ktap_out():
    state = {'n': 0, 'pass': 0, 'fail': 0, 'skip': 0}

    def run(name, fn):
        state['n'] += 1
        errs = []
        try:
            fn(errs)
        except SkipCase as e:
            print('# SKIP: %s' % e)
            state['skip'] += 1
            print('ok %d %s # SKIP' % (state['n'], name))
            return
        for e in errs:
            print('# FAIL: %s' % e)
        if errs:
            state['fail'] += 1
            print('not ok %d %s' % (state['n'], name))
        else:
            state['pass'] += 1
            print('ok %d %s' % (state['n'], name))
    return state, run


class SkipCase(Exception):
    pass


def sh(*args):
    return subprocess.run(args, capture_output=True, text=True).stdout


# --- sources of truth ---------------------------------------------------

def spec_ops():
    import yaml
    with open(os.path.join(DOCDIR, 'netlink/specs/fsload.yaml')) as f:
        spec = yaml.safe_load(f)
    for d in spec['definitions']:
        if d['name'] == 'op':
            return [e['name'] if isinstance(e, dict) else e
                    for e in d['entries']]
    raise RuntimeError('no enum "op" in the spec')


def jobfile_ops():
    """The names a job file's op = TYPE takes: the engine's op names
    (include/fsload/engine.h) and jobfile.c's aliases."""
    with open(os.path.join(REPO, 'include/fsload/engine.h')) as f:
        names = re.findall(r'\.name = "([a-z_]+)"', f.read())
    with open(os.path.join(REPO, 'ctl/workload/jobfile.c')) as f:
        aliases = re.findall(r'strcmp\(s, "([a-z_]+)"\)', f.read())
    return [n for n in names if n != 'unknown'], aliases


def uapi_op_macros():
    with open(os.path.join(REPO, 'include/uapi/linux/fsload.h')) as f:
        return set(re.findall(r'\b(FSLOAD_OP_[A-Z0-9_]+)\b', f.read()))


def help_block(text, header):
    out, on = [], False
    for line in text.split('\n'):
        if line == header:
            on = True
            continue
        if on and not line:
            break
        if on:
            out.append(line)
    return out


def profiles():
    return [ln.split()[0] for ln in help_block(sh(TOOL, 'help'),
                                             'profiles (start --profile):')
            if re.match(r'^\s+[a-z][a-z0-9_-]*\s', ln)]


def commands():
    return [ln.split()[0] for ln in help_block(sh(TOOL, 'help'), 'commands:')]


def command_options():
    opts = {}
    glob_opts = set(re.findall(r'--[a-z][a-z0-9-]*',
                               '\n'.join(help_block(sh(TOOL, 'help'),
                                                    'global options:'))))
    glob_opts.add('--version')
    for c in commands():
        text = sh(TOOL, 'help', c)
        o = set(re.findall(r'(?m)^\s+(--[a-z][a-z0-9-]*)', text))
        opts[c] = o | glob_opts
    return opts, glob_opts


def mpi_options():
    """fsloadctl-mpi's own options (ctl/cmd/mpi*.c), without building it."""
    o = set()
    for p in glob.glob(os.path.join(REPO, 'ctl', '*', '*mpi*.c')):
        with open(p) as f:
            o |= set(re.findall(r'"(--[a-z][a-z0-9-]*)"', f.read()))
    return o


def repo_tool_options():
    """The options the repository's scripts, its Python tests and the
    fuzzer take: those their sources match or define (case labels,
    argparse, strings)."""
    o = set()
    for p in (glob.glob(os.path.join(REPO, 'scripts', '*')) +
              glob.glob(os.path.join(REPO, 'tests', '*.py')) +
              glob.glob(os.path.join(REPO, 'tests', 'fuzz', '*.c'))):
        try:
            with open(p) as f:
                src = f.read()
        except (UnicodeDecodeError, IsADirectoryError):
            continue
        o |= set(re.findall(r'''["'(|\s](--[a-z][a-z0-9-]*)(?=["')|=])''', src))
    return o


def vm_run_options():
    return set(re.findall(r'--[a-z][a-z0-9-]*',
                          sh(os.path.join(REPO, 'scripts/vm-run'), '--help')))


# Each table of fsloadctl's text output: the page and label of its column
# table, and where its header is printed: a source file, a regular
# expression inside its first print call, and one that ends the header.
COLUMN_TABLES = [
    ('results', 'Documentation/measurement.rst', 'results-columns',
     'ctl/report/results.c', r'"phase", W_THREADS', r';'),
    ('latency', 'Documentation/measurement.rst', 'latency-columns',
     'ctl/report/results.c', r'"latency_us"', r'\bfor \(i = 0;'),
    ('progress', 'Documentation/measurement.rst', 'progress-columns',
     'ctl/report/results.c', r'"ops/s_tenth"', r'title = true'),
    ('cpu', 'Documentation/measurement.rst', 'cpu-columns',
     'ctl/report/results.c', r'"cpu_per_op"', r';'),
    ('series', 'Documentation/measurement.rst', 'series-columns',
     'ctl/report/series.c', r'"t_ms", "ops/s"', r';'),
    ('cpu profile', 'Documentation/measurement.rst', 'cpu-profile-columns',
     'ctl/report/profile.c', r'"self/op"', r';'),
    ('list', 'Documentation/output.rst', 'list-columns',
     'ctl/report/job.c', r'"elapsed_s"', r';'),
    ('engines', 'Documentation/output.rst', 'engines-columns',
     'ctl/report/engines.c', r'"engine", "ops"', r'print_fp\("\\n"\);'),
]


def c_args(call):
    """The arguments of a C call's text from its opening parenthesis."""
    args, depth, cur, i = [], 0, '', 0
    while i < len(call):
        ch = call[i]
        if ch == '"':
            j = i + 1
            while call[j] != '"':
                j += 2 if call[j] == '\\' else 1
            cur += call[i:j + 1]
            i = j + 1
            continue
        if ch == '(':
            depth += 1
            if depth == 1:
                i += 1
                continue
        elif ch == ')':
            depth -= 1
            if depth == 0:
                args.append(cur.strip())
                return args
        elif ch == ',' and depth == 1:
            args.append(cur.strip())
            cur = ''
            i += 1
            continue
        cur += ch
        i += 1
    return args


def progress_marks():
    with open(os.path.join(REPO, 'include/uapi/linux/fsload.h')) as f:
        m = re.search(r'FSLOAD_PROGRESS_MARKS\s*=?\s*(\d+)', f.read())
    if not m:
        raise RuntimeError('no FSLOAD_PROGRESS_MARKS in the uapi header')
    return int(m.group(1))


def printed_columns(src_file, start, stop):
    """The column titles a table's header prints: the arguments after the
    format of each print_fp() call from the one holding START to STOP.
    A string is a title; a name is a buffer filled by snprintf() (its
    format without %s) or ARRAY[k].FIELD of a table of titles; a "%u%%"
    over FSLOAD_PROGRESS_MARKS is the marks' percentages."""
    with open(os.path.join(REPO, src_file)) as f:
        src = f.read()
    m = re.search(start, src)
    if not m:
        raise RuntimeError('%s: no %s' % (src_file, start))
    begin = src.rfind('print_fp(', 0, m.start())
    end = re.compile(stop).search(src, m.end())
    span = src[begin:end.end() if end else len(src)]
    cols = []
    for c in re.finditer(r'\bprint_fp(?=\()', span):
        args = c_args(span[c.end():])
        fmt = args[0] if args else ''
        if re.search(r'%\d*u%%', fmt) and \
                'FSLOAD_PROGRESS_MARKS' in ''.join(args):
            n = progress_marks()
            cols += ['%d%%' % (k * 100 // n) for k in range(1, n + 1)]
            continue
        for a in args[1:]:
            if re.fullmatch(r'"[^"]*"', a):
                cols.append(a[1:-1])
                continue
            arr = re.fullmatch(r'([a-z_]+)\[[a-z]\]\.([a-z_]+)', a)
            if arr:
                # a table of { "key", "title", ... } rows: its field
                init = re.search(r'\b%s\[\]\s*=\s*\{(.*?)\n\};' % arr.group(1),
                                 src, re.S)
                decl = re.search(r'struct\s*\{([^}]*)\}\s*%s\[\]' % arr.group(1),
                                 src, re.S)
                fields = re.findall(r'(\w+)\s*;', decl.group(1))
                k = fields.index(arr.group(2))
                for row in re.findall(r'\{([^{}]*)\}', init.group(1)):
                    cols.append(c_args('(' + row + ')')[k].strip('"'))
                continue
            buf = re.search(r'snprintf\(%s, sizeof\(%s\), "([^"]*)"'
                            % (re.escape(a), re.escape(a)), src)
            if buf:
                cols.append(buf.group(1).replace('%s', '').replace('%%', '%'))
    return cols


def report_columns():
    """The results table's header, as ctl/report/results.c prints it."""
    t = COLUMN_TABLES[0]
    return printed_columns(t[3], t[4], t[5])


def doc_columns(text):
    """The columns a list-table names: each row's first cell's literals
    (the header row left out); "``10%`` ... ``100%``" is every tenth."""
    got = []
    for row in re.findall(r'(?m)^   \* - (.*)$', text)[1:]:
        m = re.fullmatch(r'``(\d+)%`` \.\.\. ``(\d+)%``', row.strip())
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            got += ['%d%%' % v for v in range(a, b + 1, a)]
            continue
        got += re.findall(r'``([^`]+)``', row)
    return got


def spec():
    import yaml
    with open(os.path.join(DOCDIR, 'netlink/specs/fsload.yaml')) as f:
        return yaml.safe_load(f)


# --- the documents --------------------------------------------------------

class Doc:
    def __init__(self, path):
        self.path = path
        self.name = os.path.relpath(path, REPO)
        with open(path) as f:
            self.text = f.read()
        self.rst = path.endswith('.rst')

    def paragraphs(self):
        """Blocks of text between blank lines; a table (list-table,
        Markdown) is one block."""
        blocks, cur, lineno, start = [], [], 0, 1
        in_table = False
        for lineno, line in enumerate(self.text.split('\n'), 1):
            if re.match(r'^\.\. list-table::', line):
                in_table = True
            elif in_table and line and not line.startswith(' '):
                in_table = False
            if not line.strip() and not in_table:
                if cur:
                    blocks.append((start, '\n'.join(cur)))
                cur = []
                start = lineno + 1
                continue
            if not cur:
                start = lineno
            cur.append(line)
        if cur:
            blocks.append((start, '\n'.join(cur)))
        return blocks

    def literals(self, text=None):
        t = self.text if text is None else text
        if self.rst:
            return re.findall(r'``([^`]+)``', t)
        return re.findall(r'`([^`]+)`', t)

    def literal_blocks(self):
        """(line number, text) of each line of a literal block: an rST
        block after :: or a code-block, a Markdown fence or indented
        block."""
        lines = self.text.split('\n')
        out = []
        if self.rst:
            i = 0
            while i < len(lines):
                ln = lines[i]
                if ((ln.rstrip().endswith('::') or
                     re.match(r'^\s*\.\. (code-block|code)::', ln)) and
                        not re.match(r'^\.\. (list-table|toctree)::', ln)):
                    i += 1
                    while i < len(lines) and (not lines[i].strip() or
                                              lines[i].startswith(' ') or
                                              lines[i].startswith(':')):
                        if lines[i].startswith(' ') and not \
                                re.match(r'^\s+:[a-z-]+:', lines[i]):
                            out.append((i + 1, lines[i].strip()))
                        i += 1
                    continue
                i += 1
        else:
            fence = False
            for i, ln in enumerate(lines, 1):
                if ln.startswith('```'):
                    fence = not fence
                    continue
                if fence or ln.startswith('    '):
                    out.append((i, ln.strip()))
        return out


CMD_START = re.compile(r'^(?:sudo\s+)?(?:ctl/)?fsloadctl(?:-mpi)?\s|^mpirun\s.*\bfsloadctl-mpi\s'
                       r'|^perf record\s.*\s--\s+fsloadctl\s')


def command_lines(doc):
    """The fsloadctl command lines of a page's literal blocks, as
    (line number, command): a prompt ($ or #) taken off, a line ending in
    a backslash joined to the next, the comment after two spaces and a #
    dropped.  A synopsis (an optional [part], or a placeholder in capitals
    such as ID or FILE) is not a command line."""
    out = []
    blk = doc.literal_blocks()
    i = 0
    while i < len(blk):
        lineno, line = blk[i]
        while line.endswith('\\') and i + 1 < len(blk):
            i += 1
            line = line[:-1].rstrip() + ' ' + blk[i][1]
        i += 1
        line = re.sub(r'^[$#]\s+', '', line)
        line = re.sub(r'\s{2,}#.*$', '', line).strip()
        if not CMD_START.search(line):
            continue
        if re.search(r'\s\[', line) or re.search(r'(?<![$\w/.-])[A-Z][A-Z_]*(?![\w/.-])', line):
            continue
        out.append((lineno, line))
    return out


def documents(files):
    return [Doc(f) for f in files]


# --- cases ----------------------------------------------------------------

def labelled_tables(docs, page, label, what, errs):
    """The list-table after ".. _LABEL:" on PAGE (when PAGE is one of the
    documents checked), one per such page."""
    for d in docs:
        if d.name != page:
            continue
        m = re.search(r'(?ms)^\.\. _%s:.*?\.\. list-table::.*?\n(?=\S)'
                      % re.escape(label), d.text)
        if not m:
            errs.append('%s: no table of %s (.. _%s:)' % (page, what, label))
            continue
        yield d, m.group(0)


def t_ops(docs, errs):
    spec = spec_ops()
    job, aliases = jobfile_ops()
    if len(spec) != len(job):
        errs.append('the spec has %d op types, include/fsload/engine.h %d'
                    % (len(spec), len(job)))
    macros = uapi_op_macros()
    marked = 0
    for d in docs:
        for m in re.finditer(r'\bFSLOAD_OP_[A-Z0-9_]+\b', d.text):
            if m.group(0) not in macros and not m.group(0).startswith('FSLOAD_OP_F_'):
                errs.append('%s: %s is not in the uapi header' % (d.name, m.group(0)))
        for start, block in d.paragraphs():
            if block.startswith('.. list-table::') or block.startswith('|'):
                continue    # a table's rows name ops, and other things
            lits = set(d.literals(block))
            for names in (job, spec):
                got = lits & set(names)
                # A list of op types: eight or more of them named.
                if len(got) >= 8:
                    marked += 1
                    miss = [n for n in names if n not in got]
                    if miss:
                        errs.append('%s:%d: a list of %d op types misses %s '
                                    '(the spec has %d)'
                                    % (d.name, start, len(got),
                                       ', '.join(miss), len(spec)))
                    break
    # The protocol page's table of op types: exactly the spec's.
    for d, tab in labelled_tables(docs, 'Documentation/protocol.rst',
                                  'op-types', 'op types', errs):
        rows = re.findall(r'(?m)^   \* - ``([^`]+)``', tab)
        for r in rows:
            if r not in spec:
                errs.append('%s: op type %s is not in the spec' % (d.name, r))
        for s in spec:
            if s not in rows:
                errs.append('%s: the op table misses %s' % (d.name, s))


def t_profiles(docs, errs):
    known = profiles()
    if len(known) < 5:
        raise SkipCase('only %d profiles in fsloadctl help' % len(known))
    for d in docs:
        for m in re.finditer(r'--profile[ =]+([A-Za-z0-9_-]+)', d.text):
            p = m.group(1)
            if p in ('NAME', 'P') or p.isupper():
                continue
            if p not in known:
                line = d.text.count('\n', 0, m.start()) + 1
                errs.append('%s:%d: --profile %s: no such profile' % (d.name, line, p))
    prof = [d for d in docs if d.name == 'Documentation/profiles.rst']
    for d in prof:
        heads = re.findall(r'(?m)^(\S[^\n]*)\n-{3,}$', d.text)
        names = [h.split()[0] for h in heads]
        for p in known:
            if p not in names:
                errs.append('%s: no section for profile %s' % (d.name, p))
        for n in names:
            if n not in known:
                errs.append('%s: a section for profile %s, which does not exist'
                            % (d.name, n))
        # The table of profiles: one row each.
        rows = re.findall(r'(?m)^   \* - ``([a-z0-9_-]+)``\n     - ', d.text.split('.. _smallfiles:')[0])
        if sorted(rows) != sorted(known):
            errs.append('%s: the table of profiles has %s, fsloadctl help %s'
                        % (d.name, ' '.join(rows), ' '.join(known)))


def cmdline_options(line):
    """(command, [options]) of an fsloadctl command line, or None."""
    m = re.search(r'(?:^|[\s/])fsloadctl(?:-mpi)?\s+((?:--json\s+|-j\s+)?)([a-z]+)(.*)', line)
    if not m:
        return None
    return m.group(2), re.findall(r'(?<![\w-])(--[a-z][a-z0-9-]*)', m.group(3))


def t_options(docs, errs):
    opts, glob_opts = command_options()
    if 'start' not in opts or len(opts['start']) < 20:
        raise SkipCase('fsloadctl help start lists too few options')
    every = set().union(*opts.values()) | mpi_options()
    other = vm_run_options() | repo_tool_options()
    for v in OTHER_OPTIONS.values():
        other |= set(v)
    for d in docs:
        for lineno, line in d.literal_blocks():
            if line.startswith('fsloadctl:'):
                continue      # a message, not a command line
            c = cmdline_options(line)
            if not c:
                continue
            cmd, used = c
            if cmd not in opts:
                if cmd.isupper() or cmd in ('version', 'help'):
                    continue
                errs.append('%s:%d: fsloadctl %s: no such command' % (d.name, lineno, cmd))
                continue
            for o in used:
                if o not in opts[cmd] and o not in mpi_options():
                    errs.append('%s:%d: fsloadctl %s %s: no such option'
                                % (d.name, lineno, cmd, o))
        for lit in d.literals():
            for o in re.findall(r'(?<![\w-])(--[a-z][a-z0-9-]*)', lit):
                if o not in every and o not in other:
                    line = d.text.count('\n', 0, d.text.find(lit)) + 1
                    errs.append('%s:%d: %s: not an option of fsloadctl, '
                                'fsloadctl-mpi, scripts/vm-run or a tool '
                                'tests/docs.py knows' % (d.name, line, o))


def t_columns(docs, errs):
    cols = report_columns()
    if len(cols) < 10:
        errs.append('only %d columns in ctl/report/results.c' % len(cols))
        return
    for what, page, label, src, start, stop in COLUMN_TABLES:
        code = printed_columns(src, start, stop)
        if len(code) < 2:
            errs.append('%s: only %d columns of the %s table found'
                        % (src, len(code), what))
            continue
        if not os.path.exists(os.path.join(REPO, page)):
            errs.append('%s, which documents the %s columns, does not exist'
                        % (page, what))
            continue
        for d, tab in labelled_tables(docs, page, label,
                                      'the %s columns' % what, errs):
            got = doc_columns(tab)
            if got != code:
                miss = [c for c in code if c not in got]
                extra = [c for c in got if c not in code]
                errs.append('%s: the %s table (.. _%s:) names %s; %s prints %s%s%s'
                            % (d.name, what, label, ' '.join(got), src,
                               ' '.join(code),
                               '; missing ' + ' '.join(miss) if miss else '',
                               '; not printed ' + ' '.join(extra) if extra else ''))
    for d, tab in labelled_tables(docs, 'Documentation/measurement.rst',
                                  'results-columns', 'the results columns',
                                  errs):
        units = re.findall(r'(?m)^   \* - .*\n     - (.*)$', tab)[1:]
        for u, row in zip(units, re.findall(r'(?m)^   \* - (.*)$', tab)[1:]):
            if not u.strip() and 'phase' not in row:
                errs.append('%s: column %s has no unit' % (d.name, row))


THREATS = 'Documentation/security.rst'


def section_table(doc, title):
    """The rows of the list-table in the section TITLE of DOC, each a list
    of its cells' text (a cell's lines joined)."""
    m = re.search(r'(?ms)^%s\n[-=~]{3,}\n(.*?)(?=^\S[^\n]*\n[-=~]{3,}\n|\Z)'
                  % re.escape(title), doc.text)
    if not m:
        return None
    t = re.search(r'(?ms)^\.\. list-table::\n.*?\n(?=\S|\Z)', m.group(1))
    if not t:
        return None
    rows = []
    for ln in t.group(0).split('\n'):
        if ln.startswith('   * -'):
            rows.append([ln[6:].strip()])
        elif ln.startswith('     -') and rows:
            rows[-1].append(ln[6:].strip())
        elif ln.startswith('       ') and rows:
            rows[-1][-1] += ' ' + ln.strip()
    return rows[1:]     # without the header row


def t_threats(docs, errs):
    d = [x for x in docs if x.name == THREATS]
    if not d:
        raise SkipCase('%s is not among the pages checked' % THREATS)
    d = d[0]
    s = spec()
    tabs = {}
    for title in ('Netlink: the commands', 'Netlink: the attributes',
                  'fsloadctl: the commands'):
        tabs[title] = section_table(d, title)
        if not tabs[title]:
            errs.append('%s: no table in a section "%s"' % (d.name, title))
            return
    # Commands and multicast groups: a row each.
    want = [o['name'].upper().replace('-', '_') for o in s['operations']['list']]
    groups = [g['name'] for g in s.get('mcast-groups', {}).get('list', [])]
    named = set()
    for row in tabs['Netlink: the commands']:
        named |= set(re.findall(r'``([^`]+)``', row[0]))
    for c in want:
        if c not in named:
            errs.append('%s: netlink command %s (the spec) has no threat-table '
                        'row' % (d.name, c))
    for g in groups:
        if g not in named:
            errs.append('%s: multicast group %s (the spec) has no threat-table '
                        'row' % (d.name, g))
    for n in named:
        if re.fullmatch(r'[A-Z][A-Z_]+', n) and n not in want:
            errs.append('%s: a threat-table row for %s, which is not a command '
                        'of the spec' % (d.name, n))
    # Attributes: each named in its set's row(s).
    sets = {a['name']: [x['name'] for x in a['attributes']]
            for a in s['attribute-sets']}
    rows_of = {}
    for row in tabs['Netlink: the attributes']:
        m = re.match(r'``([^`]+)``', row[0])
        if not m or len(row) < 2:
            errs.append('%s: attribute row "%s" names no attribute set'
                        % (d.name, row[0]))
            continue
        rows_of.setdefault(m.group(1), set()).update(
            re.findall(r'``([^`]+)``', row[1]))
    for name, attrs in sets.items():
        got = rows_of.get(name)
        if got is None:
            errs.append('%s: attribute set %s (the spec) has no threat-table '
                        'row' % (d.name, name))
            continue
        for a in attrs:
            if a not in got:
                errs.append('%s: attribute %s.%s (the spec) is not in its '
                            'threat-table row' % (d.name, name, a))
        for a in sorted(got - set(attrs)):
            errs.append('%s: the threat table names %s.%s, which the spec '
                        'does not have' % (d.name, name, a))
    for name in rows_of:
        if name not in sets:
            errs.append('%s: a threat-table row for attribute set %s, which '
                        'the spec does not have' % (d.name, name))
    # fsloadctl's commands: a row each.
    cmds = commands()
    if len(cmds) < 5:
        errs.append('only %d commands in fsloadctl help' % len(cmds))
        return
    named = set()
    for row in tabs['fsloadctl: the commands']:
        named |= set(re.findall(r'``([^`]+)``', row[0]))
    for c in cmds:
        if c not in named:
            errs.append('%s: fsloadctl command %s has no threat-table row'
                        % (d.name, c))
    for n in sorted(named - set(cmds)):
        errs.append('%s: a threat-table row for fsloadctl %s, which is not '
                    'a command of fsloadctl help' % (d.name, n))


def t_rst(docs, errs):
    try:
        import docutils.core
        import docutils.utils
        from docutils.parsers.rst import roles, directives, Directive
        from docutils import nodes
    except ImportError:
        raise SkipCase('python3-docutils is not installed')
    labels, refs, docrefs, toc = set(), [], [], []

    def ref_role(name, rawtext, text, lineno, inliner, options={}, content=[]):
        m = re.match(r'(?s).*<([^>]+)>$', text)
        (docrefs if name == 'doc' else refs).append(
            (inliner.document.settings.fsload_name, lineno,
             (m.group(1) if m else text).strip()))
        return [nodes.literal(rawtext, text)], []
    roles.register_local_role('ref', ref_role)
    roles.register_local_role('doc', ref_role)

    class TocTree(Directive):
        has_content = True
        option_spec = {'maxdepth': directives.nonnegative_int}

        def run(self):
            toc.extend(x.strip() for x in self.content if x.strip())
            return []
    directives.register_directive('toctree', TocTree)

    pages = [d for d in docs if d.rst]
    for d in pages:
        labels |= set(re.findall(r'(?m)^\.\. _([^:]+):$', d.text))
        res = docutils.core.publish_doctree(
            d.text, source_path=d.path,
            settings_overrides={'report_level': 5, 'halt_level': 5,
                                'fsload_name': d.name})
        for msg in res.traverse(nodes.system_message):
            if msg['level'] >= 2:
                errs.append('%s:%s: %s' % (d.name, msg.get('line', '?'),
                                            msg.astext().split('\n')[0]))
    for name, line, target in refs:
        if target not in labels:
            errs.append('%s:%s: :ref: %s: no such label' % (name, line, target))
    for name, line, target in docrefs:
        if not os.path.exists(os.path.join(DOCDIR, target + '.rst')):
            errs.append('%s:%s: :doc: %s: no such page' % (name, line, target))
    if any(d.name == 'Documentation/index.rst' for d in pages):
        for p in glob.glob(os.path.join(DOCDIR, '*.rst')):
            n = os.path.basename(p)[:-4]
            if n != 'index' and n not in toc:
                errs.append('Documentation/%s.rst is not in index.rst\'s toctree' % n)
        for t in toc:
            if not os.path.exists(os.path.join(DOCDIR, t + '.rst')):
                errs.append('index.rst\'s toctree: no page %s' % t)


def t_links(docs, errs):
    for d in docs:
        if d.rst:
            links = re.findall(r'`[^`<]*<([^>]+)>`__?', d.text)
        else:
            links = re.findall(r'\]\(([^)]+)\)', d.text)
        for ln in links:
            if re.match(r'^[a-z]+://', ln) or ln.startswith('#') or ln.startswith('mailto:'):
                continue
            p = ln.split('#')[0]
            base = os.path.dirname(d.path)
            if not os.path.exists(os.path.join(base, p)):
                errs.append('%s: link %s does not resolve' % (d.name, ln))


def main():
    if sys.argv[1:2] == ['--columns'] and len(sys.argv) == 3:
        for t in COLUMN_TABLES:
            if t[0] == sys.argv[2]:
                print('\n'.join(printed_columns(*t[3:])))
                return 0
        print('no table %s: %s' % (sys.argv[2],
                                   ', '.join(t[0] for t in COLUMN_TABLES)),
              file=sys.stderr)
        return 2
    if sys.argv[1:2] == ['--commands']:
        files = sys.argv[2:] or ([os.path.join(REPO, 'README.md')] +
                                 sorted(glob.glob(os.path.join(DOCDIR, '*.rst'))))
        for d in documents(files):
            for lineno, line in command_lines(d):
                print('%s:%d\t%s' % (d.name, lineno, line))
        return 0
    files = sys.argv[1:] or ([os.path.join(REPO, 'README.md')] +
                             sorted(glob.glob(os.path.join(DOCDIR, '*.rst'))))
    if not os.access(TOOL, os.X_OK):
        r = subprocess.run(['make', '-s', '-C', os.path.join(REPO, 'ctl')],
                           capture_output=True)
        if r.returncode:
            print('1..0 # SKIP cannot build ctl/fsloadctl')
            return 4
    try:
        import yaml  # noqa: F401
    except ImportError:
        print('1..0 # SKIP PyYAML is not installed (python3-yaml)')
        return 4
    docs = documents(files)
    cases = [('docs_op_types', t_ops), ('docs_profiles', t_profiles),
             ('docs_options', t_options), ('docs_columns', t_columns),
             ('docs_threat_table', t_threats), ('docs_rst', t_rst), ('docs_links', t_links)]
    print('TAP version 13')
    print('1..%d' % len(cases))
    state, run = ktap_out()
    for name, fn in cases:
        run(name, lambda errs, fn=fn: fn(docs, errs))
    print('# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0'
          % (state['pass'], state['fail'], state['skip']))
    print('%d passed, %d failed' % (state['pass'], state['fail']))
    return 1 if state['fail'] else 0


if __name__ == '__main__':
    sys.exit(main())
