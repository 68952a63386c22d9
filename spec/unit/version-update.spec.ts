import assert from 'node:assert/strict';
import { BSON } from 'mongodb';
import type { ObjectDoc } from '../../lib/db/collections.js';
import { objectDocFixture } from '../support/object-doc.js';
import { versionUpdate } from '../../lib/objects/write/object-edit.js';

const later = new Date('2026-01-02T03:04:06.000Z');

function stored(): ObjectDoc {
  return {
    ...objectDocFixture('Post', { score: 1, tags: ['a', 'b'] }),
    content: '<p>A long body the edit does not touch</p>',
  };
}

/** A copy as the version memo keeps one: every value a new object of its kind. */
function copy(doc: ObjectDoc): ObjectDoc {
  return BSON.deserialize(BSON.serialize(doc)) as ObjectDoc;
}

const work = { version: later, reason: 'edit' as const, withdraw: false, notify: true, since: later };

describe('versionUpdate: the fields an edit sends', () => {
  it('sets only what differs from the version in place, and the work it carries', () => {
    const current = stored();
    const next = { ...copy(current), metadata: { score: 2, tags: ['a', 'b'] }, modified_at: later };
    const update = versionUpdate(current, next, work);
    assert.deepEqual(Object.keys(update.$set).sort(), ['metadata', 'modified_at', 'pending']);
    assert.deepEqual(update.$set.metadata, { score: 2, tags: ['a', 'b'] });
    assert.equal('$unset' in update, false);
  });

  it('a value equal but not the same object (a copy, as the version memo hands out) is not sent', () => {
    const current = stored();
    const next = copy(current);
    assert.notEqual(next.modified_at, current.modified_at);
    const update = versionUpdate(current, next, work);
    assert.deepEqual(Object.keys(update.$set), ['pending']);
  });

  it('a change deep inside a value sends the whole field, and a field left out is unset', () => {
    const base = stored();
    const current = { ...base, publish_at: later };
    const next = copy(base);
    next.metadata = { score: 1, tags: ['a', 'c'] };
    const update = versionUpdate(current, next, work);
    assert.deepEqual(update.$set.metadata, { score: 1, tags: ['a', 'c'] });
    assert.deepEqual(update.$unset, { publish_at: '' });
  });
});
