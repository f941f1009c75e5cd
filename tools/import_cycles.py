#!/usr/bin/env python3
"""Report import circles between the files of Rust crates (and, optionally, over-long files).

    python3 tools/import_cycles.py [--max-lines N] [--long-ok PATH]... SRC_DIR...
    python3 tools/import_cycles.py --max-lines 800 engine/src bot/src lab/src

Each SRC_DIR is a crate's src/ folder.  Its crate roots are lib.rs, main.rs and bin/*.rs
(bin/NAME/main.rs); from each root the script follows `mod NAME;` declarations (honouring
`#[path = "..."]`) to map every module to the file that defines it, the way rustc does.
Inline modules belong to the file they are written in; the bodies of `#[cfg(test)] mod`
blocks are left out (unit tests are not the architecture; `--with-tests` counts them), as
`cargo modules` leaves out `cfg(test)` code unless asked.

What counts as an edge A -> B ("file A needs file B"):

  * a `use` of an item (fn, struct, enum, union, trait, type, const, static, macro_rules)
    whose definition is in file B: `use crate::x::Y`, `use super::Y`, `use self::m::Y`,
    2018-style `use m::Y` where `m` is a module in scope, with `{...}` trees, `as` renames;
  * a path written in the code, outside `use`: `crate::x::y(..)`, `super::Y`, or `m::y`
    where `m` names a module in scope (a child module or a module brought in by `use`);
  * a glob `use M::*`: an edge to the definer of each name of M that the file mentions.

Names are resolved through re-exports (`pub use`, and plain `use` bindings seen through
`super::`): the edge goes to the file that *defines* the item, not to the file that merely
re-exports it.  So `use super::Score` in a child, where the parent only says
`pub use score::Score`, is an edge to score.rs, not to the parent; but `use super::EvalInfo`,
where the parent defines `struct EvalInfo` itself, is an edge child -> parent.  A path that
stops at a module (`use crate::eval;`) is no edge by itself; the paths written through it
are.  A name the script cannot find in a module it knows (made by a macro, say) is charged
to that module's file.

What is not an edge:

  * `mod foo;` (a parent declaring its child) and `mod` attributes;
  * a re-export (`pub use`, `pub(crate) use`, ...) of a name that the file does not itself
    use: a parent's `pub use child::X` only passes X on, and X's users get the edge to the
    child.  (A re-exported name that the file also uses is an ordinary import.)  "Uses"
    means written as an item would be: field accesses (`.x`) and field or argument labels
    (`x: ...`) are not uses of an item `x`;
  * a file's use of itself, so `mod tests { use super::*; }` inside a file adds nothing
    (the glob is resolved like any other, and what it reaches through the file's own
    imports are edges the file already has);
  * paths into other crates (`std::`, `squall::` from the binary or from other crates):
    a crate cannot depend on its dependants, so circles are within one crate;
  * anything inside comments (doc links included) and string literals.

A circle is a strongly connected component of more than one file; each is printed with a
shortest loop through its files and every edge inside it, with the line that made it.

--max-lines N also reports every .rs file longer than N lines, except those given with
--long-ok (default: engine/src/search/searcher.rs), matched as a path suffix.

The parse is textual (comments and literals blanked, then regular expressions, brace
depth for inline modules and module-level items); it does not expand macros, follow `cfg`,
or tell a local variable from an item of the same name, so it errs towards extra edges.

Exit status: 1 if any circle (or, with --max-lines, any over-long file) is found, else 0.
No dependencies beyond the standard library.
"""

import argparse
import os
import re
import sys
from collections import deque

ITEM_KINDS = ("fn", "struct", "enum", "union", "trait", "type", "const", "static")
KEYWORDS = {
    "fn", "mut", "unsafe", "extern", "async", "const", "static", "struct", "enum", "union",
    "trait", "type", "impl", "for", "where", "as", "use", "mod", "pub", "_",
}


