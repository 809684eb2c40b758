// Replays a recorded socket transcript (docs/architecture.md#recorded-socket-transcripts) through the same path as
// production: the real socket actor (src/services/socket.ts, `fromSocket(serverSchema, clientSchema)`) over a fake
// WebSocket, so every server frame goes through parseFrame, into the real machines for that endpoint. Time follows
// the transcript's `t` on fake timers, so reconnect delays run exactly as in the app.
//
// Format (JSON Lines): a header {"endpoint", "note"}, then {"t", "dir": "server"|"client", "data"} or
// {"t", "event": "close", "code", "reason"?}. A server line after a close is delivered on the socket the client
// opens next (the harness waits for the reconnect). A client line asserts the client sent that frame. Server lines
// that arrive after the client closed the socket itself (the standard panel closes at once on Stop) are not
// delivered, as a real socket would not deliver them; they are handed back as `undelivered`.
// `data` is the frame object; a string is sent as raw text (for fault cases that are not JSON).
//
// Three entry points:
// - replayTranscript(transcript, serverSchema, clientSchema, start, options): the general one; `start` builds and
//   starts the actor under test around the raw socket logic it is given.
// - replayLiveUpdates(transcript): /ws/updates and /ws/system into liveUpdates + workspace.
// - replayDiscussion(transcript, options): a discussion machine (standard or hybrid panel), see its comment.
import { readFileSync } from 'node:fs';
import { expect, vi } from 'vitest';
import { z } from 'zod';
import { createActor, enqueueActions, fromPromise, setup, spawnChild, type AnyActorLogic, type AnyActorRef, type AnyEventObject } from 'xstate';
import { withLiveSocket, type LiveUpdatesActorRef } from '../../src/machines/liveUpdates.machine';
import { toastsMachine, type ToastsActorRef } from '../../src/machines/toasts.machine';
import { workspaceMachine, type WorkspaceActorRef } from '../../src/machines/workspace.machine';
import { createSocketFactory } from '../../src/services/socket';
import type { Agent } from '../../src/schemas/agents';
import { normalizeConnection, type Edge } from '../../src/schemas/connections';
import { knownTypes, parseFrame } from '../../src/schemas/frames';
import { liveClientFrame, liveServerFrame, type LiveServerFrame } from '../../src/schemas/liveUpdates';
import type { MonitorStats } from '../../src/schemas/system';
import { fakeSockets, type FakeWebSocket } from '../support/fakeWebSocket';

type TypedUnion = Parameters<typeof knownTypes>[0];

const header = z.object({ endpoint: z.string().startsWith('/'), note: z.string().optional() });
const line = z.union([
  z.object({ t: z.number().nonnegative(), dir: z.enum(['server', 'client']), data: z.unknown() }),
  z.object({ t: z.number().nonnegative(), event: z.literal('close'), code: z.number().int(), reason: z.string().optional() }),
]);
export type TranscriptLine = z.infer<typeof line>;
/** A line that carries a frame (server or client). */
export type FrameLine = Exclude<TranscriptLine, { event: 'close' }>;
export interface Transcript {
  endpoint: string;
  note?: string;
  lines: TranscriptLine[];
}

export function readTranscript(file: string): Transcript {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l, i) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        throw new Error(`${file}:${i + 1} is not JSON`);
      }
    });
  const head = header.parse(rows[0]);
  const lines = rows.slice(1).map((r, i) => {
    const parsed = line.safeParse(r);
    if (!parsed.success) throw new Error(`${file}:${i + 2}: ${parsed.error.message}`);
    return parsed.data;
  });
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].t < lines[i - 1].t) throw new Error(`${file}:${i + 2}: time goes backwards`);
  }
  return { ...head, lines };
}

/**
 * What the REST side would answer on a reload, rebuilt from the frames the server broadcast (a change is
 * broadcast after it is stored). Transcripts start from a fresh user, so the first load is empty.
 */
class BackendFromFrames {
  agents: Agent[] = [];
  edges: Edge[] = [];
  stats: MonitorStats = {};
  apply(frame: LiveServerFrame) {
    switch (frame.type) {
      case 'agent_created':
      case 'agent_updated':
        // The server lists agents in creation order; an update keeps the agent's place.
        this.agents = this.agents.some((a) => a.id === frame.agent.id)
          ? this.agents.map((a) => (a.id === frame.agent.id ? frame.agent : a))
          : [...this.agents, frame.agent];
        return;
      case 'agent_deleted':
        this.agents = this.agents.filter((a) => a.id !== frame.agent_id);
        this.edges = this.edges.filter((e) => e.source !== frame.agent_id && e.target !== frame.agent_id);
        return;
      case 'connection_created':
        if (frame.connection) this.edges = [...this.edges.filter((e) => e.id !== frame.connection!.id), normalizeConnection(frame.connection)];
        return;
      case 'connection_deleted':
        this.edges = this.edges.filter((e) => e.id !== frame.connection_id);
        return;
      case 'stats':
        this.stats = frame.stats;
        return;
      default:
        return;
    }
  }
}

