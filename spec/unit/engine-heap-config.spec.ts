import assert from 'node:assert/strict';
import { loadConfig } from '../../lib/config.js';

describe('ENGINE_MAX_HEAP', () => {
  it('defaults to 1g, takes JVM sizes, and "default" leaves the heap to the JVM', () => {
    assert.equal(loadConfig({}).engineMaxHeap, '1g');
    assert.equal(loadConfig({ ENGINE_MAX_HEAP: '512m' }).engineMaxHeap, '512m');
    assert.equal(loadConfig({ ENGINE_MAX_HEAP: 'default' }).engineMaxHeap, null);
  });

  it('refuses what the JVM would not take, naming the variable', () => {
    for (const bad of ['1.5g', '0g', 'lots', '-Xmx1g', '1 g']) {
      assert.throws(() => loadConfig({ ENGINE_MAX_HEAP: bad }), /ENGINE_MAX_HEAP must be a size/);
    }
  });
});
