import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Express } from 'express';
import type { Db, MongoClient } from 'mongodb';
import { ensureIndexes } from '../../lib/indexes.js';

/** Apps listening on loopback for a same-run comparison, and how to stop them all. */
export interface ListeningApps {
  bases: string[];
  close(): void;
}

export async function listenApps(apps: Express[]): Promise<ListeningApps> {
  const servers = apps.map((app) => http.createServer(app));
  const bases = await Promise.all(
    servers.map(async (server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }),
  );
  return {
    bases,
    close: () => {
      for (const s of servers) {
        s.closeAllConnections();
        s.close();
      }
    },
  };
}

/** The bench's own database, emptied and indexed: every run starts from the same state. */
export async function emptyDb(client: MongoClient, name: string): Promise<Db> {
  const db = client.db(name);
  await db.dropDatabase();
  await ensureIndexes(db);
  return db;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Runs `main` when `moduleUrl` is the script node was started with, so a bench file is also a library. */
export function runWhenMain(moduleUrl: string, main: () => Promise<void>): void {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}

/** The line every bench report starts with: what the numbers were measured on. */
export function machineLine(): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `Machine: ${os.cpus().length} CPUs, load average ${load}, Node ${process.version}`;
}
