// The room's REST calls from the SPA (README 'Sharing and rooms'): the display name, an invite, accepting one; each
// answer checked by its schema; and the profile, Invite and /join charts provided with them (and the clipboard, the
// page's address).
import { fromPromise } from 'xstate';
import { inviteMachine } from '../machines/invite.machine';
import { joinMachine } from '../machines/join.machine';
import { profileMachine } from '../machines/profile.machine';
import type { ProfileUpdate, RoomRole } from '../schemas/rooms';
import type { Http } from './http';
import { lazyAsk } from './lazyAsk';

export function createRoomsApi({ request }: Http) {
  const enc = encodeURIComponent;
  const ask = lazyAsk(request);
  return {
    saveProfile: (body: ProfileUpdate) => ask('PATCH', '/auth/me', 'user', { json: body }),
    /** The discussion History lists for the run's session (the socket knows the session, the routes the id). */
    discussionIdOf: async (sessionId: string) => {
      const rows = await ask('GET', '/discussion/history', 'discussionHistory');
      const row = rows.find((r) => r.session_id === sessionId);
      if (!row) throw new Error('The discussion is not stored yet: try again in a moment.');
      return row.id;
    },
    createInvite: (discussionId: string, role: RoomRole) =>
      ask('POST', `/discussions/${enc(discussionId)}/invites`, 'inviteCreated', { json: { role } }),
    acceptInvite: (token: string) => ask('POST', `/invites/${enc(token)}/accept`, 'inviteAccepted'),
  };
}

export function createRoomsLogic(deps: {
  http: Http;
  /** The page's origin: an invite's `url` is a path, the link to paste is absolute. */
  origin?: () => string;
  writeClipboard?: (text: string) => Promise<void>;
}) {
  const api = createRoomsApi(deps.http);
  const origin = deps.origin ?? (() => window.location.origin);
  const writeClipboard = deps.writeClipboard ?? ((text: string) => navigator.clipboard.writeText(text));
  return {
    profile: profileMachine.provide({
      actors: {
        saveProfile: fromPromise(async ({ input }) => {
          const user = await api.saveProfile(input);
          return { display_name: user.display_name ?? input.display_name };
        }),
      },
    }),
    invite: inviteMachine.provide({
      actors: {
        createInvite: fromPromise(async ({ input }) => {
          const created = await api.createInvite(await api.discussionIdOf(input.sessionId), input.role);
          return { ...created, url: new URL(created.url, origin()).href };
        }),
        copyText: fromPromise(({ input }) => writeClipboard(input.text)),
      },
    }),
    join: joinMachine.provide({
      actors: {
        acceptInvite: fromPromise(({ input }) => api.acceptInvite(input.token)),
      },
    }),
  };
}
