// Model-based paths for the hybrid panel's `run` region (xstate/graph TestModel): the user's events, the
// socketSession notices its child would produce, and its timers (stop → 500 ms → close → grace); every shortest path
// is replayed against a running panel whose socketSession is a silent double (the test speaks its notices), on fake
// timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromCallback, fromPromise, type AnyEventObject } from 'xstate';
import { TestModel } from 'xstate/graph';
import {
  hybridDiscussionMachine,
  type HybridDiscussionEvent,
  type HybridDiscussionSnapshot,
} from '../../src/machines/discussionPanel.machine';
import { STOP_CLOSE_DELAY_MS } from '../../src/schemas/constants';
import { flush } from '../support/harness';
import { closedNotice, PANEL_INPUT, replayPanelPaths } from '../support/modelPaths';

type Snap = HybridDiscussionSnapshot;
type ModelEvent = HybridDiscussionEvent | { type: string; [k: string]: unknown };

const AFTER = {
  'xstate.after.stopCloseDelay.hybridDiscussion.run.session.stopping': {
    state: 'hybridDiscussion.run.session.stopping',
    ms: STOP_CLOSE_DELAY_MS,
  },
  'xstate.after.closeGrace.hybridDiscussion.run.session.closing': {
    state: 'hybridDiscussion.run.session.closing',
    ms: 1_000,
  },
} as const;

/** The clock the walk and the replay start with (the app gives the wall clock). */
const clocked = hybridDiscussionMachine.provide({ actions: { readClock: assign({ clockNow: () => 1 }) } });

const closed = closedNotice;
const events: ModelEvent[] = [
  { type: 'panel.topic.change', text: 'Drip or furrow?' },
  { type: 'panel.start', agentIds: ['a', 'b'] },
  { type: 'panel.start', agentIds: ['a'] },
  { type: 'panel.stop' },
  { type: 'socketSession.open', attempt: 0 },
  { type: 'socketSession.frame', frame: { type: 'round_start', round: 1 } },
  { type: 'socketSession.frame', frame: { type: 'discussion_ended', reason: 'completed' } },
  { type: 'socketSession.frame', frame: { type: 'error', message: 'fatal', fatal: true } },
  { type: 'socketSession.timeout' },
  { type: 'socketSession.retrying', attempt: 1, maxAttempts: 3, code: 1006, reason: '' },
  closed(1000),
  closed(1006, true),
  ...Object.keys(AFTER).map((type) => ({ type })),
];

const inState = (s: Snap, id: string) => s._nodes.some((n) => n.id === id);

function canHappen(s: Snap, e: ModelEvent): boolean {
  if (s.status !== 'active') return false;
  if (e.type in AFTER) return inState(s, AFTER[e.type as keyof typeof AFTER].state);
  if (e.type === 'socketSession.open' || e.type === 'socketSession.timeout')
    return s.matches({ run: { session: 'connecting' } }) || s.matches({ run: { session: 'reconnecting' } });
  if (e.type === 'socketSession.frame') return s.matches({ run: { session: 'live' } });
  if (e.type === 'socketSession.retrying')
    return s.matches({ run: { session: 'live' } }) || s.matches({ run: { session: 'reconnecting' } });
  if (e.type.startsWith('socketSession.')) return s.matches({ run: 'session' });
  return true;
}

const serializeState = (s: Snap) =>
  JSON.stringify([s.value.run, s.context.error, s.context.topic !== '', s.context.pendingProblem]);

function sut() {
  const commands: AnyEventObject[] = [];
  const machine = clocked.provide({
    actors: {
      socketSession: fromCallback(({ receive }) => receive((c) => void commands.push(c))) as never,
      loadModes: fromPromise(() => new Promise(() => {})) as never,
      loadSettings: fromPromise(async () => null) as never,
      // No clock: the duration is not what these paths walk.
      clock: fromCallback(() => undefined) as never,
    },
  });
  const actor = createActor(machine, { input: PANEL_INPUT }).start();
  const exec: Record<string, (step: { event: AnyEventObject }) => Promise<void>> = {};
  for (const e of events) {
    exec[e.type] = async ({ event }) => {
      actor.send(event as HybridDiscussionEvent);
      await flush();
    };
  }
  for (const [type, a] of Object.entries(AFTER))
    exec[type] = async () => void (await vi.advanceTimersByTimeAsync(a.ms));
  return { actor, exec, commands };
}

describe('hybrid discussion model (run region)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const model = new TestModel(clocked, {
    input: PANEL_INPUT,
    events,
    serializeState: serializeState as never,
    filterEvents: canHappen as never,
  } as never);
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every state of the run region', () => {
    const runValues = [...new Set(paths.map((p) => JSON.stringify((p.state as Snap).value.run)))].sort();
    expect(runValues).toEqual(
      [
        '"idle"',
        '"ended"',
        '"failed"',
        '{"session":"connecting"}',
        '{"session":"live"}',
        '{"session":"reconnecting"}',
        '{"session":"stopping"}',
        '{"session":"closing"}',
      ].sort(),
    );
  });

  it('reaches the time-out, the give-up and the fatal error', () => {
    const errors = new Set(paths.map((p) => (p.state as Snap).context.error));
    expect(errors).toContain('Connection timeout. Please try again.');
    expect(errors).toContain('Connection lost to Hybrid NLP/ACL. Please check server availability.');
    expect(errors).toContain('fatal');
  });

  replayPanelPaths<Snap>(paths, sut, ({ got, expected }) => {
    expect(got.value.run).toEqual(expected.value.run);
    expect(got.context.error).toEqual(expected.context.error);
    expect(got.context.run?.sessionId ?? null).toEqual(expected.context.run?.sessionId ?? null);
  });
});
