import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import request from 'supertest';
import { findAccountById, setPassword } from '../../lib/accounts/store.js';
import { AccountTokens } from '../../lib/accounts/request-account.js';
import { account, member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

/*
 * An account token's life on the content routes of every version (the account routes are
 * covered in accounts-auth.spec.ts): expired, tampered, outdated by a password change, or its
 * account removed from the Bucket. The expired token is one the service itself issued with an
 * earlier clock (AccountTokens.issue takes `now`), so no test waits for a TTL to run out.
 */
const SLUG = 'lifecycle';
const READS = [`/v3/buckets/${SLUG}/object-types`, `/v2/buckets/${SLUG}/object-types`, `/v1/${SLUG}/object-types`];

describe('accounts: token expiry, tampering, password change and removal on content routes', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let memberId: string;
  const suite = new BucketSuite(
    SLUG,
    async (_api, context) => {
      context.timeout(PASSWORD_WORK_TIMEOUT_MS);
      await account(suite.harness, 'owner@example.com', SLUG);
      memberId = await member(suite.harness, SLUG, 'member@example.com', { role: 'editor' });
    },
    { ACCOUNT_TOKEN_TTL: '1h' },
  );

  /** Each content read's status and message with this Authorization header. */
  async function answers(authorization: string) {
    const out: [number, string][] = [];
    for (const path of READS) {
      const res = await request(suite.harness.app).get(path).set('Authorization', authorization);
      out.push([res.status, String(res.body.message ?? '')]);
    }
    return out;
  }

  it('a token the service issued ACCOUNT_TOKEN_TTL ago is 401 "expired" on v1, v2 and v3; one issued just now works', async () => {
    const found = await findAccountById(suite.harness.db, new ObjectId(memberId));
    assert.ok(found);
    const tokens = new AccountTokens(suite.harness.db, suite.harness.config);
    const issuedAt = new Date(Date.now() - suite.harness.config.accountTokenTtlSeconds * 1000 - 1000);
    const expired = await tokens.issue(found, issuedAt);
    assert.ok(Date.parse(expired.expires_at) < Date.now());
    for (const [status, message] of await answers(`Bearer ${expired.token}`)) {
      assert.equal(status, 401);
      assert.match(message, /access token has expired/);
    }
    const fresh = await tokens.issue(found);
    assert.deepEqual(
      (await answers(fresh.token)).map(([s]) => s),
      [200, 200, 200],
    );
  });

  it('a tampered token (payload or signature) is 401 on v1, v2 and v3, never a Bucket-key fallback', async () => {
    const token = await tokenOf(suite.harness, 'member@example.com');
    const [head, payload, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const owner = await tokenOf(suite.harness, 'owner@example.com');
    const ownerSub = (JSON.parse(Buffer.from(owner.split('.')[1] ?? '', 'base64url').toString()) as { sub: string })
      .sub;
    const raised = Buffer.from(JSON.stringify({ ...claims, sub: ownerSub })).toString('base64url');
    const flipped = `${sig.slice(0, -4)}${sig.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    for (const bad of [`${head}.${raised}.${sig}`, `${head}.${payload}.${flipped}`]) {
      for (const [status, message] of await answers(`Bearer ${bad}`)) {
        assert.equal(status, 401);
        assert.match(message, /access token is not valid/);
      }
    }
  });

  it('a password change ends older tokens on content routes at once; a new login works', async () => {
    const old = await tokenOf(suite.harness, 'member@example.com');
    assert.deepEqual(
      (await answers(old)).map(([s]) => s),
      [200, 200, 200],
    );
    await setPassword(suite.harness.db, 'member@example.com', 'correct horse battery');
    for (const [status, message] of await answers(old)) {
      assert.equal(status, 401);
      assert.match(message, /issued before the password changed/);
    }
    const renewed = await tokenOf(suite.harness, 'member@example.com');
    assert.deepEqual(
      (await answers(renewed)).map(([s]) => s),
      [200, 200, 200],
    );
  });

  it('removing the user ends its access to every version at once, with its token unexpired', async () => {
    const token = await tokenOf(suite.harness, 'member@example.com');
    const ownerToken = await tokenOf(suite.harness, 'owner@example.com');
    await request(suite.harness.app)
      .delete(`/v1/${SLUG}/users/${memberId}`)
      .set('Authorization', ownerToken)
      .expect(200);
    for (const [status, message] of await answers(`Bearer ${token}`)) {
      assert.equal(status, 403);
      assert.match(message, /not a user of this Bucket/);
    }
    await request(suite.harness.app)
      .post(`/v3/buckets/${SLUG}/objects`)
      .set('Authorization', `Bearer ${token}`)
      .send({ title: 'x', type: 'posts' })
      .expect(403);
  });
});
