import { MongoClient } from 'mongodb';
import type { ExpectedEvents } from './expected-events.js';
import { DB_NAME } from './service.js';
import { percentile } from './stats.js';
import type { WebhookReceiver } from './webhook-receiver.js';

export interface WebhookCheck {
  /** Events the acknowledged writes owe, and how many of them arrived. */
  expected: number;
  delivered: number;
  /** `type id` of owed events that never arrived (first 20), and how many in all. */
  missing: string[];
  missingTotal: number;
  /** Requests received, and of them: a bad signature, and repeats of an event already received. */
  received: number;
  badSignatures: number;
  repeats: number;
  /** Receipt time minus the event's created_at, ms. */
  latency: { p50: number; p99: number; max: number } | null;
  /** Deliveries the outbox still held as pending or had given up on when the check ran. */
  pendingAtCheck: number;
  failed: number;
  drainMs: number;
}

interface Body {
  id: string;
  type: string;
  created_at: string;
  data: { id?: string };
}

/** Waits until the outbox holds no pending delivery (or `maxMs` passes); returns the wait and what is left. */
export async function waitForDrain(
  uri: string,
  maxMs: number,
): Promise<{ ms: number; pending: number; failed: number }> {
  const client = new MongoClient(uri, { directConnection: true });
  const t0 = Date.now();
  try {
    const deliveries = client.db(DB_NAME).collection('webhook_deliveries');
    for (;;) {
      const pending = await deliveries.countDocuments({ status: 'pending' });
      if (pending === 0 || Date.now() - t0 > maxMs) {
        return { ms: Date.now() - t0, pending, failed: await deliveries.countDocuments({ status: 'failed' }) };
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await client.close();
  }
}

/** Holds the requests the receiver got (signatures checked on arrival) against the events owed. */
export function checkDeliveries(
  owed: ExpectedEvents,
  receiver: WebhookReceiver,
  drain: { ms: number; pending: number; failed: number },
): WebhookCheck {
  const seen = new Set<string>();
  const got = new Map<string, number>();
  const latencies: number[] = [];
  let badSignatures = 0;
  let repeats = 0;
  for (const d of receiver.deliveries) {
    if (!d.verified) {
      badSignatures++;
      continue;
    }
    const body = JSON.parse(d.body) as Body;
    if (seen.has(body.id)) {
      repeats++;
      continue;
    }
    seen.add(body.id);
    latencies.push(d.t - Date.parse(body.created_at));
    const key = `${body.type} ${body.data.id ?? ''}`;
    got.set(key, (got.get(key) ?? 0) + 1);
  }
  const missing: string[] = [];
  let missingTotal = 0;
  let delivered = 0;
  for (const [key, n] of owed.counts) {
    const arrived = Math.min(n, got.get(key) ?? 0);
    delivered += arrived;
    if (arrived < n) {
      missingTotal += n - arrived;
      if (missing.length < 20) missing.push(`${key} (${n - arrived} of ${n})`);
    }
  }
  latencies.sort((a, b) => a - b);
  return {
    expected: owed.total,
    delivered,
    missing,
    missingTotal,
    received: receiver.deliveries.length,
    badSignatures,
    repeats,
    latency:
      latencies.length === 0
        ? null
        : { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] ?? 0 },
    pendingAtCheck: drain.pending,
    failed: drain.failed,
    drainMs: drain.ms,
  };
}
