import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';

/** One message as a Server-Sent Events client parses it; comments are counted apart. */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The error body when the answer was not a stream. */
  body: string;
  /** Comment lines received so far (the keep-alives). */
  comments(): number;
  /** The next message not yet taken (waits for it; the test's timeout bounds the wait). */
  next(): Promise<SseMessage>;
  /** The next `count` messages. */
  take(count: number): Promise<SseMessage[]>;
  /** Resolves once a comment line arrives after those counted so far. */
  nextComment(): Promise<void>;
  close(): void;
}

/** An app listening on a free local port, for clients that need a real connection. */
export async function listening(
  app: RequestListener,
): Promise<{ url: string; close: () => Promise<void>; drop: () => void }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    /** Cuts every open connection, as a network drop would; the server keeps listening. */
    drop: () => {
      server.closeAllConnections();
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

/** GETs `url` and parses the event stream as it arrives (the parsing rules of the SSE spec, enough of them). */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const queue: SseMessage[] = [];
      const waiting: ((m: SseMessage) => void)[] = [];
      const commentWaiters: (() => void)[] = [];
      let comments = 0;
      let buffer = '';
      let body = '';
      let current: { id?: string; event?: string; data: string[] } = { data: [] };
      const dispatch = () => {
        if (current.data.length > 0) {
          const message = { id: current.id, event: current.event ?? 'message', data: current.data.join('\n') };
          const waiter = waiting.shift();
          if (waiter) waiter(message);
          else queue.push(message);
        }
        current = { data: [] };
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n')) !== -1) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          if (line === '') dispatch();
          else if (line.startsWith(':')) {
            comments++;
            for (const w of commentWaiters.splice(0)) w();
          } else {
            const colon = line.indexOf(':');
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'data') current.data.push(value);
            else if (field === 'id') current.id = value;
            else if (field === 'event') current.event = value;
          }
        }
      });
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        get body() {
          return body;
        },
        comments: () => comments,
        next: () => {
          const ready = queue.shift();
          return ready ? Promise.resolve(ready) : new Promise((r) => waiting.push(r));
        },
        take: async (count) => {
          const got: SseMessage[] = [];
          while (got.length < count) got.push(await stream.next());
          return got;
        },
        nextComment: () => new Promise((r) => commentWaiters.push(r)),
        close: () => {
          req.destroy();
        },
      };
      if (res.statusCode === 200) resolve(stream);
      else
        res.on('end', () => {
          resolve(stream);
        });
    });
    req.on('error', reject);
  });
}
