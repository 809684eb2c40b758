// Model-based paths for the session: xstate/graph walks the chart, feeding the events its actors would produce
// (the restore answer, ticks at chosen times, the form's hand-over, logout, a 401), and every shortest path is
// replayed against a running session whose actors are test doubles driven by those same events.
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { sessionMachine, type RestoredSession, type SessionEvent } from '../../src/machines/session.machine';
import { loginFormMachine } from '../../src/machines/loginForm.machine';
import type { Health } from '../../src/schemas/system';
import { deferred, flush } from '../support/harness';
import { reachedValues, replayEachPath } from '../support/modelPaths';

type Snap = SnapshotFrom<typeof sessionMachine>;
type RestoreDone = { type: 'xstate.done.actor.restoreSession'; output: RestoredSession | null };
type RestoreFailed = { type: 'xstate.error.actor.restoreSession'; error: unknown };
type ModelEvent = SessionEvent | RestoreDone | RestoreFailed;

const EXP = 2_000_000_000; // seconds
const claims = { sub: 'user-1', exp: EXP };
const user = { email: 'ada@example.com' };
const restored: RestoredSession = { token: 'stored.token.x', user, claims };
const at = (msBeforeExpiry: number) => EXP * 1000 - msBeforeExpiry;

// One fixture list per event type; `satisfies` makes a new event without fixtures a type error.
const fixtures = {
  'xstate.done.actor.restoreSession': [
    { type: 'xstate.done.actor.restoreSession', output: restored },
    { type: 'xstate.done.actor.restoreSession', output: null },
  ],
  'xstate.error.actor.restoreSession': [{ type: 'xstate.error.actor.restoreSession', error: { status: 401 } }],
  'session.authenticated': [{ type: 'session.authenticated', token: 'new.token.x', user, claims }],
  'session.tick': [
    { type: 'session.tick', now: at(60 * 60_000) },
    { type: 'session.tick', now: at(7 * 60_000) },
    { type: 'session.tick', now: at(60_000) },
  ],
  'session.logout': [{ type: 'session.logout' }],
  'auth.expired': [{ type: 'auth.expired' }],
  'session.profile.saved': [{ type: 'session.profile.saved', displayName: 'Ada L.' }],
} satisfies { [K in ModelEvent['type']]: Extract<ModelEvent, { type: K }>[] };

const allEvents = Object.values(fixtures).flat() as ModelEvent[];

// Standalone (no parent, no toasts, no storage): those notices and writes are no-ops here; session.test.ts covers them.
const standalone = sessionMachine.provide({
  actors: {
    loginForm: loginFormMachine.provide({
      actors: { checkBackend: fromPromise<Health>(() => new Promise<never>(() => {})) },
    }),
  },
  actions: { persistLogin: () => undefined, clearStoredLogin: () => undefined },
});

function sut() {
  const restore = deferred<RestoredSession | null>();
  let tick: ((e: EventObject) => void) | null = null;
  const machine = standalone.provide({
    actors: {
      restoreSession: restore.logic,
      sessionTicker: fromCallback(({ sendBack }) => {
        tick = sendBack;
        return () => (tick = null);
      }),
    },
  });
  const actor = createActor(machine, { input: {} }).start();
  return {
    actor,
    exec: {
      'xstate.done.actor.restoreSession': async ({ event }: { event: ModelEvent }) => {
        restore.resolve((event as RestoreDone).output);
        await flush();
      },
      'xstate.error.actor.restoreSession': async ({ event }: { event: ModelEvent }) => {
        restore.reject((event as RestoreFailed).error);
        await flush();
      },
      // The ticker exists only while authenticated; the time reaches the session through it.
      'session.tick': async ({ event }: { event: ModelEvent }) => void tick!(event),
      // What the sign-in form sends its parent after the success delay.
      'session.authenticated': async ({ event }: { event: ModelEvent }) => actor.send(event as SessionEvent),
      'session.logout': async () => actor.send({ type: 'session.logout' }),
      'auth.expired': async () => actor.send({ type: 'auth.expired' }),
      'session.profile.saved': async ({ event }: { event: ModelEvent }) => actor.send(event as SessionEvent),
    } satisfies Record<ModelEvent['type'], unknown>,
  };
}

describe('session model', () => {
  const model = new TestModel(standalone, {
    events: allEvents,
    serializeState: ((s: Snap) => JSON.stringify([s.value, s.context.token])) as never,
    filterEvents: ((s: Snap, e: ModelEvent) => {
      if (e.type.startsWith('xstate.')) return s.matches('loading');
      // It changes only the user's name, in no state of its own (rooms.test.ts covers it).
      if (e.type === 'session.profile.saved') return false;
      if (e.type === 'session.tick') return s.matches('authenticated');
      if (e.type === 'session.authenticated') return s.matches('loggedOut');
      return true;
    }) as never,
  } as never);
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every state the chart has', () => {
    expect(reachedValues(paths)).toEqual(
      ['"loading"', '"loggedOut"', '{"authenticated":"valid"}', '{"authenticated":"expiringSoon"}'].sort(),
    );
  });

  replayEachPath<Snap>(paths, sut, (got, expected) => {
    expect(got.value).toEqual(expected.value);
    expect(got.context).toEqual(expected.context);
    expect(got.hasTag('expiringSoon')).toBe(expected.hasTag('expiringSoon'));
  });
});
