import assert from 'node:assert/strict';
import { loadConfig } from '../../lib/config.js';
import { ConfigError } from '../../lib/errors/domain-errors.js';
import { effectivePlan, limitOf, monthOf, UNLIMITED } from '../../lib/config/plan.js';

describe('plans: defaults, overrides and settings', () => {
  it('is unlimited with no PLAN_MAX_* set, and reads each variable into its limit (0 included)', () => {
    assert.deepEqual(loadConfig({}).planDefaults, UNLIMITED);
    const plan = loadConfig({
      PLAN_MAX_OBJECTS: '100',
      PLAN_MAX_MEDIA_BYTES: '1048576',
      PLAN_MAX_OBJECT_TYPES: '0',
      PLAN_MAX_WEBHOOKS: '',
      PLAN_MAX_REQUESTS_PER_MONTH: '5000',
    }).planDefaults;
    assert.deepEqual(plan, {
      max_objects: 100,
      max_media_bytes: 1048576,
      max_object_types: 0,
      max_webhooks: null,
      max_requests_per_month: 5000,
    });
    assert.throws(() => loadConfig({ PLAN_MAX_OBJECTS: 'many' }), ConfigError);
    assert.throws(() => loadConfig({ PLAN_MAX_WEBHOOKS: '-1' }), /PLAN_MAX_WEBHOOKS must be a non-negative integer/);
  });

  it('reads the rate limits, generous by default, 0 meaning off', () => {
    assert.deepEqual(loadConfig({}).rateLimits, { readsPerMinute: 6000, writesPerMinute: 1200 });
    assert.deepEqual(loadConfig({ RATE_LIMIT_READS_PER_MINUTE: '0', RATE_LIMIT_WRITES_PER_MINUTE: '7' }).rateLimits, {
      readsPerMinute: 0,
      writesPerMinute: 7,
    });
    assert.throws(() => loadConfig({ RATE_LIMIT_READS_PER_MINUTE: '1.5' }), ConfigError);
  });

  it("puts a Bucket's own limits (numbers or null for unlimited) over the defaults, field by field", () => {
    const defaults = { ...UNLIMITED, max_objects: 10, max_webhooks: 2 };
    const plan = effectivePlan({ max_objects: null, max_media_bytes: 0 }, defaults);
    assert.deepEqual(plan, { ...UNLIMITED, max_objects: null, max_media_bytes: 0, max_webhooks: 2 });
    assert.equal(limitOf(plan, 'webhooks'), 2);
    assert.equal(limitOf(plan, 'media_bytes'), 0);
    assert.deepEqual(effectivePlan(undefined, defaults), defaults);
  });

  it('counts requests per calendar month in UTC', () => {
    assert.equal(monthOf(new Date('2026-01-31T23:59:59.999Z')), '2026-01');
    assert.equal(monthOf(new Date('2026-02-01T00:00:00.000Z')), '2026-02');
  });
});
