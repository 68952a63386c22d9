import assert from 'node:assert/strict';
import { hashPassword, verifyPassword } from '../../lib/accounts/password.js';
import { loadConfig } from '../../lib/config.js';
import { PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';

describe('account passwords', () => {
  it('hashes with scrypt and a salt per hash; verifies only the right password', async function () {
    this.timeout(PASSWORD_WORK_TIMEOUT_MS);
    const a = await hashPassword('s3cret pass');
    const b = await hashPassword('s3cret pass');
    assert.match(a, /^scrypt\$17\$8\$1\$[\w+/=]+\$[\w+/=]+$/);
    assert.notEqual(a, b);
    assert.equal(await verifyPassword('s3cret pass', a), true);
    assert.equal(await verifyPassword('s3cret pasS', a), false);
    assert.equal(await verifyPassword('s3cret pass', 'not-a-hash'), false);
  });
});

describe('ACCOUNT_TOKEN_TTL', () => {
  it('defaults to 7 days and takes seconds or s/m/h/d; anything else is refused', () => {
    assert.equal(loadConfig({}).accountTokenTtlSeconds, 604_800);
    assert.equal(loadConfig({ ACCOUNT_TOKEN_TTL: '90' }).accountTokenTtlSeconds, 90);
    assert.equal(loadConfig({ ACCOUNT_TOKEN_TTL: '12h' }).accountTokenTtlSeconds, 43_200);
    assert.equal(loadConfig({ ACCOUNT_TOKEN_TTL: '2d' }).accountTokenTtlSeconds, 172_800);
    assert.throws(() => loadConfig({ ACCOUNT_TOKEN_TTL: '1w' }), /ACCOUNT_TOKEN_TTL must be a duration/);
    assert.throws(() => loadConfig({ ACCOUNT_TOKEN_TTL: '0' }), /ACCOUNT_TOKEN_TTL/);
  });
});
