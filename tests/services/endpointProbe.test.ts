// The endpoint probe over the fake WebSocket (every outcome), and once against the real server's `?test=true`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createActor, toPromise } from 'xstate';
import { createEndpointProbe, probeEndpoint } from '../../src/services/endpointProbe';
import type { WebSocketConstructor } from '../../src/services/socket';
import { ENDPOINTS } from '../../src/schemas/constants';
import { fakeSockets } from '../support/fakeWebSocket';
import { startTestServer, type TestServer } from '../server/harness';

function probe(path = '/ws/discuss', signal?: AbortSignal) {
  const sockets = fakeSockets();
  const result = probeEndpoint({ wsBase: 'ws://h', getToken: () => 'tok', WebSocket: sockets.Ctor }, path, signal);
  return { result, socket: sockets.last(path), sockets };
}

describe('endpoint probe (fake socket)', () => {
  it('opens the path with the token and test=true, and is available when the probe frame arrives', async () => {
    const p = probe();
    expect(p.socket.url).toBe('ws://h/ws/discuss?test=true');
    p.socket.serverOpen();
    p.socket.serverSend({ type: 'probe', endpoint: '/ws/discuss', ok: true });
    await expect(p.result).resolves.toBe(true);
    expect(p.socket.closedByClient).toMatchObject({ code: 1000 });
  });

  it('is available when the socket opens and closes 1000 without the frame', async () => {
    const p = probe();
    p.socket.serverOpen();
    p.socket.serverSend('not json');
    p.socket.serverClose(1000);
    await expect(p.result).resolves.toBe(true);
  });

  it('is unavailable on an error, on another close, or on a close before it opened', async () => {
    const a = probe();
    a.socket.serverError();
    await expect(a.result).resolves.toBe(false);
    const b = probe();
    b.socket.serverOpen();
    b.socket.serverClose(1008);
    await expect(b.result).resolves.toBe(false);
    const c = probe();
    c.socket.serverClose(1000);
    await expect(c.result).resolves.toBe(false);
  });

  it('an abort (the machine timed out) resolves false and closes the socket', async () => {
    const controller = new AbortController();
    const p = probe('/ws/hybrid', controller.signal);
    controller.abort();
    await expect(p.result).resolves.toBe(false);
    expect(p.socket.closedByClient).toMatchObject({ code: 1000 });
  });
});

describe('endpoint probe (real server)', () => {
  // Starting the server (PGlite) is slow on a busy machine.
  const SLOW_MS = 90_000;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, SLOW_MS);
  afterAll(async () => {
    await server.close();
  });

  it(
    'every standard endpoint answers ?test=true, even without a token',
    async () => {
      const logic = createEndpointProbe({
        wsBase: server.wsUrl,
        getToken: () => null,
        WebSocket: WebSocket as unknown as WebSocketConstructor,
      });
      for (const { path } of Object.values(ENDPOINTS)) {
        await expect(toPromise(createActor(logic, { input: { path } }).start()), path).resolves.toBe(true);
      }
      const missing = createActor(logic, { input: { path: '/ws/nowhere' } }).start();
      await expect(toPromise(missing)).resolves.toBe(false);
    },
    SLOW_MS,
  );
});
