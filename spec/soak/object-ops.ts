import { fateOf, type Answer } from './http.js';
import { certain, type ObjectEntry, type Transition, type Values, type Version } from './ledger.js';
import { BASE, changedValues, metadataOf, newValues, nextToken, release, type WorkerState } from './worker-state.js';

/** Writes of a worker's own Objects, each recorded in the ledger with what its answer said. */

/** A create's retries: enough to outlast an engine restart, or a dead server's key lease (60 s). */
const CREATE_ATTEMPTS = 30;
const CREATE_RETRY_BUDGET_MS = 75_000;
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/** Worth retrying with the same key: no answer, a 5xx, or the key's first request still running (409). */
const unclear = (a: Answer) => a.sent !== true || a.status >= 500 || a.status === 409;

/**
 * A create as a careful client makes it: with an Idempotency-Key, retried with that key until it
 * gets a clear answer. A replayed 200 after an unclear attempt means that attempt had written
 * the Object: the ledger counts those, and verify counts any create stored twice.
 */
export async function createOp(w: WorkerState): Promise<void> {
  const token = nextToken(w, 'o');
  const values = newValues(w, token);
  const status = w.rand.chance(0.7) ? 'published' : 'draft';
  const spec = {
    method: 'POST' as const,
    path: `${BASE}/objects`,
    json: { title: values.title, type: 'posts', status, metadata: metadataOf(values) },
    idempotencyKey: `soak-${token}`,
    expect: [200],
  };
  const start = Date.now();
  let a = await w.client.request('create', spec);
  let saw5xx = false;
  let attempts = 1;
  while (unclear(a) && attempts < CREATE_ATTEMPTS && Date.now() - start < CREATE_RETRY_BUDGET_MS) {
    if (a.sent === true && a.status >= 500) saw5xx = true;
    // The client already backs off after a 503 or no answer; a 409 says how long to wait.
    if (a.sent === true && a.status === 409) await sleep(Math.min(5, Number(a.retryAfter) || 1) * 1000);
    a = await w.client.request('create-retry', { ...spec, expect: [200, 409] });
    attempts++;
  }
  const r = w.ledger.createRetries;
  if (attempts > 1) r.retried++;
  if (unclear(a)) r.gaveUp++;
  if (attempts > 1 && a.sent === true && a.status === 200 && a.replayed) {
    if (saw5xx) r.answered5xxWrittenAnyway++;
    else r.noAnswerWrittenAnyway++;
  }
  const id = a.sent === true && a.status === 200 ? (a.body as { object: { id: string } }).object.id : null;
  const version: Version = { values, status, live: status === 'published' ? values : null };
  // Out of retries, the last answer (a refusal to connect, a 409) does not undo what an earlier attempt may have done.
  const fate = attempts > 1 && unclear(a) ? 'unknown' : fateOf(a);
  const entry = w.ledger.created(token, id, version, fate);
  if (entry && !entry.frozen) w.owned.push(entry);
}

/** A PATCH (edit, publish, or save as draft) or a POST revision, which also saves a draft. */
export async function updateOp(w: WorkerState, how: 'edit' | 'publish' | 'draft'): Promise<void> {
  const entry = w.rand.pick(w.owned);
  if (!entry?.id) return createOp(w);
  const values = changedValues(w, entry.token);
  const body: Record<string, unknown> = { title: values.title, metadata: metadataOf(values) };
  let path = `${BASE}/objects/${entry.id}`;
  let method: 'PATCH' | 'POST' = 'PATCH';
  if (how === 'publish') body.status = 'published';
  if (how === 'draft') {
    if (w.rand.chance(0.5)) {
      path += '/revisions';
      method = 'POST';
    } else {
      body.status = 'draft';
    }
  }
  const a = await w.client.request(how, { method, path, json: body });
  settle(w, entry, { t: how, values }, fateOf(a));
}

export async function deleteOp(w: WorkerState): Promise<void> {
  const entry = w.rand.pick(w.owned);
  if (!entry?.id) return;
  // Half the deletes ask for their webhook, so both sides of the trigger_webhook rule are driven.
  const notify = w.rand.chance(0.5);
  const path = `${BASE}/objects/${entry.id}${notify ? '?trigger_webhook=true' : ''}`;
  const a = await w.client.request('delete', { method: 'DELETE', path });
  settle(w, entry, { t: 'delete', notify }, fateOf(a));
}

function settle(w: WorkerState, entry: ObjectEntry, tr: Transition, fate: ReturnType<typeof fateOf>): void {
  w.ledger.written(entry, tr, fate);
  // A rejected write of an Object in a known state is itself a finding (recorded as an incident);
  // the Object is left alone from then on, as is one whose state is no longer certain.
  if (tr.t === 'delete' || entry.frozen || fate === 'rejected') release(w, entry);
}

