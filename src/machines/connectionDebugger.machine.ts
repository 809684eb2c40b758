// The WebSocket connection debugger (docs/product.md#discussions-screens 'Developer dialogs', #discussions-calls 'Debug
// WebSocket paths', #discussions-errors, #discussions-limits). Development
// only. It runs its tests one after another — each debug socket path, then /health by GET, HEAD and OPTIONS, then
// /auth/me — each with DEBUGGER_TEST_TIMEOUT_MS to answer and DEBUGGER_TEST_GAP_MS between tests:
//   run:  idle ── debugger.run ──► running (testing ⇄ gap) ──► done;  debugger.stop ──► idle
//   copy: idle ── debugger.copy ──► copying ──► copied ── after COPY_CONFIRMATION_MS ──► idle
// Each test records pass/fail, the close code with its explanation (CLOSE_CODE_EXPLANATIONS), what the server
// answered and how long it took; every failure goes to the connection-error log, which keeps the last
// CONNECTION_ERROR_LOG_SIZE. The probes and the clipboard are provided actors (src/services/debugProbes.ts).
//
// What the server answers (server/routes): the discussion paths (/discussion/ws/discuss, /discussion/ws/enhanced,
// /hybrid-discussion/ws) are aliases of /ws/discuss, /ws/enhanced and /ws/hybrid. They are probed with ?test=true,
// which the server answers with one {type:'probe', ok:true} frame and a close 1000 before any token check, so a
// pass there says the path exists, not that the token is good. /ws/updates and /system/ws/system (an alias of
// /ws/system) check the token and answer {type:'connected'}; a bad token closes 1008. /auth/me is the token check.
import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  CLOSE_CODE_EXPLANATIONS, CONNECTION_ERROR_LOG_SIZE, COPY_CONFIRMATION_MS, DEBUG_SOCKET_PATHS, DEBUGGER_TEST_GAP_MS,
  DEBUGGER_TEST_TIMEOUT_MS,
} from '../schemas/constants';
import { notProvided } from '../model/actorKit';
import { typeNamedIn } from '../schemas/frames';

export type DebuggerTest =
  | { kind: 'socket'; path: string; query: Record<string, string>; expect: 'probe' | 'connected' }
  | { kind: 'http'; method: 'GET' | 'HEAD' | 'OPTIONS'; path: string };

const DISCUSSION_PATHS: readonly string[] = ['/discussion/ws/discuss', '/discussion/ws/enhanced', '/hybrid-discussion/ws'];

export const DEBUGGER_TESTS: readonly DebuggerTest[] = [
  ...DEBUG_SOCKET_PATHS.map((path): DebuggerTest =>
    DISCUSSION_PATHS.includes(path) ? { kind: 'socket', path, query: { test: 'true' }, expect: 'probe' } : { kind: 'socket', path, query: {}, expect: 'connected' },
  ),
  { kind: 'http', method: 'GET', path: '/health' },
  { kind: 'http', method: 'HEAD', path: '/health' },
  { kind: 'http', method: 'OPTIONS', path: '/health' },
  { kind: 'http', method: 'GET', path: '/auth/me' },
];

export const testName = (t: DebuggerTest) => (t.kind === 'socket' ? `WS ${t.path}${t.query.test ? '?test=true' : ''}` : `${t.method} ${t.path}`);

/** What a socket probe saw: whether it opened, the first frame's text, how it closed, and how long it took. */
export interface SocketProbeResult {
  opened: boolean;
  firstFrame: string | null;
  code: number;
  reason: string;
  ms: number;
}
/** What an HTTP probe got: the status (0 = no answer), a short body, and how long it took. */
export interface HttpProbeResult {
  status: number;
  body: string;
  ms: number;
  error?: string;
}

export interface TestResult {
  name: string;
  ok: boolean;
  /** A socket test's close code and what it means. */
  code?: number;
  explanation?: string;
  /** An HTTP test's status. */
  status?: number;
  ms: number;
  detail: string;
}

export interface ConnectionErrorEntry {
  test: string;
  message: string;
}

export interface ConnectionDebuggerContext {
  index: number;
  results: TestResult[];
  errors: ConnectionErrorEntry[];
  copyError: string | null;
}

export type ConnectionDebuggerEvent = { type: 'debugger.run' } | { type: 'debugger.stop' } | { type: 'debugger.copy' } | { type: 'debugger.clear' };

