import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { freshHarness, type Harness } from './harness.js';

/** Debian's Chromium: the only browser the end-to-end tests use (nothing is ever downloaded). */
export const CHROMIUM = '/usr/bin/chromium';

export function chromiumPresent(): boolean {
  return fs.existsSync(CHROMIUM);
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/**
 * The app on a real port, so the browser loads Studio and the API from one origin, with
 * PUBLIC_URL naming that origin (media URLs then point where the page may load images from).
 */
export async function servedHarness(): Promise<{ h: Harness; origin: string; close: () => Promise<void> }> {
  let handler: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => {
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const h = await freshHarness({ PUBLIC_URL: origin }, 'content_api_studio_e2e');
  handler = h.app;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        resolve();
      });
    });
  return { h, origin, close };
}

/** A refusal a test provokes on purpose (a wrong key, an invalid field): its status and where it was asked. */
export interface ExpectedRefusal {
  status: number;
  /** A part of the refused request's URL. */
  path: string;
}

const FAILED_LOAD = /^Failed to load resource: the server responded with a status of (\d{3})/;

/**
 * What the page logs as an error. The browser logs every 4xx answer as "Failed to load resource"
 * too, and those count: Studio must never ask the API something only to learn from its refusal.
 * Only a refusal a test provoked itself and announced in `expected` is let through, once each.
 */
export function collectConsoleErrors(page: Page, into: string[], expected: ExpectedRefusal[] = []): void {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const url = msg.location().url;
    const status = Number(FAILED_LOAD.exec(msg.text())?.[1]);
    const allowed = expected.findIndex((e) => e.status === status && url.includes(e.path));
    if (allowed >= 0) {
      expected.splice(allowed, 1);
      return;
    }
    into.push(`${msg.text()} (${url})`);
  });
  page.on('pageerror', (err) => {
    into.push(`page error: ${err.message}`);
  });
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core over the page as it is now: the critical and serious violations, described. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern, so the tests
  // run under the same policy a user's browser enforces.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id} (${v.impact ?? ''}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}
