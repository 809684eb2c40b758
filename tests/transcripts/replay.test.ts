// Every transcript in this folder replays through the production parse path into the real machines; the named
// ones also have their end state checked, including what the UI would show (selectors).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { assign, enqueueActions, setup, type AnyActorRef } from 'xstate';
import { selectIsLiveReady, selectLiveStatus } from '../../src/machines/liveUpdates.selectors';
import { socketSessionMachine, withSessionSocket, type SocketSessionNotice } from '../../src/machines/socketSession.machine';
import { selectActiveSpeaker, selectAgentCount, selectConnectionCount } from '../../src/machines/workspace.selectors';
import { STANDARD_CONNECT_TIMEOUT_MS, STANDARD_RECONNECT_BASE_DELAY_MS, STANDARD_RECONNECT_MAX_ATTEMPTS } from '../../src/schemas/constants';
import { parseFrame } from '../../src/schemas/frames';
import { hybridClientFrame, hybridServerFrame } from '../../src/schemas/hybridSocket';
import { standardClientFrame, standardServerFrame } from '../../src/schemas/standardSocket';
import { readTranscript, replayDiscussion, replayLiveUpdates, type FrameLine, type Transcript } from './replay';

const here = __dirname;
const file = (name: string) => path.join(here, name);
const LIVE_ENDPOINTS = new Set(['/ws/updates', '/ws/system']);

