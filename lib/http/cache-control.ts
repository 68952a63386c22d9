import type { Response } from 'express';

/**
 * For reads that need a credential (a Bucket's read key, a preview token): browsers may keep
 * them, shared caches (CDNs, proxies) must not, or they would serve them to anyone. Public reads
 * of a Bucket without a read key get no Cache-Control and stay cacheable.
 */
export function markPrivate(res: Response): void {
  res.set('Cache-Control', 'private');
}
