import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com/): the secret is `whsec_` + the
 * base64 of a random key, and each request carries `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "{webhook-id}.{webhook-timestamp}.{body}">`. Its verifier libraries take the secret as given.
 */
const PREFIX = 'whsec_';
/** The scheme asks for 24 to 64 bytes. */
const KEY_BYTES = 32;

export function generateSecret(): string {
  return PREFIX + randomBytes(KEY_BYTES).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header value of one attempt. */
export function signatureHeader(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
