#!/usr/bin/env node
// Fails when the mini app's modules import each other in a circle, and lists each circle.
// Usage: node scripts/check-imports.mjs [src-dir]   (default: webapp/src; run by `npm run lint`)
//
// Every `.ts`/`.tsx` file under the directory is read; its relative imports are resolved to files
// (`./x` -> x.ts, x.tsx, x/index.ts, x/index.tsx); a file is a node, an import an edge. Counted:
// `import ... from`, `import '...'`, `export ... from`, dynamic `import('...')` (a lazy edge is
// still a dependency between the two rooms) and type-only imports too (`import type`, `export
// type`): TypeScript erases them, so they cannot break the order modules run in, but a type
// names a concept that lives in one room, and a circle of types is a circle of rooms all the
// same (features/cases and features/inventory were one: a type one way, a component the
// other). Ignored: packages (no leading `.`) and files that are not TypeScript (JSON, CSS).
// Circles are the strongly connected components of that graph (Tarjan); each is printed as one
// path that goes round it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const EXTENSIONS = ['.ts', '.tsx'];

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return EXTENSIONS.some((e) => name.endsWith(e)) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Source without comments (string contents kept: the specifiers live there). */
function stripComments(code) {
  return code.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const STATIC = /(?:^|[;\n}])\s*(?:import|export)\s+[^'";]*?\s*from\s*['"]([^'"]+)['"]/g;
const BARE = /(?:^|[;\n}])\s*import\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier `code` names (static, type-only, re-export, dynamic). */
export function specifiers(code) {
  const src = stripComments(code);
  const found = [];
  for (const m of src.matchAll(STATIC)) found.push(m[1]);
  for (const m of src.matchAll(BARE)) found.push(m[1]);
  for (const m of src.matchAll(DYNAMIC)) found.push(m[1]);
  return found;
}

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`))];
  return candidates.find((c) => EXTENSIONS.some((e) => c.endsWith(e)) && existsSync(c) && statSync(c).isFile()) ?? null;
}

/** The import graph of every TypeScript file under `root`: file -> files it imports. */
export function importGraph(root) {
  const graph = new Map();
  for (const file of walk(root)) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((s) => resolveImport(file, s))
      .filter((t) => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The circles of `graph`: one path per strongly connected component, first file repeated at the end. */
export function findCycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const connect = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return components.map((component) => circleThrough(graph, new Set(component)));
}

/** A path from the component's first file (by name) back to it, inside the component (BFS). */
function circleThrough(graph, members) {
  const start = [...members].sort()[0];
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]));
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'src'));
  const graph = importGraph(root);
  const cycles = findCycles(graph);
  if (cycles.length > 0) {
    console.error(`FAIL: ${cycles.length} import circle(s) under ${relative(process.cwd(), root) || '.'}:`);
    for (const cycle of cycles) console.error(`  ${cycle.map((f) => relative(root, f)).join(' -> ')}`);
    process.exit(1);
  }
  console.log(`No import circles among ${graph.size} files.`);
}
