import { BadRequestError } from '../../errors/http-errors.js';

/**
 * `publish_at` / `unpublish_at` as sent: an ISO 8601 string or UNIX milliseconds (the legacy
 * form), which must lie in the future; null clears the schedule; undefined leaves it alone.
 */
export function parseScheduleTime(name: string, raw: unknown, now: Date): Date | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return null;
  const at =
    typeof raw === 'number'
      ? new Date(raw)
      : typeof raw === 'string' && /^\d{4}-\d\d-\d\d/.test(raw)
        ? new Date(raw)
        : null;
  if (!at || Number.isNaN(at.getTime()))
    throw new BadRequestError(
      `${name} must be an ISO 8601 date-time or UNIX milliseconds, got ${JSON.stringify(raw)}`,
      'invalid_body',
    );
  if (at.getTime() <= now.getTime())
    throw new BadRequestError(`${name} must be in the future, got ${at.toISOString()}`, 'invalid_body');
  return at;
}