/** What every replay hands back. */
export interface Replay {
  /** The root actor `start` returned. */
  root: AnyActorRef;
  /** Every socket the client opened on the transcript's endpoint, oldest first. */
  sockets: FakeWebSocket[];
  /** Frames the client sent on the endpoint that no client line accounted for. */
  unexpectedClientFrames: unknown[];
  /** Server frames recorded after the client had closed that socket itself (never delivered). */
  undelivered: unknown[];
  stop: () => void;
}

export interface ReplayOptions<F> {
  /** The path the transcript's frames travel on (default: its endpoint). */
  path?: string;
  /** The token the fake socket origin hands the socket actor (it ends up in `?token=`). */
  token?: string;
  /** Every server frame that passed the server schema, before the client receives it (e.g. to keep a fake backend). */
  onServerFrame?: (frame: F) => void;
  /**
   * Plays the user (or the audio element…) before a client line is checked, so the client has a reason to send
   * it: e.g. send the machine its stop event before the recorded {"type":"stop"}. Not called for a socket's first
   * client line when that is the configuration a socketSession sends on open (`firstLineIsConfig`).
   */
  beforeClientLine?: (line: FrameLine, replay: { root: AnyActorRef; socket: FakeWebSocket }) => void | Promise<void>;
  /** How a sent frame is checked against the recorded one (default: toEqual). */
  expectClientFrame?: (sent: unknown, recorded: unknown, where: string) => void;
  /** The first client line on every socket is the configuration the client sends by itself on open. */
  firstLineIsConfig?: boolean;
}

/** Waits (in fake time) for the client to open a socket on `path` after `previous`, as its reconnect rule says. */
async function nextSocket(sockets: ReturnType<typeof fakeSockets>, path: string, previous: FakeWebSocket | undefined) {
  for (let i = 0; i < 100; i++) {
    const current = sockets.last(path);
    if (current && current !== previous) return current;
    await vi.advanceTimersToNextTimerAsync();
  }
  throw new Error(`the client never ${previous ? 'reopened' : 'opened'} ${path}`);
}

/**
 * The general replay: `start` receives the raw socket logic (`fromSocket(serverSchema, clientSchema)` over a fake
 * WebSocket) and returns the started root actor under test, with that logic provided wherever the machine opens
 * its socket. Then every line is played in order, on fake time (the caller runs vi.useFakeTimers()):
 * server lines are sent on the newest socket (opened by the harness if the client is still connecting), close
 * lines close it from the server's side (unless the client already closed it), and the line after a close waits
 * for the client to reconnect.
 */
