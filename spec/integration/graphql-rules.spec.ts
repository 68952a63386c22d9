import assert from 'node:assert/strict';
import request from 'supertest';
import type { CommandStartedEvent } from 'mongodb';
import { member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite, COUNTING_COMMANDS } from '../support/bucket-suite.js';
import { isGateCommand } from '../support/command-operators.js';

const SLUG = 'gql-rules';

/**
 * GraphQL under the v3 rules: who may read and write what (contributors, draft-only accounts),
 * relationships read in one command per level for the whole page, the schema following type
 * changes, GET for queries only, and the settings that limit operations.
 */
describe('GraphQL: roles, batching, schema refresh and limits', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const tokens: Record<string, string> = {};

  const suite = new BucketSuite(
    SLUG,
    async (api, context) => {
      context.timeout(PASSWORD_WORK_TIMEOUT_MS);
      await api.post('/object-types', { title: 'Authors', slug: 'authors' }).expect(200);
      await api
        .post('/object-types', {
          title: 'Posts',
          slug: 'posts',
          metafields: [{ type: 'object', title: 'Author', key: 'author', object_type: 'authors', value: '' }],
        })
        .expect(200);
      const authors: string[] = [];
      for (let i = 0; i < 5; i++)
        authors.push(
          (await api.post('/objects', { title: `A${String(i)}`, type: 'authors' }).expect(200)).body.object.id,
        );
      for (let i = 0; i < 50; i++)
        await api
          .post('/objects', { title: `P${String(i)}`, type: 'posts', metadata: { author: authors[i % 5] } })
          .expect(200);
      await member(suite.harness, SLUG, 'contrib@example.com', { role: 'contributor', object_types: ['authors'] });
      await member(suite.harness, SLUG, 'drafter@example.com', {
        role: 'editor',
        publishing_restrictions: 'draft_only',
      });
      tokens.contrib = await tokenOf(suite.harness, 'contrib@example.com');
      tokens.drafter = await tokenOf(suite.harness, 'drafter@example.com');
    },
    COUNTING_COMMANDS,
  );

  const path = () => `/v3/buckets/${SLUG}/graphql`;
  const as = (token: string, query: string) =>
    request(suite.harness.app).post(path()).set('Authorization', `Bearer ${token}`).send({ query });
  const withReadKey = (query: string) =>
    request(suite.harness.app)
      .post(`${path()}?read_key=${suite.keys.read_key ?? ''}`)
      .send({ query });

  /** The commands `send` causes, and the rounds the answer waited for (commands sent while none was in flight). */
  async function commandsOf(send: () => Promise<request.Response>) {
    const commands: string[] = [];
    const inFlight = new Set<number>();
    let rounds = 0;
    const started = (e: CommandStartedEvent) => {
      if (isGateCommand(e)) return;
      commands.push(`${e.commandName} ${String(e.command[e.commandName])}`);
      if (inFlight.size === 0) rounds++;
      inFlight.add(e.requestId);
    };
    const done = (e: { requestId: number }) => inFlight.delete(e.requestId);
    const { client } = suite.harness;
    client.on('commandStarted', started);
    client.on('commandSucceeded', done);
    client.on('commandFailed', done);
    try {
      const res = await send();
      return { res, commands: commands.sort(), rounds };
    } finally {
      client.off('commandStarted', started);
      client.off('commandSucceeded', done);
      client.off('commandFailed', done);
    }
  }

  it('reads a page of 50 posts with author { title } as the REST list at depth=1 does: the authors in one read for the whole page', async () => {
    const query = '{ posts(limit: 50) { total objects { title metadata { author { title } } } } }';
    // The same list once before (its kept order), not the same operation (its kept answer).
    await withReadKey(query.replace('title metadata', 'id title metadata')).expect(200);
    const gql = await commandsOf(() => withReadKey(query).expect(200));
    assert.equal(gql.res.headers['x-cache'], 'MISS');
    assert.equal(gql.res.body.errors, undefined, JSON.stringify(gql.res.body.errors));
    assert.equal(gql.res.body.data.posts.objects.length, 50);
    for (const post of gql.res.body.data.posts.objects as { metadata: { author: { title: string } } }[])
      assert.match(post.metadata.author.title, /^A\d$/);
    // Bucket, the list's write notes, its order, its page, and one read of the authors for the
    // whole page (not one per post), each waited for in turn.
    assert.ok(gql.commands.length <= 5, gql.commands.join(', '));
    assert.ok(gql.rounds <= 5, `${String(gql.rounds)} rounds`);
  });

  it('answers the same query again from the read cache with the Bucket read alone, until a write', async () => {
    const query = '{ posts(limit: 3, sort: "created_at") { objects { title } } }';
    const first = await withReadKey(query).expect(200);
    const again = await commandsOf(() => withReadKey(query).expect(200));
    assert.equal(again.res.headers['x-cache'], 'HIT');
    assert.deepEqual(again.res.body, first.body);
    assert.deepEqual(again.commands, ['find buckets']);
    const id = String(
      (await suite.api.get('/objects?query=%7B%22type%22%3A%22posts%22%7D&limit=1&sort=created_at').expect(200)).body
        .objects[0].id,
    );
    await suite.api.patch(`/objects/${id}`, { title: 'P0 renamed' }).expect(200);
    const after = await withReadKey(query).expect(200);
    assert.equal(after.headers['x-cache'], 'MISS');
    assert.equal(after.body.data.posts.objects[0].title, 'P0 renamed');
  });

  it('lets a contributor read its types only', async () => {
    const own = await as(tokens.contrib ?? '', '{ authors { total } }').expect(200);
    assert.equal(own.body.data.authors.total, 5);
    const other = await as(tokens.contrib ?? '', '{ posts { total } }').expect(200);
    assert.equal(other.body.errors[0].extensions.code, 'forbidden');
    assert.equal(other.body.errors[0].extensions.status, 403);
    assert.match(other.body.errors[0].message, /contributor/);
  });

  it('lets a draft-only account save drafts but not publish', async () => {
    const published = await as(tokens.drafter ?? '', 'mutation { create_authors(data: { title: "Live" }) { id } }');
    assert.equal(published.body.errors[0].extensions.code, 'forbidden');
    assert.match(published.body.errors[0].message, /draft_only/);
    const draft = await as(
      tokens.drafter ?? '',
      'mutation { create_authors(data: { title: "Quiet", status: "draft" }) { status modified_by } }',
    ).expect(200);
    assert.equal(draft.body.errors, undefined, JSON.stringify(draft.body.errors));
    assert.equal(draft.body.data.create_authors.status, 'draft');
    assert.ok(draft.body.data.create_authors.modified_by, 'the account is named on its write');
  });

  it('answers queries on GET and refuses a mutation there', async () => {
    const q = encodeURIComponent('{ authors(limit: 1) { total } }');
    const got = await request(suite.harness.app)
      .get(`${path()}?read_key=${suite.keys.read_key ?? ''}&query=${q}`)
      .set('Accept', 'application/graphql-response+json')
      .expect(200);
    assert.match(String(got.headers['content-type']), /application\/graphql-response\+json/);
    assert.equal(got.body.data.authors.total, 5);
    const m = encodeURIComponent('mutation { delete_authors(id: "0123456789abcdef01234567") }');
    await request(suite.harness.app)
      .get(`${path()}?query=${m}`)
      .set('Authorization', `Bearer ${suite.keys.write_key ?? ''}`)
      .expect(405);
  });

  it('sees a type change at the next request', async () => {
    const before = await withReadKey('{ object_types }').expect(200);
    assert.ok(!before.body.data.object_types.includes('pages'));
    await suite.api.post('/object-types', { title: 'Pages', slug: 'pages' }).expect(200);
    const after = await withReadKey('{ object_types pages { total } }').expect(200);
    assert.equal(after.body.errors, undefined, JSON.stringify(after.body.errors));
    assert.ok(after.body.data.object_types.includes('pages'));
  });

  it('refuses a query past the cost before any read', async () => {
    const deep = '{ posts { objects { metadata { author { title } } } } a: posts { total } b: posts { total } }';
    const measured = await withReadKey(deep).expect(200);
    assert.equal(measured.body.errors, undefined, 'within the default limits');
    const many = `{ ${Array.from({ length: 25 }, (_, i) => `p${String(i)}: posts { objects { title } }`).join(' ')} }`;
    const refused = await withReadKey(many).expect(200);
    assert.equal(refused.body.errors[0].extensions.code, 'query_too_complex');
    assert.match(refused.body.errors[0].message, /GRAPHQL_MAX_COST/);
  });
});

