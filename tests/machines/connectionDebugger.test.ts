import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { connectionDebuggerMachine } from '../../src/machines/connectionDebugger.machine';
import {
  DEBUGGER_TESTS,
  debuggerReport,
  judgeSocket,
  type HttpProbeResult,
  type SocketProbeResult,
} from '../../src/model/connectionDebugger';
import {
  CONNECTION_ERROR_LOG_SIZE,
  COPY_CONFIRMATION_MS,
  DEBUG_SOCKET_PATHS,
  DEBUGGER_TEST_GAP_MS,
  DEBUGGER_TEST_TIMEOUT_MS,
} from '../../src/schemas/constants';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const never = <T>() => new Promise<T>(() => {});

function start(opts: {
  socket?: (input: { path: string; query: Record<string, string> }) => Promise<SocketProbeResult>;
  http?: (input: { method: string; path: string }) => Promise<HttpProbeResult>;
  copy?: (text: string) => Promise<void>;
}) {
  const socketCalls: string[] = [];
  const httpCalls: string[] = [];
  const logic = connectionDebuggerMachine.provide({
    actors: {
      probeSocket: fromPromise(({ input }: { input: { path: string; query: Record<string, string> } }) => {
        socketCalls.push(`${input.path}${input.query.test ? '?test=true' : ''}`);
        return (opts.socket ?? never)(input);
      }),
      probeHttp: fromPromise(({ input }: { input: { method: string; path: string } }) => {
        httpCalls.push(`${input.method} ${input.path}`);
        return (opts.http ?? never)(input);
      }),
      copyText: fromPromise(({ input }: { input: { text: string } }) => (opts.copy ?? (async () => {}))(input.text)),
    },
  });
  const actor = createActor(logic).start();
  return { actor, socketCalls, httpCalls };
}