export async function replayTranscript<S extends TypedUnion, C extends z.ZodType>(
  transcript: Transcript,
  serverSchema: S,
  clientSchema: C,
  start: (socket: AnyActorLogic) => AnyActorRef | Promise<AnyActorRef>,
  options: ReplayOptions<z.infer<S>> = {},
): Promise<Replay> {
  const path = options.path ?? transcript.endpoint;
  const sockets = fakeSockets();
  const fromSocket = createSocketFactory({ wsBase: 'ws://replay', getToken: () => options.token ?? 'replay-token', WebSocket: sockets.Ctor, debug: () => {} });
  const root = await start(fromSocket(serverSchema, clientSchema));
  await vi.advanceTimersByTimeAsync(0);
  const known = knownTypes(serverSchema);
  const expectFrame = options.expectClientFrame ?? ((sent, recorded, where) => expect(sent, where).toEqual(recorded));

  let now = 0;
  const clientCursor = new Map<FakeWebSocket, number>();
  let socket: FakeWebSocket | undefined = sockets.last(path);
  const closedByServer = new Set<FakeWebSocket>();
  const undelivered: unknown[] = [];

  for (const entry of transcript.lines) {
    if (entry.t > now) {
      await vi.advanceTimersByTimeAsync(entry.t - now);
      now = entry.t;
    }
    if ('event' in entry) {
      // A client that closed the socket itself (after a stop) has already had its close.
      if (socket && socket.readyState !== 3) {
        closedByServer.add(socket);
        socket.serverClose(entry.code, entry.reason ?? '');
      }
      await vi.advanceTimersByTimeAsync(0);
      continue;
    }
    if (entry.dir === 'server' && socket && socket.readyState === 3 && !closedByServer.has(socket) && socket.closedByClient) {
      undelivered.push(entry.data);
      continue;
    }
    if (!socket || socket.readyState === 3) socket = await nextSocket(sockets, path, socket);
    if (socket.readyState === 0) {
      socket.serverOpen();
      await vi.advanceTimersByTimeAsync(0);
    }
    if (entry.dir === 'server') {
      const raw = typeof entry.data === 'string' ? entry.data : JSON.stringify(entry.data);
      const parsed = parseFrame(serverSchema, raw, known);
      if (parsed.kind === 'frame') options.onServerFrame?.(parsed.frame);
      socket.serverSend(raw);
    } else {
      const at = clientCursor.get(socket) ?? 0;
      if (!(options.firstLineIsConfig && at === 0)) await options.beforeClientLine?.(entry, { root, socket });
      await vi.advanceTimersByTimeAsync(0);
      expectFrame(socket.sent[at], entry.data, `client frame ${at} on socket ${sockets.on(path).indexOf(socket)} at t=${entry.t}`);
      clientCursor.set(socket, at + 1);
    }
    await vi.advanceTimersByTimeAsync(0);
  }

  const mine = sockets.on(path);
  return {
    root,
    sockets: mine,
    unexpectedClientFrames: mine.flatMap((s) => s.sent.slice(clientCursor.get(s) ?? 0)),
    undelivered,
    stop: () => root.stop(),
  };
}

export interface UpdatesReplay extends Replay {
  workspace: WorkspaceActorRef;
  live: LiveUpdatesActorRef;
  toasts: ToastsActorRef;
}

/** /ws/updates and /ws/system: liveUpdates feeding a workspace, the app's pairing. Needs vi.useFakeTimers(). */
export async function replayLiveUpdates(transcript: Transcript): Promise<UpdatesReplay> {
  const path = transcript.endpoint;
  if (path !== '/ws/updates' && path !== '/ws/system') throw new Error(`no live-updates replay for ${path}`);
  const backend = new BackendFromFrames();
  const workspace = workspaceMachine.provide({
    actors: {
      loadAgents: fromPromise<Agent[]>(async () => backend.agents),
      loadConnections: fromPromise<Edge[]>(async () => backend.edges),
      loadStats: fromPromise<MonitorStats>(async () => backend.stats),
    },
  });
  const run = await replayTranscript(
    transcript,
    liveServerFrame,
    liveClientFrame,
    (socket) =>
      createActor(
        setup({ actors: { toasts: toastsMachine, workspace, live: withLiveSocket(socket) } }).createMachine({
          entry: [
            spawnChild('toasts', { systemId: 'toasts' }),
            spawnChild('workspace', { systemId: 'workspace' }),
            spawnChild('live', { systemId: 'liveUpdates' }),
          ],
        }),
      ).start(),
    { onServerFrame: (frame: LiveServerFrame) => backend.apply(frame) },
  );
  return {
    ...run,
    workspace: run.root.system.get('workspace') as WorkspaceActorRef,
    live: run.root.system.get('liveUpdates') as LiveUpdatesActorRef,
    toasts: run.root.system.get('toasts') as ToastsActorRef,
  };
}

/** Top-level keys of a client frame that differ from run to run (the recorded token, session id and clock). */
export const VOLATILE_CLIENT_KEYS = ['token', 'session_id', 'timestamp'] as const;

/** Checks a sent client frame against the recorded one, leaving out the given top-level keys on both sides. */
export function expectClientFrameIgnoring(keys: readonly string[] = VOLATILE_CLIENT_KEYS) {
  const strip = (frame: unknown) =>
    frame && typeof frame === 'object' && !Array.isArray(frame)
      ? Object.fromEntries(Object.entries(frame).filter(([k]) => !keys.includes(k)))
      : frame;
  return (sent: unknown, recorded: unknown, where: string) => {
    expect(sent, `${where}: the client sent nothing`).toBeDefined();
    for (const key of keys) {
      if (recorded && typeof recorded === 'object' && key in recorded) expect(sent, `${where}: ${key}`).toHaveProperty(key);
    }
    expect(strip(sent), where).toEqual(strip(recorded));
  };
}

