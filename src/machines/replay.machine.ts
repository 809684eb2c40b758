// A replay's timeline (History → Replay): which moment is shown (turn 0 … turns), whether it plays and at what
// speed. The view shows the feed folded up to that turn (storedReplay.ts keeps one per turn) and only sends events.
// Playing steps one turn every 1 / (REPLAY_TURNS_PER_SECOND · speed) s and pauses at the end.
// While open, two regions:
//   timeline — paused | playing
//   address  — settling | settled: a moment that stays ADDRESS_SETTLE_MS becomes the settled turn (checked when the
//              wait ends, so within two waits of the last move), which the view
//              writes to the address as #t=<turn>. Not at every step: a history entry per step cost each step
//              time, and Chromium ignores a page's history calls past a few hundred in ten seconds (Play at 16×).
//              The settled turn, and closing, are reported to the navigation actor with the discussion's id
//              (/discussions/{id}/replay#t=<turn>, then /discussions/{id}); History invokes the replay.
import { assign, enqueueActions, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { reportRoute } from './kit/navigation';
import { type REPLAY_SPEEDS, REPLAY_TURNS_PER_SECOND } from '../schemas/constants';

export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

export interface ReplayContext {
  /** The last turn (moments run 0 … turns). */
  turns: number;
  turn: number;
  speed: ReplaySpeed;
  /** The turn the address names: the last one that stayed ADDRESS_SETTLE_MS; null until one has. */
  settledTurn: number | null;
  /** The turn the address region's wait is for (it starts again when the turn moves). */
  settlingTurn: number;
  /** The stored discussion replayed (what the address names); null when it has none. */
  discussionId: string | null;
  /** Open at start (an address named the replay); cleared once it has opened. */
  openAtStart: boolean;
}

export interface ReplayInput {
  turns: number;
  turn?: number;
  discussionId?: string | null;
  /** Start open at `turn` (an address named this moment). */
  open?: boolean;
}

/** How long a moment stays before the address names it. */
export const ADDRESS_SETTLE_MS = 150;

export type ReplayEvent =
  | { type: 'replay.seek'; turn: number }
  | { type: 'replay.step'; by: number }
  | { type: 'replay.play' }
  | { type: 'replay.pause' }
  | { type: 'replay.speed'; speed: ReplaySpeed }
  | { type: 'replay.open'; turn?: number }
  | { type: 'replay.close' };

const clampTurn = (turns: number, t: number) => (Number.isFinite(t) ? Math.min(turns, Math.max(0, Math.round(t))) : 0);

export const replayMachine = setup({
  types: { context: {} as ReplayContext, events: {} as ReplayEvent, input: {} as ReplayInput },
  actions: {
    seek: assign({
      turn: ({ context, event }) =>
        event.type === 'replay.seek' || (event.type === 'replay.open' && event.turn !== undefined)
          ? clampTurn(context.turns, event.turn!)
          : context.turn,
    }),
    step: assign({
      turn: ({ context, event }) =>
        event.type === 'replay.step' ? clampTurn(context.turns, context.turn + event.by) : context.turn,
    }),
    advance: assign({ turn: ({ context }) => clampTurn(context.turns, context.turn + 1) }),
    rewindIfAtEnd: assign({ turn: ({ context }) => (context.turn >= context.turns ? 0 : context.turn) }),
    markSettling: assign({ settlingTurn: ({ context }) => context.turn }),
    settle: assign({ settledTurn: ({ context }) => context.turn }),
    reportMoment: enqueueActions(({ context, system }) => {
      if (context.discussionId !== null)
        reportRoute(system, { kind: 'replay', id: context.discussionId, turn: context.turn });
    }),
    reportClosed: enqueueActions(({ context, system }) => {
      if (context.discussionId !== null) reportRoute(system, { kind: 'discussion', id: context.discussionId });
    }),
    forgetOpenAtStart: assign({ openAtStart: false }),
    setSpeed: assign({ speed: ({ context, event }) => (event.type === 'replay.speed' ? event.speed : context.speed) }),
  },
  guards: {
    atEnd: ({ context }) => context.turn >= context.turns,
    movedWhileSettling: ({ context }) => context.turn !== context.settlingTurn,
    movedSinceSettled: ({ context }) => context.turn !== context.settledTurn,
  },
  delays: {
    ADDRESS_SETTLE_MS,
    stepDelay: ({ context }) => 1000 / (REPLAY_TURNS_PER_SECOND * context.speed),
  },
}).createMachine({
  id: 'replay',
  context: ({ input }) => ({
    turns: Math.max(0, input.turns),
    turn: clampTurn(Math.max(0, input.turns), input.turn ?? 0),
    speed: 1,
    settledTurn: null,
    settlingTurn: 0,
    discussionId: input.discussionId ?? null,
    openAtStart: input.open === true,
  }),
  initial: 'closed',
  states: {
    closed: {
      always: { guard: ({ context }) => context.openAtStart, target: 'open', actions: 'forgetOpenAtStart' },
      on: { 'replay.open': { target: 'open', actions: 'seek' } },
    },
    open: {
      type: 'parallel',
      on: {
        'replay.seek': { actions: 'seek' },
        'replay.step': { actions: 'step' },
        'replay.speed': { actions: 'setSpeed' },
        // An address that names another moment of the replay already open (Back, Forward).
        'replay.open': { actions: 'seek' },
        'replay.close': { target: 'closed', actions: 'reportClosed' },
      },
      states: {
        timeline: {
          initial: 'paused',
          states: {
            paused: {
              on: { 'replay.play': { target: 'playing', actions: 'rewindIfAtEnd' } },
            },
            playing: {
              always: { guard: 'atEnd', target: 'paused' },
              after: { stepDelay: { target: 'playing', reenter: true, actions: 'advance' } },
              on: {
                'replay.pause': { target: 'paused' },
                // A new speed takes effect at once: the wait restarts with the new delay.
                'replay.speed': { target: 'playing', reenter: true, actions: 'setSpeed' },
              },
            },
          },
        },
        address: {
          initial: 'settling',
          states: {
            settling: {
              entry: 'markSettling',
              // The wait is checked when it ends, not restarted at every step (re-entering this state per step was
              // part of each step's work): a moment that moved meanwhile waits again; one that stayed settles, so the
              // address names it between one and two waits after the last move.
              after: {
                ADDRESS_SETTLE_MS: [
                  { guard: 'movedWhileSettling', target: 'settling', reenter: true },
                  { target: 'settled', actions: ['settle', 'reportMoment'] },
                ],
              },
            },
            settled: {
              always: { guard: 'movedSinceSettled', target: 'settling' },
            },
          },
        },
      },
    },
  },
});

export type ReplaySnapshot = SnapshotFrom<typeof replayMachine>;
export type ReplayActorRef = ActorRefFrom<typeof replayMachine>;
export const selectReplayTurn = (s: ReplaySnapshot) => s.context.turn;
export const selectReplayTurns = (s: ReplaySnapshot) => s.context.turns;
export const selectReplaySpeed = (s: ReplaySnapshot) => s.context.speed;
export const selectReplayPlaying = (s: ReplaySnapshot) => s.matches({ open: { timeline: 'playing' } });
/** The turn the address should name (#t=<turn>), once a moment has stayed; null before. */
export const selectReplaySettledTurn = (s: ReplaySnapshot) => s.context.settledTurn;
export const selectReplayOpen = (s: ReplaySnapshot) => s.matches('open');
