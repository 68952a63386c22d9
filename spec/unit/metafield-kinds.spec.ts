import assert from 'node:assert/strict';
import fs from 'node:fs';
import { METAFIELD_SCHEMA_FILE, generateMetafieldSchema } from '../../bin/gen-metafield-schema.js';
import { METAFIELD_KINDS, METAFIELD_TYPES, kindOf } from '../../lib/metafields/kinds.js';
import { walkMetafields, type MetafieldAt } from '../../lib/metafields/walk.js';
import { toStoredMetadata } from '../../lib/metafields/stored-values.js';
import { everyMetafield } from '../support/fixtures.js';
import { check, mf } from '../support/metadata-helpers.js';

describe('Metafield kinds', () => {
  it('schemas/Metafield.json is what `npm run gen:types` makes of the table (run it after changing a kind)', async () => {
    assert.equal(fs.readFileSync(METAFIELD_SCHEMA_FILE, 'utf8'), await generateMetafieldSchema());
  });

  it('has the 16 types of the spec, in its order', () => {
    const spec =
      'text, textarea, html-textarea, select-dropdown, object, objects, file, date, radio-buttons, check-boxes, repeater, parent, markdown, json, switch, number';
    assert.equal(METAFIELD_TYPES.join(', '), spec);
  });

  it('gives each kind a fresh empty value, so no two Objects share one', () => {
    for (const type of METAFIELD_TYPES) {
      const kind = METAFIELD_KINDS[type];
      const [a, b] = [kind.empty(), kind.empty()];
      if (typeof a === 'object' && a !== null) assert.notEqual(a, b, type);
    }
  });

  describe('each kind of everyMetafield', () => {
    for (const field of everyMetafield) {
      const kind = kindOf(field);
      it(`${field.type}: "" is stored as its empty value, which a write takes back`, () => {
        const stored = toStoredMetadata([field], { [field.key]: '' })[field.key];
        if (kind.emptyIsValue === true) assert.equal(stored, '');
        else assert.deepEqual(stored, kind.empty());
        assert.deepEqual(check([field], { [field.key]: kind.empty() }, 'patch'), []);
      });
    }
  });

  describe('walkMetafields', () => {
    const tree = [
      mf('text', 'title'),
      mf('parent', 'seo', { children: [mf('text', 'meta_title'), mf('object', 'og')] }),
      mf('repeater', 'links', { repeater_fields: [mf('text', 'label')] }),
      mf('text', 'title', { value: 'the second definition of a key is ignored' }),
    ];
    const visited = (values: Record<string, unknown> | undefined, absent = false): string[] => {
      const paths: string[] = [];
      walkMetafields(tree, values, {
        absent,
        leaf: (at: MetafieldAt) => paths.push(`${at.path}${at.present ? '' : '?'}`),
      });
      return paths;
    };

    it('visits the values present, entering parent objects and repeater items with their paths', () => {
      const values = { title: 'T', seo: { og: 'x', extra: 1 }, links: [{ label: 'a' }, 'stray', { label: 'b' }] };
      assert.deepEqual(visited(values), ['title', 'seo.og', 'links.0.label', 'links.2.label']);
    });

    it('with absent, visits every Metafield, a missing parent as an empty object', () => {
      assert.deepEqual(visited({}, true), ['title?', 'seo.meta_title?', 'seo.og?', 'links?']);
    });

    it('without values, walks the definitions, naming repeater fields through the array', () => {
      assert.deepEqual(visited(undefined), ['title?', 'seo.meta_title?', 'seo.og?', 'links.label?']);
    });

    it('hands values of the wrong shape to leaf, and answers a tree of leaf outputs', () => {
      const out = walkMetafields(
        tree,
        { title: 'T', seo: 'legacy', links: [{ label: 'a' }, 7] },
        {
          leaf: ({ value }) => (typeof value === 'string' ? value.toUpperCase() : value),
        },
      );
      assert.deepEqual(out, { title: 'T', seo: 'LEGACY', links: [{ label: 'A' }, 7] });
    });

    it('leaves a nested value to leaf when enter says so', () => {
      const paths: string[] = [];
      walkMetafields(tree, { seo: { og: 'x' } }, { enter: () => false, leaf: ({ path }) => paths.push(path) });
      assert.deepEqual(paths, ['seo']);
    });
  });
});
