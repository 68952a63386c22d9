import assert from 'node:assert/strict';
import { clientErrorAnswer } from '../../lib/http/client-error.js';
import { clientOfAddress, ConnectionLimits } from '../../lib/http/connection-limits.js';
import { loadConfig } from '../../lib/config.js';

const settings = loadConfig({}).http;

function parserError(code: string, reason?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`Parse Error: ${reason ?? code}`), { code, reason });
}

describe('clientOfAddress', () => {
  it('counts an IPv4 address, mapped into IPv6 or not, as itself', () => {
    assert.equal(clientOfAddress('203.0.113.7'), '203.0.113.7');
    assert.equal(clientOfAddress('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientOfAddress('::FFFF:203.0.113.7'), '203.0.113.7');
  });

  it('counts an IPv6 address by its /64 network, however it is written', () => {
    const net = '2001:db8:85a3:8d3::/64';
    assert.equal(clientOfAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348'), net);
    assert.equal(clientOfAddress('2001:0db8:85a3:08d3::1'), net);
    assert.equal(clientOfAddress('2001:DB8:85A3:8D3::ffff'), net);
    assert.equal(clientOfAddress('2001:db8:85a3:8d3::1%eth0'), net);
    assert.notEqual(clientOfAddress('2001:db8:85a3:8d4::1'), net);
    assert.equal(clientOfAddress('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientOfAddress('::1'), '0:0:0:0::/64');
    assert.equal(clientOfAddress('64:ff9b::192.0.2.33'), '64:ff9b:0:0::/64');
  });
});

describe('ConnectionLimits', () => {
  it('admits up to the per-address limit, per address, and again after a release', () => {
    const limits = new ConnectionLimits({ ...settings, maxConnections: 0, maxConnectionsPerIp: 2 });
    const first = limits.admit('198.51.100.1');
    assert.ok(limits.admit('198.51.100.1').release);
    assert.equal(limits.admit('198.51.100.1').refusal?.status, 429);
    assert.ok(limits.admit('198.51.100.2').release, 'another address has a share of its own');
    first.release?.();
    first.release?.();
    assert.ok(limits.admit('198.51.100.1').release);
    assert.equal(limits.admit('198.51.100.1').refusal?.code, 'rate_limited', 'a second release frees nothing');
  });

  it('refuses past the process limit with 503 server_busy', () => {
    const limits = new ConnectionLimits({ ...settings, maxConnections: 1, maxConnectionsPerIp: 0 });
    const only = limits.admit('198.51.100.1');
    const refused = limits.admit('198.51.100.2').refusal;
    assert.equal(refused?.code, 'server_busy');
    assert.equal(refused.headers['Retry-After'], '5');
    only.release?.();
    assert.ok(limits.admit('198.51.100.2').release);
  });
});

describe('clientErrorAnswer', () => {
  it('maps what Node reports to a status and code', () => {
    const answer = (code: string) => {
      const a = clientErrorAnswer(parserError(code), settings);
      return a && `${a.status} ${a.code}`;
    };
    assert.equal(answer('HPE_HEADER_OVERFLOW'), '431 headers_too_large');
    assert.equal(answer('ERR_HTTP_REQUEST_TIMEOUT'), '408 request_timeout');
    assert.equal(answer('HPE_CHUNK_EXTENSIONS_OVERFLOW'), '413 payload_too_large');
    assert.equal(answer('HPE_INVALID_METHOD'), '400 bad_request');
    assert.equal(answer('ECONNRESET'), null);
  });

  it("names the parser's reason and the time limits", () => {
    assert.equal(
      clientErrorAnswer(parserError('HPE_INVALID_METHOD', 'Invalid method encountered'), settings)?.message,
      'Malformed HTTP request: Invalid method encountered',
    );
    assert.equal(
      clientErrorAnswer(parserError('ERR_HTTP_REQUEST_TIMEOUT'), settings)?.message,
      'The request did not arrive in time: the headers within 20 s and the whole request within 600 s',
    );
  });
});

describe('HTTP server settings', () => {
  it('reads each from its variable and refuses a headers timeout longer than the request timeout', () => {
    const http = loadConfig({ HTTP_MAX_CONNECTIONS_PER_IP: '8', HTTP_IDLE_TIMEOUT_MS: '0' }).http;
    assert.equal(http.maxConnectionsPerIp, 8);
    assert.equal(http.idleTimeoutMs, 0);
    assert.throws(
      () => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' }),
      /HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
    assert.equal(
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '0' }).http.headersTimeoutMs,
      5000,
    );
  });
});
