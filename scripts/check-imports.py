#!/usr/bin/env python3
"""Finds import circles between the modules of our Rust crates (bot, webapp-api).

    scripts/check-imports.py                 # both crates; exit 1 and print each circle if any
    scripts/check-imports.py webapp-api      # one crate (a folder holding src/lib.rs)
    scripts/check-imports.py --self-test     # checks the checker on a small fixture

The model, and the choices it makes:
- A module is a file: src/lib.rs is `crate`, src/a/b.rs and src/a/b/mod.rs are `a::b`. Inline
  `mod x { .. }` blocks belong to their file. src/main.rs and src/bin/ are other crates (they
  reach the library by its name, never by `crate::`), so they are left out.
- A dependency is a path in the code: `use crate::..`, `use super::..`, `use self::..`, a path
  starting with a child module the file declares (`use clock::Clock` in domain/mod.rs), the
  same paths written inline (`crate::domain::ledger::post(..)`), and inline paths through a
  name a `use` brought in (`use crate::handlers;` then `handlers::admin::parse`). `use` trees are expanded
  (`{a, b::{c, self}}`). A path names the longest existing module prefix:
  `crate::domain::ledger::post` depends on `domain::ledger`.
- Re-exports are plumbing, not dependencies. A path that reaches an item a module only
  re-exports (`pub use money::Tokens;` in domain/mod.rs) is followed to the module that defines
  it, and a module's `pub use` of its own descendants adds no edge. So `cases` using
  `crate::domain::Tokens` depends on `domain::money`, not on `domain`, and the parent-child pair
  forms no circle. A dependency on an ancestor for an item the ancestor itself defines is real
  and counts (the ancestor's file is code like any other).
- `#[cfg(test)]` modules are left out: tests may reach anything without shaping the design.
- Comments, string and char literals are blanked before reading, so a path in prose or in SQL
  text is no dependency; macros' `$crate::` is not `crate::`.

Every elementary circle is printed, each edge with the file and line that makes it (at most
200 circles; a knot that large is reported by its modules).
"""
import os
import re
import sys
import tempfile

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
MAX_CYCLES = 200


def blank_comments_and_literals(text):
    """The source with comments, strings and chars replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
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
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif re.match(r"b?r#*\"", text[i:i + 260]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r"b?r(#*)\"", text[i:])
            end = text.find('"' + m.group(1), i + m.end())
            j = n if end < 0 else end + 1 + len(m.group(1))
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F600}'), not a lifetime ('a without a closing quote).
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            if m:
                out.append(" " * m.end())
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_of(rel):
    """src-relative file path -> module path tuple (() is the crate root)."""
    parts = rel[:-3].split("/")
    if parts == ["lib"]:
        return ()
    if parts[-1] == "mod":
        parts = parts[:-1]
    return tuple(parts)


def split_top(s, sep=","):
    """Splits on `sep` outside braces."""
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def expand_use_tree(tree):
    """`a::{b, c::{d, self}}` -> [[a, b], [a, c, d], [a, c]]; an alias is dropped (`x as y` is
    `x`), a glob names its module."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+", "@", tree))
    if not tree:
        return []
    brace = tree.find("{")
    if brace < 0:
        segs = [s.split("@")[0] for s in tree.split("::") if s]
        while segs and segs[-1] in ("*", "self"):
            segs = segs[:-1]
        return [segs] if segs else []
    prefix = [s for s in tree[:brace].split("::") if s]
    paths = []
    for part in split_top(tree[brace + 1:tree.rfind("}")]):
        if part.split("@")[0] == "self":
            paths.append(prefix)
            continue
        for p in expand_use_tree(part):
            paths.append(prefix + p)
    return paths


