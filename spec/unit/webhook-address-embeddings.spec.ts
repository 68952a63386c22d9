import assert from 'node:assert/strict';
import { addressRefusal, classifyAddress, type AddressClass } from '../../lib/webhooks/address-policy.js';

/** `a.b.c.d` as the two hex groups of an IPv6 address. */
function hex(v4: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** Teredo stores the client's address with every bit inverted. */
function inverted(v4: string): string {
  return hex(
    v4
      .split('.')
      .map((n) => String(255 - Number(n)))
      .join('.'),
  );
}

/** Every IPv6 form that carries an IPv4 address, by name. */
const EMBEDDINGS: Record<string, (v4: string) => string> = {
  'mapped, dotted': (v4) => `::ffff:${v4}`,
  'mapped, hex': (v4) => `::ffff:${hex(v4)}`,
  'mapped, uncompressed': (v4) => `0:0:0:0:0:ffff:${hex(v4)}`,
  'translated, dotted': (v4) => `::ffff:0:${v4}`,
  'translated, hex': (v4) => `::ffff:0:${hex(v4)}`,
  'compatible, dotted': (v4) => `::${v4}`,
  'compatible, hex': (v4) => `::${hex(v4)}`,
  'NAT64 well-known, dotted': (v4) => `64:ff9b::${v4}`,
  'NAT64 well-known, hex': (v4) => `64:ff9b::${hex(v4)}`,
  'NAT64 local-use, dotted': (v4) => `64:ff9b:1::${v4}`,
  'NAT64 local-use, hex': (v4) => `64:ff9b:1::${hex(v4)}`,
  '6to4, host 0': (v4) => `2002:${hex(v4)}::`,
  '6to4, host 1': (v4) => `2002:${hex(v4)}:1::1`,
  // Server 65.54.227.120 (public), flags 8000, port 63bf, then the client's address inverted.
  Teredo: (v4) => `2001:0:4136:e378:8000:63bf:${inverted(v4)}`,
};

const INNER: Record<string, AddressClass> = {
  '127.0.0.1': 'private',
  '127.1.2.3': 'private',
  '10.0.0.1': 'private',
  '172.16.0.1': 'private',
  '192.168.1.1': 'private',
  '100.64.0.1': 'private',
  '169.254.169.254': 'forbidden',
  '169.254.0.1': 'forbidden',
  '100.100.100.200': 'forbidden',
  '192.0.0.192': 'forbidden',
  '224.0.0.1': 'forbidden',
  '8.8.8.8': 'public',
  '93.184.216.34': 'public',
};

describe('webhooks: IPv6 forms that carry an IPv4 address are judged by it', () => {
  for (const [form, embed] of Object.entries(EMBEDDINGS)) {
    it(form, () => {
      for (const [v4, expected] of Object.entries(INNER)) {
        const v6 = embed(v4);
        // A local-use NAT64 prefix reaches only a translator of the local network: private at least.
        const want = form.startsWith('NAT64 local-use') && expected === 'public' ? 'private' : expected;
        assert.equal(classifyAddress(v6), want, `${v6} (${v4})`);
        if (want !== 'public') assert.notEqual(addressRefusal(v6, false), null, v6);
        if (want === 'forbidden') assert.notEqual(addressRefusal(v6, true), null, v6);
      }
    });
  }

  it('refuses the form the review found, [::ffff:0:7f00:1]', () => {
    assert.equal(classifyAddress('::ffff:0:7f00:1'), 'private');
    assert.match(addressRefusal('::ffff:0:7f00:1', false) ?? '', /WEBHOOK_ALLOW_PRIVATE/);
  });

  it('judges a Teredo address by its server too', () => {
    // Server 127.0.0.1, client 8.8.8.8.
    assert.equal(classifyAddress(`2001:0:7f00:1:8000:63bf:${inverted('8.8.8.8')}`), 'private');
  });

  it('leaves public IPv6 addresses that carry nothing public', () => {
    for (const ip of ['2606:4700:4700::1111', '2a00:1450:4001:82b::200e', '2001:4860:4860::8888', '2003::1']) {
      assert.equal(classifyAddress(ip), 'public', ip);
    }
  });

  it('keeps :: and ::1 as themselves, not compatible IPv4 addresses', () => {
    assert.equal(classifyAddress('::'), 'forbidden');
    assert.equal(classifyAddress('::1'), 'private');
    assert.equal(classifyAddress('::2'), 'forbidden');
  });
});
