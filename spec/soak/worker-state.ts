import type { ContentionChecks } from './contention-ops.js';
import type { Client } from './http.js';
import type { Ledger, MediaEntry, ObjectEntry, Values } from './ledger.js';
import type { Random } from './random.js';
import { BUCKET, type Fixture } from './setup.js';

export const BASE = `/v3/buckets/${BUCKET}`;

/** Reads of a worker's own Objects compared with what its acknowledged writes made true. */
export interface ReadChecks {
  checked: number;
  /** A read after an acknowledged write that showed an older (or no) version. */
  stale: number;
}

/** One worker's view: the Objects and media only it writes, so their expected state is exact. */
export interface WorkerState {
  n: number;
  client: Client;
  ledger: Ledger;
  fixture: Fixture;
  rand: Random;
  /** Objects kept at most; past it the worker deletes rather than creates. */
  cap: number;
  /** Objects in a known state that the worker may still write. */
  owned: ObjectEntry[];
  /** Media other Objects may name in `image`: never deleted. */
  attachable: MediaEntry[];
  /** Media uploaded to be deleted again. */
  scratch: MediaEntry[];
  seq: number;
  checks: ReadChecks;
  /** The Object this worker PATCHes twice at once (created on first use); undefined: not at all. */
  contendedId: string | null | undefined;
  contention: ContentionChecks;
}

export function nextToken(w: WorkerState, what: 'o' | 'm'): string {
  w.seq++;
  return `w${w.n}${what}${w.seq}`;
}

/** Stops writing an Object: it was deleted, or its state is no longer known for sure. */
export function release(w: WorkerState, entry: ObjectEntry): void {
  const i = w.owned.indexOf(entry);
  if (i >= 0) w.owned.splice(i, 1);
}

function presentMediaName(w: WorkerState): string | undefined {
  return w.rand.pick(w.attachable)?.name ?? undefined;
}

/** A full set of values for a new Object. */
export function newValues(w: WorkerState, token: string): Values {
  const v: Values = {
    title: `${token} ${w.rand.words(3)}`,
    body: w.rand.words(w.rand.int(5, 40)),
    score: w.rand.int(0, 100_000),
    author: w.rand.pick(w.fixture.authors) ?? '',
  };
  const image = w.rand.chance(0.5) ? presentMediaName(w) : undefined;
  if (image) v.image = image;
  const related = w.rand.chance(0.3) ? w.rand.pick(w.owned)?.id : undefined;
  if (related) v.related = related;
  return v;
}

/** A change: always a new title (so every version can be told apart), and some metadata. */
export function changedValues(w: WorkerState, token: string): Partial<Values> {
  const v: Partial<Values> = { title: `${token} ${w.rand.words(3)} ${w.seq}` };
  if (w.rand.chance(0.7)) v.body = w.rand.words(w.rand.int(5, 40));
  if (w.rand.chance(0.7)) v.score = w.rand.int(0, 100_000);
  if (w.rand.chance(0.2)) v.author = w.rand.pick(w.fixture.authors) ?? '';
  if (w.rand.chance(0.2)) {
    const image = presentMediaName(w);
    if (image) v.image = image;
  }
  if (w.rand.chance(0.2)) {
    const related = w.rand.pick(w.owned)?.id;
    if (related) v.related = related;
  }
  return v;
}

/** The request body's metadata for values: every field but the title. */
export function metadataOf(v: Partial<Values>): Record<string, unknown> {
  const { title: _t, ...metadata } = v;
  return metadata;
}

/** Titles start with the entry's token: the first word. */
export function tokenOf(title: string): string {
  return title.split(' ')[0] ?? '';
}
