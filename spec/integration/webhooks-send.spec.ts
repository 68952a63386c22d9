import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createAgents, postOnce } from '../../lib/webhooks/send.js';

/**
 * An endpoint that answers the first request of each connection and keeps it open, then drops
 * the connection without an answer when a second request arrives on it: what a server does when
 * its keep-alive timeout fires just as a client reuses the idle connection.
 */
async function droppingEndpoint(): Promise<{ port: number; requests: () => number; close: () => void }> {
  let requests = 0;
  const server = net.createServer((socket) => {
    let served = 0;
    socket.on('data', (chunk: Buffer) => {
      if (!chunk.toString('latin1').startsWith('POST')) return;
      if (served++ > 0) {
        socket.resetAndDestroy();
        return;
      }
      requests++;
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => requests,
    close: () => {
      server.close();
    },
  };
}

describe('webhook sending over keep-alive connections', () => {
  it('sends again on a new connection when a reused one is dropped before any answer', async () => {
    const endpoint = await droppingEndpoint();
    const agents = createAgents(1);
    try {
      const target = {
        url: new URL(`http://127.0.0.1:${endpoint.port}/hook`),
        address: '127.0.0.1',
        family: 4 as const,
      };
      const first = await postOnce(target, { 'content-type': 'application/json' }, '{"n":1}', 5000, agents);
      assert.equal(first.status, 200);
      const second = await postOnce(target, { 'content-type': 'application/json' }, '{"n":2}', 5000, agents);
      assert.deepEqual([second.status, second.error, second.responseBody], [200, null, 'ok']);
      assert.equal(endpoint.requests(), 2);
    } finally {
      agents.destroy();
      endpoint.close();
    }
  });
});
