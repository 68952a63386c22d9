import type { Db } from 'mongodb';
import type { AppState } from '../app-state.js';
import type { Config } from '../config.js';
import type { HealthView } from '../db/db-health.js';

/** What every route table is built from: handed by the app to the registry, and on to each resource. */
export interface RouteDeps {
  config: Config;
  db: Db;
  /** What this app keeps between requests; see lib/app-state.ts. */
  state: AppState;
  /** Where server-side failures are reported (never to clients). */
  log: (msg: string) => void;
  /** The database's reachability as the driver sees it; absent: assumed up. */
  health?: HealthView | undefined;
  /** Certificates outbound checks (Extensions) trust besides the system's: tests only. */
  outboundCa?: string | Buffer | undefined;
}
