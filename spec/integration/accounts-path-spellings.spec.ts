import assert from 'node:assert/strict';
import request from 'supertest';
import { member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { everyRoute } from '../support/route-walk.js';
import { BucketSuite } from '../support/bucket-suite.js';

const SLUG = 'spell';
const base = `/v3/buckets/${SLUG}`;
const absent = 'a'.repeat(24);

/** Upper-cases the path's literal segments (parameters keep their values), or only the last literal one. */
function upperCased(path: string, onlyLast: boolean): string {
  const parts = path.split('/');
  const literal = parts.map((p, i) => (p !== '' && !p.startsWith(':') && !p.startsWith('*') ? i : -1));
  const last = Math.max(...literal);
  return parts.map((p, i) => ((onlyLast ? i === last : literal.includes(i)) ? p.toUpperCase() : p)).join('/');
}

/** The answer of a path no route serves: v3's 200 quirk, elsewhere the plain 404. */
function isRouteNotFound(prefix: string, res: request.Response): boolean {
  // v1's `/:slug` takes any one segment (`/v1/BUCKETS`) as a Bucket slug, which names no Bucket.
  if (prefix === '/v1' && res.status === 404 && res.body.code === 'bucket_not_found') return true;
  if (prefix === '/v3') return res.status === 200 && res.body.message === 'Route not found';
  return res.status === 404 && res.body.code === 'route_not_found';
}

describe('accounts: every spelling of a path is checked as the route that serves it', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const ids = { post: '', page: '' };
  let editor = '';
  let contributor = '';
  const write = (t: string) => ({ Authorization: `Bearer ${t}` });

  const suite = new BucketSuite(SLUG, async (_api, context) => {
    context.timeout(PASSWORD_WORK_TIMEOUT_MS);
    const key = write(String(suite.keys.write_key));
    for (const title of ['Posts', 'Pages'])
      await request(suite.harness.app).post(`${base}/object-types`).set(key).send({ title }).expect(200);
    for (const [k, type] of [
      ['post', 'posts'],
      ['page', 'pages'],
    ] as const) {
      const made = await request(suite.harness.app)
        .post(`${base}/objects`)
        .set(key)
        .send({ title: `${k} live`, slug: k, type, status: 'published' })
        .expect(200);
      ids[k] = String(made.body.object.id);
    }
    await member(suite.harness, SLUG, 'editor@example.com', { role: 'editor', publishing_restrictions: 'draft_only' });
    await member(suite.harness, SLUG, 'contributor@example.com', {
      role: 'contributor',
      publishing_restrictions: 'draft_only',
      object_types: ['posts'],
    });
    editor = await tokenOf(suite.harness, 'editor@example.com');
    contributor = await tokenOf(suite.harness, 'contributor@example.com');
  });

  const liveTitle = async (id: string) =>
    (
      await request(suite.harness.app)
        .get(`${base}/objects/${id}?read_key=${String(suite.keys.read_key)}`)
        .expect(200)
    ).body.object.title as string;

  it('an upper-case path answers route-not-found: a draft-only editor cannot change live content', async () => {
    const res = await request(suite.harness.app)
      .patch(`${base}/OBJECTS/${ids.post}`)
      .set(write(editor))
      .send({ title: 'changed live' });
    assert.ok(isRouteNotFound('/v3', res), `${String(res.status)} ${res.text}`);
    assert.equal(await liveTitle(ids.post), 'post live');
  });

  it('an upper-case path answers route-not-found: a contributor cannot delete another type', async () => {
    const res = await request(suite.harness.app).delete(`${base}/OBJECT-TYPES/pages`).set(write(contributor));
    assert.ok(isRouteNotFound('/v3', res), `${String(res.status)} ${res.text}`);
    await request(suite.harness.app)
      .get(`${base}/object-types/pages?read_key=${String(suite.keys.read_key)}`)
      .expect(200);
  });

  it('a trailing slash answers route-not-found: a draft-only editor cannot publish through it', async () => {
    const before = (
      await request(suite.harness.app).get(`${base}/objects?status=any&read_key=${String(suite.keys.read_key)}`)
    ).body.total as number;
    for (const [method, path, body] of [
      ['post', `${base}/objects/`, { title: 'x', type: 'posts' }],
      ['post', `${base}/objects/batch/`, { operations: [{ method: 'add', object: { title: 'y', type: 'posts' } }] }],
      ['post', `${base}/objects/BATCH`, { operations: [{ method: 'add', object: { title: 'z', type: 'posts' } }] }],
    ] as const) {
      const res = await request(suite.harness.app)[method](path).set(write(editor)).send(body);
      assert.ok(isRouteNotFound('/v3', res), `${path}: ${String(res.status)} ${res.text}`);
    }
    for (const [method, path, body] of [
      ['post', `/v1/${SLUG}/add-object/`, { title: 'v', type_slug: 'posts' }],
      ['put', `/v1/${SLUG}/edit-object/`, { slug: 'post', title: 'changed live' }],
      ['patch', `/v1/${SLUG}/edit-object-metafields/`, { slug: 'post', metafields: [] }],
    ] as const) {
      const res = await request(suite.harness.app)[method](path).set(write(editor)).send(body);
      assert.ok(isRouteNotFound('/v1', res), `${path}: ${String(res.status)} ${res.text}`);
    }
    const after = (
      await request(suite.harness.app).get(`${base}/objects?status=any&read_key=${String(suite.keys.read_key)}`)
    ).body.total as number;
    assert.equal(after, before);
    assert.equal(await liveTitle(ids.post), 'post live');
  });

  it('v1 edit-object is checked against the Object the handler edits: an empty id names it by slug', async () => {
    const draft = await request(suite.harness.app)
      .post(`${base}/objects`)
      .set(write(String(suite.keys.write_key)))
      .send({ title: 'a draft', type: 'posts', status: 'draft' })
      .expect(200);
    const res = await request(suite.harness.app)
      .put(`/v1/${SLUG}/edit-object`)
      .set(write(editor))
      .send({ id: '', _id: String(draft.body.object.id), slug: 'post', title: 'changed live' });
    assert.equal(res.status, 403, res.text);
    assert.equal(await liveTitle(ids.post), 'post live');
  });

  it('v1 add-object is checked against type_slug, the field it creates the Object with', async () => {
    const res = await request(suite.harness.app)
      .post(`/v1/${SLUG}/add-object`)
      .set(write(contributor))
      .send({ type: 'posts', type_slug: 'pages', title: 'smuggled', status: 'draft' });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.code, 'forbidden');
    const pages = await request(suite.harness.app).get(
      `${base}/objects?status=any&read_key=${String(suite.keys.read_key)}&query=${encodeURIComponent('{"type":"pages"}')}`,
    );
    assert.deepEqual(
      pages.body.objects.map((o: { title: string }) => o.title),
      ['page live'],
    );
  });

  it('every route of every version, upper-cased or with a trailing slash, is no route (with a token that may not use it)', async function () {
    this.timeout(300_000);
    const values: Record<string, string> = {
      slug: SLUG,
      bucket: SLUG,
      object_id: ids.page,
      type_slug: 'pages',
      object_slug: 'page',
    };
    const wrong: string[] = [];
    const fill = (p: string) => p.replace(/[:*](\w+)/g, (_m, name: string) => values[name] ?? absent);
    const routes = everyRoute(suite.harness);
    // A spelling another route declares on purpose (v1's `/:slug/`, which its client asks for) is that route.
    const declared = new Set(routes.map(({ prefix, def }) => `${def.method} ${prefix}${fill(def.path)}`));
    for (const { prefix, def } of routes) {
      const path = fill(def.path);
      const variants = [upperCased(def.path, false), upperCased(def.path, true)].map((v) => `${prefix}${fill(v)}`);
      // A wildcard's last segment may end in a slash of its own; every other path is tried with one.
      if (!def.path.includes('*')) variants.push(`${prefix}${path}/`);
      // A path of parameters alone (v1's `/:slug`) has no spelling of its own to vary.
      for (const variant of new Set(variants.filter((v) => !declared.has(`${def.method} ${v}`)))) {
        const agent = request(suite.harness.app);
        const res = await agent[def.method](variant)
          .set(write(contributor))
          .send({ title: 'spelt', type: 'pages', type_slug: 'pages', status: 'published', slug: 'page' });
        if (!isRouteNotFound(prefix, res)) wrong.push(`${def.method} ${variant}: ${String(res.status)}`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.equal(await liveTitle(ids.page), 'page live');
  });
});
