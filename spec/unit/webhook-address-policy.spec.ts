import assert from 'node:assert/strict';
import { addressRefusal, carriedIPv4, classifyAddress } from '../../lib/webhooks/address-policy.js';
import { RefusedEndpoint, resolveEndpoint } from '../../lib/webhooks/resolve.js';

describe('webhooks: which addresses an endpoint may reach', () => {
  it('never allows link-local, cloud metadata, unspecified, multicast or reserved addresses', () => {
    for (const ip of [
      '169.254.169.254',
      '169.254.0.1',
      '100.100.100.200',
      '192.0.0.192',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      'fe80::1',
      'fe80::1%eth0',
      'fd00:ec2::254',
      '::',
      'ff02::1',
    ]) {
      assert.equal(classifyAddress(ip), 'forbidden', ip);
      assert.match(addressRefusal(ip, true) ?? '', /never allowed/, ip);
    }
  });

  it('allows loopback and private ranges only when told to', () => {
    for (const ip of [
      '127.0.0.1',
      '127.9.9.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '::1',
      'fd12::1',
    ]) {
      assert.equal(classifyAddress(ip), 'private', ip);
      assert.match(addressRefusal(ip, false) ?? '', /WEBHOOK_ALLOW_PRIVATE=true/, ip);
      assert.equal(addressRefusal(ip, true), null, ip);
    }
  });

  it('allows public addresses', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111']) {
      assert.equal(classifyAddress(ip), 'public', ip);
      assert.equal(addressRefusal(ip, false), null, ip);
    }
  });

  it('judges IPv6 forms that carry an IPv4 address by that address too', () => {
    assert.deepEqual(carriedIPv4('::ffff:169.254.169.254'), ['169.254.169.254']);
    assert.deepEqual(carriedIPv4('::ffff:a9fe:a9fe'), ['169.254.169.254']);
    assert.deepEqual(carriedIPv4('::ffff:0:a9fe:a9fe'), ['169.254.169.254']);
    assert.deepEqual(carriedIPv4('64:ff9b::a9fe:a9fe'), ['169.254.169.254']);
    assert.deepEqual(carriedIPv4('2002:a9fe:a9fe::1'), ['169.254.169.254']);
    assert.deepEqual(carriedIPv4('2001:0:4136:e378:8000:63bf:3f57:fefd'), ['65.54.227.120', '192.168.1.2']);
    assert.deepEqual(carriedIPv4('::7f00:1'), ['127.0.0.1']);
    assert.deepEqual(carriedIPv4('::1'), []);
    assert.deepEqual(carriedIPv4('0:0:0:0:0:0:0:1'), []);
    assert.deepEqual(carriedIPv4('2606:4700::1'), []);
    assert.equal(classifyAddress('::ffff:169.254.169.254'), 'forbidden');
    assert.equal(classifyAddress('64:ff9b::a9fe:a9fe'), 'forbidden');
    assert.equal(classifyAddress('::ffff:127.0.0.1'), 'private');
    assert.equal(classifyAddress('2002:7f00:1::'), 'private');
    assert.equal(classifyAddress('::ffff:8.8.8.8'), 'public');
  });

  it('treats anything that is not an IP address as forbidden', () => {
    assert.equal(classifyAddress('example.com'), 'forbidden');
    assert.equal(classifyAddress(''), 'forbidden');
  });
});

describe('webhooks: resolving an endpoint at delivery time', () => {
  const names = (table: Record<string, string[]>) => (host: string) => {
    const found = table[host];
    if (!found) return Promise.reject(new Error(`getaddrinfo ENOTFOUND ${host}`));
    return Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };

  it('connects to the address it checked', async () => {
    const target = await resolveEndpoint(
      'https://hooks.example:8443/x?y=1',
      false,
      names({ 'hooks.example': ['93.184.216.34'] }),
    );
    assert.equal(target.address, '93.184.216.34');
    assert.equal(target.family, 4);
    assert.equal(target.url.port, '8443');
  });

  it('refuses a name that resolves to a metadata address, even among public ones', async () => {
    const lookup = names({ 'evil.example': ['93.184.216.34', '169.254.169.254'] });
    await assert.rejects(resolveEndpoint('http://evil.example/', true, lookup), (err: unknown) => {
      assert.ok(err instanceof RefusedEndpoint);
      assert.match(err.message, /refused evil\.example: 169\.254\.169\.254 is a link-local, metadata/);
      return true;
    });
  });

  it('refuses IP literals, bracketed IPv6 included, without resolving', async () => {
    const never = () => Promise.reject(new Error('resolved an IP literal'));
    await assert.rejects(resolveEndpoint('http://169.254.169.254/latest/meta-data', true, never), RefusedEndpoint);
    await assert.rejects(resolveEndpoint('http://[::1]:8080/', false, never), /WEBHOOK_ALLOW_PRIVATE/);
    const allowed = await resolveEndpoint('http://[::1]:8080/', true, never);
    assert.deepEqual([allowed.address, allowed.family], ['::1', 6]);
  });

  it('turns a name that does not resolve into a refusal, not a crash', async () => {
    await assert.rejects(resolveEndpoint('http://nowhere.invalid/', false, names({})), /could not be resolved/);
  });
});
