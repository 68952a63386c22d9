import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Where the service's webhook deliveries arrive: setup subscribes it to every event of the soak
 * Bucket, and webhook-check.ts holds what arrived against what the acknowledged writes owe.
 */
export interface WebhookReceiver {
  url: string;
  deliveries: Array<{ t: number; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: WebhookReceiver['deliveries'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      deliveries.push({ t: Date.now(), headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
