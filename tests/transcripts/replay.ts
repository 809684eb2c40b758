// Replays a recorded socket transcript (ARCHITECTURE.md 'Recorded socket transcripts') through the same path as
// production: the real socket actor (src/services/socket.ts) over a fake WebSocket, so every server frame goes
// through parseFrame, into the real machines for that endpoint. Time follows the transcript's `t` on fake
// timers, so reconnect delays run exactly as in the app.
//
// Format (JSON Lines): a header {"endpoint", "note"}, then {"t", "dir": "server"|"client", "data"} or
// {"t", "event": "close", "code", "reason"?}. A server line after a close is delivered on the socket the client
// opens next (the harness waits for the reconnect). A client line asserts the client sent that frame.
// `data` is the frame object; a string is sent as raw text (for fault cases that are not JSON).
import { readFileSync } from 'node:fs';
import { expect, vi } from 'vitest';
import { z } from 'zod';
import { createActor, fromPromise, setup, spawnChild } from 'xstate';
import { withLiveSocket, type LiveUpdatesActorRef } from '../../src/machines/liveUpdates.machine';
import { toastsMachine, type ToastsActorRef } from '../../src/machines/toasts.machine';
import { workspaceMachine, type WorkspaceActorRef } from '../../src/machines/workspace.machine';
import { createSocketFactory } from '../../src/services/socket';
import type { Agent } from '../../src/schemas/agents';
import { normalizeConnection, type Edge } from '../../src/schemas/connections';
import { parseFrame } from '../../src/schemas/frames';
import { liveClientFrame, liveServerFrame, type LiveServerFrame } from '../../src/schemas/liveUpdates';
import type { MonitorStats } from '../../src/schemas/system';
import { fakeSockets, type FakeWebSocket } from '../support/fakeWebSocket';

const header = z.object({ endpoint: z.string().startsWith('/'), note: z.string().optional() });
const line = z.union([
  z.object({ t: z.number().nonnegative(), dir: z.enum(['server', 'client']), data: z.unknown() }),
  z.object({ t: z.number().nonnegative(), event: z.literal('close'), code: z.number().int(), reason: z.string().optional() }),
]);
export type TranscriptLine = z.infer<typeof line>;
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

export interface UpdatesReplay {
  workspace: WorkspaceActorRef;
  live: LiveUpdatesActorRef;
  toasts: ToastsActorRef;
  /** Every socket the client opened on the transcript's endpoint, oldest first. */
  sockets: FakeWebSocket[];
  /** Frames the client sent on the endpoint that no client line accounted for. */
  unexpectedClientFrames: unknown[];
  stop: () => void;
}

/** Waits (in fake time) for the client to open a socket on `path` after `previous`, as its reconnect rule says. */
async function nextSocket(sockets: ReturnType<typeof fakeSockets>, path: string, previous: FakeWebSocket | undefined) {
  for (let i = 0; i < 100; i++) {
    const current = sockets.last(path);
    if (current && current !== previous) return current;
    await vi.advanceTimersToNextTimerAsync();
  }
  throw new Error(`the client never reopened ${path}`);
}

/** /ws/updates and /ws/system: liveUpdates feeding a workspace, the app's pairing. Needs vi.useFakeTimers(). */
export async function replayLiveUpdates(transcript: Transcript): Promise<UpdatesReplay> {
  const path = transcript.endpoint;
  if (path !== '/ws/updates' && path !== '/ws/system') throw new Error(`no live-updates replay for ${path}`);
  const sockets = fakeSockets();
  const backend = new BackendFromFrames();
  const fromSocket = createSocketFactory({ wsBase: 'ws://replay', getToken: () => 'replay-token', WebSocket: sockets.Ctor, debug: () => {} });
  const workspace = workspaceMachine.provide({
    actors: {
      loadAgents: fromPromise<Agent[]>(async () => backend.agents),
      loadConnections: fromPromise<Edge[]>(async () => backend.edges),
      loadStats: fromPromise<MonitorStats>(async () => backend.stats),
    },
  });
  const root = createActor(
    setup({ actors: { toasts: toastsMachine, workspace, live: withLiveSocket(fromSocket(liveServerFrame, liveClientFrame)) } }).createMachine({
      entry: [
        spawnChild('toasts', { systemId: 'toasts' }),
        spawnChild('workspace', { systemId: 'workspace' }),
        spawnChild('live', { systemId: 'liveUpdates' }),
      ],
    }),
  ).start();
  await vi.advanceTimersByTimeAsync(0);

  let now = 0;
  const clientCursor = new Map<FakeWebSocket, number>();
  let socket: FakeWebSocket | undefined = sockets.last(path);

  for (const entry of transcript.lines) {
    if (entry.t > now) {
      await vi.advanceTimersByTimeAsync(entry.t - now);
      now = entry.t;
    }
    if ('event' in entry) {
      socket!.serverClose(entry.code, entry.reason ?? '');
      await vi.advanceTimersByTimeAsync(0);
      continue;
    }
    if (!socket || socket.readyState === 3) socket = await nextSocket(sockets, path, socket);
    if (socket.readyState === 0) socket.serverOpen();
    if (entry.dir === 'server') {
      const raw = typeof entry.data === 'string' ? entry.data : JSON.stringify(entry.data);
      const parsed = parseFrame(liveServerFrame, raw);
      if (parsed.kind === 'frame') backend.apply(parsed.frame);
      socket.serverSend(raw);
    } else {
      const at = clientCursor.get(socket) ?? 0;
      expect(socket.sent[at], `client frame at t=${entry.t}`).toEqual(entry.data);
      clientCursor.set(socket, at + 1);
    }
    await vi.advanceTimersByTimeAsync(0);
  }

  const mine = sockets.on(path);
  return {
    workspace: root.system.get('workspace') as WorkspaceActorRef,
    live: root.system.get('liveUpdates') as LiveUpdatesActorRef,
    toasts: root.system.get('toasts') as ToastsActorRef,
    sockets: mine,
    unexpectedClientFrames: mine.flatMap((s) => s.sent.slice(clientCursor.get(s) ?? 0)),
    stop: () => root.stop(),
  };
}
