import { is5xx, Stats } from './stats.js';

/** An HTTP answer, or none: `sent: false` only when the connection was refused (nothing was sent). */
export type Answer =
  | {
      sent: true;
      status: number;
      retryAfter: string | null;
      /** The answer is the kept answer of an earlier request with the same Idempotency-Key. */
      replayed: boolean;
      body: unknown;
      bytes: number;
      text: string;
    }
  | { sent: false | 'maybe'; error: string };

/** What a write's answer says about its effect. */
export type Fate = 'acked' | 'rejected' | 'unknown' | 'not-applied';

export function fateOf(a: Answer): Fate {
  if (a.sent !== true) return a.sent === false ? 'not-applied' : 'unknown';
  if (a.status === 200) return 'acked';
  // A 5xx may come after part of the write happened (the engine died between two steps).
  return a.status >= 500 ? 'unknown' : 'rejected';
}

export interface RequestSpec {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  json?: unknown;
  form?: FormData;
  /** Statuses this request may answer in a healthy service (default 200 only). */
  expect?: readonly number[];
  /** Read the body as bytes, not JSON. */
  binary?: boolean;
  /** Sent as the Idempotency-Key header. */
  idempotencyKey?: string;
}

/** Longer than any healthy answer; a request without answer by then counts as "no answer". */
const REQUEST_TIMEOUT_MS = 60_000;
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

function errorCode(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

/** Issues the soak's requests and records each one's status, latency and incidents. */
export class Client {
  constructor(
    private readonly baseUrl: string,
    private readonly writeKey: string,
    readonly stats: Stats,
  ) {}

  async request(kind: string, spec: RequestSpec): Promise<Answer> {
    const headers: Record<string, string> = {};
    let body: string | FormData | undefined;
    if (spec.method && spec.method !== 'GET') headers.authorization = `Bearer ${this.writeKey}`;
    if (spec.idempotencyKey !== undefined) headers['idempotency-key'] = spec.idempotencyKey;
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.form) {
      body = spec.form;
    }
    const sentAt = Date.now();
    const t0 = performance.now();
    let answer: Answer;
    try {
      const res = await fetch(this.baseUrl + spec.path, {
        method: spec.method ?? 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      let text = '';
      let parsed: unknown = null;
      let bytes = 0;
      if (spec.binary && res.status === 200) {
        bytes = (await res.arrayBuffer()).byteLength;
      } else {
        text = await res.text();
        bytes = text.length;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
      }
      answer = {
        sent: true,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        replayed: res.headers.get('idempotent-replayed') === 'true',
        body: parsed,
        bytes,
        text,
      };
    } catch (err) {
      const code = errorCode(err);
      answer = { sent: code === 'ECONNREFUSED' ? false : 'maybe', error: code };
    }
    const ms = performance.now() - t0;
    this.note(kind, spec, answer, ms, sentAt);
    if (answer.sent !== true || answer.status === 503) {
      // The service is down or shedding load: back off as a client should, instead of spinning.
      await sleep(200 + Math.random() * 800);
    }
    return answer;
  }

  private note(kind: string, spec: RequestSpec, a: Answer, ms: number, sentAt: number): void {
    if (a.sent !== true) {
      this.stats.record(kind, a.sent === false ? 'refused' : 'no answer', null);
      this.stats.incident(
        kind,
        a.sent === false ? 'refused' : 'no answer',
        `${spec.method ?? 'GET'} ${spec.path}: ${a.error}`,
        sentAt,
      );
      return;
    }
    const status = String(a.status);
    this.stats.record(kind, status, ms);
    const expected = spec.expect ?? [200];
    if (expected.includes(a.status)) return;
    const code = (a.body as { code?: unknown } | null)?.code;
    const named = `${status}${typeof code === 'string' ? ` ${code}` : ''}`;
    const what = is5xx(status) ? `${named}${a.retryAfter ? ' (Retry-After)' : ''}` : `unexpected ${named}`;
    this.stats.incident(
      kind,
      what,
      `${spec.method ?? 'GET'} ${spec.path.slice(0, 160)} → ${a.text.slice(0, 300)}`,
      sentAt,
    );
  }
}
