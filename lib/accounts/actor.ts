import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The account a write is made for, when it came with an account token. Carried through the
 * request's async work rather than through every service signature, so the one write path of
 * Objects stamps created_by/modified_by (and so revisions) without each route passing it on.
 */
const actor = new AsyncLocalStorage<string>();

export function runAsActor(accountId: string, fn: () => void): void {
  actor.run(accountId, fn);
}

/** The acting account's id, or null for a write made with a Bucket key (or by the service itself). */
export function currentActor(): string | null {
  return actor.getStore() ?? null;
}
