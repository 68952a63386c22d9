import assert from 'node:assert/strict';
import { loadConfig } from '../../lib/config.js';
import { ConfigError } from '../../lib/errors/domain-errors.js';
import { redactUrl, scrubSecrets } from '../../lib/util/redact.js';
import { parseCorsOrigins } from '../../lib/config/observability-settings.js';

describe('scrubSecrets and redactUrl', () => {
  it('censors secrets in query strings, forms, JSON texts and Authorization values', () => {
    const cases: [string, string][] = [
      ['GET /v3/b/x/objects?read_key=abc123&limit=2', 'GET /v3/b/x/objects?read_key=[REDACTED]&limit=2'],
      ['?limit=2&WRITE_KEY=k-_9 then', '?limit=2&WRITE_KEY=[REDACTED] then'],
      ['preview_token=eyJ.a.b', 'preview_token=[REDACTED]'],
      [
        'body {"title":"t","password": "p\\"w","token":"x"}',
        'body {"title":"t","password": "[REDACTED]","token":"[REDACTED]"}',
      ],
      ['Authorization: Bearer s3cr3t.value, next', 'Authorization: Bearer [REDACTED], next'],
      ['basic dXNlcjpwYXNz', 'basic [REDACTED]'],
      ['a monkey=banana key stays', 'a monkey=banana key stays'],
    ];
    for (const [input, expected] of cases) assert.equal(scrubSecrets(input), expected, input);
  });

  it('leaves a value it already censored, and the text after it, alone', () => {
    assert.equal(scrubSecrets('?read_key=[REDACTED]: boom'), '?read_key=[REDACTED]: boom');
  });

  it('redactUrl decodes parameter names, so an encoded name is caught', () => {
    assert.equal(redactUrl('/p?read%5Fkey=abc&x=1%202'), '/p?read_key=[REDACTED]&x=1%202');
    assert.equal(redactUrl('/p?token=a&token=b'), '/p?token=[REDACTED]&token=[REDACTED]');
    assert.equal(redactUrl('/p'), '/p');
  });
});

describe('observability settings', () => {
  it('reads CORS_ORIGINS as origins, or * for every origin', () => {
    assert.deepEqual(parseCorsOrigins(''), []);
    assert.deepEqual(parseCorsOrigins(' https://a.example/ , http://localhost:5173'), [
      'https://a.example',
      'http://localhost:5173',
    ]);
    assert.deepEqual(parseCorsOrigins('https://HOST.example:443'), ['https://host.example']);
    assert.equal(parseCorsOrigins('https://a.example,*'), '*');
    for (const bad of ['a.example', 'https://a.example/path', 'ftp://a.example', 'https://a.example?x=1']) {
      assert.throws(() => parseCorsOrigins(bad), ConfigError, bad);
    }
  });

  it('defaults and checks LOG_LEVEL, METRICS_PORT and METRICS_TOKEN', () => {
    assert.deepEqual(loadConfig({}).observability, {
      logLevel: 'info',
      corsOrigins: [],
      metricsToken: null,
      metricsPort: null,
      engineCommandMetrics: false,
    });
    const set = loadConfig({ LOG_LEVEL: 'DEBUG', METRICS_PORT: '9464', METRICS_TOKEN: 't' }).observability;
    assert.equal(set.logLevel, 'debug');
    assert.equal(set.metricsPort, 9464);
    assert.equal(set.metricsToken, 't');
    assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL must be one of/);
    assert.throws(() => loadConfig({ METRICS_PORT: '70000' }), /METRICS_PORT/);
    assert.equal(loadConfig({ METRICS_ENGINE_COMMANDS: 'true' }).observability.engineCommandMetrics, true);
    assert.throws(() => loadConfig({ METRICS_ENGINE_COMMANDS: 'yes' }), /METRICS_ENGINE_COMMANDS/);
  });
});
