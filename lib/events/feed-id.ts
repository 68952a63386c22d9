import { randomBytes } from 'node:crypto';

/*
 * Change feed ids: `<ms>-<counter>-<process>`, fixed-width hexadecimal, so string order is time
 * order (the write's clock reading), then this process's counter, then the process.
 *
 * Why ids increase for a reader without transactions or a shared counter: each app process
 * stamps its events with its own clock when it builds the write, and the write becomes visible
 * a little later. A reader that handed out everything it sees could pass over a slower write
 * whose id is smaller than one already handed out (written by another process, or another
 * request of this one), and a client resuming after the larger id would never get it. So every
 * reader hands out only ids older than `now - settle` (its horizon, `horizonId`): a write that
 * becomes visible within the settle window of its stamp, and processes whose clocks differ by
 * less than it, are never passed over. The price is the settle window of delay; REALTIME_SETTLE_MS
 * sets it. Ids of one millisecond from two processes order by counter and process: arbitrary,
 * but the same for every reader, which is all resuming needs.
 */

const TIME_DIGITS = 12;
const COUNTER_DIGITS = 8;
const PROCESS_DIGITS = 10;
const FEED_ID = new RegExp(`^[0-9a-f]{${TIME_DIGITS}}-[0-9a-f]{${COUNTER_DIGITS}}-[0-9a-f]{${PROCESS_DIGITS}}$`);

const thisProcess = randomBytes(PROCESS_DIGITS / 2).toString('hex');
let counter = 0;

function hex(n: number, digits: number): string {
  return n.toString(16).padStart(digits, '0');
}

/** A new id stamped `at`. */
export function newFeedId(at: number): string {
  counter = (counter + 1) % 16 ** COUNTER_DIGITS;
  return `${hex(at, TIME_DIGITS)}-${hex(counter, COUNTER_DIGITS)}-${thisProcess}`;
}

/** Sorts before every id stamped at `at` or later, after every earlier one. */
export function horizonId(at: number): string {
  return hex(Math.max(0, at), TIME_DIGITS);
}

/** The time an id was stamped, or null for text that is no feed id. */
export function feedIdTime(id: string): number | null {
  if (!FEED_ID.test(id)) return null;
  return parseInt(id.slice(0, TIME_DIGITS), 16);
}