describe('GraphQL: introspection turned off', () => {
  const suite = new BucketSuite('gql-closed', undefined, { GRAPHQL_INTROSPECTION: 'false', GRAPHQL_MAX_DEPTH: '3' });
  const send = (query: string) =>
    request(suite.harness.app)
      .post(`/v3/buckets/gql-closed/graphql?read_key=${suite.keys.read_key ?? ''}`)
      .send({ query });

  it('refuses __schema, and a query deeper than GRAPHQL_MAX_DEPTH', async () => {
    const intro = await send('{ __schema { types { name } } }').expect(200);
    assert.match(intro.body.errors[0].message, /introspection/i);
    assert.equal(intro.body.errors[0].extensions.code, 'bad_request');
    await suite.api.post('/object-types', { title: 'Posts', slug: 'posts' }).expect(200);
    const deep = await send('{ posts { objects { metadata } } }').expect(200);
    assert.equal(deep.body.errors, undefined, JSON.stringify(deep.body.errors));
    await suite.api
      .post('/object-types', {
        title: 'Notes',
        slug: 'notes',
        metafields: [
          { type: 'parent', title: 'P', key: 'p', children: [{ type: 'text', title: 'T', key: 't', value: '' }] },
        ],
      })
      .expect(200);
    const tooDeep = await send('{ notes { objects { metadata { p { t } } } } }').expect(200);
    assert.equal(tooDeep.body.errors[0].extensions.code, 'query_too_complex');
    assert.match(tooDeep.body.errors[0].message, /GRAPHQL_MAX_DEPTH/);
  });
});
