/** The request header naming a write's idempotency key, and the answer header of a replayed answer (lib/middleware/idempotency.ts). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
