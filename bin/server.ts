#!/usr/bin/env node
import { createApp } from '../lib/app.js';
import { loadConfig } from '../lib/config.js';
import { optionsHelp } from '../lib/config/options-docs.js';
import { createHttpServer } from '../lib/http/http-server.js';
import { ConfigError, EngineUnavailableError } from '../lib/errors/domain-errors.js';
import { openDatabase } from '../lib/indexes.js';
import { serviceDb } from '../lib/db/service-db.js';
import { startOwnedEngine } from '../lib/db/shared-engine.js';
import { DomainEvents } from '../lib/events/domain-events.js';
import { repairPendingRenames } from '../lib/object-types/object-type-rename.js';
import { repairAtStartUp } from '../lib/objects/write/repair.js';
import { PendingWriteSweeper, STALE_WORK_MS } from '../lib/objects/write/repair-sweep.js';
import { Scheduler } from '../lib/scheduling/scheduler.js';
import { sweepOrphanChunks } from '../lib/media/orphan-sweep.js';
import { DeliveryWorker } from '../lib/webhooks/worker.js';
import { createLogger, type Logger } from '../lib/observability/logger.js';
import { AppMetrics } from '../lib/observability/metrics.js';
import { metricsApp } from '../lib/observability/metrics-endpoint.js';
import { PutOffWork } from '../lib/http/respond.js';

/** Longer than any pause between two chunks of a live upload (the request times out first). */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/** Made once the configuration (which names the level) is read; a failure to read it is logged at info. */
let processLogger: Logger | null = null;

const USAGE = `Usage: npm start  (or: node dist/bin/server.js [--help])

Serves the content API. Configuration comes from environment variables:
`;

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n${optionsHelp()}\n`);
    return;
  }
  const config = loadConfig();
  const logger = createLogger(config.observability.logLevel);
  processLogger = logger;
  const log = (m: string) => {
    logger.info(m);
  };
  const logError = (m: string) => {
    logger.error(m);
  };
  const engine = await startOwnedEngine({
    mongodbUri: config.mongodbUri,
    persistent: true,
    dataDir: config.dataDir,
    maxHeap: config.engineMaxHeap,
    supervision: {
      log: logError,
      onGiveUp: (err) => {
        // The embedded database died and would not come back: without it the service is useless,
        // so exit and let the process supervisor (systemd, Docker, ...) start everything afresh.
        logger.fatal(`the embedded database engine is down for good (${err.message}). Exiting.`);
        process.exit(1);
      },
    },
  });
  log(`engine: ${engine.name}`);
  const database = await openDatabase(engine.uri, config.dbName, {
    monitorCommands: config.observability.engineCommandMetrics,
  });
  const stopHealthLog = database.health.onChange((status) => {
    if (status.up) log('database reachable again');
    else logError(`database unreachable: ${status.reason ?? 'unknown reason'}`);
  });
  // One event seam for requests, repair and the scheduler: their writes reach the same sinks.
  const events = new DomainEvents(config);
  // Process metrics start now, so the first scrape already sees the event loop's history.
  const metrics = new AppMetrics({ processMetrics: true });
  metrics.watchClient(database.client);
  // One handle for the app and the workers beside it, carrying the query time limit and what is learned of the servers.
  const db = serviceDb(database.db, { queryTimeoutMs: config.queryTimeoutMs });
  // Kept here so a stop waits for the work requests put off until after their answers.
  const putOff = new PutOffWork((msg) => {
    logger.error(msg);
  });
  const app = createApp({ config, db, logger, health: database.health, events, metrics, putOff });
  // Writes a crash interrupted (and markers an older release left) are finished, events included, before anything reads them.
  await repairAtStartUp({ db, events });
  // Its first tick runs now: publishing that fell due while the service was down happens at start.
  const scheduler = new Scheduler({ db, events }, { intervalMs: config.schedulerIntervalMs, log: logError });
  scheduler.start();
  // Writes that failed while this process lived on (its engine died under them) are repaired here.
  const sweeper = new PendingWriteSweeper({ db, events }, STALE_WORK_MS / 2, logError);
  sweeper.start();
  // Sends the webhook outbox; deliveries a stopped or killed process held are sent once their claims lapse.
  const webhooks = new DeliveryWorker(db, config.webhooks, { log: logError });
  webhooks.start();
  const server = createHttpServer(app, config.http);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  log(`listening on http://${config.host}:${config.port} (v3 API at /v3, region ${config.region})`);
  const { metricsPort, metricsToken } = config.observability;
  // Kept off the public port when set: a firewall or network policy then decides who may scrape.
  const metricsServer =
    metricsPort === null ? null : metricsApp(metrics, metricsToken, logError).listen(metricsPort, config.host);
  if (metricsServer) {
    metricsServer.on('error', (err) => {
      logError(`metrics server: ${err.message}`);
    });
    log(`metrics on http://${config.host}:${metricsPort}/metrics`);
  } else {
    log(`metrics at /metrics${metricsToken === null ? '' : ' (Bearer METRICS_TOKEN)'}`);
  }
  // An Object type rename a crash interrupted is finished here (or by the Bucket's next type write).
  // It may wait out the lease the crashed process left, so it runs beside serving.
  repairPendingRenames(db).then(
    (buckets) => {
      if (buckets > 0) log(`finished interrupted Object type renames in ${buckets} Buckets`);
    },
    (err: unknown) => {
      logError(`finishing interrupted Object type renames failed: ${err instanceof Error ? err.message : String(err)}`);
    },
  );
  // Uploads a crash cut short leave GridFS chunks without a file; removing them can take a while
  // on a large store and nothing reads them, so it runs beside serving. The grace period spares
  // uploads other processes are still writing.
  sweepOrphanChunks(db, { olderThanMs: ORPHAN_GRACE_MS }).then(
    ({ files, chunks }) => {
      if (files > 0) log(`removed ${chunks} stored chunks of ${files} uploads a crash interrupted`);
    },
    (err: unknown) => {
      logError(`sweeping interrupted uploads failed: ${err instanceof Error ? err.message : String(err)}`);
    },
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: no new connections; finishing requests in flight`);
    // close() stops accepting and resolves once in-flight requests have ended; idle keep-alive
    // sockets would otherwise hold it open.
    const closed = new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
    server.closeIdleConnections();
    const force = setTimeout(() => {
      server.closeAllConnections();
    }, 10_000);
    await closed;
    await putOff.idle();
    clearTimeout(force);
    metricsServer?.close();
    await scheduler.stop();
    await sweeper.stop();
    await webhooks.stop();
    stopHealthLog();
    await database.close();
    await engine.stop();
    log('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  const logger = processLogger ?? createLogger('info');
  if (err instanceof EngineUnavailableError || err instanceof ConfigError) {
    logger.fatal(err.message);
  } else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    logger.fatal(`port already in use: ${(err as Error).message}. Set PORT to a free port.`);
  } else {
    logger.fatal(`could not start: ${(err as Error).message}`);
  }
  process.exit(1);
});
