import { describe, expect, it, vi } from 'vitest';
import { createActor, setup, type AnyActorLogic, type AnyEventObject } from 'xstate';
import { createSocketFactory } from '../../src/services/socket';
import { liveClientFrame, liveServerFrame } from '../../src/schemas/liveUpdates';
import { fakeSockets } from '../support/fakeWebSocket';

/** Runs a socket actor under a parent that records what the socket tells it. */
function run(logic: AnyActorLogic, input: unknown) {
  const heard: AnyEventObject[] = [];
  const parent = setup({ actors: { socket: logic } }).createMachine({
    invoke: { src: 'socket', id: 'socket', input: () => input },
    on: { '*': { actions: ({ event }) => void heard.push(event) } },
  });
  const actor = createActor(parent).start();
  const socketRef = actor.getSnapshot().children.socket!;
  return { actor, heard, send: (e: AnyEventObject) => socketRef.send(e) };
}

function setupFactory() {
  const sockets = fakeSockets();
  const debug = vi.fn();
  const fromSocket = createSocketFactory({
    wsBase: 'ws://host:8000',
    getToken: () => 'tok en',
    WebSocket: sockets.Ctor,
    debug,
  });
  return { sockets, debug, logic: fromSocket(liveServerFrame, liveClientFrame) };
}

