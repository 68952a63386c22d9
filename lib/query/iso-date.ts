/* ISO 8601 dates and date-times of query values, read without the time zone of the server. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * An ISO 8601 date or date-time as a Date, or null. Checked field by field because `Date` rolls
 * 2024-02-30 over to March. A date-time without an offset is UTC, so results never depend on the
 * server's time zone.
 */
export function parseIsoDate(text: string): Date | null {
  const m = ISO_DATE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  // Undefined exactly when the month is out of range.
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  if (days === undefined || Number(d) < 1 || Number(d) > days) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return null;
  const ms = `${frac}000`.slice(0, 3);
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date;
}