describe('transcript replay', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  for (const name of readdirSync(here).filter((f) => f.endsWith('.jsonl'))) {
    it(`${name} is well-formed and replays without surprises`, async () => {
      const transcript = readTranscript(file(name));
      if (!LIVE_ENDPOINTS.has(transcript.endpoint)) return; // discussion transcripts: below, and with their panels
      const run = await replayLiveUpdates(transcript);
      expect(run.unexpectedClientFrames).toEqual([]);
      run.stop();
    });
  }

  /** The recorded ids, by agent name (the first name each agent was created with). */
  const idsByName = (t: ReturnType<typeof readTranscript>) =>
    Object.fromEntries(
      t.lines.flatMap((l) => ('data' in l && (l.data as any).type === 'agent_created' ? [[(l.data as any).agent.name, (l.data as any).agent.id]] : [])),
    ) as Record<string, string>;

  it('updates-basic (recorded): agents, connections and statuses end as the server said', async () => {
    const transcript = readTranscript(file('updates-basic.jsonl'));
    const id = idsByName(transcript);
    const run = await replayLiveUpdates(transcript);
    const ws = run.workspace.getSnapshot();
    expect(ws.context.agents.map((a) => [a.id, a.name])).toEqual([
      [id.Ada, 'Ada Lovelace'],
      [id.Bo, 'Bo'],
    ]);
    // Cy's deletion took its Bo→Cy edge with it.
    expect(ws.context.edges.map((e) => [e.source, e.target])).toEqual([[id.Ada, id.Bo]]);
    // The discussion's statuses arrived live and ended idle.
    expect(ws.context.statuses).toEqual({ [id.Ada]: 'idle', [id.Bo]: 'idle' });
    // What the top bar and canvas would show.
    expect(selectAgentCount(ws)).toBe(2);
    expect(selectConnectionCount(ws)).toBe(1);
    expect(selectActiveSpeaker(ws)).toBeFalsy();
    expect(selectIsLiveReady(run.live.getSnapshot())).toBe(true);
    expect(run.sockets).toHaveLength(1);
    expect(run.live.getSnapshot().context.errors).toEqual([]);
    run.stop();
  });

  it('updates-drop-resume (edited): reconnects once after 1006 and resumes; the malformed frame is reported, the unknown one ignored', async () => {
    const transcript = readTranscript(file('updates-drop-resume.jsonl'));
    const id = idsByName(transcript);
    const run = await replayLiveUpdates(transcript);
    const ws = run.workspace.getSnapshot();
    expect(run.sockets).toHaveLength(2);
    expect(run.sockets[1].query.token).toBe('replay-token');
    expect(ws.context.agents.map((a) => a.name)).toEqual(['Ada Lovelace', 'Bo']);
    expect(ws.context.edges.map((e) => [e.source, e.target])).toEqual([[id.Ada, id.Bo]]);
    expect(ws.context.statuses).toEqual({ [id.Ada]: 'idle', [id.Bo]: 'idle' });
    const live = run.live.getSnapshot();
    expect(selectLiveStatus(live)).toBe('connected');
    expect(live.context.errors.map((e) => e.message)).toEqual([
      'Closed with code 1006 (Abnormal closure (connection dropped without a close frame))',
      'The server sent a malformed "agent_deleted" message; it was ignored.',
    ]);
    expect(run.toasts.getSnapshot().context.errorCount).toBe(0);
    run.stop();
  });

  describe('discussion transcripts through socketSession (a stand-in panel; the real panels replay them too)', () => {
    for (const name of readdirSync(here).filter((f) => f.endsWith('.jsonl') && !f.startsWith('updates-'))) {
      it(`${name}: every frame arrives, the configuration goes out on every open, the close is honoured`, async () => {
        const transcript = readTranscript(file(name));
        const run = await replayStandIn(name, transcript);
        expect(run.unexpectedClientFrames).toEqual([]);
        const ctx = run.discussion.getSnapshot().context as StandInContext;
        const serverLines = transcript.lines.filter((l): l is FrameLine => 'dir' in l && l.dir === 'server');
        // Each server line became exactly what the parse path says: a frame, a protocol error, or (unknown type) nothing.
        const parsed = serverLines.map((l) => parseFrame(serverSchemaFor(name, transcript), typeof l.data === 'string' ? l.data : JSON.stringify(l.data)));
        expect(ctx.frames).toEqual(parsed.flatMap((p) => (p.kind === 'frame' ? [p.frame] : [])));
        expect(ctx.protocolErrors).toEqual(parsed.flatMap((p) => (p.kind === 'malformed' ? [p.type] : [])));
        expect(ctx.frames.length).toBeGreaterThan(0);
        const closes = transcript.lines.filter((l) => 'event' in l);
        expect(run.sockets).toHaveLength(closes.filter((c) => 'code' in c && c.code === 1006).length + 1);
        expect(run.discussion.getSnapshot().value).toBe('ended');
        run.stop();
      });
    }

    it('basic-drop-resume: reconnects once after 1006 with the same configuration and session_id', async () => {
      const run = await replayStandIn('basic-drop-resume.jsonl', readTranscript(file('basic-drop-resume.jsonl')));
      expect(run.sockets).toHaveLength(2);
      expect(run.sessionIds).toHaveLength(2);
      expect(new Set(run.sessionIds).size).toBe(1);
      const notices = (run.discussion.getSnapshot().context as StandInContext).notices;
      expect(notices).toContainEqual({ type: 'socketSession.retrying', attempt: 1, maxAttempts: STANDARD_RECONNECT_MAX_ATTEMPTS, code: 1006, reason: '' });
      expect(notices).toContainEqual({ type: 'socketSession.open', attempt: 1 });
      expect(notices.at(-1)).toMatchObject({ type: 'socketSession.closed', code: 1000, gaveUp: false, everOpened: true });
      run.stop();
    });

    it('hybrid-malformed-frame: the malformed known type is one protocol error, the rest arrive', async () => {
      const run = await replayStandIn('hybrid-malformed-frame.jsonl', readTranscript(file('hybrid-malformed-frame.jsonl')));
      const ctx = run.discussion.getSnapshot().context as StandInContext;
      expect(ctx.protocolErrors).toEqual(['agent_message']);
      run.stop();
    });

    it('basic-bad-config: the 1003 from the server ends the session without a reconnect', async () => {
      const run = await replayStandIn('basic-bad-config.jsonl', readTranscript(file('basic-bad-config.jsonl')));
      const notices = (run.discussion.getSnapshot().context as StandInContext).notices;
      expect(notices.at(-1)).toMatchObject({ type: 'socketSession.closed', code: 1003, gaveUp: false });
      expect(run.sockets).toHaveLength(1);
      run.stop();
    });
  });

  it('refuses a transcript whose lines are not in the format', () => {
    expect(() => readTranscript(file('replay.test.ts'))).toThrow(/not JSON/);
  });
});

