import net from 'node:net';

export interface RawAnswer {
  /** 0 when the server closed without answering. */
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body, or null when there was none. */
  body: unknown;
  /** From connecting until the server closed the connection. */
  heldMs: number;
}

export interface RawConnection {
  socket: net.Socket;
  /** Writes `text` now and then every `ms` until the connection closes. */
  trickle(text: string, ms: number): void;
  /** Resolves once the server has closed the connection. */
  closed: Promise<RawAnswer>;
}

function parseAnswer(text: string, heldMs: number): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const rawBody = end === -1 ? '' : text.slice(end + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0),
    headers,
    body: rawBody === '' ? null : (JSON.parse(rawBody) as unknown),
    heldMs,
  };
}

/**
 * A TCP connection that speaks HTTP by hand. The tests of connection handling need to send
 * half a request, or one byte at a time, or nothing at all, which no HTTP client library does.
 * Reads one answer: the server is expected to close the connection after it.
 */
export function openRaw(port: number, firstBytes = ''): RawConnection {
  const started = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  const timers: NodeJS.Timeout[] = [];
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  if (firstBytes !== '') socket.write(firstBytes);
  const closed = new Promise<RawAnswer>((resolve) => {
    socket.on('close', () => {
      for (const timer of timers) clearInterval(timer);
      resolve(parseAnswer(Buffer.concat(chunks).toString(), Date.now() - started));
    });
  });
  // A reset after the answer is a way of closing too; the answer read so far is what counts.
  socket.on('error', () => undefined);
  return {
    socket,
    trickle(text, ms) {
      socket.write(text);
      timers.push(
        setInterval(() => {
          if (socket.writable) socket.write(text);
        }, ms),
      );
    },
    closed,
  };
}
