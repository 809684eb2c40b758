import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { classifyFrame, schemasFor, wsTesterMachine } from '../../src/machines/wsTester.machine';
import { createTesterSocket } from '../../src/services/debugProbes';
import { fakeSockets } from '../support/fakeWebSocket';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function start() {
  const sockets = fakeSockets();
  const actor = createActor(
    wsTesterMachine.provide({
      actors: {
        testerSocket: createTesterSocket({ wsBase: 'ws://test', getToken: () => 'tok', WebSocket: sockets.Ctor }),
      },
    }),
  ).start();
  return { actor, sockets, lines: () => actor.getSnapshot().context.lines };
}

describe('WebSocket tester', () => {
  it('connects to the chosen path, sends typed JSON, shows frames validated by the path schema, disconnects', async () => {
    const { actor, sockets, lines } = start();
    expect(actor.getSnapshot().matches('disconnected')).toBe(true);
    actor.send({ type: 'tester.path.select', path: '/ws/updates' });
    actor.send({ type: 'tester.connect' });
    const ws = sockets.last('/ws/updates');
    expect(ws.query.token).toBe('tok');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    ws.serverOpen();
    expect(actor.getSnapshot().hasTag('connected')).toBe(true);

    actor.send({ type: 'tester.send', text: ' { "type": "ping" } ' });
    expect(ws.sent).toEqual([{ type: 'ping' }]);
    ws.serverSend({ type: 'pong' });
    ws.serverSend({ type: 'agent_deleted', agent_id: 42 }); // a known type that fails its schema
    ws.serverSend({ type: 'brand_new', x: 1 });
    ws.serverSend('not json');
    expect(lines().filter((l) => l.dir !== 'note')).toEqual([
      { dir: 'out', kind: 'sent', text: '{"type":"ping"}' },
      { dir: 'in', kind: 'valid', type: 'pong', schema: 'live updates', text: '{"type":"pong"}' },
      expect.objectContaining({ dir: 'in', kind: 'malformed', type: 'agent_deleted' }),
      expect.objectContaining({ dir: 'in', kind: 'unknown', type: 'brand_new' }),
      expect.objectContaining({ dir: 'in', kind: 'malformed', type: '(not JSON)' }),
    ]);

    actor.send({ type: 'tester.disconnect' });
    expect(ws.closedByClient).toMatchObject({ code: 1000 });
    expect(actor.getSnapshot().matches('disconnected')).toBe(true);
    expect(lines().at(-1)).toEqual({ dir: 'note', kind: 'info', text: 'Closed 1000: tester disconnect' });
  });

  it('invalid JSON is a clear error line, not a throw, and nothing is sent', () => {
    const { actor, sockets, lines } = start();
    actor.send({ type: 'tester.send', text: '{}' });
    expect(lines().at(-1)).toEqual({ dir: 'note', kind: 'error', text: 'Not sent: connect first.' });
    actor.send({ type: 'tester.connect' });
    const ws = sockets.last('/discussion/ws/discuss');
    ws.serverOpen();
    expect(() => actor.send({ type: 'tester.send', text: '{"type": ' })).not.toThrow();
    expect(lines().at(-1)).toMatchObject({ dir: 'note', kind: 'error' });
    expect(lines().at(-1)!.text).toMatch(/^Not sent: not valid JSON/);
    actor.send({ type: 'tester.send', text: '[1, 2]' });
    expect(lines().at(-1)!.text).toBe('Not sent: a frame must be a JSON object, like {"type": "ping"}');
    expect(ws.sent).toEqual([]);
    expect(actor.getSnapshot().hasTag('connected')).toBe(true);
  });

  it('a server close (1008) lands in disconnected with the code; a close that never comes still disconnects', async () => {
    const { actor, sockets, lines } = start();
    actor.send({ type: 'tester.connect' });
    sockets.last('/discussion/ws/discuss').serverClose(1008, 'Authentication failed');
    expect(actor.getSnapshot().matches('disconnected')).toBe(true);
    expect(lines().at(-1)).toEqual({ dir: 'note', kind: 'error', text: 'Closed 1008: Authentication failed' });

    actor.send({ type: 'tester.connect' });
    const ws = sockets.instances.at(-1)!;
    ws.serverOpen();
    ws.close = () => {}; // a dead peer: the close is never reported
    actor.send({ type: 'tester.disconnect' });
    expect(actor.getSnapshot().matches('disconnected')).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(actor.getSnapshot().matches('disconnected')).toBe(true);
  });

  it('picks the schemas by path: discussion paths with the panel schemas, live paths with liveServerFrame', () => {
    expect(schemasFor('/discussion/ws/discuss').map((s) => s.name)).toEqual(['standard panel']);
    expect(schemasFor('/hybrid-discussion/ws').map((s) => s.name)).toEqual(['hybrid panel', 'standard panel']);
    expect(schemasFor('/system/ws/system').map((s) => s.name)).toEqual(['live updates']);
    const agentMessage = JSON.stringify({ type: 'round_start', round: 1, timestamp: '2026-01-01T00:00:00Z' });
    expect(classifyFrame('/hybrid-discussion/ws', agentMessage)).toMatchObject({ kind: 'valid', type: 'round_start' });
    expect(classifyFrame('/ws/updates', agentMessage)).toMatchObject({ kind: 'unknown', type: 'round_start' });
  });
});
