import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { generateSecret, signatureHeader } from '../../lib/webhooks/signing.js';

describe('webhooks: Standard Webhooks signatures', () => {
  const body = JSON.stringify({ id: 'e1', type: 'object.created', data: { title: 'Héllo' } });
  const now = Math.floor(Date.now() / 1000);

  it('makes secrets in the whsec_ form with a 32-byte key', () => {
    const secret = generateSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    assert.notEqual(generateSecret(), secret);
  });

  it('signs what the reference verifier accepts, and only the exact body', () => {
    const secret = generateSecret();
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(now),
      'webhook-signature': signatureHeader(secret, 'msg_1', now, body),
    };
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(secret).verify(body.replace('Héllo', 'Hello'), headers), /No matching signature/);
    assert.throws(() => new Webhook(generateSecret()).verify(body, headers), /No matching signature/);
    assert.throws(
      () => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' }),
      /No matching signature/,
    );
  });

  it('matches the reference signer byte for byte', () => {
    const secret = generateSecret();
    assert.equal(
      signatureHeader(secret, 'msg_9', now, body),
      new Webhook(secret).sign('msg_9', new Date(now * 1000), body),
    );
  });
});
