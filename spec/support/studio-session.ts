import sharp from 'sharp';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import request from 'supertest';
import { account, PASSWORD, setMember } from './accounts.js';
import {
  chromiumPresent,
  CHROMIUM,
  collectConsoleErrors,
  launchChromium,
  servedHarness,
  type ExpectedRefusal,
} from './browser.js';
import type { Harness } from './harness.js';

export const SLUG = 'studio-e2e';
export const ADMIN = 'admin@studio.test';
export const CONTRIBUTOR = 'contrib@studio.test';
export const SHOTS = '/tmp/studio-screenshots';
export const API = `/v3/buckets/${SLUG}`;

/** A small PNG of one colour. */
export const png = (background: string) =>
  sharp({ create: { width: 48, height: 32, channels: 3, background } })
    .png()
    .toBuffer();

/** What a Studio suite shares: one app on a port, one browser page, the Bucket's key. */
export interface StudioSession {
  h: Harness;
  origin: string;
  page: Page;
  context: BrowserContext;
  writeKey: string;
  /** The id of the Object "Home" of type pages, made before the suite. */
  homeId: string;
  consoleErrors: string[];
  /**
   * Announces a refusal the next step provokes on purpose (a wrong key, an invalid field), so the
   * browser's "Failed to load resource" for it is not counted as a console error.
   */
  expectRefusal: (status: number, path: string) => void;
  nav: () => Locator;
  /** A request with the write key. */
  keyed: (method: 'get' | 'post' | 'patch', path: string) => request.Test;
  signIn: (email: string) => Promise<void>;
}

/**
 * Sets up a suite that drives Studio in Debian's Chromium: a Bucket with an admin, a draft-only
 * contributor limited to `posts`, the type `pages` with one Object, and one browser page. Without
 * Chromium it registers a pending test that says so (and says it loudly) and answers null.
 */
export function studioSession(suite: Mocha.Suite): StudioSession | null {
  if (!chromiumPresent()) {
    const why = `SKIPPED: ${CHROMIUM} is missing, so Studio's browser tests did not run (apt-get install -y chromium)`;
    console.error(`\n!!!!!!!! ${why} !!!!!!!!\n`);
    it(why);
    return null;
  }
  suite.timeout(90_000);
  let browser: Browser;
  let close: () => Promise<void>;
  const s = { consoleErrors: [] as string[] } as unknown as StudioSession;
  const expected: ExpectedRefusal[] = [];
  s.expectRefusal = (status, path) => {
    expected.push({ status, path });
  };
  s.nav = () => s.page.getByRole('navigation', { name: 'Sections' });
  s.keyed = (method, path) => request(s.h.app)[method](path).set('Authorization', `Bearer ${s.writeKey}`);
  s.signIn = async (email) => {
    await s.page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await s.page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await s.page.getByRole('button', { name: 'Sign in' }).click();
    await s.page.getByRole('link', { name: SLUG }).click();
  };

  before(async () => {
    let h: Harness;
    ({ h, origin: s.origin, close } = await servedHarness());
    s.h = h;
    s.writeKey = (await h.bucket(SLUG)).write_key ?? '';
    await account(h, ADMIN, SLUG);
    const contributor = await account(h, CONTRIBUTOR);
    await setMember(h, SLUG, contributor, {
      role: 'contributor',
      object_types: ['posts'],
      publishing_restrictions: 'draft_only',
      additional_permissions: [],
    });
    await s.keyed('post', `${API}/object-types`).send({ title: 'Pages', slug: 'pages', metafields: [] }).expect(200);
    const home = await s.keyed('post', `${API}/objects`).send({ title: 'Home', type: 'pages' }).expect(200);
    s.homeId = home.body.object.id;
    browser = await launchChromium();
    s.context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    s.page = await s.context.newPage();
    s.page.setDefaultTimeout(20_000);
    collectConsoleErrors(s.page, s.consoleErrors, expected);
  });

  after(async () => {
    await s.context.close();
    await browser.close();
    await close();
  });
  return s;
}
