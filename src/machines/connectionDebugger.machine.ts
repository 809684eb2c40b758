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
// What the server answers (server/routes; the tests and verdicts: src/model/connectionDebugger.ts): the discussion paths (/discussion/ws/discuss, /discussion/ws/enhanced,
// /hybrid-discussion/ws) are aliases of /ws/discuss, /ws/enhanced and /ws/hybrid. They are probed with ?test=true,
// which the server answers with one {type:'probe', ok:true} frame and a close 1000 before any token check, so a
// pass there says the path exists, not that the token is good. /ws/updates and /system/ws/system (an alias of
// /ws/system) check the token and answer {type:'connected'}; a bad token closes 1008. /auth/me is the token check.
import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  CONNECTION_ERROR_LOG_SIZE,
  COPY_CONFIRMATION_MS,
  DEBUGGER_TEST_GAP_MS,
  DEBUGGER_TEST_TIMEOUT_MS,
} from '../schemas/constants';
import { notProvided } from './kit/actorKit';
import {
  DEBUGGER_TESTS,
  debuggerReport,
  judgeHttp,
  judgeSocket,
  timedOut,
  type ConnectionDebuggerContext,
  type ConnectionDebuggerEvent,
  type DebuggerTest,
  type HttpProbeResult,
  type SocketProbeResult,
  type TestResult,
} from '../model/connectionDebugger';

const current = (ctx: ConnectionDebuggerContext) => DEBUGGER_TESTS[ctx.index];

export const connectionDebuggerMachine = setup({
  types: {
    context: {} as ConnectionDebuggerContext,
    events: {} as ConnectionDebuggerEvent,
    tags: {} as 'running' | 'copied',
    children: {} as { socketProbe: 'probeSocket'; httpProbe: 'probeHttp'; clipboard: 'copyText' },
  },
  actors: {
    probeSocket: fromPromise<SocketProbeResult, { path: string; query: Record<string, string> }>(
      notProvided('connectionDebugger', 'probeSocket'),
    ),
    probeHttp: fromPromise<HttpProbeResult, { method: string; path: string }>(
      notProvided('connectionDebugger', 'probeHttp'),
    ),
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
      errors: params.result.ok
        ? context.errors
        : [...context.errors, { test: params.result.name, message: params.result.detail }].slice(
            -CONNECTION_ERROR_LOG_SIZE,
          ),
    })),
    clearLog: assign({ errors: [] }),
    setCopyError: assign({
      copyError: (_, params: { error: unknown }) =>
        params.error instanceof Error ? params.error.message : String(params.error),
    }),
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
                testTimeout: {
                  target: 'gap',
                  actions: { type: 'record', params: ({ context }) => ({ result: timedOut(current(context)) }) },
                },
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
                      actions: {
                        type: 'record',
                        params: ({ context, event }) => ({
                          result: judgeSocket(
                            current(context) as Extract<DebuggerTest, { kind: 'socket' }>,
                            event.output,
                          ),
                        }),
                      },
                    },
                    onError: {
                      target: '#connectionDebugger.run.running.gap',
                      actions: {
                        type: 'record',
                        params: ({ context, event }) => ({
                          result: {
                            ...timedOut(current(context)),
                            ms: 0,
                            detail: `probe failed: ${String(event.error)}`,
                          },
                        }),
                      },
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
                      actions: {
                        type: 'record',
                        params: ({ context, event }) => ({
                          result: judgeHttp(current(context) as Extract<DebuggerTest, { kind: 'http' }>, event.output),
                        }),
                      },
                    },
                    onError: {
                      target: '#connectionDebugger.run.running.gap',
                      actions: {
                        type: 'record',
                        params: ({ context, event }) => ({
                          result: judgeHttp(current(context) as Extract<DebuggerTest, { kind: 'http' }>, {
                            status: 0,
                            body: '',
                            ms: 0,
                            error: String(event.error),
                          }),
                        }),
                      },
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
            onError: {
              target: 'idle',
              actions: { type: 'setCopyError', params: ({ event }) => ({ error: event.error }) },
            },
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
