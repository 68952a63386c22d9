import assert from 'node:assert/strict';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { decoyHash } from '../../lib/accounts/password.js';
import { account, PASSWORD, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { probeScrypt, type ScryptProbe } from '../support/scrypt-probe.js';

const SECRET = 'test-secret-of-enough-length-32bytes!';

function login(app: Express, email: string, password: string, version: 'v1' | 'v2' = 'v2') {
  return request(app).post(`/${version}/authenticate`).send({ email, password });
}

/** How many answers had each status, e.g. { 401: 3, 429: 5 }. */
function tally(answers: request.Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/**
 * Racing attempts: at most `limit` were checked (401), each refusal came without a check, and at
 * least one got through. MongoDB counts them exactly (`limit` checked); the Java test engine's
 * findOneAndUpdate may return a count that already includes a racing increment, which only ever
 * refuses more, so fewer than `limit` may be checked there.
 */
function assertAtMost(answers: request.Response[], limit: number, checks: number): void {
  const { 401: checked = 0, 429: refused = 0 } = tally(answers);
  assert.ok(checked >= 1 && checked <= limit, JSON.stringify(tally(answers)));
  assert.equal(checked + refused, answers.length, JSON.stringify(tally(answers)));
  assert.equal(checks, checked);
}

function assertThrottled(res: request.Response, pattern: RegExp): void {
  assert.equal(res.status, 429);
  assert.equal(res.body.code, 'login_throttled');
  assert.match(res.body.message, pattern);
  const retryAfter = Number(res.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 900, String(retryAfter));
}

/** A describe block's app with these login settings, and a probe counting its password checks. */
function loginApp(env: NodeJS.ProcessEnv): { h: Harness; scrypt: ScryptProbe } {
  const got = {} as { h: Harness; scrypt: ScryptProbe };
  before(async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    got.h = await freshHarness({ ACCOUNT_TOKEN_SECRET: SECRET, ...env });
    // Made now, so the probe counts password checks only.
    await decoyHash();
    got.scrypt = probeScrypt();
  });
  after(() => {
    got.scrypt.restore();
    assert.deepEqual(got.h.errors, []);
  });
  return got;
}

describe('logins: every attempt counted per e-mail before the password is checked', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let h: Harness;
  /** A second app on the same database: another process, as far as the counts can tell. */
  let other: Express;
  let scrypt: ScryptProbe;
  before(async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    h = await freshHarness({
      ACCOUNT_TOKEN_SECRET: SECRET,
      LOGIN_MAX_ATTEMPTS_PER_EMAIL: '3',
      LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '1000',
      // Every check that passes the count runs at once: none waits for a turn (tested below).
      LOGIN_CONCURRENCY: '8',
    });
    other = createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m) });
    // Made now, so the probe counts password checks only.
    await decoyHash();
    scrypt = probeScrypt();
  });
  after(() => {
    scrypt.restore();
    assert.deepEqual(h.errors, []);
  });

  it('lets at most the limit of concurrent attempts reach the password check, across apps and versions', async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await account(h, 'racer@example.com');
    scrypt.reset();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        login(i % 2 === 0 ? h.app : other, 'racer@example.com', 'wrong', i % 4 < 2 ? 'v1' : 'v2'),
      ),
    );
    assertAtMost(answers, 3, scrypt.calls);
    for (const refused of answers.filter((a) => a.status === 429)) assertThrottled(refused, /racer@example\.com/);
    const checks = scrypt.calls;
    // The right password is refused too while the window lasts, and costs no check.
    assertThrottled(await login(h.app, 'RACER@example.com', PASSWORD), /at most 3/);
    assert.equal(scrypt.calls, checks);
  });

  it('does not reset the count on success: a success is an attempt like any other', async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await account(h, 'steady@example.com');
    await login(h.app, 'steady@example.com', 'wrong').expect(401);
    await login(h.app, 'steady@example.com', PASSWORD).expect(200);
    await login(other, 'steady@example.com', PASSWORD).expect(200);
    assertThrottled(await login(h.app, 'steady@example.com', PASSWORD), /steady@example\.com/);
  });

  it('counts each e-mail apart', async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await account(h, 'apart@example.com');
    for (let i = 0; i < 3; i++) await login(h.app, 'spent@example.com', 'wrong').expect(401);
    await login(h.app, 'spent@example.com', 'wrong').expect(429);
    await login(h.app, 'apart@example.com', PASSWORD).expect(200);
  });
});

