import type { AddressInfo } from 'node:net';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { loadConfig } from '../../lib/config.js';
import { isGateCommand } from '../support/command-operators.js';

export interface TripCount {
  status: number;
  cache: string | null;
  /** "commandName collection" per command the request sent, in order. */
  commands: string[];
  body: unknown;
}

/**
 * Counts the database commands one request costs, with the driver's command monitoring. Runs
 * in this process with a client of its own, idle otherwise, so every command seen between
 * sending the request and reading the answer belongs to it. Each path is requested once
 * beforehand so in-process caches (types by Bucket generation) are in their steady state.
 */
export async function countRoundTrips(
  uri: string,
  dbName: string,
  paths: Record<string, string>,
): Promise<Record<string, TripCount>> {
  const client = new MongoClient(uri, { monitorCommands: true, serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  const app = createApp({
    config: loadConfig({ PUBLIC_URL: 'http://127.0.0.1' }),
    db: client.db(dbName),
    log: (m) => {
      console.error(`[round-trips] ${m}`);
    },
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) =>
    server.once('listening', () => {
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let seen: string[] | null = null;
  client.on('commandStarted', (e: CommandStartedEvent) => {
    // A budget claim or monthly flush lands on whichever request is in flight; it is not that read's cost.
    if (isGateCommand(e)) return;
    const target = e.command[e.commandName];
    seen?.push(typeof target === 'string' ? `${e.commandName} ${target}` : e.commandName);
  });
  const out: Record<string, TripCount> = {};
  try {
    for (const [name, path] of Object.entries(paths)) {
      await (await fetch(base + path)).arrayBuffer();
      seen = [];
      const res = await fetch(base + path);
      const body = await res.json();
      out[name] = { status: res.status, cache: res.headers.get('x-cache'), commands: seen, body };
      seen = null;
    }
  } finally {
    server.close();
    await client.close();
  }
  return out;
}