class Crate:
    def __init__(self, root):
        self.root = root
        self.src = os.path.join(root, "src")
        self.files = {}  # module -> (relative file, blanked text)
        for dirpath, dirnames, filenames in os.walk(self.src):
            rel_dir = os.path.relpath(dirpath, self.src)
            if rel_dir == "bin" or rel_dir.startswith("bin" + os.sep):
                continue
            for f in filenames:
                if not f.endswith(".rs"):
                    continue
                rel = os.path.normpath(os.path.join(rel_dir, f)).replace(os.sep, "/")
                if rel == "main.rs":
                    continue
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    text = blank_comments_and_literals(fh.read())
                self.files[module_of(rel)] = (rel, drop_test_modules(text))
        self.reexports = {m: {} for m in self.files}  # module -> name -> absolute path
        self.children = {m: set() for m in self.files}
        for m, (_, text) in self.files.items():
            for name in re.findall(r"(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", text):
                self.children[m].add(name)
        for m, (_, text) in self.files.items():
            for public, tree, _line in use_statements(text):
                if not public:
                    continue
                for segs in expand_use_tree(tree):
                    target = self.absolute(m, segs)
                    if target and "*" not in target:
                        self.reexports[m][alias_of(tree, segs)] = target

    def absolute(self, module, segs):
        """A path written in `module`, from the crate root; None for outside crates."""
        if not segs:
            return None
        head = segs[0]
        if head == "crate":
            return list(segs[1:])
        if head in ("self", "super"):
            base = list(module)
            i = 0
            while i < len(segs) and segs[i] in ("self", "super"):
                if segs[i] == "super":
                    if not base:
                        return None
                    base.pop()
                i += 1
            return base + list(segs[i:])
        if head in self.children.get(module, ()):
            return list(module) + list(segs)
        return None

    def resolve(self, path, depth=0):
        """The module a crate-absolute path depends on, through re-exports."""
        for k in range(len(path), -1, -1):
            prefix = tuple(path[:k])
            if prefix in self.files:
                rest = path[k:]
                if rest and depth < 8 and rest[0] in self.reexports[prefix]:
                    target = self.reexports[prefix][rest[0]]
                    return self.resolve(list(target) + list(rest[1:]), depth + 1)
                return prefix
        return None

    def edges(self):
        """(from, to) -> first (file, line, path text) that makes it."""
        found = {}
        for m, (rel, text) in sorted(self.files.items()):
            inline = inline_modules(text)

            def scope(pos):
                # `super::` inside an inline `mod x { .. }` starts from `x`, which is this file.
                return m + tuple(n for (a, b, n) in inline if a <= pos < b)

            spans = []
            for public, tree, line, pos in use_statements(text, with_pos=True):
                for segs in expand_use_tree(tree):
                    target = self.absolute(scope(pos), segs)
                    if target is None:
                        continue
                    dest = self.resolve(target)
                    # A parent re-exporting its own descendants' items: plumbing.
                    if public and dest is not None and dest[: len(m)] == m and dest != m:
                        continue
                    spans.append((dest, line, "::".join(segs)))
            # Names a `use` brought in (`use crate::handlers;` then `handlers::admin::x`).
            aliases = {}
            for _, tree, _, pos in use_statements(text, with_pos=True):
                for segs in expand_use_tree(tree):
                    target = self.absolute(scope(pos), segs)
                    if target:
                        aliases[alias_of(tree, segs)] = target
            code = re.sub(r"(?s)\buse\s[^;]*;", lambda x: re.sub(r"[^\n]", " ", x.group(0)), text)
            heads = "|".join(["crate", "super", "self"] + sorted(self.children[m] | set(aliases)))
            for match in re.finditer(r"(?<![\w$:])((?:" + heads + r")(?:::" + IDENT + r")+)", code):
                segs = match.group(1).split("::")
                if segs[0] in aliases and segs[0] not in self.children[m]:
                    target = aliases[segs[0]] + segs[1:]
                else:
                    target = self.absolute(scope(match.start()), segs)
                if target is None:
                    continue
                line = code.count("\n", 0, match.start()) + 1
                spans.append((self.resolve(target), line, match.group(1)))
            for dest, line, shown in spans:
                if dest is None or dest == m:
                    continue
                found.setdefault((m, dest), (rel, line, shown))
        return found


def alias_of(tree, segs):
    m = re.search(r"\b" + re.escape(segs[-1]) + r"\s+as\s+(" + IDENT + ")", tree)
    return m.group(1) if m else segs[-1]


def use_statements(text, with_pos=False):
    """(public, tree, line[, position]) for each `use ...;`."""
    for m in re.finditer(r"(?s)(\bpub(?:\([^)]*\))?\s+)?\buse\s+([^;]*);", text):
        tree = re.sub(r"\s+as\s+", " as ", m.group(2).strip())
        line = text.count("\n", 0, m.start()) + 1
        yield (bool(m.group(1)), tree, line, m.start()) if with_pos else (bool(m.group(1)), tree, line)


def inline_modules(text):
    """(start, end, name) of each inline `mod name { .. }` block."""
    spans = []
    for m in re.finditer(r"\bmod\s+(" + IDENT + r")\s*\{", text):
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        spans.append((m.start(), j, m.group(1)))
    return spans