describe('logins: attempts counted per client address', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const app = loginApp({
    LOGIN_MAX_ATTEMPTS_PER_EMAIL: '100',
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '4',
    LOGIN_CONCURRENCY: '8',
    LOGIN_ADDRESS_TRICKLE_SECONDS: '0',
  });

  it('refuses an address past LOGIN_MAX_ATTEMPTS_PER_ADDRESS whatever e-mails it tries, before any check', async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await account(app.h, 'victim@example.com');
    app.scrypt.reset();
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, i) => login(app.h.app, `random-${i}@example.com`, 'guess', i % 2 ? 'v1' : 'v2')),
    );
    assertAtMost(answers, 4, app.scrypt.calls);
    for (const refused of answers.filter((a) => a.status === 429)) assertThrottled(refused, /this address/);
    const checks = app.scrypt.calls;
    // With LOGIN_ADDRESS_TRICKLE_SECONDS=0, a real account from the same address waits for the window too.
    assertThrottled(await login(app.h.app, 'victim@example.com', PASSWORD), /this address/);
    assert.equal(app.scrypt.calls, checks);
  });
});

describe('logins: an address past its limit still gets one attempt per LOGIN_ADDRESS_TRICKLE_SECONDS', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const app = loginApp({
    LOGIN_MAX_ATTEMPTS_PER_EMAIL: '100',
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '4',
    LOGIN_CONCURRENCY: '8',
    LOGIN_ADDRESS_TRICKLE_SECONDS: '1',
  });

  it('checks a flood only at the limit plus one attempt per period, then lets a real account in', async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await account(app.h, 'office@example.com');
    app.scrypt.reset();
    const flood = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(app.h.app, `random-${i}@example.com`, 'guess')),
    );
    const { 401: checked = 0, 429: refused = 0 } = tally(flood);
    assert.equal(checked + refused, 12, JSON.stringify(tally(flood)));
    // The window's 4, and at most one per elapsed second of the flood beyond them.
    assert.ok(checked >= 1 && checked <= 4 + 1 + 12, JSON.stringify(tally(flood)));
    assert.equal(app.scrypt.calls, checked);
    for (const late of flood.filter((a) => a.status === 429)) {
      assertThrottled(late, /this address: at most 4 attempts in .*then one per 1 s/);
      assert.equal(late.get('retry-after'), '1');
    }
    // The flood is over: the office's user gets in, after at most a period's wait (a refusal says how long).
    let res = await login(app.h.app, 'office@example.com', PASSWORD);
    for (let tries = 0; res.status === 429 && tries < 5; tries++) {
      await new Promise((r) => setTimeout(r, Number(res.get('retry-after')) * 1000 + 50));
      res = await login(app.h.app, 'office@example.com', PASSWORD);
    }
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(typeof res.body.token, 'string');
  });
});

describe('logins: password checks at once per process', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let h: Harness;
  let scrypt: ScryptProbe;
  before(async () => {
    h = await freshHarness({ ACCOUNT_TOKEN_SECRET: SECRET, LOGIN_CONCURRENCY: '1', LOGIN_QUEUE: '1' });
    await decoyHash();
    scrypt = probeScrypt();
  });
  after(() => {
    scrypt.restore();
    assert.deepEqual(h.errors, []);
  });

  it('runs at most LOGIN_CONCURRENCY checks at once and answers 503 login_busy past the queue', async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    scrypt.reset();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => login(h.app, `flood-${i}@example.com`, 'x')));
    const busy = answers.filter((a) => a.status === 503);
    assert.ok(busy.length >= 1, JSON.stringify(tally(answers)));
    assert.equal(busy.length + answers.filter((a) => a.status === 401).length, 8, JSON.stringify(tally(answers)));
    for (const refused of busy) {
      assert.equal(refused.body.code, 'login_busy');
      assert.match(refused.body.message, /retry/);
      assert.ok(Number(refused.get('retry-after')) >= 1);
    }
    assert.equal(scrypt.maxRunning, 1);
    assert.equal(scrypt.calls, 8 - busy.length);
  });
});