def strip_code(text):
    """Blank out comments and the contents of string/char literals, keeping every offset
    (and newline) where it was, so that matches on the result map back to the source."""
    out = list(text)
    n = len(text)
    i = 0

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c in "rb" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'(?:br|rb|r)(#*)"', text[i:i + 300])
            if m:
                hashes = m.group(1)
                start = i + m.end()
                end = text.find('"' + hashes, start)
                end = n if end < 0 else end
                blank(start, end)
                i = end + 1 + len(hashes)
            elif text.startswith('b"', i) or text.startswith("b'", i):
                i += 1  # the literal itself is handled on the next turn
            else:
                i += 1
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i + 1, min(j, n))
            i = j + 1
        elif c == "'":
            if i + 1 < n and text[i + 1] == "\\":
                j = text.find("'", i + 2)
                j = n if j < 0 else j
                blank(i + 1, j)
                i = j + 1
            elif i + 2 < n and text[i + 2] == "'":
                blank(i + 1, i + 2)
                i += 3
            else:
                i += 1  # a lifetime or label
        else:
            i += 1
    return "".join(out)


WITH_TESTS = False
TEST_MODULE = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")


def blank_test_modules(code):
    """Blank the bodies of `#[cfg(test)] mod NAME { ... }` blocks (offsets kept): unit tests
    are not part of the architecture; a test that builds the whole engine to check one part
    is an integration test, not a dependency of that part."""
    out = list(code)
    for m in TEST_MODULE.finditer(code):
        depth, i = 0, m.end() - 1
        while i < len(code):
            if code[i] == "{":
                depth += 1
            elif code[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        for j in range(m.end(), min(i, len(code))):
            if out[j] != "\n":
                out[j] = " "
    return "".join(out)


def parse_use_tree(body):
    """`a::{b, c::{d as e}, f::*}` -> [([a, b], None, False), ([a, c, d], "e", False),
    ([a, f], None, True)]: (segments, alias, is_glob)."""
    body = re.sub(r"\s+as\s+", "@", body.strip())
    body = re.sub(r"\s+", "", body)
    results = []

    def top_split(s):
        parts, depth, cur = [], 0, []
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append("".join(cur))
                cur = []
            else:
                cur.append(ch)
        parts.append("".join(cur))
        return [p for p in parts if p]

    def parse(s, prefix):
        for p in top_split(s):
            brace = p.find("{")
            if brace >= 0:
                head = p[:brace]
                inner = p[brace + 1:p.rfind("}")]
                segs = [x for x in head.split("::") if x]
                parse(inner, prefix + segs)
                continue
            alias = None
            if "@" in p:
                p, alias = p.split("@", 1)
            segs = [x for x in p.split("::") if x]
            if segs and segs[-1] == "*":
                results.append((prefix + segs[:-1], None, True))
            elif segs:
                results.append((prefix + segs, alias, False))

    parse(body, [])
    return results


class Module:
    def __init__(self, key, file, parent, dir_for_children, inline):
        self.key = key                  # (root file, path tuple)
        self.file = file
        self.parent = parent            # Module or None
        self.child_dir = dir_for_children
        self.inline = inline
        self.children = {}              # name -> Module
        self.items = {}                 # name -> line
        self.uses = {}                  # name -> (segments, line)
        self.globs = []                 # (segments, line)
        self.root = self if parent is None else parent.root


class FileInfo:
    def __init__(self, path, text, code):
        self.path = path
        self.text = text
        self.code = code
        self.spans = []       # (start, end, Module) for the file module and inline modules
        self.use_spans = []   # (start, end, Module, body)
        self.modules = []     # modules defined in this file (file module first)


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


TOKEN = re.compile(
    r"(?P<use>\buse\s+(?P<usebody>[^;]*);)"
    r"|(?P<mod>\bmod\s+(?P<modname>\w+)\s*(?P<modend>[;{]))"
    r"|(?P<macro>\bmacro_rules!\s*(?P<macroname>\w+))"
    r"|(?P<item>\b(?P<kind>" + "|".join(ITEM_KINDS) + r")\s+(?=(?:mut\s+)?(?P<name>\w+)))"
    r"|(?P<open>\{)|(?P<close>\})"
)
PATH_ATTR = re.compile(
    r'#\[\s*path\s*=\s*"([^"]+)"\s*\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\s*\([^)]*\))?\s+)?$'
)


class Crate:
    def __init__(self, src, root_file, files):
        self.src = src
        self.files = files  # shared path -> FileInfo cache
        self.root_file = root_file
        base = os.path.dirname(root_file)
        self.root = Module((root_file, ()), root_file, None, base, False)
        self.modules = [self.root]
        self.file_modules = {}  # file path -> list of Module
        self.load(self.root)

    def read(self, path):
        if path not in self.files:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            code = strip_code(text)
            if not WITH_TESTS:
                code = blank_test_modules(code)
            self.files[path] = (text, code)
        return self.files[path]

    def load(self, module):
        """Parse module.file (a file module) and recurse into its `mod x;` children."""
        path = module.file
        text, code = self.read(path)
        info = FileInfo(path, text, code)
        info.spans.append((0, len(code), module))
        info.modules.append(module)
        self.file_modules.setdefault(path, []).append(info)
        stack = [(module, -1)]  # (module, brace depth at which its body is)
        depth = 0
        pending_children = []
        for m in TOKEN.finditer(code):
            cur = stack[-1][0]
            body_depth = stack[-1][1] + 1
            if m.group("open"):
                depth += 1
            elif m.group("close"):
                depth -= 1
                if len(stack) > 1 and depth == stack[-1][1]:
                    mod, _ = stack.pop()
                    for k, (s, e, md) in enumerate(info.spans):
                        if md is mod:
                            info.spans[k] = (s, m.end(), md)
            elif m.group("use"):
                body = m.group("usebody")
                ln = line_of(code, m.start())
                info.use_spans.append((m.start(), m.end(), cur, body, ln))
                for segs, alias, glob in parse_use_tree(body):
                    if glob:
                        cur.globs.append((segs, ln))
                        continue
                    if segs[-1] == "self":
                        segs = segs[:-1]
                    if not segs:
                        continue
                    name = alias or segs[-1]
                    if name == "_":
                        continue
                    cur.uses[name] = (segs, ln)
            elif m.group("mod"):
                if depth != body_depth:
                    continue
                name = m.group("modname")
                if m.group("modend") == "{":
                    child = Module((self.root_file, self.path_of(cur) + (name,)), path, cur,
                                   os.path.join(cur.child_dir, name), True)
                    cur.children[name] = child
                    self.modules.append(child)
                    info.modules.append(child)
                    info.spans.append((m.start(), len(code), child))
                    depth += 1
                    stack.append((child, depth - 1))
                else:
                    attr = PATH_ATTR.search(text[max(0, m.start() - 300):m.start()])
                    if attr:
                        base = os.path.dirname(path) if not cur.inline else cur.child_dir
                        cand = [os.path.normpath(os.path.join(base, attr.group(1)))]
                    else:
                        cand = [os.path.join(cur.child_dir, name + ".rs"),
                                os.path.join(cur.child_dir, name, "mod.rs")]
                    found = next((c for c in cand if os.path.isfile(c)), None)
                    if found is None:
                        print(f"warning: {path}: mod {name}: no file among {cand}",
                              file=sys.stderr)
                        continue
                    fname = os.path.basename(found)
                    child_dir = (os.path.dirname(found) if fname == "mod.rs"
                                 else os.path.join(os.path.dirname(found), fname[:-3]))
                    child = Module((self.root_file, self.path_of(cur) + (name,)), found, cur,
                                   child_dir, False)
                    cur.children[name] = child
                    self.modules.append(child)
                    pending_children.append(child)
            elif m.group("macro"):
                if depth == body_depth:
                    cur.items.setdefault(m.group("macroname"), line_of(code, m.start()))
            elif m.group("item"):
                name = m.group("name")
                if depth == body_depth and name not in KEYWORDS:
                    cur.items.setdefault(name, line_of(code, m.start()))
        for child in pending_children:
            self.load(child)

    @staticmethod
    def path_of(module):
        return module.key[1]

    # -- name resolution ------------------------------------------------------------------

    def lookup(self, module, name, seen):
        """What `name` means inside `module`: ('module', M), ('item', file) or None."""
        key = (id(module), name)
        if key in seen:
            return None
        seen = seen | {key}
        if name in module.children:
            return ("module", module.children[name])
        if name in module.items:
            return ("item", module.file)
        if name in module.uses:
            segs, _ = module.uses[name]
            return self.resolve(module, segs, seen)
        for segs, _ in module.globs:
            src = self.resolve(module, segs, seen)
            if src and src[0] == "module":
                r = self.lookup(src[1], name, seen)
                if r:
                    return r
        return None

    def resolve(self, module, segs, seen=frozenset()):
        """Resolve a path written in `module`; None for other crates and unknown names."""
        if not segs:
            return ("module", module)
        first, rest = segs[0], segs[1:]
        if first in ("crate", "$crate"):
            cur = ("module", module.root)
        elif first == "self":
            cur = ("module", module)
        elif first == "super":
            cur = ("module", module.parent or module)
            while rest and rest[0] == "super":
                cur = ("module", cur[1].parent or cur[1])
                rest = rest[1:]
        else:
            cur = self.lookup(module, first, seen)
            if cur is None:
                return None
        for seg in rest:
            if cur[0] != "module":
                break  # an associated item or variant of an item already found
            mod = cur[1]
            nxt = self.lookup(mod, seg, seen)
            if nxt is None:
                return ("item", mod.file)
            cur = nxt
        return cur


PATH_IN_CODE = re.compile(r"(?<![\w:$])(\$?[A-Za-z_]\w*)((?:\s*::\s*[A-Za-z_]\w*)+)")
# A name as an item would be written: not a field access (`.x`) nor a field or argument label
# (`x: ...`, but `x::` is a path).
MENTION = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(?!\w)(?!\s*:(?!:))")


def module_at(info, offset):
    best = None
    for s, e, m in info.spans:
        if s <= offset < e and (best is None or s >= best[0]):
            best = (s, m)
    return best[1] if best else info.modules[0]


def edges_of_crate(crate, edges):
    """Add crate's file edges to edges: {(a, b): (line, text)} (first evidence kept)."""

    def add(a, b, line, why):
        if a != b and (a, b) not in edges:
            edges[(a, b)] = (line, why)

    for path, infos in crate.file_modules.items():
        for info in infos:
            code = info.code
            masked = list(code)
            for s, e, *_ in info.use_spans:
                masked[s:e] = " " * (e - s)
            masked = "".join(masked)
            idents = []

            def mentioned():
                if not idents:
                    idents.append(set(MENTION.findall(masked)))
                return idents[0]

            # `use` declarations
            for s, e, mod, body, ln in info.use_spans:
                reexport = re.search(r"\bpub\s*(\([^)]*\))?\s*$", code[max(0, s - 40):s])
                for segs, alias, glob in parse_use_tree(body):
                    if glob:
                        continue
                    if segs[-1] == "self":
                        segs = segs[:-1]
                    if reexport and (alias or segs[-1]) not in mentioned():
                        continue  # a re-export only: its users get the edge
                    r = crate.resolve(mod, segs)
                    if r and r[0] == "item":
                        add(path, r[1], ln, "use " + "::".join(segs))
            # globs: every name of the source module that this file mentions
            for mod in info.modules:
                for segs, ln in mod.globs:
                    src = crate.resolve(mod, segs)
                    if not src or src[0] != "module":
                        continue
                    for name in sorted(mentioned()):
                        if name in mod.items or name in KEYWORDS:
                            continue
                        r = crate.lookup(src[1], name, frozenset())
                        if r and r[0] == "item":
                            add(path, r[1], ln, "use " + "::".join(segs) + "::* (" + name + ")")
            # paths written in the code
            for m in PATH_IN_CODE.finditer(masked):
                first = m.group(1)
                segs = [first] + [x.strip() for x in m.group(2).split("::") if x.strip()]
                mod = module_at(info, m.start())
                if first not in ("crate", "$crate", "self", "super"):
                    head = crate.lookup(mod, first, frozenset())
                    if not head or head[0] != "module":
                        continue
                r = crate.resolve(mod, segs)
                if r and r[0] == "item":
                    add(path, r[1], line_of(code, m.start()), "::".join(segs))


def crate_roots(src):
    roots = [os.path.join(src, f) for f in ("lib.rs", "main.rs")]
    bindir = os.path.join(src, "bin")
    if os.path.isdir(bindir):
        for f in sorted(os.listdir(bindir)):
            p = os.path.join(bindir, f)
            if f.endswith(".rs"):
                roots.append(p)
            elif os.path.isfile(os.path.join(p, "main.rs")):
                roots.append(os.path.join(p, "main.rs"))
    return [r for r in roots if os.path.isfile(r)]


def sccs(nodes, succ):
    """Tarjan's algorithm, iterative; returns the components."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for v in nodes:
        if v in index:
            continue
        work = [(v, iter(sorted(succ.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(succ.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                out.append(sorted(comp))
    return out


def shortest_loop(start, comp, succ):
    members = set(comp)
    prev = {start: None}
    q = deque([start])
    while q:
        v = q.popleft()
        for w in sorted(succ.get(v, ())):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in members and w not in prev:
                prev[w] = v
                q.append(w)
    return [start]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src", nargs="+", help="a crate's src/ folder")
    ap.add_argument("--max-lines", type=int, default=0,
                    help="also report .rs files longer than this (0: don't)")
    ap.add_argument("--long-ok", action="append", default=None,
                    help="a file allowed to be long (path suffix; repeatable; "
                         "default engine/src/search/searcher.rs)")
    ap.add_argument("--with-tests", action="store_true",
                    help="count the code of #[cfg(test)] modules too (default: left out)")
    args = ap.parse_args(argv)
    global WITH_TESTS
    WITH_TESTS = args.with_tests
    long_ok = args.long_ok if args.long_ok is not None else ["engine/src/search/searcher.rs"]

    rel = os.path.relpath
    edges = {}
    seen_files = set()
    all_rs = set()
    for src in args.src:
        if not os.path.isdir(src):
            ap.error(f"{src}: not a folder")
        for dirpath, _, fnames in os.walk(src):
            all_rs.update(os.path.normpath(os.path.join(dirpath, f))
                          for f in fnames if f.endswith(".rs"))
        cache = {}
        for root in crate_roots(src):
            crate = Crate(src, os.path.normpath(root), cache)
            seen_files.update(os.path.normpath(p) for p in crate.file_modules)
            edges_of_crate(crate, edges)

    for stray in sorted(all_rs - seen_files):
        print(f"note: {rel(stray)} is in no module tree (not checked)", file=sys.stderr)

    succ = {}
    for (a, b) in edges:
        succ.setdefault(a, set()).add(b)
    nodes = sorted(seen_files)
    circles = [c for c in sccs(nodes, succ) if len(c) > 1]
    circles.sort()
    failed = False
    for comp in circles:
        failed = True
        print(f"import circle ({len(comp)} files): " + ", ".join(rel(f) for f in comp))
        loop = shortest_loop(comp[0], comp, succ)
        print("  e.g. " + " -> ".join(rel(f) for f in loop))
        members = set(comp)
        for (a, b), (ln, why) in sorted(edges.items()):
            if a in members and b in members:
                print(f"  {rel(a)}:{ln} -> {rel(b)}   ({why})")
    if not circles:
        print(f"no import circles among {len(nodes)} files")

    if args.max_lines:
        for f in nodes:
            with open(f, encoding="utf-8") as fh:
                n = sum(1 for _ in fh)
            norm = f.replace(os.sep, "/")
            if n > args.max_lines and not any(norm.endswith(s) for s in long_ok):
                failed = True
                print(f"long file: {rel(f)} has {n} lines (limit {args.max_lines})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