export const explainCloseCode = (code: number) => CLOSE_CODE_EXPLANATIONS[code] ?? 'Unknown close code';

const frameType = (text: string | null): string | null => (text === null ? null : (typeNamedIn(text) ?? null));

/** Pure: a socket probe's outcome judged against what the server should answer on that path. */
export function judgeSocket(test: Extract<DebuggerTest, { kind: 'socket' }>, r: SocketProbeResult): TestResult {
  const explanation = explainCloseCode(r.code);
  const type = frameType(r.firstFrame);
  const ok = r.opened && type === test.expect && r.code === 1000;
  const said = r.firstFrame ? `first frame ${r.firstFrame.slice(0, 160)}` : 'no frame';
  const detail = !r.opened
    ? `did not open; closed ${r.code} (${explanation})${r.reason ? `: ${r.reason}` : ''}`
    : ok
      ? test.expect === 'probe'
        ? `probe answered (${said}), closed 1000 — the path exists; the probe does not check the token`
        : `token accepted (${said}), closed 1000 by the debugger`
      : `opened, ${said}, closed ${r.code} (${explanation})${r.reason ? `: ${r.reason}` : ''}${r.code === 1008 ? ' — likely authentication' : ''}`;
  return { name: testName(test), ok, code: r.code, explanation, ms: Math.round(r.ms), detail };
}

/** Pure: an HTTP probe's outcome (2xx passes; OPTIONS answers 204 with Allow). */
export function judgeHttp(test: Extract<DebuggerTest, { kind: 'http' }>, r: HttpProbeResult): TestResult {
  const ok = r.status >= 200 && r.status < 300;
  const detail = r.status === 0 ? `no answer: ${r.error ?? 'network error'}` : `HTTP ${r.status}${r.body ? `: ${r.body.slice(0, 160)}` : ''}${r.status === 401 ? ' — the token was refused' : ''}`;
  return { name: testName(test), ok, status: r.status, ms: Math.round(r.ms), detail };
}

export function timedOut(test: DebuggerTest): TestResult {
  return {
    name: testName(test), ok: false, ms: DEBUGGER_TEST_TIMEOUT_MS, detail: `no answer within ${DEBUGGER_TEST_TIMEOUT_MS / 1000} s`,
    ...(test.kind === 'socket' ? { code: 1006, explanation: explainCloseCode(1006) } : {}),
  };
}

/** The report the Copy button puts on the clipboard. */
export function debuggerReport(ctx: Pick<ConnectionDebuggerContext, 'results' | 'errors'>): string {
  const lines = ['Agora connection debugger report', ''];
  for (const r of ctx.results) {
    const code = r.code !== undefined ? ` code ${r.code} (${r.explanation})` : r.status !== undefined ? ` status ${r.status}` : '';
    lines.push(`${r.ok ? 'PASS' : 'FAIL'} ${r.name}${code} ${r.ms} ms — ${r.detail}`);
  }
  const passed = ctx.results.filter((r) => r.ok).length;
  lines.push('', `${passed}/${ctx.results.length} passed`);
  if (ctx.errors.length) {
    lines.push('', `Last ${ctx.errors.length} connection errors:`);
    for (const e of ctx.errors) lines.push(`- ${e.test}: ${e.message}`);
  }
  return lines.join('\n');
}

const current = (ctx: ConnectionDebuggerContext) => DEBUGGER_TESTS[ctx.index];

