// The connection debugger's tests and how their answers are judged (pure): which paths it probes, what the server
// should answer on each, the pass/fail verdicts, and the report the Copy button writes. The chart that runs them is
// src/machines/connectionDebugger.machine.ts.
import { CLOSE_CODE_EXPLANATIONS, DEBUG_SOCKET_PATHS, DEBUGGER_TEST_TIMEOUT_MS } from '../schemas/constants';
import { typeNamedIn } from '../schemas/frames';

export type DebuggerTest =
  | { kind: 'socket'; path: string; query: Record<string, string>; expect: 'probe' | 'connected' }
  | { kind: 'http'; method: 'GET' | 'HEAD' | 'OPTIONS'; path: string };

const DISCUSSION_PATHS: readonly string[] = [
  '/discussion/ws/discuss',
  '/discussion/ws/enhanced',
  '/hybrid-discussion/ws',
];

export const DEBUGGER_TESTS: readonly DebuggerTest[] = [
  ...DEBUG_SOCKET_PATHS.map(
    (path): DebuggerTest =>
      DISCUSSION_PATHS.includes(path)
        ? { kind: 'socket', path, query: { test: 'true' }, expect: 'probe' }
        : { kind: 'socket', path, query: {}, expect: 'connected' },
  ),
  { kind: 'http', method: 'GET', path: '/health' },
  { kind: 'http', method: 'HEAD', path: '/health' },
  { kind: 'http', method: 'OPTIONS', path: '/health' },
  { kind: 'http', method: 'GET', path: '/auth/me' },
];

export const testName = (t: DebuggerTest) =>
  t.kind === 'socket' ? `WS ${t.path}${t.query.test ? '?test=true' : ''}` : `${t.method} ${t.path}`;

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

export type ConnectionDebuggerEvent =
  | { type: 'debugger.run' }
  | { type: 'debugger.stop' }
  | { type: 'debugger.copy' }
  | { type: 'debugger.clear' };

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
  const detail =
    r.status === 0
      ? `no answer: ${r.error ?? 'network error'}`
      : `HTTP ${r.status}${r.body ? `: ${r.body.slice(0, 160)}` : ''}${r.status === 401 ? ' — the token was refused' : ''}`;
  return { name: testName(test), ok, status: r.status, ms: Math.round(r.ms), detail };
}

export function timedOut(test: DebuggerTest): TestResult {
  return {
    name: testName(test),
    ok: false,
    ms: DEBUGGER_TEST_TIMEOUT_MS,
    detail: `no answer within ${DEBUGGER_TEST_TIMEOUT_MS / 1000} s`,
    ...(test.kind === 'socket' ? { code: 1006, explanation: explainCloseCode(1006) } : {}),
  };
}

/** The report the Copy button puts on the clipboard. */
export function debuggerReport(ctx: Pick<ConnectionDebuggerContext, 'results' | 'errors'>): string {
  const lines = ['Agora connection debugger report', ''];
  for (const r of ctx.results) {
    const code =
      r.code !== undefined ? ` code ${r.code} (${r.explanation})` : r.status !== undefined ? ` status ${r.status}` : '';
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
