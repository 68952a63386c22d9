import type { Response } from 'express';

/**
 * A refused request's body is not worth reading: the connection closes after the answer, so
 * the rest of the body is neither awaited nor drained.
 */
export function closeAfterResponse(res: Response): void {
  res.set('Connection', 'close');
}