type BatchOp =
  | { method: 'add'; token: string; values: Values; status: 'published' | 'draft' }
  | { method: 'edit'; entry: ObjectEntry; values: Partial<Values> }
  | { method: 'delete'; entry: ObjectEntry; notify: boolean };

/** 2 to 6 operations on distinct Objects; no relation to an Object the same batch may delete. */
function planBatch(w: WorkerState): BatchOp[] {
  const ops: BatchOp[] = [];
  const used = new Set<ObjectEntry>();
  const n = w.rand.int(2, 7);
  for (let i = 0; i < n; i++) {
    const target = w.rand.pick(w.owned.filter((e) => !used.has(e)));
    const r = w.rand.next();
    if (!target || r < 0.45) {
      const token = nextToken(w, 'o');
      const { related: _r, ...values } = newValues(w, token);
      ops.push({ method: 'add', token, values, status: w.rand.chance(0.7) ? 'published' : 'draft' });
    } else {
      used.add(target);
      if (r < 0.8) {
        const { related: _r, ...values } = changedValues(w, target.token);
        ops.push({ method: 'edit', entry: target, values });
      } else {
        ops.push({ method: 'delete', entry: target, notify: w.rand.chance(0.5) });
      }
    }
  }
  return ops;
}

function wireOp(op: BatchOp): Record<string, unknown> {
  switch (op.method) {
    case 'add':
      return {
        method: 'add',
        object: { title: op.values.title, type: 'posts', status: op.status, metadata: metadataOf(op.values) },
      };
    case 'edit':
      return {
        method: 'edit',
        object_id: op.entry.id,
        object: { title: op.values.title, metadata: metadataOf(op.values) },
      };
    case 'delete':
      return { method: 'delete', object_id: op.entry.id, ...(op.notify ? { trigger_webhook: true } : {}) };
  }
}

export async function batchOp(w: WorkerState): Promise<void> {
  const ops = planBatch(w);
  const sentAt = Date.now();
  const a = await w.client.request('batch', {
    method: 'POST',
    path: `${BASE}/objects/batch`,
    json: { operations: ops.map(wireOp) },
  });
  const whole = fateOf(a);
  const results =
    a.sent === true && a.status === 200
      ? (a.body as { operations: Array<{ status: number; object?: { id: string }; message?: string }> }).operations
      : [];
  ops.forEach((op, i) => {
    const r = results[i];
    // Each operation answers on its own; without an answer to the batch, each is as unknown as it.
    const fate = !r
      ? whole === 'acked'
        ? 'unknown'
        : whole
      : r.status === 200
        ? 'acked'
        : r.status >= 500
          ? 'unknown'
          : 'rejected';
    if (r && r.status !== 200) {
      const what = r.status >= 500 ? `${r.status} (batch ${op.method})` : `unexpected ${r.status} (batch ${op.method})`;
      w.client.stats.incident('batch', what, r.message ?? '', sentAt);
    }
    switch (op.method) {
      case 'add': {
        const version: Version = {
          values: op.values,
          status: op.status,
          live: op.status === 'published' ? op.values : null,
        };
        const entry = w.ledger.created(op.token, r?.object?.id ?? null, version, fate);
        if (entry && !entry.frozen) w.owned.push(entry);
        break;
      }
      case 'edit':
        settle(w, op.entry, { t: 'edit', values: op.values }, fate);
        break;
      case 'delete':
        settle(w, op.entry, { t: 'delete', notify: op.notify }, fate);
        break;
    }
  });
}

/**
 * Reads one of the worker's own Objects, at some depth, from the cache or not, and compares it
 * with the ledger: after an acknowledged write a read must never show an older version.
 */
export async function getOp(w: WorkerState): Promise<void> {
  const entry = w.rand.pick(w.owned);
  const state = entry ? certain(entry) : null;
  if (!entry?.id || !state || state === 'gone') return;
  const live = w.rand.chance(0.4);
  const params = new URLSearchParams({
    read_key: w.fixture.readKey,
    status: live ? 'published' : 'any',
    depth: String(w.rand.int(0, 3)),
    useCache: String(w.rand.chance(0.7)),
  });
  const expected = live ? state.live : state.values;
  const a = await w.client.request('get', {
    path: `${BASE}/objects/${entry.id}?${params}`,
    expect: expected ? [200] : [404],
  });
  if (a.sent !== true || a.status >= 500) return;
  w.checks.checked++;
  const seen = a.status === 200 ? (a.body as { object: { title: string } }).object.title : null;
  if (seen !== (expected?.title ?? null)) {
    w.checks.stale++;
    w.client.stats.incident(
      'get',
      'stale read',
      `${params.get('status') ?? ''} ${entry.id}: saw "${seen}", expected "${expected?.title ?? '(none)'}"`,
    );
  }
}
