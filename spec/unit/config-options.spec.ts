import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../lib/config.js';
import { parseDuration, parseDurations } from '../../lib/config/duration.js';
import { EnvReader } from '../../lib/config/env-reader.js';
import { optionRows, optionsHelp } from '../../lib/config/options-docs.js';
import { OPTIONS } from '../../lib/config/options.js';
import { PLAN_LIMITS } from '../../lib/config/plan.js';
import { projectRoot } from '../../lib/project-root.js';
import { readImportGraph } from '../support/import-graph.js';

/** The cells of the README's configuration table, a row per variable. */
function readmeRows(): string[][] {
  const lines = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith('| Variable'));
  const rows: string[][] = [];
  for (let i = start + 2; lines[i]?.startsWith('|'); i++) {
    rows.push(
      lines[i]!.slice(1, -1)
        .split(' | ')
        .map((c) => c.trim()),
    );
  }
  return rows;
}

/** Every variable name the service's own code reads through the declarations. */
function namesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of readImportGraph(projectRoot, ['lib', 'bin']).keys()) {
    const text = fs.readFileSync(path.join(projectRoot, file), 'utf8');
    for (const m of text.matchAll(/\bread\.(?:int|text|given|flag|seconds|durations|limit)\('([A-Z0-9_]+)'\)/g)) {
      names.add(m[1]!);
    }
  }
  // The plan limits are read by their table's names (lib/config/plan.ts).
  for (const limit of Object.values(PLAN_LIMITS)) names.add(limit.env);
  return names;
}

describe('configuration declared once (lib/config/options.ts)', () => {
  it('the README table is the declarations, row for row (npm run gen:config rewrites it)', () => {
    assert.deepEqual(readmeRows(), optionRows());
  });

  it('every variable the loader reads is declared, and every declared one is read', () => {
    const read = namesRead();
    const declared = new Set(OPTIONS.filter((o) => o.readBy === undefined).map((o) => o.name));
    assert.deepEqual([...read].filter((n) => !declared.has(n)).sort(), []);
    assert.deepEqual([...declared].filter((n) => !read.has(n)).sort(), []);
  });

  it('declares each variable once, with a meaning', () => {
    const names = OPTIONS.map((o) => o.name);
    assert.equal(new Set(names).size, names.length);
    for (const o of OPTIONS) assert.ok(o.meaning.length > 5, o.name);
  });

  it('the defaults the loader uses are the declared ones', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.webhooks.retryScheduleMs.length, 6);
    assert.equal(config.accountTokenTtlSeconds, 7 * 86_400);
    assert.equal(config.logins.windowSeconds, 15 * 60);
    assert.equal(config.queryTimeoutMs, Number(OPTIONS.find((o) => o.name === 'QUERY_TIMEOUT_MS')!.default));
    assert.equal(config.planDefaults.max_objects, null);
  });

  it('--help names every variable with its default', () => {
    const help = optionsHelp();
    for (const o of OPTIONS) assert.match(help, new RegExp(`^  ${o.name} \\(default: `, 'm'));
    assert.match(help, /QUERY_TIMEOUT_MS \(default: 5000\)/);
  });

  it('refuses a variable read as a kind it is not declared as (a programming error)', () => {
    const read = new EnvReader({});
    assert.throws(() => read.int('HOST'), /HOST is not declared as int/);
    assert.throws(() => read.text('NOT_DECLARED'), /NOT_DECLARED is not declared/);
  });
});

describe('the one duration parser', () => {
  it('reads units, and a bare number in the unit given', () => {
    assert.equal(parseDuration('45s', null), 45_000);
    assert.equal(parseDuration('30m', 's'), 1_800_000);
    assert.equal(parseDuration('12h', 's'), 43_200_000);
    assert.equal(parseDuration('7d', 's'), 604_800_000);
    assert.equal(parseDuration('250ms', null), 250);
    assert.equal(parseDuration('90', 's'), 90_000);
  });

  it('refuses a bare number without a unit to read it in, unknown units and words', () => {
    assert.equal(parseDuration('90', null), null);
    assert.equal(parseDuration('1w', 's'), null);
    assert.equal(parseDuration('30 seconds', 's'), null);
    assert.equal(parseDuration('-5s', 's'), null);
  });

  it('reads comma-separated steps; empty is none', () => {
    assert.deepEqual(parseDurations('50ms, 2s,1m'), [50, 2000, 60_000]);
    assert.deepEqual(parseDurations(''), []);
    assert.equal(parseDurations('30s,2'), null);
  });

  it('an empty WEBHOOK_RETRY_SCHEDULE means no retries; unset means the default', () => {
    assert.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '' }).webhooks.retryScheduleMs, []);
    assert.deepEqual(
      loadConfig({}).webhooks.retryScheduleMs,
      [30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000],
    );
  });
});
