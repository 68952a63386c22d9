import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../lib/project-root.js';
import { importCycles, importsOf, mutualPairs, partGraph, readImportGraph } from '../support/import-graph.js';

/**
 * The shape of lib/: its top-level parts in one order, lowest first (lint/layers.json), and every
 * import between two parts goes down that order, so no two folders import each other. `npm run lint`
 * refuses an upward import where it is written (lint/import-layers.js); these tests check the
 * table covers every part and the whole graph obeys it.
 */
interface LayerTable {
  layers: { name: string; parts: string[] }[];
}
const table = JSON.parse(fs.readFileSync(path.join(projectRoot, 'lint/layers.json'), 'utf8')) as LayerTable;
const ORDER = table.layers.flatMap((layer) => layer.parts.map((part) => `lib/${part}`));

/** Folder-level imports that do not go down ORDER. */
function upwardImports(parts: Map<string, string[]>): string[] {
  const rank = (part: string) => ORDER.indexOf(part);
  return [...parts].flatMap(([from, targets]) =>
    targets.filter((to) => rank(to) >= rank(from)).map((to) => `${from} -> ${to}`),
  );
}

describe('import graph of lib/ and bin/', () => {
  const graph = readImportGraph(projectRoot, ['lib', 'bin']);

  it('reads every source file and its imports', () => {
    assert.ok(graph.size > 250, `read ${graph.size} files`);
    assert.ok(graph.get('lib/app.ts')?.includes('lib/config.ts'));
  });

  it('has no import cycle', () => {
    assert.deepEqual(importCycles(graph), []);
  });

  const parts = partGraph(graph, 'lib');

  it('lists every part of lib/ once in the layer order', () => {
    assert.ok(parts.size > 30, `read ${parts.size} parts`);
    assert.deepEqual([...parts.keys()].filter((part) => !ORDER.includes(part)).sort(), []);
    assert.equal(new Set(ORDER).size, ORDER.length, 'a part is listed twice');
  });

  it('imports only down the layer order, so no folder knot exists', () => {
    assert.deepEqual(upwardImports(parts), []);
    assert.deepEqual(importCycles(parts), []);
    assert.deepEqual(mutualPairs(parts), []);
  });

  describe('the checks can fail', () => {
    it('reads static, re-exported and dynamic imports relative to the file', () => {
      const text = [
        "import { a } from './a.js';",
        "export { b } from '../b/b.js';",
        "const c = await import('./c.js');",
        "import 'express';",
        "import './side-effect.js';",
      ].join('\n');
      assert.deepEqual(importsOf('lib/x/y.ts', text), [
        'lib/x/a.ts',
        'lib/b/b.ts',
        'lib/x/c.ts',
        'lib/x/side-effect.ts',
      ]);
    });

    it('finds a cycle through three files and a self-import', () => {
      const cycles = importCycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts']],
          ['d.ts', ['d.ts']],
          ['e.ts', ['a.ts']],
        ]),
      );
      assert.deepEqual(cycles, [['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
    });

    it('finds folders importing each other through different files', () => {
      const parts = partGraph(
        new Map([
          ['lib/a/x.ts', ['lib/b/y.ts']],
          ['lib/b/z.ts', ['lib/a.ts']],
          ['lib/a.ts', []],
          ['lib/c/w.ts', ['lib/a/x.ts']],
        ]),
        'lib',
      );
      assert.deepEqual(mutualPairs(parts), ['lib/a <-> lib/b']);
      assert.deepEqual(importCycles(parts), [['lib/a', 'lib/b']]);
    });

    it('finds an import up the layer order, in the graph and in the lint rule', async () => {
      const graph = new Map([
        ['lib/db', ['lib/errors']],
        ['lib/errors', ['lib/api']],
      ]);
      assert.deepEqual(upwardImports(graph), ['lib/errors -> lib/api']);
      const rule = (await import(pathToFileURL(path.join(projectRoot, 'lint/import-layers.js')).href)) as {
        layerProblem: (from: string, to: string) => string | null;
      };
      assert.match(rule.layerProblem('lib/db/x.ts', 'lib/api/deps.ts') ?? '', /lib\/db may not import lib\/api/);
      assert.equal(rule.layerProblem('lib/api/deps.ts', 'lib/db/x.ts'), null);
      assert.equal(rule.layerProblem('lib/db/x.ts', 'lib/db/y.ts'), null);
      assert.match(rule.layerProblem('lib/nowhere/x.ts', 'lib/db/y.ts') ?? '', /lib\/nowhere is in no layer/);
    });
  });
});
