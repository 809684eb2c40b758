// The Invite dialog (README 'Sharing and rooms'): the owner of a running discussion makes a link for another
// signed-in user of this server, as a participant (talks, votes when the format gives a person a vote) or a watcher
// (sees it live). The link (`/join/{token}`) is shown once, with Copy.
//   closed → open: choosing ⇄ creating → created (copy: idle | copying → copied | copyFailed); a failure says why
import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { InviteCreated, RoomRole } from '../schemas/rooms';
import { notProvided } from './kit/actorKit';

export interface InviteContext {
  /** The run's session: the discussion the server stored for it is the one invited to. */
  sessionId: string | null;
  role: RoomRole;
  /** The link just made (its `url` absolute, ready to paste). */
  created: InviteCreated | null;
  error: string | null;
}

export type InviteEvent =
  | { type: 'invite.open'; sessionId: string }
  | { type: 'invite.close' }
  | { type: 'invite.role'; role: RoomRole }
  | { type: 'invite.create' }
  | { type: 'invite.copy' }
  /** Another link (another role): back to the choice. */
  | { type: 'invite.again' };

const errorText = (e: unknown) => (e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong');

export const inviteMachine = setup({
  types: { context: {} as InviteContext, events: {} as InviteEvent, tags: {} as 'busy' },
  actors: {
    /** POST /discussions/{id}/invites { role } → 201 { id, url, role }, for the discussion stored for the session. */
    createInvite: fromPromise<InviteCreated, { sessionId: string; role: RoomRole }>(
      notProvided('invite', 'createInvite'),
    ),
    copyText: fromPromise<void, { text: string }>(notProvided('invite', 'copyText')),
  },
}).createMachine({
  id: 'invite',
  context: { sessionId: null, role: 'participant', created: null, error: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'invite.open': {
          target: 'open',
          actions: assign(({ event }) => ({ sessionId: event.sessionId, created: null, error: null })),
        },
      },
    },
    open: {
      initial: 'choosing',
      on: { 'invite.close': 'closed' },
      // The link is shown once: closing forgets it.
      exit: assign({ created: null }),
      states: {
        choosing: {
          on: {
            'invite.role': { actions: assign(({ event }) => ({ role: event.role, error: null })) },
            'invite.create': 'creating',
          },
        },
        creating: {
          tags: 'busy',
          invoke: {
            src: 'createInvite',
            input: ({ context }) => ({ sessionId: context.sessionId ?? '', role: context.role }),
            onDone: { target: 'created', actions: assign(({ event }) => ({ created: event.output, error: null })) },
            onError: { target: 'choosing', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
        created: {
          on: { 'invite.again': { target: 'choosing', actions: assign({ created: null }) } },
          initial: 'idle',
          states: {
            idle: { on: { 'invite.copy': 'copying' } },
            copying: {
              invoke: {
                src: 'copyText',
                input: ({ context }) => ({ text: context.created?.url ?? '' }),
                onDone: 'copied',
                onError: 'copyFailed',
              },
            },
            copied: { on: { 'invite.copy': 'copying' } },
            copyFailed: { on: { 'invite.copy': 'copying' } },
          },
        },
      },
    },
  },
});

export type InviteActorRef = ActorRefFrom<typeof inviteMachine>;
export type InviteSnapshot = SnapshotFrom<typeof inviteMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    invite: InviteActorRef;
  }
}
