import type { Response } from 'express';

/**
 * The Server-Sent Events wire format (WHATWG HTML, "Server-sent events"): a message is `field:
 * value` lines ended by a blank line; a line starting with `:` is a comment clients ignore.
 */

/** Opens the stream: no cache or proxy may keep or buffer it (nginx reads X-Accel-Buffering). */
export function openEventStream(res: Response): void {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
    // Compressing middleboxes must pass it through as sent, or they hold messages back.
    'Content-Encoding': 'identity',
    Connection: 'keep-alive',
  });
  res.flushHeaders();
}

/** One message; `data` must be one line (JSON.stringify output is). */
export function sseMessage(id: string, event: string, data: string): string {
  return `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;
}

/** A message without an id, so it does not move the client's Last-Event-ID. */
export function sseNotice(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

/** Keeps idle connections open through proxies; clients ignore it. */
export const KEEP_ALIVE = ': keep-alive\n\n';

/** The reconnection delay a client should use (a field alone dispatches no event). */
export function sseRetry(ms: number): string {
  return `retry: ${String(ms)}\n\n`;
}
