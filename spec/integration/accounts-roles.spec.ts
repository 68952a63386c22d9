import assert from 'node:assert/strict';
import request from 'supertest';
import type { Role } from '../../lib/accounts/roles.js';
import { freshHarness } from '../support/harness.js';
import { account, member, setMember, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

const SLUG = 'roles';
const base = `/v3/buckets/${SLUG}`;

/** Objects the edit cells address, made with the Bucket key before the cells run. */
const fixture = { post: '', page: '' };
const absent = 'a'.repeat(24);

/**
 * Each action of the role table as one request made with a credential: a cell is allowed when
 * the answer is neither 401 nor 403 (an allowed write of a bad or absent thing is its 400 or 404).
 */
const ACTIONS = {
  'read posts': (t: string) => get(t, `${base}/objects?query=${encodeURIComponent('{"type":"posts"}')}`),
  'write posts': (t: string) => send(t, 'post', `${base}/objects`, { title: 'P', type: 'posts', status: 'draft' }),
  'write pages': (t: string) => send(t, 'post', `${base}/objects`, { title: 'Q', type: 'pages', status: 'draft' }),
  'edit posts': (t: string) => send(t, 'patch', `${base}/objects/${fixture.post}`, { title: 'Post, edited' }),
  'edit pages': (t: string) => send(t, 'patch', `${base}/objects/${fixture.page}`, { title: 'Page, edited' }),
  'read media': (t: string) => get(t, `${base}/media`),
  'delete media': (t: string) => send(t, 'delete', `${base}/media/${absent}`, {}),
  'read media folders': (t: string) => get(t, `${base}/media-folders`),
  'write media folders': (t: string) =>
    send(t, 'post', `${base}/media-folders`, { title: `F${String(Math.random()).slice(2, 8)}` }),
  'v2 rename media folder': (t: string) => send(t, 'patch', `/v2/buckets/${SLUG}/media-folders/absent`, { title: 'G' }),
  'read object types': (t: string) => get(t, `${base}/object-types`),
  'write object types': (t: string) =>
    send(t, 'post', `${base}/object-types`, { title: `T${String(Math.random()).slice(2, 8)}` }),
  'read webhooks': (t: string) => get(t, `${base}/webhooks`),
  'write webhooks': (t: string) => send(t, 'post', `${base}/webhooks`, {}),
  'read usage': (t: string) => get(t, `${base}/usage`),
  'list users': (t: string) => get(t, `/v1/${SLUG}/users`),
  'add user': (t: string) => send(t, 'post', `/v2/buckets/${SLUG}/users`, {}),
  'v1 read pages': (t: string) => get(t, `/v1/${SLUG}/object-type/pages`),
  'v1 write posts': (t: string) =>
    send(t, 'post', `/v1/${SLUG}/add-object`, { title: 'V1', type_slug: 'posts', status: 'draft' }),
  'v2 read media': (t: string) => get(t, `/v2/buckets/${SLUG}/media`),
  'v2 write object types': (t: string) =>
    send(t, 'post', `/v2/buckets/${SLUG}/object-types`, { title: `V${String(Math.random()).slice(2, 8)}` }),
} as const;
type Action = keyof typeof ACTIONS;
const USERS: readonly Action[] = ['list users', 'add user'];
/** The legacy clients send the token bare; others as `Bearer <token>`: both are the account credential. */
let bare = false;
const auth = (t: string) => (bare ? t : `Bearer ${t}`);
const get = (t: string, path: string) => request(suite.harness.app).get(path).set('Authorization', auth(t));
const send = (t: string, method: 'post' | 'put' | 'patch' | 'delete', path: string, body: object) =>
  request(suite.harness.app)[method](path).set('Authorization', auth(t)).send(body);

const ALL = Object.keys(ACTIONS) as Action[];
const ALLOWED: Record<Role, readonly Action[]> = {
  admin: ALL,
  developer: ALL.filter((a) => !USERS.includes(a)),
  editor: [
    'read posts',
    'write posts',
    'write pages',
    'edit posts',
    'edit pages',
    'read media',
    'delete media',
    'read media folders',
    'write media folders',
    'v2 rename media folder',
    'read object types',
    'v1 read pages',
    'v1 write posts',
    'v2 read media',
  ],
  contributor: ['read posts', 'write posts', 'edit posts', 'read object types', 'v1 write posts'],
};

/** The cells whose answer disagrees with `allowed`, with what came back. */
async function wrongCells(credential: string, allowed: readonly Action[]): Promise<string[]> {
  const wrong: string[] = [];
  for (const [name, act] of Object.entries(ACTIONS) as [Action, (t: string) => request.Test][]) {
    const res = await act(credential);
    const ok = allowed.includes(name);
    if (ok ? [401, 403].includes(res.status) : res.status !== 403 || res.body.code !== 'forbidden') {
      wrong.push(`${name}: ${String(res.status)} ${res.text.slice(0, 160)}`);
    }
  }
  return wrong;
}

let suite: BucketSuite;

describe('accounts: roles enforced on Bucket routes', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const tokens = {} as Record<Role, string>;
  const ids = {} as Record<Role, string>;
  suite = new BucketSuite(SLUG, async (_api, context) => {
    context.timeout(PASSWORD_WORK_TIMEOUT_MS);
    for (const title of ['Posts', 'Pages']) {
      await request(suite.harness.app)
        .post(`${base}/object-types`)
        .set('Authorization', `Bearer ${String(suite.keys.write_key)}`)
        .send({ title })
        .expect(200);
    }
    for (const [key, type] of [
      ['post', 'posts'],
      ['page', 'pages'],
    ] as const) {
      const made = await request(suite.harness.app)
        .post(`${base}/objects`)
        .set('Authorization', `Bearer ${String(suite.keys.write_key)}`)
        .send({ title: key, type, status: 'draft' })
        .expect(200);
      fixture[key] = String(made.body.object.id);
    }
    for (const role of ['admin', 'developer', 'editor', 'contributor'] as const) {
      const object_types = role === 'contributor' ? ['posts'] : [];
      ids[role] = await member(suite.harness, SLUG, `${role}@example.com`, { role, object_types });
      tokens[role] = await tokenOf(suite.harness, `${role}@example.com`);
    }
  });

  for (const role of ['admin', 'developer', 'editor', 'contributor'] as const) {
    it(`${role}: allowed exactly ${ALLOWED[role].join(', ')}; 403 forbidden otherwise (Bearer and bare token)`, async () => {
      bare = false;
      const bearer = await wrongCells(tokens[role], ALLOWED[role]);
      bare = true;
      const legacy = await wrongCells(tokens[role], ALLOWED[role]).finally(() => (bare = false));
      assert.deepEqual({ bearer, legacy }, { bearer: [], legacy: [] });
    });
  }

  it('the Bucket write key is allowed every content cell; the users routes need an admin token', async () => {
    const wrong = await wrongCells(String(suite.keys.write_key), ALL);
    assert.deepEqual(
      wrong.map((w) => w.split(':')[0]),
      USERS,
    );
    assert.ok(
      wrong.every((w) => / 401 /.test(w)),
      wrong.join('\n'),
    );
  });

  it('names the reason in the 403 message', async () => {
    const res = await send(tokens.editor, 'post', `${base}/object-types`, { title: 'Nope' }).expect(403);
    assert.match(res.body.message, /editor role may not change Object types/);
  });

  it('additional_permissions widen a role: users for a developer, sort_metafields for an editor', async () => {
    await setMember(suite.harness, SLUG, ids.developer, {
      role: 'developer',
      publishing_restrictions: null,
      additional_permissions: ['users'],
      object_types: [],
    });
    await get(tokens.developer, `/v1/${SLUG}/users`).expect(200);
    await setMember(suite.harness, SLUG, ids.editor, {
      role: 'editor',
      publishing_restrictions: null,
      additional_permissions: ['sort_metafields'],
      object_types: [],
    });
    // It reorders Metafields (accounts-escalation.spec.ts has the rest): here, the type as it is.
    const posts = await get(tokens.editor, `${base}/object-types/posts`).expect(200);
    await send(tokens.editor, 'patch', `${base}/object-types/posts`, {
      metafields: posts.body.object_type.metafields,
    }).expect(200);
    await send(tokens.editor, 'post', `${base}/object-types`, { title: 'Sorted' }).expect(403);
    await setMember(suite.harness, SLUG, ids.editor, {
      role: 'editor',
      publishing_restrictions: null,
      additional_permissions: [],
      object_types: [],
    });
  });

  it('writes through a token name the account in created_by, modified_by and the revision', async () => {
    const made = await send(tokens.editor, 'post', `${base}/objects`, {
      title: 'Mine',
      type: 'posts',
      status: 'draft',
    }).expect(200);
    assert.equal(made.body.object.created_by, ids.editor);
    assert.equal(made.body.object.modified_by, ids.editor);
    const id = made.body.object.id as string;
    await send(tokens.admin, 'patch', `${base}/objects/${id}`, { title: 'Edited', status: 'draft' }).expect(200);
    const after = await request(suite.harness.app)
      .get(`${base}/objects/${id}?status=any&read_key=${String(suite.keys.read_key)}`)
      .expect(200);
    assert.equal(after.body.object.created_by, ids.editor);
    assert.equal(after.body.object.modified_by, ids.admin);
    const revs = await request(suite.harness.app)
      .get(`${base}/objects/${id}/revisions?read_key=${String(suite.keys.read_key)}`)
      .expect(200);
    assert.deepEqual(
      revs.body.revisions.map((r: { created_by: string }) => r.created_by).sort(),
      [ids.admin, ids.editor].sort(),
    );
    // A write with the Bucket key is no one's: created_by stays null.
    const keyed = await request(suite.harness.app)
      .post(`${base}/objects`)
      .set('Authorization', `Bearer ${String(suite.keys.write_key)}`)
      .send({ title: 'K', type: 'posts' })
      .expect(200);
    assert.equal(keyed.body.object.created_by, null);
  });

  it('a contributor may edit an Object of its types by id, not one of another type', async () => {
    const post = await send(tokens.admin, 'post', `${base}/objects`, {
      title: 'A post',
      type: 'posts',
      status: 'draft',
    }).expect(200);
    const page = await send(tokens.admin, 'post', `${base}/objects`, {
      title: 'A page',
      type: 'pages',
      status: 'draft',
    }).expect(200);
    await send(tokens.contributor, 'patch', `${base}/objects/${String(post.body.object.id)}`, {
      title: 'Mine now',
      status: 'draft',
    }).expect(200);
    const refused = await send(tokens.contributor, 'patch', `${base}/objects/${String(page.body.object.id)}`, {
      title: 'x',
      status: 'draft',
    }).expect(403);
    assert.match(refused.body.message, /contributor role is limited to the Object types posts/);
    await get(tokens.contributor, `${base}/objects/${String(page.body.object.id)}`).expect(403);
    // A list naming no type is narrowed to the contributor's types (accounts-contributor.spec.ts).
    const listed = await get(tokens.contributor, `${base}/objects?status=any&props=type`).expect(200);
    assert.deepEqual([...new Set(listed.body.objects.map((o: { type: string }) => o.type))], ['posts']);
  });

  it('draft_only: every way to publish is 403 saying why; drafts are fine', async () => {
    await setMember(suite.harness, SLUG, ids.editor, {
      role: 'editor',
      publishing_restrictions: 'draft_only',
      additional_permissions: [],
      object_types: [],
    });
    const draft = await send(tokens.editor, 'post', `${base}/objects`, {
      title: 'D',
      type: 'posts',
      status: 'draft',
    }).expect(200);
    const id = String(draft.body.object.id);
    await request(suite.harness.app)
      .post(`${base}/objects`)
      .set('Authorization', `Bearer ${String(suite.keys.write_key)}`)
      .send({ title: 'Live one', slug: 'live-one', type: 'posts', status: 'published' })
      .expect(200);
    const attempts: [string, 'post' | 'put' | 'patch', string, object][] = [
      ['create published', 'post', `${base}/objects`, { title: 'X', type: 'posts', status: 'published' }],
      ['create without status', 'post', `${base}/objects`, { title: 'X', type: 'posts' }],
      [
        'schedule',
        'post',
        `${base}/objects`,
        { title: 'X', type: 'posts', status: 'draft', publish_at: new Date(Date.now() + 3600_000).toISOString() },
      ],
      ['publish by edit', 'patch', `${base}/objects/${id}`, { status: 'published' }],
      ['v1 edit of a published Object by slug', 'put', `/v1/${SLUG}/edit-object`, { slug: 'live-one', title: 'L' }],
      [
        'v1 Metafields edit of a published Object by slug',
        'patch',
        `/v1/${SLUG}/edit-object-metafields`,
        { slug: 'live-one', metafields: [] },
      ],
      ['publish a revision', 'post', `${base}/objects/${id}/revisions`, { title: 'R', status: 'published' }],
      ['merge a merge request', 'post', `${base}/merge-requests/${'0'.repeat(24)}/merge`, {}],
    ];
    for (const [label, method, path, body] of attempts) {
      const res = await send(tokens.editor, method, path, body);
      assert.equal(res.status, 403, `${label}: ${res.text}`);
      assert.match(res.body.message, /draft_only/, label);
    }
    await send(tokens.editor, 'patch', `${base}/objects/${id}`, { title: 'Still a draft', status: 'draft' }).expect(
      200,
    );
    await setMember(suite.harness, SLUG, ids.editor, {
      role: 'editor',
      publishing_restrictions: null,
      additional_permissions: [],
      object_types: [],
    });
  });

  it('a removed user loses access at once, with a token still unexpired; a stranger gets 403', async () => {
    const id = await account(suite.harness, 'leaver@example.com');
    await setMember(suite.harness, SLUG, id, {
      role: 'editor',
      publishing_restrictions: null,
      additional_permissions: [],
      object_types: [],
    });
    const token = await tokenOf(suite.harness, 'leaver@example.com');
    await get(token, `${base}/object-types`).expect(200);
    await request(suite.harness.app)
      .delete(`/v2/buckets/${SLUG}/users/${id}`)
      .set('Authorization', tokens.admin)
      .expect(200);
    const res = await get(token, `${base}/object-types`).expect(403);
    assert.match(res.body.message, /not a user of this Bucket/);
    const listed = await request(suite.harness.app).get('/v1/buckets').set('Authorization', token).expect(200);
    assert.deepEqual(listed.body.buckets, []);
  });

  it('a Bucket key still works beside tokens, and a tampered token on a Bucket route is 401', async () => {
    await request(suite.harness.app)
      .get(`${base}/object-types?read_key=${String(suite.keys.read_key)}`)
      .expect(200);
    const res = await get(`${tokens.admin.slice(0, -2)}xx`, `${base}/object-types`).expect(401);
    assert.match(res.body.message, /access token is not valid/);
  });

  it('an account token spends its own rate-limit budget, apart from the read key', async () => {
    const limited = await freshHarness({ RATE_LIMIT_READS_PER_MINUTE: '2' }, 'content_api_test_accounts_rl');
    const k = await limited.bucket(SLUG);
    const id = await account(limited, 'rl@example.com', SLUG);
    const token = await tokenOf(limited, 'rl@example.com');
    const path = `${base}/object-types`;
    for (let i = 0; i < 2; i++) await request(limited.app).get(path).set('Authorization', token).expect(200);
    const over = await request(limited.app).get(path).set('Authorization', token).expect(429);
    assert.equal(over.body.code, 'rate_limit_exceeded');
    await request(limited.app)
      .get(`${path}?read_key=${String(k.read_key)}`)
      .expect(200);
    assert.ok(id);
  });
});
