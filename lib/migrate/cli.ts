import { parseArgs } from 'node:util';
import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { DomainEvents } from '../events/domain-events.js';
import type { ObjectWriteDeps } from '../objects/write/object-writes.js';
import { MetadataValidators } from '../metafields/metadata-schema.js';
import { buildBlock } from './block-source.js';
import { exportBucket } from './export.js';
import { importBundle, type ImportSummary } from './import.js';
import { installBlock } from './install-block.js';
import { consoleProgress } from './progress.js';
import { pullBucket } from './pull.js';

/** A command line that cannot run as given: the caller prints it with the usage. */
export class UsageError extends Error {}

export const MIGRATION_USAGE = `Migration (progress on stderr: a bar on a terminal, plain lines otherwise; the result as JSON on stdout):
  export <slug> <file> [--revisions] [--gzip]
      Writes the Bucket to one bundle: Object types, media with their files, Objects (latest and
      live versions), webhook settings without secrets; --revisions adds every Object's history.
      Gzipped with --gzip or when <file> ends in .gz or .tgz.
  import <slug> <file> [--dry-run]
      Imports a bundle into a new (created, keys printed) or empty Bucket, checking every record
      first; --dry-run stops after the check. Rerun an interrupted import to continue it.
  pull --from <base-url> --bucket <slug> --read-key K [--write-key W] --into <local-slug>
       [--page-size N] [--keep <file>] [--dry-run]
      Copies a Bucket from any service speaking the v3 API through its public routes (all
      statuses with a write key, live versions otherwise), then imports it like a bundle.
  install-block <slug> <bundle-or-folder> [--dry-run]
      Installs a Block (Object types with starter Objects and media) into an existing Bucket.
  build-block <folder> <file>
      Builds a Block's bundle from its readable source folder (see blocks/).`;

export interface CliContext {
  db: Db;
  config: Config;
  /** Where the JSON result goes (stdout). */
  print: (line: string) => void;
}

/** The write path's dependencies, plan defaults included: an import obeys the Bucket's plan as the API does. */
function deps(ctx: CliContext): ObjectWriteDeps {
  return {
    db: ctx.db,
    events: new DomainEvents(ctx.config),
    validators: new MetadataValidators(),
    plans: ctx.config.planDefaults,
  };
}

function positionals(list: string[], names: string[], command: string): string[] {
  if (list.length !== names.length) throw new UsageError(`${command} takes ${names.map((n) => `<${n}>`).join(' ')}`);
  return list;
}

function required(value: string | undefined, option: string, command: string): string {
  if (value === undefined || value === '') throw new UsageError(`${command} needs --${option}`);
  return value;
}

const gzipped = (file: string, flag: boolean | undefined) => flag === true || /\.(t?gz)$/i.test(file);

function report(ctx: CliContext, summary: ImportSummary): void {
  ctx.print(JSON.stringify(summary));
}

async function runExport(ctx: CliContext, argv: string[]): Promise<void> {
  const { values, positionals: rest } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { revisions: { type: 'boolean' }, gzip: { type: 'boolean' } },
  });
  const [slug = '', file = ''] = positionals(rest, ['slug', 'file'], 'export');
  const started = Date.now();
  const manifest = await exportBucket(ctx.db, slug, file, {
    revisions: values.revisions === true,
    gzip: gzipped(file, values.gzip),
    progress: consoleProgress('export'),
  });
  ctx.print(JSON.stringify({ exported: slug, file, counts: manifest.counts, seconds: (Date.now() - started) / 1000 }));
}

async function runImport(ctx: CliContext, argv: string[]): Promise<void> {
  const { values, positionals: rest } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'dry-run': { type: 'boolean' } },
  });
  const [slug = '', file = ''] = positionals(rest, ['slug', 'file'], 'import');
  const summary = await importBundle(deps(ctx), slug, file, {
    dryRun: values['dry-run'] === true,
    progress: consoleProgress('import'),
    mediaMaxBytes: ctx.config.mediaMaxBytes,
  });
  report(ctx, summary);
}

async function runPull(ctx: CliContext, argv: string[]): Promise<void> {
  const { values, positionals: rest } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      bucket: { type: 'string' },
      'read-key': { type: 'string' },
      'write-key': { type: 'string' },
      into: { type: 'string' },
      'page-size': { type: 'string' },
      keep: { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
  });
  positionals(rest, [], 'pull');
  const pageSize = Number(values['page-size'] ?? '100');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)
    throw new UsageError('--page-size must be a whole number from 1 to 1000');
  const summary = await pullBucket(deps(ctx), {
    from: required(values.from, 'from', 'pull'),
    bucket: required(values.bucket, 'bucket', 'pull'),
    readKey: values['read-key'] ?? '',
    writeKey: values['write-key'],
    into: required(values.into, 'into', 'pull'),
    dryRun: values['dry-run'] === true,
    keep: values.keep,
    pageSize,
    mediaMaxBytes: ctx.config.mediaMaxBytes,
    progress: consoleProgress('pull'),
  });
  report(ctx, summary);
}

async function runInstallBlock(ctx: CliContext, argv: string[]): Promise<void> {
  const { values, positionals: rest } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'dry-run': { type: 'boolean' } },
  });
  const [slug = '', source = ''] = positionals(rest, ['slug', 'bundle-or-folder'], 'install-block');
  const summary = await installBlock(deps(ctx), slug, source, {
    dryRun: values['dry-run'] === true,
    progress: consoleProgress('install-block'),
    mediaMaxBytes: ctx.config.mediaMaxBytes,
  });
  report(ctx, summary);
}

async function runBuildBlock(print: (line: string) => void, argv: string[]): Promise<void> {
  const { positionals: rest } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  const [dir = '', file = ''] = positionals(rest, ['folder', 'file'], 'build-block');
  const manifest = await buildBlock(dir, file, gzipped(file, false));
  print(JSON.stringify({ built: manifest.block?.slug, file, counts: manifest.counts }));
}

/** The migration commands of bucketctl, by name; each parses its own options. */
export const MIGRATION_COMMANDS: Record<string, (ctx: CliContext, argv: string[]) => Promise<void>> = {
  export: runExport,
  import: runImport,
  pull: runPull,
  'install-block': runInstallBlock,
};

/** Commands that need no database. */
export const OFFLINE_COMMANDS: Record<string, (print: (line: string) => void, argv: string[]) => Promise<void>> = {
  'build-block': runBuildBlock,
};
