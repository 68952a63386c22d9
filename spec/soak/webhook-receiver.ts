import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * Where the service's webhook deliveries arrive: setup subscribes it to every event of the soak
 * Bucket, and webhook-check.ts holds what arrived against what the acknowledged writes owe.
 */
export interface WebhookReceiver {
  url: string;
  /** `verified`: the signature checked on arrival (the verifier refuses timestamps over 5 minutes old). */
  deliveries: Array<{ t: number; body: string; verified: boolean }>;
  /** The secret the webhook was created with; requests before it is set count as unverified. */
  setSecret(secret: string): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: WebhookReceiver['deliveries'] = [];
  let verifier: Webhook | null = null;
  const verified = (headers: http.IncomingHttpHeaders, body: string): boolean => {
    try {
      verifier?.verify(body, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])));
      return verifier !== null;
    } catch {
      return false;
    }
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      deliveries.push({ t: Date.now(), body, verified: verified(req.headers, body) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries,
    setSecret: (secret) => {
      verifier = new Webhook(secret);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
