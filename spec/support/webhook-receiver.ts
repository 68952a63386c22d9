import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

/** What the receiver answers the n-th request (from 0): a status, or 'hang' to never answer. */
export type Responder = (req: Received, n: number) => number | 'hang';

/**
 * A real HTTP endpoint on 127.0.0.1 that records every request it gets, as a webhook consumer
 * would see it: raw body, headers, path.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly server: http.Server;
  respond: Responder = () => 204;
  /** How long each answer waits, so a test can keep requests in flight. */
  delayMs = 0;
  /** Requests open now, and the most that were open at once. */
  open = 0;
  maxOpen = 0;

  constructor() {
    this.server = http.createServer((req, res) => {
      this.open++;
      this.maxOpen = Math.max(this.maxOpen, this.open);
      res.once('close', () => this.open--);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got: Received = {
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          path: req.url ?? '',
        };
        const answer = this.respond(got, this.received.length);
        this.received.push(got);
        if (answer === 'hang') return;
        const n = this.received.length;
        setTimeout(() => {
          res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answer ${answer} to ${n}`);
        }, this.delayMs);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this.url('/hook');
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
  }

  /** The webhook-id of every request received, in order. */
  ids(): string[] {
    return this.received.map((r) => String(r.headers['webhook-id']));
  }
}
