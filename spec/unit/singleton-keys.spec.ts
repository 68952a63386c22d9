import assert from 'node:assert/strict';
import { MongoServerError, ObjectId } from 'mongodb';
import { SINGLETON_INDEX } from '../../lib/db/indexes.js';
import { isDuplicateKeyOn } from '../../lib/errors/mongo-errors.js';
import { singletonKey, singletonRace } from '../../lib/objects/write/singletons.js';

const duplicate = (message: string) => new MongoServerError({ message, errmsg: message, code: 11000 });

describe('singleton keys', () => {
  const _id = new ObjectId('64b7f0c2a1b2c3d4e5f60718');

  it('key a singleton type by its id and the locale, and nothing else', () => {
    assert.equal(singletonKey({ _id, slug: 'home', singleton: true }, null), '64b7f0c2a1b2c3d4e5f60718:');
    assert.equal(singletonKey({ _id, slug: 'home', singleton: true }, 'en'), '64b7f0c2a1b2c3d4e5f60718:en');
    assert.equal(singletonKey({ _id, slug: 'home', singleton: false }, 'en'), undefined);
  });

  it('tell a duplicate on the singleton index from one on the slug index', () => {
    // mongod and mongo-java-server word it alike; only mongod adds keyPattern.
    const mongod = duplicate(
      `E11000 duplicate key error collection: db.objects index: ${SINGLETON_INDEX} dup key: { singleton_key: "x:" }`,
    );
    const slug = duplicate(
      'E11000 duplicate key error collection: db.objects index: bucket_type_locale_slug_unique dup key: { slug: "a" }',
    );
    assert.ok(isDuplicateKeyOn(mongod, SINGLETON_INDEX));
    assert.equal(isDuplicateKeyOn(slug, SINGLETON_INDEX), false);
    assert.equal(isDuplicateKeyOn(new Error(`index: ${SINGLETON_INDEX} dup key`), SINGLETON_INDEX), false);
    const refused = singletonRace(mongod, { _id, slug: 'homes', singleton: true }, 'fr');
    assert.ok(refused);
    assert.equal(refused.code, 'singleton_taken');
    assert.match(refused.message, /Object type 'homes' is a singleton: it already has an Object in locale 'fr'/);
    assert.equal(singletonRace(slug, { _id, slug: 'homes', singleton: true }, 'fr'), null);
  });
});
