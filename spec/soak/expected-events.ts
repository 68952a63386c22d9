import type { Transition } from './ledger.js';

/**
 * The webhook events acknowledged writes must produce: how many of each (type, resource id).
 * Only acknowledged writes count; a write without a clear answer may add one more, so the check
 * is "at least", never "exactly".
 */
export class ExpectedEvents {
  readonly counts = new Map<string, number>();

  add(type: string, id: string): void {
    const key = `${type} ${id}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  get total(): number {
    let n = 0;
    for (const c of this.counts.values()) n += c;
    return n;
  }
}

/** The event a transition of an Object fires (lib/objects/write/version-write.ts maps reasons the same way). */
export function eventOfTransition(tr: Transition): string | null {
  switch (tr.t) {
    case 'edit':
    case 'draft':
      return 'object.edited';
    case 'publish':
      return 'object.published';
    case 'delete':
      // Deletes notify only when asked to (the spec's trigger_webhook rule).
      return tr.notify ? 'object.deleted' : null;
  }
}
