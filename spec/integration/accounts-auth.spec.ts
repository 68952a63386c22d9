import assert from 'node:assert/strict';
import request from 'supertest';
import { SignJWT } from 'jose';
import { setPassword } from '../../lib/accounts/store.js';
import { account, PASSWORD, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { decoyHash } from '../../lib/accounts/password.js';
import { probeScrypt } from '../support/scrypt-probe.js';

describe('accounts: authenticate, token checks, account routes', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const suite = new BucketSuite(
    'acc-one',
    async () => {
      await suite.harness.bucket('acc-two');
      await account(suite.harness, 'Owner@Example.com', 'acc-one');
    },
    { ACCOUNT_TOKEN_SECRET: 'test-secret-of-enough-length-32bytes!', ACCOUNT_TOKEN_TTL: '1h' },
  );

  it('issues a token for e-mail (any case) and password on v1 and v2, valid ACCOUNT_TOKEN_TTL', async () => {
    for (const v of ['v1', 'v2']) {
      const res = await request(suite.harness.app)
        .post(`/${v}/authenticate`)
        .send({ email: 'owner@EXAMPLE.com', password: PASSWORD })
        .expect(200);
      assert.match(res.body.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      const ttl = Date.parse(res.body.expires_at) - Date.now();
      assert.ok(ttl > 3500_000 && ttl <= 3600_000, String(ttl));
      assert.equal(res.body.user.email, 'Owner@Example.com');
      assert.equal(res.body.user.password_hash, undefined);
    }
    const stored = await suite.harness.db.collection('accounts').findOne({ email_key: 'owner@example.com' });
    assert.match(String(stored?.password_hash), /^scrypt\$17\$8\$1\$/);
    assert.ok(!JSON.stringify(stored).includes(PASSWORD));
  });

  it('answers a wrong password and an unknown e-mail with the same 401, each after one password check', async () => {
    // Made now, so the probe counts password checks only.
    await decoyHash();
    const scrypt = probeScrypt();
    try {
      const login = (email: string) =>
        request(suite.harness.app).post('/v2/authenticate').send({ email, password: 'wrong password' });
      const wrong = await login('owner@example.com');
      const checksOfWrong = scrypt.calls;
      const unknown = await login('nobody@example.com');
      assert.equal(wrong.status, 401);
      assert.deepEqual(wrong.body, unknown.body);
      // An unknown e-mail is checked against a decoy hash: the same scrypt work, so its answer
      // takes as long and timing tells no one which e-mails have accounts. Counted, not timed.
      assert.equal(checksOfWrong, 1);
      assert.equal(scrypt.calls - checksOfWrong, 1);
    } finally {
      scrypt.restore();
    }
  });

  it('refuses a body without e-mail and password with 400 naming both', async () => {
    const res = await request(suite.harness.app).post('/v1/authenticate').send({}).expect(400);
    assert.equal(res.body.code, 'invalid_body');
    assert.match(res.body.message, /email.*password/);
  });

  it('throttles an e-mail after 10 login attempts in 15 minutes: 429 even with the right password', async function () {
    // Eleven scrypt checks of 128 MiB in a row: seconds each when other processes hold the CPUs.
    this.timeout(240_000);
    await account(suite.harness, 'throttled@example.com');
    for (let i = 0; i < 10; i++) {
      await request(suite.harness.app)
        .post('/v2/authenticate')
        .send({ email: 'throttled@example.com', password: 'nope' })
        .expect(401);
    }
    const res = await request(suite.harness.app)
      .post('/v2/authenticate')
      .send({ email: 'throttled@example.com', password: PASSWORD })
      .expect(429);
    assert.equal(res.body.code, 'login_throttled');
    assert.ok(Number(res.get('retry-after')) > 800);
    // Another e-mail is not affected.
    await tokenOf(suite.harness, 'owner@example.com');
    // Once the window has passed, the right password works again.
    const ended = await suite.harness.db
      .collection('rate_limits')
      .updateOne({ key: 'login-email:throttled@example.com' }, { $set: { expire: new Date(Date.now() - 1000) } });
    assert.equal(ended.modifiedCount, 1);
    await tokenOf(suite.harness, 'throttled@example.com');
  });

  it('lists the Buckets of the account with its role (v1 _id, v2 id) and answers GET /v2/user', async () => {
    const token = await tokenOf(suite.harness, 'owner@example.com');
    const v1 = await request(suite.harness.app).get('/v1/buckets').set('Authorization', token).expect(200);
    assert.deepEqual(
      v1.body.buckets.map((b: { slug: string; role: string; _id: string }) => [b.slug, b.role, typeof b._id]),
      [['acc-one', 'admin', 'string']],
    );
    const v2 = await request(suite.harness.app).get('/v2/buckets').set('Authorization', `Bearer ${token}`).expect(200);
    assert.equal(v2.body.buckets[0].id, v1.body.buckets[0]._id);
    const me = await request(suite.harness.app).get('/v2/user').set('Authorization', `Bearer ${token}`).expect(200);
    assert.equal(me.body.user.email, 'Owner@Example.com');
  });

  it('refuses tampered, expired, foreign-secret and missing tokens with 401', async () => {
    const token = await tokenOf(suite.harness, 'owner@example.com');
    const [head, payload, sig] = token.split('.') as [string, string, string];
    const forged = Buffer.from(payload, 'base64url')
      .toString()
      .replace(/"sub":"[0-9a-f]+"/, '"sub":"000000000000000000000000"');
    const tampered = `${head}.${Buffer.from(forged).toString('base64url')}.${sig}`;
    const secret = new TextEncoder().encode('test-secret-of-enough-length-32bytes!');
    const sub = JSON.parse(Buffer.from(payload, 'base64url').toString()).sub as string;
    const expired = await new SignJWT({ pv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('content-api')
      .setAudience('account')
      .setSubject(sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret);
    const foreign = await new SignJWT({ pv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('content-api')
      .setAudience('account')
      .setSubject(sub)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-xx'));
    for (const [bad, pattern] of [
      [tampered, /not valid/],
      [expired, /expired/],
      [foreign, /not valid/],
    ] as const) {
      const res = await request(suite.harness.app).get('/v2/buckets').set('Authorization', `Bearer ${bad}`).expect(401);
      assert.match(res.body.message, pattern);
    }
    const none = await request(suite.harness.app).get('/v1/buckets').expect(401);
    assert.equal(none.body.code, 'unauthorized');
  });

  it('a password change invalidates older tokens', async function () {
    // Four scrypt runs of 128 MiB: seconds each on a busy machine.
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await account(suite.harness, 'changer@example.com');
    const old = await tokenOf(suite.harness, 'changer@example.com');
    await request(suite.harness.app).get('/v2/user').set('Authorization', old).expect(200);
    await setPassword(suite.harness.db, 'changer@example.com', 'a brand new password');
    const res = await request(suite.harness.app).get('/v2/user').set('Authorization', old).expect(401);
    assert.match(res.body.message, /password changed/);
  });

  it('POST /v2/buckets creates a Bucket owned by the caller with its keys; DELETE (admin) removes it', async () => {
    const token = await tokenOf(suite.harness, 'owner@example.com');
    const made = await request(suite.harness.app)
      .post('/v2/buckets')
      .set('Authorization', token)
      .send({ slug: 'acc-new' })
      .expect(200);
    assert.equal(made.body.bucket.role, 'admin');
    assert.equal(typeof made.body.bucket.write_key, 'string');
    await request(suite.harness.app)
      .get('/v3/buckets/acc-new/objects')
      .query({ read_key: made.body.bucket.read_key })
      .expect((r) => {
        assert.ok([200, 404].includes(r.status));
      });
    const list = await request(suite.harness.app).get('/v2/buckets').set('Authorization', token).expect(200);
    assert.ok(list.body.buckets.some((b: { slug: string }) => b.slug === 'acc-new'));
    await request(suite.harness.app).delete('/v2/buckets/acc-new').set('Authorization', token).expect(200);
    await request(suite.harness.app).get('/v3/buckets/acc-new/objects').expect(404);
    assert.equal(
      await suite.harness.db.collection('bucket_users').countDocuments({ bucket_id: made.body.bucket.id }),
      0,
    );
  });
});