// A stand-in for a discussion panel, only as wide as the socket layer: it invokes socketSession with the recorded
// configuration as its first frame and the standard panel's reconnect policy, keeps what it hears, and sends what
// the user would (stop, human messages, audio acknowledgements) when told to.
interface StandInContext {
  frames: unknown[];
  protocolErrors: string[];
  notices: SocketSessionNotice[];
}
type StandInEvent = SocketSessionNotice | { type: 'user.send'; frame: unknown } | { type: 'user.stop' };

const standInMachine = setup({
  types: { context: {} as StandInContext, events: {} as StandInEvent, input: {} as { path: string; config: unknown } },
  actors: { socketSession: socketSessionMachine },
  actions: {
    keep: assign(({ context, event }) => {
      if (!event.type.startsWith('socketSession.')) return {};
      const notice = event as SocketSessionNotice;
      return {
        notices: [...context.notices, notice],
        frames: notice.type === 'socketSession.frame' ? [...context.frames, notice.frame] : context.frames,
        protocolErrors: notice.type === 'socketSession.protocolError' ? [...context.protocolErrors, notice.frameType] : context.protocolErrors,
      };
    }),
  },
}).createMachine({
  context: { frames: [], protocolErrors: [], notices: [] },
  initial: 'running',
  states: {
    running: {
      invoke: {
        src: 'socketSession',
        id: 'session',
        input: ({ event }) => {
          const { path, config } = (event as unknown as { input: { path: string; config: unknown } }).input;
          return {
            path,
            firstFrame: config,
            policy: {
              connectTimeoutMs: STANDARD_CONNECT_TIMEOUT_MS,
              reconnectOn: [1006],
              maxAttempts: STANDARD_RECONNECT_MAX_ATTEMPTS,
              delayMs: (n: number) => n * STANDARD_RECONNECT_BASE_DELAY_MS,
            },
          };
        },
      },
      on: {
        'socketSession.*': { actions: 'keep' },
        'socketSession.closed': { target: 'ended', actions: 'keep' },
        'user.send': { actions: enqueueActions(({ event, enqueue }) => enqueue.sendTo('session', { type: 'socketSession.send', frame: (event as { frame: unknown }).frame })) },
        'user.stop': { actions: enqueueActions(({ enqueue }) => enqueue.sendTo('session', { type: 'socketSession.send', frame: { type: 'stop' } })) },
      },
    },
    ended: {},
  },
});

/** The recorded configuration passes as it is; later frames through the panel's own client schema. */
const passConfig = z.looseObject({ agent_ids: z.array(z.string()), session_id: z.string() });

/** /ws/hybrid transcripts are the hybrid panel's, except the one recorded from the standard panel. */
const isHybridPanel = (name: string, t: Transcript) => t.endpoint === '/ws/hybrid' && name !== 'hybrid-standard-config.jsonl';
const serverSchemaFor = (name: string, t: Transcript) => (isHybridPanel(name, t) ? hybridServerFrame : standardServerFrame);

function replayStandIn(name: string, transcript: Transcript) {
  const config = transcript.lines.find((l): l is FrameLine => 'dir' in l && l.dir === 'client')!.data;
  const hybridPanel = isHybridPanel(name, transcript);
  const send = (root: AnyActorRef, event: StandInEvent) => root.system.get('standIn').send(event);
  return replayDiscussion(transcript, {
    serverSchema: serverSchemaFor(name, transcript),
    clientSchema: z.union([hybridPanel ? hybridClientFrame : standardClientFrame, passConfig]),
    logic: (socket) => standInMachine.provide({ actors: { socketSession: withSessionSocket(socket) } }),
    systemId: 'standIn',
    input: { path: transcript.endpoint, config },
    // The stand-in sends the recorded configuration as it is, so the whole frame is compared.
    expectClientFrame: (sent, recorded, where) => expect(sent, where).toEqual(recorded),
    beforeClientLine: (line, { root }) => {
      const frame = line.data as { type?: string };
      send(root, frame.type === 'stop' ? { type: 'user.stop' } : { type: 'user.send', frame });
    },
  });
}