describe('connection debugger', () => {
  it('runs the tests one after another: 10 s each at most, 1 s apart, over the debug paths, /health (GET, HEAD, OPTIONS) and /auth/me', async () => {
    const { actor, socketCalls, httpCalls } = start({});
    actor.send({ type: 'debugger.run' });
    expect(actor.getSnapshot().hasTag('running')).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(socketCalls).toEqual(['/discussion/ws/discuss?test=true']);

    await vi.advanceTimersByTimeAsync(DEBUGGER_TEST_TIMEOUT_MS - 1);
    expect(actor.getSnapshot().context.results).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().context.results).toEqual([
      expect.objectContaining({
        name: 'WS /discussion/ws/discuss?test=true',
        ok: false,
        ms: DEBUGGER_TEST_TIMEOUT_MS,
        code: 1006,
        detail: 'no answer within 10 s',
      }),
    ]);
    // The gap: the next test starts 1 s later, not before.
    await vi.advanceTimersByTimeAsync(DEBUGGER_TEST_GAP_MS - 1);
    expect(socketCalls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(socketCalls).toHaveLength(2);

    // All of them, each taking its full 10 s, 1 s apart.
    const total = DEBUGGER_TESTS.length;
    await vi.advanceTimersByTimeAsync((total - 1) * (DEBUGGER_TEST_TIMEOUT_MS + DEBUGGER_TEST_GAP_MS) - 1);
    expect(actor.getSnapshot().matches({ run: 'done' })).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches({ run: 'done' })).toBe(true);
    expect(socketCalls).toEqual([
      '/discussion/ws/discuss?test=true',
      '/discussion/ws/enhanced?test=true',
      '/hybrid-discussion/ws?test=true',
      '/ws/updates',
      '/system/ws/system',
    ]);
    expect(socketCalls).toHaveLength(DEBUG_SOCKET_PATHS.length);
    expect(httpCalls).toEqual(['GET /health', 'HEAD /health', 'OPTIONS /health', 'GET /auth/me']);
    expect(actor.getSnapshot().context.results).toHaveLength(total);
  });

  it('records pass/fail, close codes with their explanation (1008: likely authentication) and timing', async () => {
    const { actor } = start({
      socket: async ({ path, query }) =>
        query.test
          ? {
              opened: true,
              firstFrame: JSON.stringify({ type: 'probe', endpoint: path, ok: true }),
              code: 1000,
              reason: '',
              ms: 12.4,
            }
          : { opened: true, firstFrame: null, code: 1008, reason: 'Authentication failed', ms: 30 },
      http: async ({ method, path }) =>
        path === '/auth/me'
          ? { status: 401, body: '{"detail":"Could not validate credentials"}', ms: 5 }
          : { status: method === 'OPTIONS' ? 204 : 200, body: '', ms: 3 },
    });
    actor.send({ type: 'debugger.run' });
    await vi.advanceTimersByTimeAsync(DEBUGGER_TESTS.length * DEBUGGER_TEST_GAP_MS + 10);
    const results = actor.getSnapshot().context.results;
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ['WS /discussion/ws/discuss?test=true', true],
      ['WS /discussion/ws/enhanced?test=true', true],
      ['WS /hybrid-discussion/ws?test=true', true],
      ['WS /ws/updates', false],
      ['WS /system/ws/system', false],
      ['GET /health', true],
      ['HEAD /health', true],
      ['OPTIONS /health', true],
      ['GET /auth/me', false],
    ]);
    expect(results[0]).toMatchObject({ code: 1000, explanation: 'Normal closure', ms: 12 });
    expect(results[0].detail).toContain('does not check the token');
    expect(results[3]).toMatchObject({ code: 1008, explanation: 'Policy violation (likely authentication)' });
    expect(results[3].detail).toContain('likely authentication');
    expect(results[8]).toMatchObject({ status: 401 });
    expect(results[8].detail).toContain('the token was refused');
    expect(actor.getSnapshot().context.errors.map((e) => e.test)).toEqual([
      'WS /ws/updates',
      'WS /system/ws/system',
      'GET /auth/me',
    ]);
  });

  it('explains every close code the spec lists', () => {
    const t = { kind: 'socket', path: '/ws/updates', query: {}, expect: 'connected' } as const;
    const explain = (code: number) =>
      judgeSocket(t, { opened: true, firstFrame: null, code, reason: '', ms: 1 }).explanation;
    expect([1000, 1001, 1002, 1003, 1006, 1008, 1011, 1015].map(explain).every((e) => e !== 'Unknown close code')).toBe(
      true,
    );
    expect(explain(1008)).toMatch(/likely auth/);
    expect(explain(4000)).toBe('Unknown close code');
    expect(
      judgeSocket(t, {
        opened: true,
        firstFrame: '{"type":"connected","channel":"updates"}',
        code: 1000,
        reason: '',
        ms: 1,
      }).ok,
    ).toBe(true);
  });

  it('keeps only the last 10 connection errors across runs', async () => {
    const { actor } = start({
      socket: async () => ({ opened: false, firstFrame: null, code: 1006, reason: '', ms: 1 }),
      http: async () => ({ status: 0, body: '', ms: 1, error: 'Failed to fetch' }),
    });
    actor.send({ type: 'debugger.run' });
    await vi.advanceTimersByTimeAsync(DEBUGGER_TESTS.length * DEBUGGER_TEST_GAP_MS + 10);
    expect(actor.getSnapshot().context.errors).toHaveLength(DEBUGGER_TESTS.length);
    actor.send({ type: 'debugger.run' });
    await vi.advanceTimersByTimeAsync(DEBUGGER_TESTS.length * DEBUGGER_TEST_GAP_MS + 10);
    const errors = actor.getSnapshot().context.errors;
    expect(errors).toHaveLength(CONNECTION_ERROR_LOG_SIZE);
    expect(errors.at(-1)).toEqual({ test: 'GET /auth/me', message: 'no answer: Failed to fetch' });
    // The oldest kept is the first run's last test (18 failures, the last 10 kept).
    expect(errors[0].test).toBe('GET /auth/me');
    expect(errors.slice(1).map((e) => e.test)).toEqual(
      DEBUGGER_TESTS.map((t) =>
        t.kind === 'socket' ? `WS ${t.path}${t.query.test ? '?test=true' : ''}` : `${t.method} ${t.path}`,
      ),
    );
    actor.send({ type: 'debugger.clear' });
    expect(actor.getSnapshot().context.errors).toEqual([]);
  });

  it('stop ends a run at once', async () => {
    const { actor } = start({});
    actor.send({ type: 'debugger.run' });
    await vi.advanceTimersByTimeAsync(100);
    actor.send({ type: 'debugger.stop' });
    expect(actor.getSnapshot().matches({ run: 'idle' })).toBe(true);
    await vi.advanceTimersByTimeAsync(DEBUGGER_TEST_TIMEOUT_MS * 2);
    expect(actor.getSnapshot().context.results).toEqual([]);
  });

  it('copies the report and says Copied for 2 s; a refused clipboard is an error, not a throw', async () => {
    const copied: string[] = [];
    let refuse = false;
    const { actor } = start({
      socket: async ({ query }) => ({
        opened: true,
        firstFrame: query.test ? '{"type":"probe"}' : '{"type":"connected"}',
        code: 1000,
        reason: '',
        ms: 4,
      }),
      http: async () => ({ status: 200, body: 'ok', ms: 2 }),
      copy: async (text) => {
        if (refuse) throw new Error('Clipboard permission denied');
        copied.push(text);
      },
    });
    actor.send({ type: 'debugger.run' });
    await vi.advanceTimersByTimeAsync(DEBUGGER_TESTS.length * DEBUGGER_TEST_GAP_MS + 10);
    actor.send({ type: 'debugger.copy' });
    await vi.advanceTimersByTimeAsync(0);
    expect(copied).toEqual([debuggerReport(actor.getSnapshot().context)]);
    expect(copied[0]).toContain('PASS WS /discussion/ws/discuss?test=true code 1000 (Normal closure) 4 ms');
    expect(copied[0]).toContain(`${DEBUGGER_TESTS.length}/${DEBUGGER_TESTS.length} passed`);
    expect(actor.getSnapshot().hasTag('copied')).toBe(true);
    await vi.advanceTimersByTimeAsync(COPY_CONFIRMATION_MS - 1);
    expect(actor.getSnapshot().hasTag('copied')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().hasTag('copied')).toBe(false);

    refuse = true;
    actor.send({ type: 'debugger.copy' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().hasTag('copied')).toBe(false);
    expect(actor.getSnapshot().context.copyError).toBe('Clipboard permission denied');
  });
});