describe('socket actor', () => {
  it('opens the path with the token (and extra query) on the socket origin', () => {
    const { sockets, logic } = setupFactory();
    run(logic, { path: '/ws/updates', query: { test: 'true' } });
    expect(sockets.instances).toHaveLength(1);
    expect(sockets.instances[0].path).toBe('/ws/updates');
    expect(sockets.instances[0].query).toEqual({ token: 'tok en', test: 'true' });
    expect(sockets.instances[0].url.startsWith('ws://host:8000/ws/updates?')).toBe(true);
  });

  it('turns each message into exactly one typed event', () => {
    const { sockets, logic, debug } = setupFactory();
    const { heard } = run(logic, { path: '/ws/updates' });
    const ws = sockets.instances[0];
    ws.serverOpen();
    ws.serverSend({ type: 'agent_deleted', agent_id: 'a1' });
    ws.serverSend({ type: 'brand_new_type', x: 1 });
    ws.serverSend({ type: 'agent_deleted' });
    ws.serverSend('not json');
    ws.serverError();
    ws.serverClose(1006, 'gone');
    expect(heard).toEqual([
      { type: 'socket.open' },
      { type: 'socket.frame', frame: { type: 'agent_deleted', agent_id: 'a1' } },
      { type: 'socket.unknown', frameType: 'brand_new_type' },
      { type: 'socket.protocolError', frameType: 'agent_deleted', error: expect.any(String), direction: 'incoming' },
      {
        type: 'socket.protocolError',
        frameType: '(not JSON)',
        error: 'frame is not valid JSON',
        direction: 'incoming',
      },
      { type: 'socket.error', message: expect.stringContaining('/ws/updates') },
      { type: 'socket.closed', code: 1006, reason: 'gone', wasClean: false },
    ]);
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('brand_new_type'));
  });

  it('with a deferral, a burst is one socket.frames; any other notice goes after the frames before it', () => {
    const sockets = fakeSockets();
    const flushes: (() => void)[] = [];
    const fromSocket = createSocketFactory({
      wsBase: 'ws://host:8000',
      getToken: () => 'tok',
      WebSocket: sockets.Ctor,
      debug: () => {},
      deferFrames: (flush) => (flushes.push(flush), () => {}),
    });
    const { heard } = run(fromSocket(liveServerFrame, liveClientFrame), { path: '/ws/updates' });
    const ws = sockets.instances[0];
    ws.serverOpen();
    ws.serverSend({ type: 'agent_deleted', agent_id: 'a1' });
    ws.serverSend({ type: 'agent_deleted', agent_id: 'a2' });
    expect(heard).toEqual([{ type: 'socket.open' }]);
    flushes[0]!();
    ws.serverSend({ type: 'agent_deleted', agent_id: 'a3' });
    ws.serverSend('not json');
    ws.serverSend({ type: 'agent_deleted', agent_id: 'a4' });
    ws.serverClose(1006, 'gone');
    expect(heard.map((e) => e.type)).toEqual([
      'socket.open',
      'socket.frames',
      'socket.frame',
      'socket.protocolError',
      'socket.frame',
      'socket.closed',
    ]);
    expect(heard[1]).toEqual({
      type: 'socket.frames',
      frames: [
        { type: 'agent_deleted', agent_id: 'a1' },
        { type: 'agent_deleted', agent_id: 'a2' },
      ],
    });
    expect(heard[4]).toEqual({ type: 'socket.frame', frame: { type: 'agent_deleted', agent_id: 'a4' } });
  });

  it('sends valid client frames, queues them until open, and refuses invalid ones', () => {
    const { sockets, logic } = setupFactory();
    const { heard, send } = run(logic, { path: '/ws/system' });
    const ws = sockets.instances[0];
    send({ type: 'socket.send', frame: { type: 'get_stats' } });
    expect(ws.sent).toEqual([]);
    ws.serverOpen();
    expect(ws.sent).toEqual([{ type: 'get_stats' }]);
    send({ type: 'socket.send', frame: { type: 'ping' } });
    send({ type: 'socket.send', frame: { type: 'shout' } });
    expect(ws.sent).toEqual([{ type: 'get_stats' }, { type: 'ping' }]);
    expect(heard.at(-1)).toMatchObject({ type: 'socket.protocolError', frameType: 'shout', direction: 'outgoing' });
  });

  it('closes with the code asked for, and reports the close', () => {
    const { sockets, logic } = setupFactory();
    const { heard, send } = run(logic, { path: '/ws/updates' });
    sockets.instances[0].serverOpen();
    send({ type: 'socket.close', code: 1000, reason: 'bye' });
    expect(sockets.instances[0].closedByClient).toEqual({ code: 1000, reason: 'bye' });
    expect(heard.at(-1)).toEqual({ type: 'socket.closed', code: 1000, reason: 'bye', wasClean: true });
  });

  it('closes the socket and goes quiet when the actor stops', () => {
    const { sockets, logic } = setupFactory();
    const { actor, heard } = run(logic, { path: '/ws/updates' });
    const ws = sockets.instances[0];
    ws.serverOpen();
    const before = heard.length;
    actor.stop();
    expect(ws.closedByClient).toMatchObject({ code: 1000 });
    ws.serverSend({ type: 'pong' });
    expect(heard).toHaveLength(before);
  });

  it('reports a socket that cannot even be constructed as an error and an abnormal close', () => {
    const fromSocket = createSocketFactory({
      wsBase: 'ws://host',
      getToken: () => null,
      WebSocket: class {
        constructor() {
          throw new SyntaxError('bad url');
        }
      } as never,
    });
    const { heard } = run(fromSocket(liveServerFrame, liveClientFrame), { path: '/ws/updates' });
    expect(heard).toEqual([
      { type: 'socket.error', message: 'bad url' },
      { type: 'socket.closed', code: 1006, reason: 'could not open socket', wasClean: false },
    ]);
  });

  describe('with socket tickets', () => {
    const ticketFactory = (getTicket: () => Promise<string | null>) => {
      const sockets = fakeSockets();
      const fromSocket = createSocketFactory({
        wsBase: 'ws://host:8000',
        getToken: () => 'secret.jwt.token',
        getTicket,
        WebSocket: sockets.Ctor,
      });
      return { sockets, logic: fromSocket(liveServerFrame, liveClientFrame) };
    };
    const tick = () => new Promise((r) => setTimeout(r, 0));

    it('opens with a fresh ticket, never the token, and queues frames until the socket exists', async () => {
      let n = 0;
      const { sockets, logic } = ticketFactory(async () => `ticket-${++n}`);
      const { send } = run(logic, { path: '/ws/system' });
      send({ type: 'socket.send', frame: { type: 'get_stats' } });
      await vi.waitFor(() => expect(sockets.instances).toHaveLength(1));
      expect(sockets.instances[0].query).toEqual({ ticket: 'ticket-1' });
      expect(sockets.instances[0].url).not.toContain('secret.jwt.token');
      sockets.instances[0].serverOpen();
      expect(sockets.instances[0].sent).toEqual([{ type: 'get_stats' }]);
      // A reconnect is a new actor, so it fetches a new ticket.
      run(logic, { path: '/ws/system' });
      await vi.waitFor(() => expect(sockets.instances).toHaveLength(2));
      expect(sockets.instances[1].query).toEqual({ ticket: 'ticket-2' });
    });

    it('opens with the token when the server issues no tickets', async () => {
      const { sockets, logic } = ticketFactory(async () => null);
      run(logic, { path: '/ws/updates' });
      await vi.waitFor(() => expect(sockets.instances).toHaveLength(1));
      expect(sockets.instances[0].query).toEqual({ token: 'secret.jwt.token' });
    });

    it('reports a refused ticket as a failed authentication, and no answer as an abnormal close', async () => {
      const refused = ticketFactory(() => Promise.reject(Object.assign(new Error('Invalid token'), { status: 401 })));
      const a = run(refused.logic, { path: '/ws/updates' });
      await vi.waitFor(() => expect(a.heard).toHaveLength(1));
      expect(a.heard).toEqual([{ type: 'socket.closed', code: 1008, reason: 'Authentication failed', wasClean: true }]);
      expect(refused.sockets.instances).toHaveLength(0);

      const down = ticketFactory(() => Promise.reject(new Error('Cannot reach the server')));
      const b = run(down.logic, { path: '/ws/updates' });
      await vi.waitFor(() => expect(b.heard).toHaveLength(2));
      expect(b.heard).toEqual([
        { type: 'socket.error', message: 'Cannot reach the server' },
        { type: 'socket.closed', code: 1006, reason: 'could not get a socket ticket', wasClean: false },
      ]);
    });

    it('never opens a socket that was closed or stopped while its ticket was on the way', async () => {
      let release!: (t: string) => void;
      const { sockets, logic } = ticketFactory(() => new Promise((r) => (release = r)));
      const { heard, send } = run(logic, { path: '/ws/updates' });
      send({ type: 'socket.close', code: 1000, reason: 'bye' });
      expect(heard).toEqual([{ type: 'socket.closed', code: 1000, reason: 'bye', wasClean: true }]);
      release('late');
      await tick();
      expect(sockets.instances).toHaveLength(0);

      const second = ticketFactory(() => new Promise((r) => (release = r)));
      const { actor } = run(second.logic, { path: '/ws/updates' });
      actor.stop();
      release('late');
      await tick();
      expect(second.sockets.instances).toHaveLength(0);
    });
  });
});
