// The /join/{token} page (README 'Sharing and rooms'): a signed-in person accepts an invite (POST
// /invites/{token}/accept) and the panel the discussion runs in (standard or hybrid, as the answer says) attaches to
// it with the invite's role; the main screen shows that panel. An invite that is unknown, used up or expired says so,
// with a way back to the canvas.
//   reading (the address, provided) → idle | accepting → joined | failed
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { InviteAccepted } from '../schemas/rooms';
import { notProvided } from './kit/actorKit';
import { systemActor } from './kit/systemRegistry';

export interface JoinContext {
  token: string | null;
  error: string | null;
}

export type JoinEvent = { type: 'join.open'; token: string } | { type: 'join.dismiss' };

export const JOIN_INVALID_TEXT = 'This invite is not valid: it was used up, withdrawn or has expired.';

const errorText = (e: unknown) => {
  const status = (e as { status?: unknown } | null)?.status;
  if (status === 404 || status === 410) return JOIN_INVALID_TEXT;
  return e instanceof Error ? e.message : 'The invite could not be accepted';
};

export const joinMachine = setup({
  types: { context: {} as JoinContext, events: {} as JoinEvent, tags: {} as 'busy' },
  actors: {
    acceptInvite: fromPromise<InviteAccepted, { token: string }>(notProvided('join', 'acceptInvite')),
  },
  actions: {
    /** The panel that runs the discussion attaches to it, and the main screen shows it. */
    openRoom: enqueueActions(({ system, enqueue }, accepted: InviteAccepted) => {
      const join = {
        type: 'panel.room.join',
        discussionId: accepted.discussion_id,
        role: accepted.role,
        ...(accepted.endpoint ? { endpoint: accepted.endpoint } : {}),
      } as const;
      const hybrid = accepted.panel === 'hybrid' ? systemActor(system, 'hybridDiscussion') : undefined;
      const standard = accepted.panel === 'hybrid' ? undefined : systemActor(system, 'standardDiscussion');
      if (hybrid) enqueue.sendTo(hybrid, join);
      if (standard) enqueue.sendTo(standard, join);
      const app = systemActor(system, 'app');
      if (app) enqueue.sendTo(app, { type: 'view.discussion.show', panel: accepted.panel });
      // The invite is spent: the address leaves /join/… for the main screen (a reload does not accept it again).
      const navigation = systemActor(system, 'navigation');
      if (navigation) enqueue.sendTo(navigation, { type: 'nav.home' });
    }),
  },
}).createMachine({
  id: 'join',
  context: { token: null, error: null },
  initial: 'idle',
  states: {
    idle: {},
    accepting: {
      tags: 'busy',
      invoke: {
        src: 'acceptInvite',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: { target: 'joined', actions: { type: 'openRoom', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
      },
    },
    joined: {},
    failed: { on: { 'join.dismiss': { target: 'idle', actions: assign({ token: null, error: null }) } } },
  },
  on: { 'join.open': { target: '.accepting', actions: assign(({ event }) => ({ token: event.token, error: null })) } },
});

export type JoinActorRef = ActorRefFrom<typeof joinMachine>;
export type JoinSnapshot = SnapshotFrom<typeof joinMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    join: JoinActorRef;
  }
}
