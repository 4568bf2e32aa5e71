#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""layering.py - lib/ depends on nothing above it, each folder of lib/ only
on those LAYERS declares below it, and tools/ on itself without cycles.

The graph is derived, not listed: a file depends on every project header
it #includes, and a .c file on every other .c file that defines an extern
symbol (function or object) its compiled object uses, as nm(1) shows the
objects of the build.  It fails when
  - files of lib/ (and include/) include or call each other in a circle,
  - a file of lib/ includes a header of tools/,
  - a folder of lib/ depends on one that LAYERS does not put below it,
    or on one its Makemodule.am's LIBADD does not name (even through
    another),
  - files of one tool (tools/NAME/) include or call each other in a
    circle, or a tool includes a file of another tool ("../B/x.h",
    "tools/B/x.h"),
  - a .c file of lib/ or tools/ is named by no Makemodule.am's _SOURCES
    (nothing builds it, so nothing checks it), or has no object in the
    build though this configuration builds it (a file built only under
    an automake conditional that is off, by config.status, is a note),
  - Makefile.am and its fragments list a file twice in TESTS or in
    EXTRA_DIST (automake runs a test once however often it is named, so
    a second listing hides the first's edits).

    layering.py SRCDIR BUILDDIR     check the tree
    layering.py --selftest          prove it catches each fault (needs $CC)
"""
import os
import re
import subprocess
import sys
import tempfile

# The declared order of lib/'s folders: each may depend on those listed
# for it (and on what they may), nothing else.  include/sysapi is sysapi's.
# util and sampling-cli are the tools' helpers (they may print and exit);
# util is generic, sampling-cli is the samplers' command line.
LAYERS = {
    'base': (),
    'sysapi': ('base',),
    'symbols': ('base',),
    'disasm': ('base',),
    'unwind': ('symbols',),
    'trace': ('sysapi',),
    'profile': ('sysapi', 'unwind', 'disasm'),
    'util': ('sysapi',),
    'sampling-cli': ('profile', 'util'),
}
# The library each folder builds, as LIBADD names it.
LIBRARY = {
    'base': 'libbase.la', 'sysapi': 'libsysapi.la',
    'symbols': 'libsymbols.la', 'disasm': 'libdisasm.la',
    'unwind': 'libunwinder.la',
    'trace': 'libtrace.la',
    'profile': 'libprofile.la', 'util': 'libutil.la',
    'sampling-cli': 'libsamplingcli.la',
}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
SOURCE_EXT = ('.c', '.h')


def sources(top, subdirs):
    """Every .c and .h below top/subdir, as paths relative to top."""
    out = []
    for sub in subdirs:
        for root, dirs, files in os.walk(os.path.join(top, sub)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(SOURCE_EXT):
                    out.append(os.path.relpath(os.path.join(root, f), top))
    return out


def resolve(top, rel, name, quote, search):
    """The project file an #include names, relative to top, or None."""
    dirs = ([os.path.dirname(rel)] if quote == '"' else []) + search
    for d in dirs:
        cand = os.path.normpath(os.path.join(d, name))
        if not cand.startswith('..') and os.path.isfile(os.path.join(top, cand)):
            return cand
    return None


def include_edges(top, files, search):
    """{file: {header: 'include'}} and the tools/ headers lib/ includes."""
    edges, bad = {}, []
    for rel in files:
        with open(os.path.join(top, rel), errors='replace') as f:
            text = f.read()
        for quote, name in INCLUDE_RE.findall(text):
            target = resolve(top, rel, name, quote, search)
            if target is None:
                if name.startswith('tools/') or '/tools/' in name:
                    bad.append((rel, name))
                continue
            if target.startswith('tools' + os.sep):
                bad.append((rel, name))
            edges.setdefault(rel, {})[target] = '#include "%s"' % name
    return edges, bad


def object_for(build, rel, stems):
    """The object the build made of rel (a .c), or None: X.o, or
    TARGET-X.o when the target has flags of its own, libtool's .libs/
    first."""
    d, base = os.path.split(rel)
    stem = base[:-2]
    for sub in ('.libs', ''):
        where = os.path.join(build, d, sub)
        try:
            names = sorted(os.listdir(where))
        except OSError:
            continue
        for n in names:
            if not n.endswith('.o'):
                continue
            s = n[:-2]
            if s == stem:
                return os.path.join(where, n)
            if s.endswith('-' + stem):
                prefix = s[:-len(stem) - 1]
                # "dso-symtab.o" is dso-symtab.c's, not symtab.c's
                if prefix + '-' + stem not in stems and '-' not in prefix:
                    return os.path.join(where, n)
    return None


def nm_symbols(objs, nm):
    """{obj: (defined, used)} extern symbols of objects, from one nm run
    per 200 of them (a run each took most of the test's time on a loaded
    machine: 300 processes)."""
    out = {o: (set(), set()) for o in objs}
    for i in range(0, len(objs), 200):
        text = subprocess.run([nm, '-P', '-A'] + objs[i:i + 200], check=True,
                              capture_output=True, text=True).stdout
        for line in text.splitlines():
            obj, sep, rest = line.partition(': ')
            parts = rest.split()
            if not sep or obj not in out or len(parts) < 2:
                continue
            name, kind = parts[0], parts[1]
            if kind == 'U':
                out[obj][1].add(name)
            elif kind in 'TDBRGSVW' and kind.isupper():
                out[obj][0].add(name)
    return out


def call_edges(build, files, nm):
    """{a.c: {b.c: 'calls f, g'}} from the objects; and missing objects."""
    cfiles = [f for f in files if f.endswith('.c')]
    stems = {}
    for f in cfiles:
        stems.setdefault(os.path.dirname(f), set()).add(os.path.basename(f)[:-2])
    owner, uses, missing, objs = {}, {}, [], {}
    for f in cfiles:
        obj = object_for(build, f, stems[os.path.dirname(f)])
        if obj is None:
            missing.append(f)
        else:
            objs[f] = obj
    syms = nm_symbols(sorted(set(objs.values())), nm)
    for f, obj in objs.items():
        defined, used = syms[obj]
        for sym in defined:
            owner.setdefault(sym, f)
        uses[f] = used
    edges = {}
    for f, used in uses.items():
        for sym in sorted(used):
            g = owner.get(sym)
            if g and g != f:
                e = edges.setdefault(f, {})
                e[g] = (e[g] + ', ' if g in e else 'uses ') + sym
    return edges, missing


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan), and
    files that include themselves."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    nodes = set(edges)
    for e in edges.values():
        nodes.update(e)

    def visit(v):
        # iterative, so that deep include chains cannot hit the recursion limit
        work = [(v, iter(sorted(edges.get(v, {}))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1 or node in edges.get(node, {}):
                        out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def below(layers, folder):
    """The folders folder may depend on: LAYERS' closure."""
    out, todo = set(), list(layers.get(folder, ()))
    while todo:
        f = todo.pop()
        if f not in out:
            out.add(f)
            todo.extend(layers.get(f, ()))
    return out


def folder_of(path):
    """lib/X/... and include/X/... -> X; None for others."""
    parts = path.split(os.sep)
    return parts[1] if len(parts) > 2 and parts[0] in ('lib', 'include') else None


def libadd(src, folder):
    """The libraries lib/FOLDER/Makemodule.am's LIBADD names."""
    try:
        with open(os.path.join(src, 'lib', folder, 'Makemodule.am')) as f:
            text = f.read()
    except OSError:
        return set()
    names = set()
    for m in re.finditer(r'^\w+_LIBADD\s*\+?=((?:.*\\\n)*.*)$', text, re.M):
        names.update(w for w in m.group(1).split() if w.endswith('.la'))
    return names


def layer_problems(src, edges, layers, libraries):
    """Folder dependencies that LAYERS or the LIBADDs do not allow;
    libraries is LIBRARY, the library each folder builds."""
    problems, seen = [], set()
    lib_of = {v: k for k, v in libraries.items()}
    declared = {f: {lib_of[n] for n in libadd(src, f) if n in lib_of}
                for f in layers}
    for a in sorted(edges):
        for b in sorted(edges[a]):
            fa, fb = folder_of(a), folder_of(b)
            if not fa or not fb or fa == fb or fa not in layers:
                continue
            if fb not in below(layers, fa) and (fa, fb, 'order') not in seen:
                seen.add((fa, fb, 'order'))
                problems.append('lib/%s depends on lib/%s, which LAYERS does '
                                'not put below it: %s -> %s (%s)'
                                % (fa, fb, a, b, edges[a][b]))
            if (fb in layers and fb not in below(declared, fa) and
                    (fa, fb, 'libadd') not in seen and os.path.exists(
                        os.path.join(src, 'lib', fa, 'Makemodule.am'))):
                seen.add((fa, fb, 'libadd'))
                problems.append('lib/%s/Makemodule.am does not link %s, '
                                'which it uses: %s -> %s (%s)'
                                % (fa, libraries[fb], a, b, edges[a][b]))
    return problems


def automake_vars(src):
    """The variables Makefile.am and the fragments it includes set:
    {NAME: [(word, conds, 'file:line')]}, conds the frozenset of 'C' or
    '!C' of the if-blocks around the assignment, $(VAR)s not expanded."""
    out = {}

    def read(rel, stack):
        try:
            with open(os.path.join(src, rel)) as f:
                lines = f.read().split('\n')
        except OSError:
            return
        i = 0
        while i < len(lines):
            start, line = i + 1, lines[i]
            while line.endswith('\\') and i + 1 < len(lines):
                i += 1
                line = line[:-1] + ' ' + lines[i]
            i += 1
            if line.startswith('\t'):	# a recipe
                continue
            line = re.sub(r'(^|[^\\])#.*', r'\1', line).strip()
            word = line.split()
            if not word:
                continue
            if word[0] == 'if' and len(word) == 2:
                stack.append(word[1])
            elif word[0] == 'else' and stack:
                c = stack.pop()
                stack.append(c[1:] if c.startswith('!') else '!' + c)
            elif word[0] == 'endif' and stack:
                stack.pop()
            elif word[0] == 'include' and len(word) == 2:
                read(re.sub(r'^\$\((top_)?srcdir\)/', '', word[1]), stack)
            else:
                m = re.match(r'^([A-Za-z_][A-Za-z0-9_]*)\s*(\+?=|:=)(.*)$',
                             line)
                if not m:
                    continue
                name, op, value = m.groups()
                if op != '+=' and not stack:
                    out[name] = []
                where = '%s:%d' % (rel, start)
                out.setdefault(name, []).extend(
                    (w, frozenset(stack), where) for w in value.split())

    read('Makefile.am', [])
    return out


def expand(am, name, conds=frozenset(), seen=()):
    """NAME's words with $(VAR)s expanded: [(word, conds, where)]."""
    out = []
    for word, c, where in am.get(name, ()):
        m = re.fullmatch(r'\$[({](\w+)[)}]', word)
        if m and m.group(1) not in seen:
            out += expand(am, m.group(1), conds | c, seen + (name,))
        else:
            out.append((word, conds | c, where))
    return out


def exclusive(a, b):
    """Whether condition sets a and b cannot both hold (if C / else)."""
    return any(('!' + c if not c.startswith('!') else c[1:]) in b for c in a)


def listing_problems(am):
    """A word TESTS or EXTRA_DIST names twice where both can hold."""
    problems = []
    for var in ('TESTS', 'EXTRA_DIST'):
        seen = {}
        for word, conds, where in expand(am, var):
            for c, w in seen.get(word, ()):
                if not exclusive(c, conds):
                    problems.append('%s is listed twice in %s: %s and %s '
                                    '(list it once)' % (word, var, w, where))
                    break
            seen.setdefault(word, []).append((conds, where))
    return problems


def cycle_problems(edges):
    problems = []
    for comp in cycles(edges):
        lines = ['a cycle between %s:' % ', '.join(comp)]
        for a in comp:
            for b in comp:
                if b in edges.get(a, {}):
                    lines.append('    %s -> %s (%s)' % (a, b, edges[a][b]))
        problems.append('\n'.join(lines))
    return problems


def merged(*parts):
    edges = {}
    for part in parts:
        for a, targets in part.items():
            for b, why in targets.items():
                e = edges.setdefault(a, {})
                e[b] = e[b] + '; ' + why if b in e else why
    return edges


def tools_problems(src, build, nm):
    """Cycles among the files of each tool; and objects not found."""
    problems, missing = [], []
    for tool in sorted(os.listdir(os.path.join(src, 'tools'))
                       if os.path.isdir(os.path.join(src, 'tools')) else []):
        sub = os.path.join('tools', tool)
        if not os.path.isdir(os.path.join(src, sub)):
            continue
        files = sources(src, (sub,))
        # the top too, so that "tools/B/x.h" is found as well as "../B/x.h"
        inc, _ = include_edges(src, files, [sub, '.'])
        for a in sorted(inc):
            for b in sorted(inc[a]):
                if (b.startswith('tools' + os.sep) and
                        not b.startswith(sub + os.sep)):
                    problems.append('%s includes %s (%s): a tool never '
                                    'reaches into another tool\'s files; '
                                    'what both need belongs in lib/'
                                    % (a, b, inc[a][b]))
        calls, miss = call_edges(build, files, nm)
        missing += miss
        # a tool's own files only: its includes of lib/ are not cycles
        edges = {a: {b: w for b, w in t.items() if b.startswith(sub + os.sep)}
                 for a, t in merged(inc, calls).items()}
        problems += cycle_problems(edges)
    return problems, missing


def conditions(build):
    """{COND: True/False} for the automake conditionals of the build, from
    its config.status; {} when there is none."""
    out = {}
    try:
        with open(os.path.join(build, 'config.status'), errors='replace') as f:
            for m in re.finditer(r'^S\["(\w+)_TRUE"\]="(.*)"$', f.read(), re.M):
                out[m.group(1)] = m.group(2) == ''
    except OSError:
        pass
    return out


def holds(conds, c):
    """Whether the condition set c holds under conds (COND: bool); one
    the build does not say is taken as off."""
    return all(k.lstrip('!') in conds and
               conds[k.lstrip('!')] != k.startswith('!') for k in c)


def unbuilt_problems(src, build, am, missing):
    """The .c files of lib/ and tools/ (missing: those with no object in
    build) that no Makemodule.am builds, or that one builds in this
    configuration but the build has no object of; and notes for those
    built only under a conditional that is off here."""
    conds = conditions(build)
    listed = {}
    for name in am:
        if name.endswith('_SOURCES'):
            for word, c, _ in expand(am, name):
                if word.endswith('.c'):
                    listed.setdefault(os.path.normpath(word), []).append(c)
    files = sources(src, ('lib', 'tools'))
    included = set()
    for rel in files:
        with open(os.path.join(src, rel), errors='replace') as f:
            for quote, name in INCLUDE_RE.findall(f.read()):
                if name.endswith('.c'):
                    included.add(resolve(src, rel, name, quote, []))
    problems, notes = [], []
    for rel in files:
        if not rel.endswith('.c') or rel in included:
            continue
        if rel not in listed:
            problems.append('%s is built by no Makemodule.am (no _SOURCES '
                            'names it): list it where it belongs, or '
                            'remove it' % rel)
        elif rel in missing and any(holds(conds, c) for c in listed[rel]):
            problems.append('%s has no object in %s though this '
                            'configuration builds it: build the tree '
                            'first' % (rel, build))
        elif rel in missing:
            notes.append('%s is not built in this configuration (%s)'
                         % (rel, ' and '.join(sorted(listed[rel][0]))))
    return problems, notes


def check(src, build, nm='nm', subdirs=('lib', 'include'), layers=None,
          libraries=None):
    files = sources(src, subdirs)
    search = list(subdirs)
    inc, bad = include_edges(src, [f for f in files if f.startswith('lib' + os.sep)]
                             + [f for f in files if not f.startswith('lib' + os.sep)],
                             search)
    calls, missing = call_edges(build, [f for f in files if f.startswith('lib' + os.sep)], nm)
    edges = merged(inc, calls)
    problems = []
    for f, name in bad:
        problems.append('%s includes "%s", a header of tools/: lib/ never '
                        'depends on a tool' % (f, name))
    problems += cycle_problems(edges)
    problems += layer_problems(src, edges, LAYERS if layers is None else layers,
                               LIBRARY if libraries is None else libraries)
    tp, tmissing = tools_problems(src, build, nm)
    problems += tp
    missing += tmissing
    am = automake_vars(src)
    problems += listing_problems(am)
    unbuilt, notes = unbuilt_problems(src, build, am, set(missing))
    problems += unbuilt
    nc = sum(1 for f in files if f.endswith('.c') and f.startswith('lib' + os.sep))
    return problems, notes, nc, sum(len(e) for e in edges.values())


def selftest():
    """A tree with each fault, and one without: the check must see both."""
    cc = os.environ.get('CC') or 'cc'
    cc = cc.split()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        def write(path, text):
            p = os.path.join(tmp, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'w') as f:
                f.write(text)

        write('lib/x/a.h', 'int a(void);\n')
        write('lib/x/b.h', '#ifndef B_H\n#define B_H\nint b(void);\n#include "c.h"\n#endif\n')
        write('lib/x/c.h', '#ifndef C_H\n#define C_H\n#include "b.h"\n#endif\n')
        write('lib/x/a.c', '#include "a.h"\n#include "b.h"\nint a(void) { return b(); }\n')
        write('lib/x/b.c', '#include "b.h"\n#include "a.h"\nint b(void) { return 1; }\nint b2(void);\nint b2(void) { return a(); }\n')
        write('lib/x/d.c', '#include "tools/t/t.h"\nint d(void);\nint d(void) { return 0; }\n')
        write('tools/t/t.h', '\n')
        # lib/y uses lib/x, which the layers do not put below it
        write('lib/y/e.c', '#include "x/a.h"\nint e(void);\nint e(void) { return a(); }\n')
        # a tool's two files calling each other, and including another
        # tool's header, by a relative path and from the top
        write('tools/u/u.h', '\n')
        write('tools/t/p.c', '#include "../u/u.h"\nint p(void);\nint q(void);\nint p(void) { return q(); }\n')
        write('tools/t/q.c', '#include "tools/u/u.h"\nint p(void);\nint q(void);\nint q(void) { return p(); }\n')
        # built by no Makemodule.am; listed but not built; listed under a
        # conditional that is off (config.status), so not built: no fault
        write('lib/x/orphan.c', 'int orphan(void);\n')
        write('lib/x/listed.c', 'int listed(void);\n')
        write('lib/x/opt.c', 'int opt(void);\n')
        write('config.status', 'S["OPT_TRUE"]="#"\nS["OPT_FALSE"]=""\n'
              'S["ON_TRUE"]=""\nS["ON_FALSE"]="#"\n')
        write('lib/x/Makemodule.am', 'libx_la_SOURCES = lib/x/a.c lib/x/b.c '
              'lib/x/d.c lib/x/listed.c\nif ON\nif OPT\n'
              'libx_la_SOURCES += lib/x/opt.c\nendif\nendif\n')
        # lib/y uses lib/x and links only libz.la
        write('lib/y/Makemodule.am', 'liby_la_SOURCES = lib/y/e.c\n'
              'liby_la_LIBADD = libz.la\n')
        write('tools/t/Makemodule.am', 't_SOURCES = tools/t/p.c tools/t/q.c\n')
        objs = [('lib/x', 'a'), ('lib/x', 'b'), ('lib/x', 'd'), ('lib/y', 'e'),
                ('tools/t', 'p'), ('tools/t', 'q')]
        for d, c in objs:
            subprocess.run(cc + ['-c', '-I', tmp, '-I', os.path.join(tmp, 'lib'),
                                 '-o', os.path.join(tmp, d, '%s.o' % c),
                                 os.path.join(tmp, d, '%s.c' % c)], check=True)
        # a test listed twice, through a variable and in a fragment; a
        # file in both branches of a conditional is listed once
        write('Makefile.am', 'TESTS =\nEXTRA_DIST = a.sh\n'
              'X_TESTS = \\\n\ta.sh b.sh\nTESTS += $(X_TESTS)\n'
              'include $(srcdir)/t/Makemodule.am\n'
              'include lib/x/Makemodule.am\ninclude lib/y/Makemodule.am\n'
              'include tools/t/Makemodule.am\n')
        write('t/Makemodule.am', '# comment a.sh\nTESTS += c.sh \\\n'
              '\ta.sh\nif C\nEXTRA_DIST += d.sh\nelse\nEXTRA_DIST += d.sh\n'
              'endif\nEXTRA_DIST += b.sh\n')
        layers = {'x': (), 'y': ()}
        libraries = {'x': 'libx.la', 'y': 'liby.la'}
        problems, notes, _, _ = check(tmp, tmp, layers=layers,
                                      libraries=libraries)
        text = '\n'.join(problems)
        for want in ('lib/x/a.c -> lib/x/b.c (uses b)', 'lib/x/b.c -> lib/x/a.c (uses a)',
                     'lib/x/b.h -> lib/x/c.h', 'lib/x/c.h -> lib/x/b.h',
                     'lib/x/d.c includes "tools/t/t.h"',
                     'lib/y depends on lib/x, which LAYERS does not put below it',
                     'tools/t/p.c -> tools/t/q.c (uses q)',
                     'tools/t/q.c -> tools/t/p.c (uses p)',
                     'a.sh is listed twice in TESTS: Makefile.am:3 and '
                     't/Makemodule.am:2',
                     'lib/y/Makemodule.am does not link libx.la, which it '
                     'uses: lib/y/e.c -> lib/x/a.c (uses a)',
                     'lib/x/orphan.c is built by no Makemodule.am',
                     'lib/x/listed.c has no object in',
                     'tools/t/p.c includes tools/u/u.h (#include "../u/u.h")',
                     'tools/t/q.c includes tools/u/u.h (#include '
                     '"tools/u/u.h")'):
            if want not in text:
                print('selftest: not found: %s\n%s' % (want, text))
                ok = False
        if 'd.sh' in text or 'b.sh' in text:
            print('selftest: a file listed once reported:\n%s' % text)
            ok = False
        if 'opt.c' in text or notes != [
                'lib/x/opt.c is not built in this configuration (ON and OPT)']:
            print('selftest: opt.c, off in this configuration: %s; notes %s'
                  % (text, notes))
            ok = False
        # without the faults: clean
        write('lib/x/b.c', '#include "b.h"\nint b(void) { return 1; }\n')
        write('lib/x/b.h', 'int b(void);\n')
        write('lib/x/d.c', 'int d(void);\nint d(void) { return 0; }\n')
        write('tools/t/p.c', 'int p(void);\nint q(void);\nint p(void) { return q(); }\n')
        write('tools/t/q.c', 'int q(void);\nint q(void) { return 1; }\n')
        write('t/Makemodule.am', 'TESTS += c.sh\n')
        write('lib/y/Makemodule.am', 'liby_la_SOURCES = lib/y/e.c\n'
              'liby_la_LIBADD = libx.la\n')
        os.remove(os.path.join(tmp, 'lib/x/orphan.c'))
        os.remove(os.path.join(tmp, 'lib/x/listed.c'))
        for d, c in (('lib/x', 'b'), ('lib/x', 'd'), ('tools/t', 'p'),
                     ('tools/t', 'q')):
            subprocess.run(cc + ['-c', '-I', tmp, '-o', os.path.join(tmp, d, '%s.o' % c),
                                 os.path.join(tmp, d, '%s.c' % c)], check=True)
        layers['y'] = ('x',)
        problems, _, _, _ = check(tmp, tmp, layers=layers,
                                  libraries=libraries)
        if problems:
            print('selftest: a clean tree reported:\n%s' % '\n'.join(problems))
            ok = False
    print('selftest: %s' % ('ok' if ok else 'FAILED'))
    return ok


def main(argv):
    if argv[1:] == ['--selftest']:
        return 0 if selftest() else 1
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    problems, notes, nc, ne = check(argv[1], argv[2], os.environ.get('NM') or 'nm')
    for n in notes:
        print('note: ' + n)
    print('%d files of lib/, %d dependencies' % (nc, ne))
    for p in problems:
        print('FAIL: ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
