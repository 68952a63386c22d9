#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../lib/config.js';
import { BucketAdminError, ConfigError, EngineUnavailableError, MigrationError } from '../lib/errors/domain-errors.js';
import { openDatabase } from '../lib/indexes.js';
import { joinOrStartEngine } from '../lib/db/shared-engine.js';
import { serviceDb } from '../lib/db/service-db.js';
import { effectivePlan, PLAN_LIMITS, type PlanField } from '../lib/config/plan.js';
import { MIGRATION_COMMANDS, MIGRATION_USAGE, OFFLINE_COMMANDS, UsageError } from '../lib/migrate/cli.js';
import { createBucket, deleteBucket, listBuckets, rotateKeys, type KeyChoice } from '../lib/buckets/buckets.js';
import { setPlan, type PlanChange } from '../lib/buckets/plans.js';
import type { Db } from 'mongodb';
import { readPasswordFromStdin, setOwner } from '../lib/buckets/owner.js';
import { generatePassword } from '../lib/accounts/password.js';
import { findAccountByEmail, insertAccount, setPassword } from '../lib/accounts/store.js';
import { bucketTypeScript } from '../lib/openapi/bucket-types.js';
import fs from 'node:fs';

const USAGE = `Usage: bucketctl <command> [options]

Commands:
  create-bucket <slug> [--read-key K] [--write-key K] [--no-read-key] [--no-write-key] [--owner EMAIL]
      Creates a Bucket; prints {"slug","read_key","write_key"} as one JSON line. --owner makes
      that account the Bucket's admin.
      Keys not given are generated; --no-*-key leaves that key off (null): the Bucket then
      accepts reads (writes) without a key.
  list-buckets
      Prints one JSON line per Bucket (keys are stored hashed and cannot be shown).
  rotate-keys <slug>
      Replaces every key the Bucket has with a new one; prints the new keys as one JSON line.
  delete-bucket <slug> --yes
      Deletes the Bucket and everything in it.
  set-plan <slug> [--max-objects N] [--max-media-bytes N] [--max-object-types N]
                  [--max-webhooks N] [--max-requests-per-month N]
      Sets limits of the Bucket's plan. Each value is a number (0: none allowed), "unlimited",
      or "default" (follow PLAN_MAX_* again); limits not given keep their setting. Prints
      {"slug","plan","effective"} as one JSON line. Writes past a limit, and requests past the
      month's, are answered 402.
  types <slug> [--out FILE]
      Writes TypeScript types of the Bucket's Object types (metadata, create and patch bodies,
      answered Objects) to FILE or stdout, from the schemas GET /v3/buckets/<slug>/openapi.json
      answers.

  create-account <email> --first-name A --last-name B [--password-stdin]
      Creates an account. The password is the first line of stdin with --password-stdin,
      otherwise one is generated and printed (once) in {"id","email","password"}.
  set-password <email> [--password-stdin]
      Sets an account's password (also how a pending user added by e-mail gets one; no e-mail
      is ever sent). Tokens issued before stop working.
  set-owner <slug> <email>
      Makes the account an admin of the Bucket.

${MIGRATION_USAGE}

The database is MONGODB_URI when set, otherwise the embedded engine of DATA_DIR (default ./data),
shared with a server running on the same DATA_DIR.`;

function keyChoice(given: string | undefined, disabled: boolean | undefined, name: string): KeyChoice {
  if (given !== undefined && disabled) throw new UsageError(`--${name}-key and --no-${name}-key exclude each other`);
  if (disabled) return { kind: 'none' };
  if (given !== undefined) {
    if (given.length < 8) throw new UsageError(`--${name}-key must be at least 8 characters`);
    return { kind: 'given', key: given };
  }
  return { kind: 'generate' };
}

const PLAN_OPTIONS = Object.fromEntries(Object.values(PLAN_LIMITS).map((l) => [l.flag, { type: 'string' as const }]));

function planChange(flag: string, raw: string): PlanChange {
  if (raw === 'unlimited') return null;
  if (raw === 'default') return raw;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(`--${flag} takes a non-negative integer, "unlimited" or "default", got "${raw}"`);
  return Number(raw);
}

/** The plan options given, by the field each sets. */
function planChanges(values: Record<string, unknown>): Partial<Record<PlanField, PlanChange>> {
  const changes: Partial<Record<PlanField, PlanChange>> = {};
  for (const { flag, field } of Object.values(PLAN_LIMITS)) {
    const raw = values[flag];
    if (typeof raw === 'string') changes[field] = planChange(flag, raw);
  }
  if (Object.keys(changes).length === 0)
    throw new UsageError(
      `set-plan needs at least one of ${Object.values(PLAN_LIMITS)
        .map((l) => `--${l.flag}`)
        .join(', ')}`,
    );
  return changes;
}

function oneSlug(positionals: string[], command: string): string {
  const [slug, ...extra] = positionals;
  if (slug === undefined || extra.length > 0) throw new UsageError(`${command} takes exactly one <slug>`);
  return slug;
}

