import assert from 'node:assert/strict';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { bucketClient } from './client.js';
import { freshHarness, type Harness } from './harness.js';

export type BucketApi = ReturnType<typeof bucketClient>;

interface Started {
  h: Harness;
  keys: IssuedKeys;
  api: BucketApi;
}

/**
 * For suites that count the commands a request sends: the Bucket a write takes from memory stays
 * remembered for the whole run (BUCKET_MEMORY_MS), so the count does not depend on how fast the
 * machine runs the tests (past the default 5 s, a write reads its Bucket again).
 */
export const COUNTING_COMMANDS: NodeJS.ProcessEnv = { BUCKET_MEMORY_MS: String(60 * 60 * 1000) };

/**
 * A describe block's app with one Bucket: hooks make it before the tests (then run `setup`, which
 * may already use the suite's getters) and check afterwards that the app logged no server-side
 * error. `env` configures the app as freshHarness's does. `setup` gets the before hook's context
 * too, for a setup that needs a longer timeout (account logins run scrypt).
 */
export class BucketSuite {
  private started: Started | null = null;

  constructor(
    slug: string,
    setup: (api: BucketApi, hook: Mocha.Context) => unknown = () => undefined,
    env: NodeJS.ProcessEnv = {},
  ) {
    const start = async (hook: Mocha.Context) => {
      const h = await freshHarness(env);
      const keys = await h.bucket(slug);
      const api = bucketClient(h.app, keys);
      this.started = { h, keys, api };
      await setup(api, hook);
    };
    // A function, not an arrow: mocha passes the hook's context as `this`.
    before(async function () {
      await start(this);
    });
    after(() => {
      assert.deepEqual(this.started?.h.errors, []);
    });
  }

  get api(): BucketApi {
    return this.ran().api;
  }

  /** The app, its database and what it emitted, for tests that drive services directly. */
  get harness(): Harness {
    return this.ran().h;
  }

  /** The Bucket's slug and keys, for tests that send requests of their own. */
  get keys(): IssuedKeys {
    return this.ran().keys;
  }

  private ran(): Started {
    if (!this.started) throw new Error('BucketSuite used before its before() hook ran');
    return this.started;
  }
}
