import assert from 'node:assert/strict';
import { objectsCollection } from '../../lib/db/collections.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('singleton Object types hold one Object (per locale)', () => {
  const suite = new BucketSuite('single', async () => {
    await suite.api.post('/object-types', { title: 'Settings', singleton: true }).expect(200);
    await suite.api
      .post('/object-types', { title: 'Homes', singleton: true, localization: true, locales: ['en', 'fr'] })
      .expect(200);
  });

  const count = (type: string) => objectsCollection(suite.harness.db).countDocuments({ type });

  it('refuses a second Object of a singleton type with 400 singleton_taken, and allows one again after a delete', async () => {
    const first = (await suite.api.post('/objects', { title: 'Site', type: 'settings' }).expect(200)).body.object;
    const second = await suite.api.post('/objects', { title: 'Site again', type: 'settings' }).expect(400);
    assert.equal(second.body.code, 'singleton_taken');
    assert.match(second.body.message, /Object type 'settings' is a singleton: it already has an Object/);
    const draft = await suite.api
      .post('/objects', { title: 'As draft', type: 'settings', status: 'draft' })
      .expect(400);
    assert.equal(draft.body.code, 'singleton_taken', 'a draft counts as well');
    assert.equal(await count('settings'), 1);
    await suite.api.delete(`/objects/${first.id}`).expect(200);
    await suite.api.post('/objects', { title: 'Site anew', type: 'settings' }).expect(200);
  });

  it('allows one Object per locale of a localized singleton, also when an edit moves one', async () => {
    await suite.api.post('/objects', { title: 'Home', type: 'homes', locale: 'en' }).expect(200);
    const fr = (await suite.api.post('/objects', { title: 'Accueil', type: 'homes', locale: 'fr' }).expect(200)).body
      .object;
    const again = await suite.api.post('/objects', { title: 'Home 2', type: 'homes', locale: 'en' }).expect(400);
    assert.match(again.body.message, /already has an Object in locale 'en'/);
    const moved = await suite.api.patch(`/objects/${fr.id}`, { locale: 'en' }).expect(400);
    assert.equal(moved.body.code, 'singleton_taken');
    await suite.api.patch(`/objects/${fr.id}`, { title: 'Accueil!', locale: 'fr' }).expect(200);
    assert.equal(await count('homes'), 2);
  });

  it('lets exactly one of many concurrent creates succeed', async () => {
    await suite.api.post('/object-types', { title: 'Footers', singleton: true }).expect(200);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => suite.api.post('/objects', { title: `Footer ${i}`, type: 'footers' })),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, ...Array<number>(11).fill(400)]);
    for (const r of results.filter((x) => x.status === 400)) assert.equal(r.body.code, 'singleton_taken');
    assert.equal(await count('footers'), 1);
  });

  it('refuses the second add of a batch and keeps refusing after the type is renamed', async () => {
    await suite.api.post('/object-types', { title: 'Banners', singleton: true }).expect(200);
    const res = await suite.api
      .post('/objects/batch', {
        operations: [
          { method: 'add', object: { title: 'B1', type: 'banners' } },
          { method: 'add', object: { title: 'B2', type: 'banners' } },
        ],
      })
      .expect(200);
    assert.deepEqual(
      res.body.operations.map((o: { status: number }) => o.status),
      [200, 400],
    );
    assert.equal(res.body.operations[1].code, 'singleton_taken');
    await suite.api.patch('/object-types/banners', { slug: 'hero-banners' }).expect(200);
    const renamed = await suite.api.post('/objects', { title: 'B3', type: 'hero-banners' }).expect(400);
    assert.equal(renamed.body.code, 'singleton_taken');
  });

  it('refuses to make a type singleton while a locale has several Objects, and enforces it once made', async () => {
    await suite.api.post('/object-types', { title: 'Notices' }).expect(200);
    const a = (await suite.api.post('/objects', { title: 'N1', type: 'notices' }).expect(200)).body.object;
    await suite.api.post('/objects', { title: 'N2', type: 'notices' }).expect(200);
    const refused = await suite.api.patch('/object-types/notices', { singleton: true }).expect(400);
    assert.equal(refused.body.code, 'singleton_taken');
    assert.match(refused.body.message, /Object type 'notices' cannot be made a singleton: it has 2 Objects/);
    assert.equal((await suite.api.get('/object-types/notices').expect(200)).body.object_type.singleton, false);

    await suite.api.delete(`/objects/${a.id}`).expect(200);
    await suite.api.patch('/object-types/notices', { singleton: true }).expect(200);
    const res = await suite.api.post('/objects', { title: 'N3', type: 'notices' }).expect(400);
    assert.equal(res.body.code, 'singleton_taken');

    await suite.api.patch('/object-types/notices', { singleton: false }).expect(200);
    await suite.api.post('/objects', { title: 'N4', type: 'notices' }).expect(200);
    assert.equal(await count('notices'), 2);
  });
});
