import { parseArgs } from 'node:util';

export type FaultMode = 'none' | 'engine' | 'app' | 'both';

export interface SoakOptions {
  durationMs: number;
  concurrency: number;
  faults: FaultMode;
  /** Mean time between two faults; each wait is drawn from [0.5, 1.5] of it. */
  faultIntervalMs: number;
  /** Objects one worker keeps at most; past it, it deletes instead of creating. */
  objectsPerWorker: number;
  /** Where the JSON report goes. */
  reportFile: string;
  /** Kept after the run for a look at the data and the server log; otherwise removed when all passed. */
  keepData: boolean;
  /** Concurrent PATCH pairs of one Object (see contention-ops.ts). */
  contention: boolean;
  seed: number;
}

export const USAGE = `Usage: npm run soak -- [options]   (every option also as an env variable)

  --duration D        how long the load runs: 90s, 10m, 1h or ms (SOAK_DURATION, default 10m)
  --concurrency N     workers issuing requests at full speed (SOAK_CONCURRENCY, default 8)
  --faults MODE       none | engine | app | both (SOAK_FAULTS, default none):
                      kill -9 the database engine, the server process, or either, at random moments
  --fault-interval D  mean time between faults (SOAK_FAULT_INTERVAL, default 30s)
  --objects N         Objects per worker at most (SOAK_OBJECTS_PER_WORKER, default 300)
  --report FILE       JSON report (SOAK_REPORT, default soak-report.json)
  --keep-data         keep the temporary DATA_DIR and server log (SOAK_KEEP_DATA=1)
  --no-contention     leave out concurrent PATCHes of one Object (SOAK_NO_CONTENTION=1)
  --seed N            seed of the random choices (SOAK_SEED, default: the time)`;

/** "90s", "10m", "1h", "500ms" or a bare number of milliseconds. */
export function parseDuration(raw: string, name: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!m) throw new Error(`${name} must look like 90s, 10m, 1h or 500ms, got "${raw}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 'ms'] ?? 1;
  const ms = Math.round(Number(m[1]) * unit);
  if (ms <= 0) throw new Error(`${name} must be positive, got "${raw}"`);
  return ms;
}

function positiveInt(raw: string, name: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be an integer >= 1, got "${raw}"`);
  return n;
}

function faultMode(raw: string): FaultMode {
  if (raw === 'none' || raw === 'engine' || raw === 'app' || raw === 'both') return raw;
  throw new Error(`--faults must be none, engine, app or both, got "${raw}"`);
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): SoakOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      concurrency: { type: 'string' },
      faults: { type: 'string' },
      'fault-interval': { type: 'string' },
      objects: { type: 'string' },
      report: { type: 'string' },
      'keep-data': { type: 'boolean' },
      'no-contention': { type: 'boolean' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const pick = (flag: string | undefined, name: string) => flag ?? (env[name] || undefined);
  const faultInterval = parseDuration(pick(values['fault-interval'], 'SOAK_FAULT_INTERVAL') ?? '30s', 'fault-interval');
  // The engine supervisor gives up after 5 deaths within a minute: faults closer than that would
  // test the give-up path, not recovery.
  if (faultInterval < 15_000) throw new Error('--fault-interval must be at least 15s');
  return {
    durationMs: parseDuration(pick(values.duration, 'SOAK_DURATION') ?? '10m', 'duration'),
    concurrency: positiveInt(pick(values.concurrency, 'SOAK_CONCURRENCY') ?? '8', 'concurrency'),
    faults: faultMode(pick(values.faults, 'SOAK_FAULTS') ?? 'none'),
    faultIntervalMs: faultInterval,
    objectsPerWorker: positiveInt(pick(values.objects, 'SOAK_OBJECTS_PER_WORKER') ?? '300', 'objects'),
    reportFile: pick(values.report, 'SOAK_REPORT') ?? 'soak-report.json',
    keepData: values['keep-data'] ?? env.SOAK_KEEP_DATA === '1',
    contention: !(values['no-contention'] ?? env.SOAK_NO_CONTENTION === '1'),
    seed: positiveInt(pick(values.seed, 'SOAK_SEED') ?? String(Date.now() % 2_147_483_647), 'seed'),
  };
}
