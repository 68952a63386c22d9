import fs from 'node:fs';
import path from 'node:path';

/** Source file → the source files it imports (relative `.js` specifiers mapped back to `.ts`). */
export type ImportGraph = Map<string, string[]>;

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The relative imports of one file's text, static, re-exports and dynamic alike. */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1]!;
    if (!spec.endsWith('.js')) continue;
    out.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  return out;
}

function listTs(dir: string, root: string, out: string[]): void {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) listTs(rel, root, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
}

/** The graph of every `.ts` file under the given folders of `root`. */
export function readImportGraph(root: string, folders: string[]): ImportGraph {
  const files: string[] = [];
  for (const folder of folders) listTs(folder, root, files);
  const graph: ImportGraph = new Map();
  for (const file of files) graph.set(file, importsOf(file, fs.readFileSync(path.join(root, file), 'utf8')));
  return graph;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function importCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/**
 * The graph of the top-level parts of `root` (lib/objects/… and lib/objects.ts are one part,
 * `lib/objects`): part → the other parts its files import.
 */
export function partGraph(graph: ImportGraph, root: string): ImportGraph {
  const partOf = (file: string) =>
    `${root}/${file
      .slice(root.length + 1)
      .split('/')[0]!
      .replace(/\.ts$/, '')}`;
  const parts = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    if (!from.startsWith(`${root}/`)) continue;
    const own = parts.get(partOf(from)) ?? new Set<string>();
    parts.set(partOf(from), own);
    for (const to of targets) if (to.startsWith(`${root}/`) && partOf(to) !== partOf(from)) own.add(partOf(to));
  }
  return new Map([...parts].map(([part, targets]) => [part, [...targets].sort()]));
}

/** Pairs of parts that import each other, as "a <-> b" with a before b. */
export function mutualPairs(parts: ImportGraph): string[] {
  const out: string[] = [];
  for (const [a, targets] of parts)
    for (const b of targets) if (a < b && (parts.get(b) ?? []).includes(a)) out.push(`${a} <-> ${b}`);
  return out.sort();
}
