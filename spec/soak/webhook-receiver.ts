import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Where webhook deliveries will be received and checked. The service does not send webhooks yet,
 * so nothing registers this receiver and the load has no webhook kind: when webhooks exist, setup
 * registers `url` on the Bucket, the workers send `trigger_webhook=true` on some writes, and the
 * report checks every acknowledged one was delivered (at least once, signature valid).
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