export const connectionDebuggerMachine = setup({
  types: {
    context: {} as ConnectionDebuggerContext,
    events: {} as ConnectionDebuggerEvent,
    tags: {} as 'running' | 'copied',
    children: {} as { socketProbe: 'probeSocket'; httpProbe: 'probeHttp'; clipboard: 'copyText' },
  },
  actors: {
    probeSocket: fromPromise<SocketProbeResult, { path: string; query: Record<string, string> }>(notProvided('connectionDebugger', 'probeSocket')),
    probeHttp: fromPromise<HttpProbeResult, { method: string; path: string }>(notProvided('connectionDebugger', 'probeHttp')),
    copyText: fromPromise<void, { text: string }>(notProvided('connectionDebugger', 'copyText')),
  },
  delays: {
    testTimeout: DEBUGGER_TEST_TIMEOUT_MS,
    testGap: DEBUGGER_TEST_GAP_MS,
    copyConfirmation: COPY_CONFIRMATION_MS,
  },
  guards: {
    isSocketTest: ({ context }) => current(context)?.kind === 'socket',
    hasMoreTests: ({ context }) => context.index + 1 < DEBUGGER_TESTS.length,
  },
  actions: {
    resetRun: assign({ index: 0, results: [] }),
    nextTest: assign({ index: ({ context }) => context.index + 1 }),
    record: assign(({ context }, params: { result: TestResult }) => ({
      results: [...context.results, params.result],
      errors: params.result.ok ? context.errors : [...context.errors, { test: params.result.name, message: params.result.detail }].slice(-CONNECTION_ERROR_LOG_SIZE),
    })),
    clearLog: assign({ errors: [] }),
    setCopyError: assign({ copyError: (_, params: { error: unknown }) => (params.error instanceof Error ? params.error.message : String(params.error)) }),
    clearCopyError: assign({ copyError: null }),
  },
}).createMachine({
  id: 'connectionDebugger',
  type: 'parallel',
  context: { index: 0, results: [], errors: [], copyError: null },
  on: { 'debugger.clear': { actions: 'clearLog' } },
  states: {
    run: {
      initial: 'idle',
      states: {
        idle: { on: { 'debugger.run': { target: 'running', actions: 'resetRun' } } },
        running: {
          tags: 'running',
          on: { 'debugger.stop': 'idle' },
          initial: 'testing',
          states: {
            testing: {
              initial: 'choose',
              after: {
                testTimeout: { target: 'gap', actions: { type: 'record', params: ({ context }) => ({ result: timedOut(current(context)) }) } },
              },
              states: {
                choose: { always: [{ guard: 'isSocketTest', target: 'socket' }, { target: 'http' }] },
                socket: {
                  invoke: {
                    src: 'probeSocket',
                    id: 'socketProbe',
                    input: ({ context }) => {
                      const t = current(context) as Extract<DebuggerTest, { kind: 'socket' }>;
                      return { path: t.path, query: t.query };
                    },
                    onDone: {
                      target: '#connectionDebugger.run.running.gap',
                      actions: { type: 'record', params: ({ context, event }) => ({ result: judgeSocket(current(context) as Extract<DebuggerTest, { kind: 'socket' }>, event.output) }) },
                    },
                    onError: {
                      target: '#connectionDebugger.run.running.gap',
                      actions: { type: 'record', params: ({ context, event }) => ({ result: { ...timedOut(current(context)), ms: 0, detail: `probe failed: ${String(event.error)}` } }) },
                    },
                  },
                },
                http: {
                  invoke: {
                    src: 'probeHttp',
                    id: 'httpProbe',
                    input: ({ context }) => {
                      const t = current(context) as Extract<DebuggerTest, { kind: 'http' }>;
                      return { method: t.method, path: t.path };
                    },
                    onDone: {
                      target: '#connectionDebugger.run.running.gap',
                      actions: { type: 'record', params: ({ context, event }) => ({ result: judgeHttp(current(context) as Extract<DebuggerTest, { kind: 'http' }>, event.output) }) },
                    },
                    onError: {
                      target: '#connectionDebugger.run.running.gap',
                      actions: { type: 'record', params: ({ context, event }) => ({ result: judgeHttp(current(context) as Extract<DebuggerTest, { kind: 'http' }>, { status: 0, body: '', ms: 0, error: String(event.error) }) }) },
                    },
                  },
                },
              },
            },
            gap: {
              after: {
                testGap: [
                  { guard: 'hasMoreTests', target: 'testing', actions: 'nextTest' },
                  { target: '#connectionDebugger.run.done' },
                ],
              },
            },
          },
        },
        done: { on: { 'debugger.run': { target: 'running', actions: 'resetRun' } } },
      },
    },
    copy: {
      initial: 'idle',
      states: {
        idle: { on: { 'debugger.copy': 'copying' } },
        copying: {
          entry: 'clearCopyError',
          invoke: {
            src: 'copyText',
            id: 'clipboard',
            input: ({ context }) => ({ text: debuggerReport(context) }),
            onDone: 'copied',
            onError: { target: 'idle', actions: { type: 'setCopyError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        copied: {
          tags: 'copied',
          after: { copyConfirmation: 'idle' },
          on: { 'debugger.copy': 'copying' },
        },
      },
    },
  },
});

export type ConnectionDebuggerActorRef = ActorRefFrom<typeof connectionDebuggerMachine>;
export type ConnectionDebuggerSnapshot = SnapshotFrom<typeof connectionDebuggerMachine>;
