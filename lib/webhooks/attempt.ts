import { serviceVersion } from '../version.js';
import type { AttemptDoc, DeliveryDoc, WebhookDoc } from '../store/webhooks.js';
import { RefusedEndpoint, resolveEndpoint, type Lookup } from './resolve.js';
import { postOnce, type Agents } from './send.js';
import { signatureHeader } from './signing.js';

export const USER_AGENT = `bucket-content-api-webhooks/${serviceVersion}`;

export interface AttemptOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  agents: Agents;
  now: () => Date;
  /** Tests resolve names their own way; the system resolver otherwise. */
  lookup?: Lookup;
}

/** The request headers of one attempt: the webhook's own, then the signed ones, which they cannot replace. */
export function attemptHeaders(webhook: WebhookDoc, delivery: DeliveryDoc, at: Date): Record<string, string> {
  const id = delivery._id.toHexString();
  const timestamp = Math.floor(at.getTime() / 1000);
  const headers: Record<string, string> = {};
  for (const { name, value } of webhook.headers) headers[name.toLowerCase()] = value;
  return {
    ...headers,
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(webhook.secret, id, timestamp, delivery.body),
  };
}

/** One attempt of a delivery: its log entry, and whether it was delivered (2xx in time). */
export async function attemptDelivery(
  webhook: WebhookDoc,
  delivery: DeliveryDoc,
  opts: AttemptOptions,
): Promise<{ ok: boolean; attempt: AttemptDoc }> {
  const at = opts.now();
  const started = performance.now();
  let target;
  try {
    target = await resolveEndpoint(webhook.endpoint, opts.allowPrivate, opts.lookup);
  } catch (err) {
    if (!(err instanceof RefusedEndpoint)) throw err;
    const duration_ms = Math.round(performance.now() - started);
    return { ok: false, attempt: { at, status: null, error: err.message, duration_ms, response_body: '' } };
  }
  const result = await postOnce(
    target,
    attemptHeaders(webhook, delivery, at),
    delivery.body,
    opts.timeoutMs,
    opts.agents,
  );
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  return {
    ok,
    attempt: {
      at,
      status: result.status,
      error: result.error ?? (ok ? null : `the endpoint answered ${result.status ?? 'nothing'}, not 2xx`),
      duration_ms: result.durationMs,
      response_body: result.responseBody,
    },
  };
}
