import type { ListTotals } from '../../cache/list-totals.js';

/** What is known about a list's total once its page is read. */
export interface PageRead {
  /** Items the page holds. */
  length: number;
  limit: number;
  /** Matches passed over before the page; 0 for a random page, which samples all of them. */
  skip: number;
  /** Whether the page starts after a cursor, which hides how many matches come before it. */
  after: boolean;
}

/**
 * The total a page already proves: a page shorter than its limit holds every match from `skip`
 * on, so with no cursor the total is `skip` plus its length (an empty page past `skip` proves
 * nothing about the matches before). Otherwise undefined: counting is needed.
 */
export function totalFromPage(p: PageRead): number | undefined {
  if (p.after || p.length >= p.limit) return undefined;
  if (p.length === 0 && p.skip > 0) return undefined;
  return p.skip + p.length;
}

/**
 * The list's total: kept from an earlier read at this Bucket generation, proved by the page, or
 * counted; then kept for the next read. `totals` absent: always proved or counted.
 */
export async function listTotal(
  totals: ListTotals | undefined,
  key: string,
  page: PageRead,
  count: () => Promise<number>,
): Promise<number> {
  const kept = totals?.get(key);
  if (kept !== undefined) return kept;
  const total = totalFromPage(page) ?? (await count());
  totals?.set(key, total);
  return total;
}
