import assert from 'node:assert/strict';
import { bucketClient } from './client.js';
import { freshHarness, type Harness } from './harness.js';

export type BucketApi = ReturnType<typeof bucketClient>;

/**
 * A describe block's app with one Bucket: hooks make it before the tests (then run `setup`)
 * and check afterwards that the app logged no server-side error.
 */
export class BucketSuite {
  private started: { h: Harness; api: BucketApi } | null = null;

  constructor(slug: string, setup: (api: BucketApi) => Promise<unknown> = () => Promise.resolve()) {
    before(async () => {
      const h = await freshHarness();
      const api = bucketClient(h.app, await h.bucket(slug));
      this.started = { h, api };
      await setup(api);
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

  private ran(): { h: Harness; api: BucketApi } {
    if (!this.started) throw new Error('BucketSuite used before its before() hook ran');
    return this.started;
  }
}
