// The profile dialog (README 'Sharing and rooms'): the display name others see in rooms and on shared pages, never
// the email. The top bar's name opens it with the name the session holds; Save sends PATCH /auth/me and, once the
// server took it, the session holds the new name.
//   closed → open.editing ⇄ open.saving (a refusal or a failed call stays open with the reason)
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { displayName, type ProfileUpdate } from '../schemas/rooms';
import { notProvided } from './kit/actorKit';
import { systemActor } from './kit/systemRegistry';

export interface ProfileContext {
  draft: string;
  error: string | null;
}

export type ProfileEvent =
  | { type: 'profile.open'; current: string }
  | { type: 'profile.close' }
  | { type: 'profile.change'; name: string }
  | { type: 'profile.save' };

/** The name as the server will take it, or the first problem in words. */
export function profileRequest(draft: string): { request: ProfileUpdate } | { problem: string } {
  const r = displayName.safeParse(draft);
  if (r.success) return { request: { display_name: r.data } };
  return { problem: draft.trim() ? 'A display name has at most 40 characters.' : 'Say what others should call you.' };
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong');

export const profileMachine = setup({
  types: { context: {} as ProfileContext, events: {} as ProfileEvent, tags: {} as 'saving' },
  actors: {
    /** PATCH /auth/me; resolves with the name the server keeps. */
    saveProfile: fromPromise<{ display_name: string }, ProfileUpdate>(notProvided('profile', 'saveProfile')),
  },
  guards: { isDraftValid: ({ context }) => 'request' in profileRequest(context.draft) },
  actions: {
    tellSession: enqueueActions(({ system, enqueue }, params: { displayName: string }) => {
      const session = systemActor(system, 'session');
      if (session) enqueue.sendTo(session, { type: 'session.profile.saved', displayName: params.displayName });
    }),
  },
}).createMachine({
  id: 'profile',
  context: { draft: '', error: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'profile.open': { target: 'open', actions: assign(({ event }) => ({ draft: event.current, error: null })) },
      },
    },
    open: {
      initial: 'editing',
      on: { 'profile.close': 'closed' },
      states: {
        editing: {
          on: {
            'profile.change': { actions: assign(({ event }) => ({ draft: event.name, error: null })) },
            'profile.save': [
              { guard: 'isDraftValid', target: 'saving' },
              {
                actions: assign(({ context }) => {
                  const r = profileRequest(context.draft);
                  return { error: 'problem' in r ? r.problem : null };
                }),
              },
            ],
          },
        },
        saving: {
          tags: 'saving',
          invoke: {
            src: 'saveProfile',
            input: ({ context }) => (profileRequest(context.draft) as { request: ProfileUpdate }).request,
            onDone: {
              target: '#profile.closed',
              actions: { type: 'tellSession', params: ({ event }) => ({ displayName: event.output.display_name }) },
            },
            onError: { target: 'editing', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
          },
        },
      },
    },
  },
});

export type ProfileActorRef = ActorRefFrom<typeof profileMachine>;
export type ProfileSnapshot = SnapshotFrom<typeof profileMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    profile: ProfileActorRef;
  }
}