def drop_test_modules(text):
    """Blanks `#[cfg(test)] mod x { .. }` blocks."""
    out = text
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+" + IDENT + r"\s*\{", text):
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        out = out[: m.start()] + re.sub(r"[^\n]", " ", out[m.start():j]) + out[j:]
    return out


def name(module):
    return "::".join(module) if module else "crate"


def knots(nodes, edges):
    """The strongly connected parts with more than one module (Tarjan), each sorted."""
    graph = {n: sorted({b for (a, b) in edges if a == n}) for n in nodes}
    index, low, on, stack, out = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    sys.setrecursionlimit(10000)
    for n in sorted(nodes):
        if n not in index:
            visit(n)
    return sorted(out)


def cycles(nodes, edges):
    """Every elementary circle, each found once from its smallest module (Johnson-style DFS)."""
    graph = {n: sorted({b for (a, b) in edges if a == n}) for n in nodes}
    order = {n: i for i, n in enumerate(sorted(nodes))}
    found = []
    for start in sorted(nodes):
        stack = [(start, iter(graph[start]))]
        path = [start]
        on_path = {start}
        while stack and len(found) < MAX_CYCLES:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                on_path.discard(path.pop())
                continue
            if nxt == start:
                found.append(list(path))
            elif order[nxt] > order[start] and nxt not in on_path:
                path.append(nxt)
                on_path.add(nxt)
                stack.append((nxt, iter(graph[nxt])))
    return found


def check(crate_dir, out=sys.stdout):
    crate = Crate(crate_dir)
    edges = crate.edges()
    found = cycles(list(crate.files), edges)
    label = os.path.basename(os.path.normpath(crate_dir))
    for knot in knots(list(crate.files), edges):
        print(f"{label}: knot of {len(knot)} modules: " + ", ".join(name(m) for m in knot), file=out)
    for c in found:
        ring = c + [c[0]]
        print(f"{label}: circle " + " -> ".join(name(m) for m in ring), file=out)
        for a, b in zip(ring, ring[1:]):
            rel, line, shown = edges[(a, b)]
            print(f"    {name(a)} -> {name(b)}: src/{rel}:{line} {shown}", file=out)
    if len(found) >= MAX_CYCLES:
        print(f"{label}: {MAX_CYCLES}+ circles (the first {MAX_CYCLES} shown; the knots above hold them all)", file=out)
    elif found:
        print(f"{label}: {len(found)} circles", file=out)
    else:
        print(f"{label}: no circles ({len(crate.files)} modules, {len(edges)} dependencies)", file=out)
    return found


def self_test():
    fixture = {
        "src/lib.rs": "pub mod a;\npub mod b;\npub mod c;\npub mod d;\npub mod e;\npub mod f;\n",
        # a <-> b: a real circle, one side inline and one side a `use` tree.
        "src/a.rs": "use crate::b::{self, Thing};\npub fn f() { crate::b::g(); }\n",
        # e reaches f only through an alias: e -> f -> e is a circle too.
        "src/e.rs": "use crate::f;\npub fn e() { f::g() }\n",
        "src/f.rs": "pub fn g() { crate::e::e() }\n",
        "src/b.rs": "pub struct Thing;\npub fn g() { super::a::f(); }\n",
        # c re-exports its child; the child names the item through c: plumbing, no circle.
        "src/c/mod.rs": "mod inner;\npub use inner::Item;\npub use self::inner::Other as Renamed;\n",
        "src/c/inner.rs": "pub struct Item;\npub struct Other;\nfn h(_: crate::c::Item, _: crate::c::Renamed) {}\n",
        # Paths in comments, strings and tests are not dependencies.
        "src/d.rs": "// crate::a::f\nconst S: &str = \"crate::a::f\";\n#[cfg(test)]\nmod tests { use crate::a::f; }\n"
        "pub fn d() -> char { 'x' }\n",
        "src/main.rs": "fn main() { fixture::a::f(); }\n",
    }
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in fixture.items():
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        # d now depends on a for real: still one circle only.
        with open(os.path.join(tmp, "src/d.rs"), "a", encoding="utf-8") as fh:
            fh.write("pub fn e() { crate::a::f() }\n")
        import io

        buf = io.StringIO()
        found = check(tmp, out=buf)
        got = sorted(tuple(name(m) for m in c) for c in found)
        if got != [("a", "b"), ("e", "f")]:
            print("self-test FAILED: expected exactly the circles a -> b and e -> f, found", got)
            print(buf.getvalue())
            return 1
        crate = Crate(tmp)
        edges = crate.edges()
        if ((("c",), ("c", "inner")) in edges) or ((("c", "inner"), ("c",)) in edges):
            print("self-test FAILED: a re-export counted as a dependency", sorted(edges))
            return 1
        if (("d",), ("a",)) not in edges or edges[(("d",), ("a",))][1] != 6:
            print("self-test FAILED: d -> a should come from line 6 only", edges.get((("d",), ("a",))))
            return 1
    print("self-test ok: the fixture's circles a -> b and e -> f are found, and nothing else")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    crates = [a for a in argv if not a.startswith("-")] or ["bot", "webapp-api"]
    total = 0
    for c in crates:
        path = c if os.path.isabs(c) else os.path.join(repo, c)
        if not os.path.isfile(os.path.join(path, "src", "lib.rs")):
            print(f"{c}: no src/lib.rs", file=sys.stderr)
            return 2
        total += len(check(path))
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
