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

/** Imports from a file under one of `lower` to a file under one of `upper`: a layer upside down. */
export function layerViolations(graph: ImportGraph, lower: string[], upper: string[]): string[] {
  const under = (file: string, folders: string[]) => folders.some((f) => file.startsWith(f + '/'));
  const out: string[] = [];
  for (const [from, targets] of graph) {
    if (!under(from, lower)) continue;
    for (const to of targets) if (under(to, upper)) out.push(`${from} -> ${to}`);
  }
  return out;
}
