// The manual WebSocket tester (docs/product.md#discussions-screens 'Developer dialogs'). Development only.
//   disconnected ── tester.connect ──► connecting ── socket open ──► connected ── tester.disconnect ──► closing
//        ▲                                  └─ closed/error ──────────────┴───────────── closed ──────────┘
// The user picks a path, connects, types frames (JSON text: invalid JSON is an error line, never a throw) and
// sees every frame arrive. Incoming frames go through the app's parse path (parseFrame) with the schema that knows
// the path: discussion paths with the standard and hybrid panels' server schemas, /ws/updates and /ws/system with
// liveServerFrame; a type no schema knows is shown as unknown, a known type that fails its schema as malformed.
// The socket is a provided raw-text actor (src/services/debugProbes.ts), so the tester sends exactly what was typed.
import { assertEvent, assign, enqueueActions, fromCallback, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { jsonObject, type knownTypes, parseFrame, readJson, typeNamedIn } from '../schemas/frames';
import { DEBUG_SOCKET_PATHS, ENDPOINTS, SOCKET_CLOSE_GRACE_MS } from '../schemas/constants';
import { hybridServerFrame } from '../schemas/hybridSocket';
import { liveServerFrame } from '../schemas/liveUpdates';
import { standardServerFrame } from '../schemas/standardSocket';
import { notProvided } from './kit/actorKit';

/** Every path the tester offers: the debug paths, then the panels' own endpoints and /ws/system. */
export const TESTER_PATHS: readonly string[] = [
  ...new Set([...DEBUG_SOCKET_PATHS, ...Object.values(ENDPOINTS).map((e) => e.path), '/ws/system']),
];

type Schema = { name: string; schema: Parameters<typeof knownTypes>[0] };
const STANDARD: Schema = { name: 'standard panel', schema: standardServerFrame };
const HYBRID: Schema = { name: 'hybrid panel', schema: hybridServerFrame };
const LIVE: Schema = { name: 'live updates', schema: liveServerFrame };

/** The schemas that know a path's frames (none: frames are shown as they come). */
export function schemasFor(path: string): Schema[] {
  if (path === '/ws/updates' || path === '/ws/system' || path === '/system/ws/system') return [LIVE];
  if (path === '/ws/hybrid' || path === '/hybrid-discussion/ws') return [HYBRID, STANDARD];
  if (path.startsWith('/ws/') || path.startsWith('/discussion/ws/')) return [STANDARD];
  return [];
}

export type TesterLine =
  | { dir: 'in'; kind: 'valid'; type: string; schema: string; text: string }
  | { dir: 'in'; kind: 'unknown' | 'malformed'; type: string; text: string; error?: string }
  | { dir: 'out'; kind: 'sent'; text: string }
  | { dir: 'note'; kind: 'error' | 'info'; text: string };

/** Pure: an incoming frame's text, judged by the schemas that know the path. */
export function classifyFrame(path: string, text: string): TesterLine {
  const schemas = schemasFor(path);
  let malformed: { type: string; error: string } | null = null;
  let type = '(untyped)';
  for (const s of schemas) {
    const r = parseFrame(s.schema, text);
    if (r.kind === 'frame')
      return { dir: 'in', kind: 'valid', type: (r.frame as { type: string }).type, schema: s.name, text };
    type = r.type;
    if (r.kind === 'malformed' && !malformed) malformed = { type: r.type, error: r.error };
  }
  if (malformed) return { dir: 'in', kind: 'malformed', type: malformed.type, text, error: malformed.error };
  if (schemas.length === 0) {
    const named = typeNamedIn(text);
    type = named === undefined ? '(not JSON)' : (named ?? '(untyped)');
  }
  return { dir: 'in', kind: 'unknown', type, text };
}

/** What the raw tester socket tells the machine. */
export type TesterSocketEvent =
  | { type: 'tester.socket.open' }
  | { type: 'tester.socket.message'; data: string }
  | { type: 'tester.socket.error' }
  | { type: 'tester.socket.closed'; code: number; reason: string };
/** What the machine tells the socket. */
export type TesterSocketCommand = { type: 'tester.socket.send'; data: string } | { type: 'tester.socket.close' };

export interface WsTesterContext {
  path: string;
  lines: TesterLine[];
}

export type WsTesterEvent =
  | { type: 'tester.path.select'; path: string }
  | { type: 'tester.connect' }
  | { type: 'tester.disconnect' }
  | { type: 'tester.send'; text: string }
  | { type: 'tester.clear' }
  | TesterSocketEvent;

/** The log keeps this many lines (the oldest go first). */
export const TESTER_LOG_SIZE = 200;

const add = (lines: TesterLine[], line: TesterLine) => [...lines, line].slice(-TESTER_LOG_SIZE);

export const wsTesterMachine = setup({
  types: {
    context: {} as WsTesterContext,
    events: {} as WsTesterEvent,
    tags: {} as 'connected' | 'busy',
    children: {} as { socket: 'testerSocket' },
  },
  actors: {
    testerSocket: fromCallback<TesterSocketCommand, { path: string }, TesterSocketEvent>(
      notProvided('wsTester', 'testerSocket'),
    ),
  },
  delays: { closeGrace: SOCKET_CLOSE_GRACE_MS },
  guards: {
    isJsonObject: ({ event }) => {
      assertEvent(event, 'tester.send');
      const read = readJson(event.text);
      return read.ok && jsonObject.safeParse(read.value).success;
    },
  },
  actions: {
    selectPath: assign({
      path: ({ event }) => {
        assertEvent(event, 'tester.path.select');
        return event.path;
      },
    }),
    note: assign({
      lines: ({ context }, params: { kind: 'error' | 'info'; text: string }) =>
        add(context.lines, { dir: 'note', ...params }),
    }),
    noteBadJson: assign({
      lines: ({ context, event }) => {
        assertEvent(event, 'tester.send');
        const read = readJson(event.text);
        const why = read.ok ? 'a frame must be a JSON object, like {"type": "ping"}' : `not valid JSON (${read.error})`;
        return add(context.lines, { dir: 'note', kind: 'error', text: `Not sent: ${why}` });
      },
    }),
    send: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'tester.send');
      const read = readJson(event.text);
      if (!read.ok) return;
      const data = JSON.stringify(read.value);
      enqueue.sendTo('socket', { type: 'tester.socket.send', data } satisfies TesterSocketCommand);
      enqueue.assign({ lines: add(context.lines, { dir: 'out', kind: 'sent', text: data }) });
    }),
    receive: assign({
      lines: ({ context, event }) => {
        assertEvent(event, 'tester.socket.message');
        return add(context.lines, classifyFrame(context.path, event.data));
      },
    }),
    closeSocket: enqueueActions(({ enqueue }) =>
      enqueue.sendTo('socket', { type: 'tester.socket.close' } satisfies TesterSocketCommand),
    ),
    noteClosed: assign({
      lines: ({ context, event }) => {
        assertEvent(event, 'tester.socket.closed');
        return add(context.lines, {
          dir: 'note',
          kind: event.code === 1000 ? 'info' : 'error',
          text: `Closed ${event.code}${event.reason ? `: ${event.reason}` : ''}`,
        });
      },
    }),
    clear: assign({ lines: [] }),
  },
}).createMachine({
  id: 'wsTester',
  context: { path: DEBUG_SOCKET_PATHS[0], lines: [] },
  initial: 'disconnected',
  on: { 'tester.clear': { actions: 'clear' } },
  states: {
    disconnected: {
      on: {
        'tester.path.select': { actions: 'selectPath' },
        'tester.connect': {
          target: 'session',
          actions: {
            type: 'note',
            params: ({ context }) => ({ kind: 'info', text: `Connecting to ${context.path}…` }),
          },
        },
        'tester.send': { actions: { type: 'note', params: { kind: 'error', text: 'Not sent: connect first.' } } },
      },
    },
    session: {
      invoke: { src: 'testerSocket', id: 'socket', input: ({ context }) => ({ path: context.path }) },
      initial: 'connecting',
      on: {
        'tester.socket.message': { actions: 'receive' },
        'tester.socket.error': { actions: { type: 'note', params: { kind: 'error', text: 'Socket error' } } },
        'tester.socket.closed': { target: 'disconnected', actions: 'noteClosed' },
      },
      states: {
        connecting: {
          tags: 'busy',
          on: {
            'tester.socket.open': {
              target: 'connected',
              actions: { type: 'note', params: { kind: 'info', text: 'Connected' } },
            },
            'tester.disconnect': 'closing',
            'tester.send': {
              actions: { type: 'note', params: { kind: 'error', text: 'Not sent: still connecting.' } },
            },
          },
        },
        connected: {
          tags: 'connected',
          on: {
            'tester.send': [{ guard: 'isJsonObject', actions: 'send' }, { actions: 'noteBadJson' }],
            'tester.disconnect': 'closing',
          },
        },
        closing: {
          tags: 'busy',
          entry: 'closeSocket',
          // A socket that never reports its close does not keep the tester stuck.
          after: {
            closeGrace: {
              target: '#wsTester.disconnected',
              actions: { type: 'note', params: { kind: 'info', text: 'Disconnected' } },
            },
          },
        },
      },
    },
  },
});

export type WsTesterActorRef = ActorRefFrom<typeof wsTesterMachine>;
export type WsTesterSnapshot = SnapshotFrom<typeof wsTesterMachine>;
