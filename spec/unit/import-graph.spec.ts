import assert from 'node:assert/strict';
import { projectRoot } from '../../lib/project-root.js';
import {
  importCycles,
  importsOf,
  layerViolations,
  mutualPairs,
  partGraph,
  readImportGraph,
} from '../support/import-graph.js';

/**
 * The shape of lib/: resource folders over shared layers. A lower layer that imports a resource
 * (or the request pipeline) turns the layering upside down, and a cycle makes two modules one.
 */
const LOWER = [
  'lib/types',
  'lib/config',
  'lib/db',
  'lib/errors',
  'lib/util',
  'lib/validation',
  'lib/query',
  'lib/metafields',
  'lib/http',
  'lib/cache',
];
const UPPER = [
  'lib/middleware',
  'lib/routes',
  'lib/registry',
  'lib/limits',
  'lib/observability',
  'lib/openapi',
  'lib/objects',
  'lib/object-types',
  'lib/revisions',
  'lib/media',
  'lib/buckets',
  'lib/blocks',
  'lib/webhooks',
  'lib/realtime',
  'lib/merge-requests',
  'lib/scheduling',
  'lib/preview',
  'lib/events',
  'lib/accounts',
  'lib/extensions',
  'lib/legacy',
  'lib/migrate',
  'lib/studio',
  'lib/graphql',
];

describe('import graph of lib/ and bin/', () => {
  const graph = readImportGraph(projectRoot, ['lib', 'bin']);

  it('reads every source file and its imports', () => {
    assert.ok(graph.size > 250, `read ${graph.size} files`);
    assert.ok(graph.get('lib/app.ts')?.includes('lib/config.ts'));
  });

  it('has no import cycle', () => {
    assert.deepEqual(importCycles(graph), []);
  });

  it('has no shared layer importing a resource module or the request pipeline', () => {
    assert.deepEqual(layerViolations(graph, LOWER, UPPER), []);
  });

  /**
   * Folder-level knots: the file-level check above cannot see two folders that import each other
   * through different files. A ratchet for now: the largest knot of lib/'s top-level parts and the
   * pairs importing each other may shrink, never grow. The aim is a knot of at most 3 parts and
   * at most 3 such pairs; lower these ceilings as each is untangled.
   */
  const KNOT_CEILING = 16;
  const MUTUAL_CEILING = 21;

  it(`keeps lib/'s largest folder knot at most ${KNOT_CEILING} parts and ${MUTUAL_CEILING} pairs importing each other`, () => {
    const parts = partGraph(graph, 'lib');
    assert.ok(parts.size > 30, `read ${parts.size} parts`);
    const largest = Math.max(0, ...importCycles(parts).map((knot) => knot.length));
    assert.ok(largest <= KNOT_CEILING, `the largest knot has ${largest} parts`);
    const pairs = mutualPairs(parts);
    assert.ok(pairs.length <= MUTUAL_CEILING, `${pairs.length} pairs import each other:\n${pairs.join('\n')}`);
  });

  it('knows every folder of lib/ as a layer or a resource', () => {
    const folders = new Set(
      [...graph.keys()].filter((f) => f.split('/').length > 2).map((f) => f.split('/').slice(0, 2).join('/')),
    );
    const unknown = [...folders].filter((f) => !LOWER.includes(f) && !UPPER.includes(f) && f.startsWith('lib/'));
    assert.deepEqual(unknown, []);
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

    it('finds a lower layer importing an upper one', () => {
      const graph = new Map([['lib/db/x.ts', ['lib/objects/y.ts', 'lib/util/z.ts']]]);
      assert.deepEqual(layerViolations(graph, ['lib/db'], ['lib/objects']), ['lib/db/x.ts -> lib/objects/y.ts']);
    });
  });
});