export interface DiscussionReplayOptions<S extends TypedUnion, C extends z.ZodType> extends ReplayOptions<z.infer<S>> {
  serverSchema: S;
  /** What the panel's socket validates outgoing frames with: its configuration(s) and its later client frames. */
  clientSchema: C;
  /** The discussion machine with `socket` provided inside its socketSession, e.g. via withSessionSocket(socket). */
  logic: (socket: AnyActorLogic) => AnyActorLogic;
  /** The discussion's systemId (it is spawned under a recording parent next to a real toasts actor). */
  systemId: string;
  input?: unknown;
  /** Other actors the discussion looks up by systemId (e.g. a workspace stand-in), spawned before it. */
  companions?: Record<string, AnyActorLogic>;
  /** Plays the user up to the moment the socket opens: fill the form, press Start. */
  begin?: (discussion: AnyActorRef) => void | Promise<void>;
}

export interface DiscussionReplay extends Replay {
  discussion: AnyActorRef;
  toasts: ToastsActorRef;
  /** What the discussion told its parent. */
  heard: AnyEventObject[];
  /** The session_id of the configuration sent on each socket, in order (a resume sends the same one). */
  sessionIds: unknown[];
}

/**
 * Replays a discussion transcript (tests/transcripts/basic-*, enhanced-*, multi_round_reasoning-*, hybrid-*) into a
 * discussion machine through the real socket actor over the fake WebSocket. The first client line on every socket
 * is the configuration the panel's socketSession sends by itself when the socket opens (again after a reconnect);
 * later client lines (stop, human_message, status 'played', audio_acknowledgment) happen because the user or the
 * audio did something: play that in `beforeClientLine`. Client frames are compared without the keys that change
 * from run to run (VOLATILE_CLIENT_KEYS; pass `expectClientFrame` to compare otherwise). Needs vi.useFakeTimers().
 *
 * @example
 *   const run = await replayDiscussion(readTranscript(file('basic-stopped.jsonl')), {
 *     serverSchema: standardServerFrame,
 *     clientSchema: standardOutgoingFrame, // e.g. z.union([basicConfig, …, standardClientFrame]) as the panel uses
 *     logic: (socket) => standardDiscussionMachine.provide({ actors: { socketSession: withSessionSocket(socket) } }),
 *     systemId: 'standardDiscussion',
 *     input: { … },
 *     begin: (d) => d.send({ type: 'panel.start', … }),
 *     beforeClientLine: (line, { root }) => {
 *       if ((line.data as { type?: string }).type === 'stop') root.system.get('standardDiscussion').send({ type: 'panel.stop' });
 *     },
 *   });
 *   expect(run.unexpectedClientFrames).toEqual([]);
 *   expect(new Set(run.sessionIds).size).toBe(1); // a reconnect resumed the same session
 *   expect(selectFeed(run.discussion.getSnapshot())).toMatchObject(…);
 *   run.stop();
 */
export async function replayDiscussion<S extends TypedUnion, C extends z.ZodType>(
  transcript: Transcript,
  options: DiscussionReplayOptions<S, C>,
): Promise<DiscussionReplay> {
  const heard: AnyEventObject[] = [];
  const companions = options.companions ?? {};
  const run = await replayTranscript(
    transcript,
    options.serverSchema,
    options.clientSchema,
    async (socket) => {
      const actors: Record<string, AnyActorLogic> = { toasts: toastsMachine, ...companions, discussion: options.logic(socket) };
      const children = [['toasts', 'toasts'], ...Object.keys(companions).map((id) => [id, id]), ['discussion', options.systemId]] as const;
      const root = createActor(
        setup({ actors }).createMachine({
          entry: enqueueActions(({ enqueue }) => {
            for (const [src, id] of children) {
              const input = src === 'discussion' ? options.input : undefined;
              enqueue.spawnChild(src as never, { id, systemId: id, input } as never);
            }
          }),
          on: { '*': { actions: ({ event }) => void heard.push(event) } },
        }),
      ).start();
      await options.begin?.(root.system.get(options.systemId) as AnyActorRef);
      return root;
    },
    { firstLineIsConfig: true, expectClientFrame: expectClientFrameIgnoring(), ...options },
  );
  return {
    ...run,
    discussion: run.root.system.get(options.systemId) as AnyActorRef,
    toasts: run.root.system.get('toasts') as ToastsActorRef,
    heard,
    sessionIds: run.sockets.map((s) => (s.sent[0] as { session_id?: unknown } | undefined)?.session_id),
  };
}
