import { eventOfTransition, ExpectedEvents } from './expected-events.js';
import type { Fate } from './http.js';

/**
 * What every acknowledged write made true, to be checked against the database at the end.
 *
 * Each Object is written by one worker only, one request at a time, so its expected state is a
 * plain sequence of transitions. A write without a clear answer (no answer, a 5xx) may or may not
 * have happened: the entry then holds both states as candidates and its worker leaves it alone
 * ("frozen"), so there are never more than two.
 */

/** The fields the soak sets and checks: title and the metadata it writes. */
export interface Values {
  title: string;
  body: string;
  score: number;
  author?: string;
  image?: string;
  related?: string;
}

export interface Version {
  values: Values;
  status: 'published' | 'draft';
  /** The live (published) version, null when the Object was never published. */
  live: Values | null;
}

/** 'gone': deleted, or never created (a create without answer that did not happen). */
export type Expected = Version | 'gone';

export type Transition =
  | { t: 'edit'; values: Partial<Values> }
  | { t: 'publish'; values: Partial<Values> }
  | { t: 'draft'; values: Partial<Values> }
  | { t: 'delete'; notify: boolean };

export interface ObjectEntry {
  /** Null for a create that got no answer: found by its token at the end. */
  id: string | null;
  /** Starts every title of this Object, so it can be found without its id. */
  token: string;
  candidates: Expected[];
  /** Some write to it was acknowledged: a mismatch is then a lost write. */
  acked: boolean;
  frozen: boolean;
  /** The last write's kind and fate, to say which write a mismatch lost. */
  history: string[];
}

export interface MediaEntry {
  id: string | null;
  name: string | null;
  token: string;
  size: number;
  metadata: Record<string, unknown>;
  candidates: Array<'present' | 'gone'>;
  acked: boolean;
}

function apply(e: Expected, tr: Transition): Expected {
  if (e === 'gone') return e;
  switch (tr.t) {
    case 'delete':
      return 'gone';
    case 'edit': {
      const values = { ...e.values, ...tr.values };
      return { values, status: e.status, live: e.status === 'published' ? values : e.live };
    }
    case 'publish': {
      const values = { ...e.values, ...tr.values };
      return { values, status: 'published', live: values };
    }
    case 'draft':
      return { values: { ...e.values, ...tr.values }, status: 'draft', live: e.live };
  }
}

const HISTORY_KEPT = 6;

/** How creates fared with their Idempotency-Key retries (object-ops.ts createOp). */
export interface CreateRetries {
  /** Creates that needed more than one request. */
  retried: number;
  /** An attempt answered 5xx, yet a retry's answer was a replay: the 5xx attempt had written the Object. */
  answered5xxWrittenAnyway: number;
  /** The same after attempts without an answer (and no 5xx). */
  noAnswerWrittenAnyway: number;
  /** Retries ran out without a clear answer: the create stays unknown. */
  gaveUp: number;
}

export class Ledger {
  readonly objects: ObjectEntry[] = [];
  readonly media: MediaEntry[] = [];
  /** The webhook events the acknowledged writes owe. */
  readonly events = new ExpectedEvents();
  readonly createRetries: CreateRetries = {
    retried: 0,
    answered5xxWrittenAnyway: 0,
    noAnswerWrittenAnyway: 0,
    gaveUp: 0,
  };

  /** A create: acked with its id, or unknown (maybe created, id not known). */
  created(token: string, id: string | null, version: Version, fate: Fate): ObjectEntry | null {
    if (fate === 'rejected' || fate === 'not-applied') return null;
    const acked = fate === 'acked';
    const entry: ObjectEntry = {
      id,
      token,
      candidates: acked ? [version] : ['gone', version],
      acked,
      frozen: !acked,
      history: [`create ${fate}`],
    };
    this.objects.push(entry);
    if (acked && id) this.events.add('object.created', id);
    return entry;
  }

  written(entry: ObjectEntry, tr: Transition, fate: Fate): void {
    entry.history = [...entry.history, `${tr.t} ${fate}`].slice(-HISTORY_KEPT);
    if (fate === 'rejected' || fate === 'not-applied') return;
    const after = entry.candidates.map((c) => apply(c, tr));
    if (fate === 'acked') {
      const event = eventOfTransition(tr);
      // An acknowledged write to an Object already gone changes nothing, so it owes no event.
      if (event && entry.id && entry.candidates.some((c) => c !== 'gone')) this.events.add(event, entry.id);
      entry.candidates = after;
      entry.acked = true;
    } else {
      entry.candidates = [...entry.candidates, ...after];
      entry.frozen = true;
    }
  }

  uploaded(
    token: string,
    id: string | null,
    name: string | null,
    size: number,
    meta: Record<string, unknown>,
    fate: Fate,
  ) {
    if (fate === 'rejected' || fate === 'not-applied') return null;
    const acked = fate === 'acked';
    const entry: MediaEntry = {
      id,
      name,
      token,
      size,
      metadata: meta,
      candidates: acked ? ['present'] : ['gone', 'present'],
      acked,
    };
    this.media.push(entry);
    if (acked && id) this.events.add('media.created', id);
    return entry;
  }

  mediaDeleted(entry: MediaEntry, fate: Fate, notify: boolean): void {
    if (fate === 'acked' && notify && entry.id && entry.candidates.includes('present'))
      this.events.add('media.deleted', entry.id);
    if (fate === 'acked') entry.candidates = ['gone'];
    else if (fate === 'unknown') entry.candidates = ['present', 'gone'];
  }
}

/** The one state an entry must be in, or null while it may be in two. */
export function certain(entry: ObjectEntry): Version | 'gone' | null {
  return entry.candidates.length === 1 ? (entry.candidates[0] ?? null) : null;
}
