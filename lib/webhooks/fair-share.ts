/**
 * The order in which a batch of due deliveries is sent, fair between Buckets and between the
 * webhooks of a Bucket: round robin over Buckets, and within a Bucket's turn over its webhooks,
 * each webhook's deliveries oldest first. A Bucket with a backlog of thousands then delays
 * another Bucket's delivery by one turn, not by its backlog.
 */

export interface DueGroup<T> {
  bucket: string;
  webhook: string;
  /** Oldest first. */
  items: readonly T[];
}

export function fairOrder<T>(groups: readonly DueGroup<T>[]): T[] {
  const buckets = new Map<string, DueGroup<T>[]>();
  for (const g of groups) {
    const own = buckets.get(g.bucket) ?? [];
    own.push(g);
    buckets.set(g.bucket, own);
  }
  // Per Bucket, its webhooks' deliveries dealt out in turn: w1[0], w2[0], w1[1], w2[1], …
  const queues = [...buckets.values()].map((hooks) => dealt(hooks.map((h) => h.items)));
  return dealt(queues);
}

/** One from each list in turn until all are used up. */
function dealt<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i] as T);
  return out;
}
