import assert from 'node:assert/strict';
import { loadConfig } from '../../lib/config.js';
import { ConfigError } from '../../lib/errors/domain-errors.js';
import { JITTER, parseRetrySchedule, retryDelay } from '../../lib/webhooks/retry.js';

describe('webhooks: retry schedule', () => {
  it('defaults to about 30 s, 2 min, 10 min, 1 h, 6 h, 24 h', () => {
    const { webhooks } = loadConfig({});
    assert.deepEqual(webhooks.retryScheduleMs, [30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000]);
    assert.equal(webhooks.timeoutMs, 10_000);
    assert.equal(webhooks.disableAfterFailures, 20);
    assert.equal(webhooks.logDays, 30);
    assert.equal(webhooks.allowPrivate, false);
  });

  it('parses units and refuses malformed steps', () => {
    assert.deepEqual(parseRetrySchedule('50ms, 2s,1m,1h,1d'), [50, 2000, 60_000, 3_600_000, 86_400_000]);
    assert.deepEqual(parseRetrySchedule(''), []);
    assert.equal(parseRetrySchedule('30'), null);
    assert.equal(parseRetrySchedule('1w'), null);
    assert.throws(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '30 seconds' }), ConfigError);
  });

  it('refuses a lease that does not outlast the request timeout, and a flag that is not one', () => {
    assert.throws(() => loadConfig({ WEBHOOK_LEASE_MS: '5000', WEBHOOK_TIMEOUT_MS: '5000' }), /WEBHOOK_LEASE_MS/);
    assert.throws(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' }), /WEBHOOK_ALLOW_PRIVATE/);
    assert.equal(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks.allowPrivate, true);
  });

  it('waits the step for the attempt, within the jitter, and gives up after the last', () => {
    const schedule = [1000, 10_000];
    assert.equal(retryDelay(schedule, 1, 0.5), 1000);
    assert.equal(retryDelay(schedule, 1, 0), 1000 * (1 - JITTER));
    assert.ok((retryDelay(schedule, 2, 0.999) ?? 0) <= 10_000 * (1 + JITTER));
    assert.equal(retryDelay(schedule, 3, 0.5), null);
    assert.equal(retryDelay([], 1, 0.5), null);
  });
});
