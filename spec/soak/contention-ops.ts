import { BASE, type WorkerState } from './worker-state.js';

/**
 * Two PATCHes of one Object at once, each changing a different metadata key, as two editors (or
 * two tabs) do. Each worker has its own Object for this, so nothing else writes it: once both
 * PATCHes are acknowledged, both changes must be in the latest version and, the Object being
 * published, in the live one. The Object is outside the ledger; the view check at the end covers it.
 */
export interface ContentionChecks {
  pairs: number;
  /** Pairs where both were acknowledged but one change is missing from the latest version. */
  lostUpdates: number;
  /** Pairs after which the live version differs from the latest. */
  viewSplits: number;
}

interface ObjectBody {
  object: { title: string; metadata: { body?: unknown; score?: unknown } };
}

async function contendedObject(w: WorkerState): Promise<string | null> {
  if (w.contendedId !== null && w.contendedId !== undefined) return w.contendedId;
  const a = await w.client.request('contention', {
    method: 'POST',
    path: `${BASE}/objects`,
    json: { title: `w${w.n}c contended`, type: 'posts', status: 'published', metadata: { body: '', score: 0 } },
  });
  if (a.sent !== true || a.status !== 200) return null;
  w.contendedId = (a.body as { object: { id: string } }).object.id;
  return w.contendedId;
}

async function read(w: WorkerState, id: string, status: 'any' | 'published'): Promise<ObjectBody['object'] | null> {
  const q = new URLSearchParams({ read_key: w.fixture.readKey, status, useCache: 'false' });
  const a = await w.client.request('contention', { path: `${BASE}/objects/${id}?${q}` });
  return a.sent === true && a.status === 200 ? (a.body as ObjectBody).object : null;
}

export async function contentionOp(w: WorkerState): Promise<void> {
  const id = await contendedObject(w);
  if (!id) return;
  const body = `w${w.n} body ${w.seq++}`;
  const score = w.rand.int(1, 1_000_000);
  const path = `${BASE}/objects/${id}`;
  const [a, b] = await Promise.all([
    w.client.request('contention', { method: 'PATCH', path, json: { metadata: { body } } }),
    w.client.request('contention', { method: 'PATCH', path, json: { metadata: { score } } }),
  ]);
  if (a.sent !== true || b.sent !== true || a.status !== 200 || b.status !== 200) return;
  const latest = await read(w, id, 'any');
  const live = await read(w, id, 'published');
  if (!latest || !live) return;
  w.contention.pairs++;
  if (latest.metadata.body !== body || latest.metadata.score !== score) {
    w.contention.lostUpdates++;
    w.client.stats.incident(
      'contention',
      'lost update',
      `${id}: sent body "${body}" and score ${score} at once, both 200; now body "${String(latest.metadata.body)}", score ${String(latest.metadata.score)}`,
    );
  }
  if (live.metadata.body !== latest.metadata.body || live.metadata.score !== latest.metadata.score) {
    w.contention.viewSplits++;
    w.client.stats.incident('contention', 'live differs from latest', id);
  }
}
