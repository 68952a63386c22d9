import type { Express } from 'express';
import { createApp } from '../../lib/app.js';
import { account, tokenOf } from './accounts.js';
import { startExtensionSites, type ExtensionSites } from './extension-sites.js';
import { freshHarness, type Harness } from './harness.js';

export interface ExtensionFixture {
  h: Harness;
  /** The app over h's database that trusts the test sites' certificate. */
  app: Express;
  sites: ExtensionSites;
  /** `Bearer <token>` of the Bucket's admin. */
  admin: string;
}

/**
 * A Bucket `slug` with an admin account, the local test sites, and an app that may fetch from
 * them: private addresses allowed (as the webhook tests do) and the sites' certificate trusted.
 */
export async function extensionFixture(slug: string, env: NodeJS.ProcessEnv = {}): Promise<ExtensionFixture> {
  const h = await freshHarness({ WEBHOOK_ALLOW_PRIVATE: 'true', EXTENSION_FETCH_TIMEOUT_MS: '1500', ...env });
  const sites = await startExtensionSites();
  const app = createApp({
    config: h.config,
    db: h.db,
    log: (m) => h.errors.push(m),
    outboundCa: sites.ca,
  });
  await h.bucket(slug);
  await account(h, `boss@${slug}.example`, slug);
  const admin = `Bearer ${await tokenOf(h, `boss@${slug}.example`)}`;
  return { h, app, sites, admin };
}
