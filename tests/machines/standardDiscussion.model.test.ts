// Model-based paths for the standard panel's `run` region (xstate/graph TestModel): the chart is walked with the
// user's events, the events its children would produce (xstate.done/error.actor.agentDetails, the socketSession
// notices) and its closeGrace timers; every shortest path is replayed against a running panel whose agent details
// are a held promise and whose socketSession is a silent double (the test speaks its notices), on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import { endpointProbeMachine } from '../../src/machines/endpointProbe.machine';
import { TestModel } from 'xstate/graph';
import {
  standardDiscussionMachine,
  type StandardDiscussionEvent,
  type StandardDiscussionSnapshot,
} from '../../src/machines/discussionPanel.machine';
import type { Participant } from '../../src/schemas/discussion';
import { deferred, flush } from '../support/harness';
import { closedNotice, PANEL_INPUT, reachedValues, replayPanelPaths } from '../support/modelPaths';

type Snap = StandardDiscussionSnapshot;
type ModelEvent = StandardDiscussionEvent | { type: string; [k: string]: unknown };

const AFTER = {
  'xstate.after.closeGrace.standardDiscussion.run.session.stopping': 'standardDiscussion.run.session.stopping',
  'xstate.after.closeGrace.standardDiscussion.run.session.closing': 'standardDiscussion.run.session.closing',
} as const;

/** The clock the walk and the replay start with (the app gives the wall clock). */
const clocked = standardDiscussionMachine.provide({ actions: { readClock: assign({ clockNow: () => 1 }) } });

const closed = closedNotice;
const events: ModelEvent[] = [
  { type: 'panel.topic.change', text: 'Drip or furrow?' },
  { type: 'panel.start', agentIds: ['a', 'b'], connections: [] },
  { type: 'panel.start', agentIds: ['a'], connections: [] },
  { type: 'panel.stop' },
  { type: 'xstate.done.actor.agentDetails', output: [] as Participant[] },
  { type: 'xstate.error.actor.agentDetails', error: new Error('404') },
  { type: 'socketSession.open', attempt: 0 },
  { type: 'socketSession.frame', frame: { type: 'text', id: 'm1', from_id: 'a', from: 'A', text: 'hi', turn: 1 } },
  { type: 'socketSession.frame', frame: { type: 'discussion_ended', reason: 'completed' } },
  { type: 'socketSession.frame', frame: { type: 'error', message: 'Invalid token' } },
  { type: 'socketSession.retrying', attempt: 1, maxAttempts: 3, code: 1006, reason: '' },
  closed(1000),
  closed(1006, true),
  closed(1008),
  ...Object.keys(AFTER).map((type) => ({ type })),
];

const inState = (s: Snap, id: string) => s._nodes.some((n) => n.id === id);

/** Children speak only while they exist; timers fire only in the state that owns them. */
function canHappen(s: Snap, e: ModelEvent): boolean {
  if (s.status !== 'active') return false;
  if (e.type in AFTER) return inState(s, AFTER[e.type as keyof typeof AFTER]);
  if (e.type.endsWith('.actor.agentDetails')) return s.matches({ run: 'preparing' });
  if (e.type === 'socketSession.open')
    return s.matches({ run: { session: 'connecting' } }) || s.matches({ run: { session: 'reconnecting' } });
  if (e.type === 'socketSession.frame') return s.matches({ run: { session: 'live' } });
  if (e.type === 'socketSession.retrying')
    return s.matches({ run: { session: 'live' } }) || s.matches({ run: { session: 'reconnecting' } });
  if (e.type.startsWith('socketSession.')) return s.matches({ run: 'session' });
  return true;
}

const serializeState = (s: Snap) =>
  JSON.stringify([s.value, s.context.error, s.context.topic !== '', s.context.run !== null]);

function sut() {
  const details = deferred<Participant[], { agentIds: string[] }>();
  const commands: AnyEventObject[] = [];
  const machine = clocked.provide({
    actors: {
      loadAgentDetails: details.logic,
      socketSession: fromCallback(({ receive }) => receive((c) => void commands.push(c))) as never,
      loadSettings: fromPromise(() => new Promise(() => {})) as never,
      // The real probe chart with probes that never answer (all 'unknown' → Basic).
      endpointProbe: endpointProbeMachine.provide({
        actors: { probeEndpoint: fromPromise(() => new Promise<boolean>(() => {})) },
      }),
    },
  });
  const actor = createActor(machine, { input: PANEL_INPUT }).start();
  const send = async ({ event }: { event: AnyEventObject }) => {
    actor.send(event as StandardDiscussionEvent);
    await flush();
  };
  const exec: Record<string, (step: { event: AnyEventObject }) => Promise<void>> = {};
  for (const e of events) exec[e.type] = send;
  exec['xstate.done.actor.agentDetails'] = async ({ event }) => {
    details.resolve((event as unknown as { output: Participant[] }).output);
    await flush();
  };
  exec['xstate.error.actor.agentDetails'] = async () => {
    details.reject(new Error('404'));
    await flush();
  };
  for (const type of Object.keys(AFTER)) exec[type] = async () => void (await vi.advanceTimersByTimeAsync(1_000));
  return { actor, exec, commands };
}

describe('standard discussion model (run region)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const model = new TestModel(clocked, {
    input: PANEL_INPUT,
    events,
    serializeState: serializeState as never,
    filterEvents: canHappen as never,
  } as never);
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });
  const runValues = [...new Set(paths.map((p) => JSON.stringify((p.state as Snap).value.run)))].sort();

  it('reaches every state of the run region', () => {
    expect(runValues).toEqual(
      [
        '"idle"',
        '"preparing"',
        '"ended"',
        '"failed"',
        '{"session":"connecting"}',
        '{"session":"live"}',
        '{"session":"reconnecting"}',
        '{"session":"stopping"}',
        '{"session":"closing"}',
      ].sort(),
    );
    expect(reachedValues(paths).length).toBeGreaterThanOrEqual(runValues.length);
  });

  it('reaches the auth-error stop and the give-up', () => {
    const finals = paths.map((p) => p.state as Snap);
    expect(
      finals.some(
        (s) =>
          s.matches({ run: 'failed' }) &&
          s.context.error === 'Connection lost to Basic. Please check server availability.',
      ),
    ).toBe(true);
    expect(
      finals.some(
        (s) =>
          s.matches({ run: 'failed' }) && s.context.error === 'Authentication failed. Please refresh and login again.',
      ),
    ).toBe(true);
    expect(finals.some((s) => s.matches({ run: { session: 'closing' } }) && s.context.error === 'Invalid token')).toBe(
      true,
    );
  });

  replayPanelPaths<Snap>(paths, sut, ({ got, expected }) => {
    expect(got.value.run).toEqual(expected.value.run);
    expect(got.context.error).toEqual(expected.context.error);
    expect(got.context.run?.sessionId ?? null).toEqual(expected.context.run?.sessionId ?? null);
  });
});
