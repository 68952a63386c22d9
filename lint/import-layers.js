// An ESLint rule: a file under lib/ imports only lib/ parts listed before its own in
// lint/layers.json. Folder knots come back one convenient import at a time; this refuses the
// first one where it is written, with the order it breaks.
import fs from 'node:fs';
import path from 'node:path';

const table = JSON.parse(fs.readFileSync(new URL('./layers.json', import.meta.url), 'utf8'));
/** Part name → its position in the order. */
export const RANK = new Map(table.layers.flatMap((layer) => layer.parts).map((part, i) => [part, i]));

/** `lib/objects/write/x.ts` and `lib/objects.ts` are both the part `objects`; null outside lib/. */
export function partOf(relative) {
  const segments = relative.split(/[\\/]/);
  if (segments[0] !== 'lib' || segments.length < 2) return null;
  return segments.length === 2 ? segments[1].replace(/\.ts$/, '') : segments[1];
}

/** The message for `from` importing `to` (paths relative to the project), or null when allowed. */
export function layerProblem(from, to) {
  const a = partOf(from);
  const b = partOf(to);
  if (a === null || b === null || a === b) return null;
  if (!RANK.has(a)) return `lib/${a} is in no layer: list it in lint/layers.json`;
  if (!RANK.has(b)) return `lib/${b} is in no layer: list it in lint/layers.json`;
  if (RANK.get(b) < RANK.get(a)) return null;
  return `lib/${a} may not import lib/${b}: lint/layers.json lists lib/${b} above it (imports go down the layers)`;
}

export const importLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'imports between the parts of lib/ go down the order of lint/layers.json' },
    schema: [],
  },
  create(context) {
    const file = path.relative(context.cwd, context.filename);
    if (partOf(file) === null) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.join(path.dirname(file), spec.replace(/\.js$/, '.ts'));
      const problem = layerProblem(file, target);
      if (problem) context.report({ node: node.source, message: problem });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'import-layers': importLayers } };