async function run(db: Db, config: Config, command: string, argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'read-key': { type: 'string' },
      'write-key': { type: 'string' },
      'no-read-key': { type: 'boolean' },
      'no-write-key': { type: 'boolean' },
      yes: { type: 'boolean' },
      owner: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      'password-stdin': { type: 'boolean' },
      out: { type: 'string' },
      ...PLAN_OPTIONS,
    },
  });
  switch (command) {
    case 'create-bucket': {
      const slug = oneSlug(positionals, command);
      const read = keyChoice(values['read-key'], values['no-read-key'], 'read');
      const write = keyChoice(values['write-key'], values['no-write-key'], 'write');
      if (values.owner !== undefined && !(await findAccountByEmail(db, values.owner)))
        throw new UsageError(`--owner: no account has the e-mail "${values.owner}"`);
      const keys = await createBucket(db, slug, read, write);
      if (values.owner !== undefined) await setOwner(db, slug, values.owner);
      console.log(JSON.stringify(keys));
      return;
    }
    case 'create-account': {
      const email = oneSlug(positionals, command);
      const first = values['first-name'];
      const last = values['last-name'];
      if (first === undefined || last === undefined)
        throw new UsageError('create-account needs --first-name and --last-name');
      const given = values['password-stdin'] ? await readPasswordFromStdin(process.stdin) : null;
      const password = given ?? generatePassword();
      const account = await insertAccount(db, { email, first_name: first, last_name: last, password });
      const shown = given === null ? { password } : {};
      console.log(JSON.stringify({ id: account._id.toHexString(), email: account.email, ...shown }));
      return;
    }
    case 'set-password': {
      const email = oneSlug(positionals, command);
      const given = values['password-stdin'] ? await readPasswordFromStdin(process.stdin) : null;
      const password = given ?? generatePassword();
      await setPassword(db, email, password);
      console.log(JSON.stringify({ email, ...(given === null ? { password } : {}) }));
      return;
    }
    case 'set-owner': {
      const [slug, email, ...extra] = positionals;
      if (slug === undefined || email === undefined || extra.length > 0)
        throw new UsageError('set-owner takes <slug> <email>');
      await setOwner(db, slug, email);
      console.log(JSON.stringify({ slug, owner: email }));
      return;
    }
    case 'list-buckets':
      for (const b of await listBuckets(db)) console.log(JSON.stringify(b));
      return;
    case 'rotate-keys':
      console.log(JSON.stringify(await rotateKeys(db, oneSlug(positionals, command))));
      return;
    case 'delete-bucket': {
      const slug = oneSlug(positionals, command);
      if (!values.yes)
        throw new UsageError(`delete-bucket removes "${slug}" and all its content: repeat with --yes to confirm`);
      await deleteBucket(db, slug);
      console.log(JSON.stringify({ deleted: slug }));
      return;
    }
    case 'set-plan': {
      const slug = oneSlug(positionals, command);
      const plan = await setPlan(db, slug, planChanges(values));
      console.log(JSON.stringify({ slug, plan, effective: effectivePlan(plan, config.planDefaults) }));
      return;
    }
    case 'types': {
      const source = await bucketTypeScript(db, config.publicUrl, oneSlug(positionals, command));
      if (values.out === undefined) process.stdout.write(source);
      else fs.writeFileSync(values.out, source);
      return;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === '--help' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const print = (line: string) => {
    console.log(line);
  };
  // Own keys only: a command named like an Object.prototype member must not find that member.
  const offline = Object.hasOwn(OFFLINE_COMMANDS, command) ? OFFLINE_COMMANDS[command] : undefined;
  if (offline) {
    await offline(print, rest);
    return 0;
  }
  const migration = Object.hasOwn(MIGRATION_COMMANDS, command) ? MIGRATION_COMMANDS[command] : undefined;
  if (
    !migration &&
    ![
      'create-bucket',
      'list-buckets',
      'rotate-keys',
      'delete-bucket',
      'set-plan',
      'create-account',
      'set-password',
      'set-owner',
      'types',
    ].includes(command)
  ) {
    throw new UsageError(`unknown command "${command}"`);
  }
  const config = loadConfig();
  const engine = await joinOrStartEngine({
    mongodbUri: config.mongodbUri,
    persistent: true,
    dataDir: config.dataDir,
    maxHeap: config.engineMaxHeap,
  });
  const database = await openDatabase(engine.uri, config.dbName);
  // Its own handle, so an import's Object writes learn once whether the servers have bulkWrite;
  // without a query time limit, as an admin command may scan what a request may not.
  const db = serviceDb(database.db);
  try {
    if (migration) await migration({ db, config, print }, rest);
    else await run(db, config, command, rest);
  } finally {
    await database.close();
    await engine.stop();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`bucketctl: ${(err as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    const known =
      err instanceof BucketAdminError ||
      err instanceof EngineUnavailableError ||
      err instanceof ConfigError ||
      err instanceof MigrationError;
    console.error(`bucketctl: ${known ? err.message : 'failed: ' + (err as Error).message}`);
    process.exit(1);
  },
);
