// What the room's views derive: the profile, Invite and /join charts' snapshots, and a panel's room (who is here,
// what the reader is in it).
import { hasOthers, mayTalk, ownsRoom, roleOf, seatsOf } from '../model/room';
import type { HybridDiscussionSnapshot, StandardDiscussionSnapshot } from './discussionPanel.machine';
import type { InviteSnapshot } from './invite.machine';
import type { JoinSnapshot } from './join.machine';
import type { ProfileSnapshot } from './profile.machine';

export const selectIsProfileOpen = (s: ProfileSnapshot) => s.matches('open');
export const selectIsProfileSaving = (s: ProfileSnapshot) => s.hasTag('saving');
export const selectProfileDraft = (s: ProfileSnapshot) => s.context.draft;
export const selectProfileError = (s: ProfileSnapshot) => s.context.error;

export const selectIsInviteOpen = (s: InviteSnapshot) => s.matches('open');
export const selectIsInviteBusy = (s: InviteSnapshot) => s.hasTag('busy');
export const selectInviteRole = (s: InviteSnapshot) => s.context.role;
export const selectInviteCreated = (s: InviteSnapshot) => s.context.created;
export const selectInviteError = (s: InviteSnapshot) => s.context.error;
export const selectInviteCopy = (s: InviteSnapshot) =>
  s.matches({ open: { created: 'copied' } })
    ? 'copied'
    : s.matches({ open: { created: 'copyFailed' } })
      ? 'failed'
      : s.matches({ open: { created: 'copying' } })
        ? 'copying'
        : 'idle';

/** The /join page shows while an invite is being accepted or was refused. */
export const selectJoinPage = (s: JoinSnapshot) =>
  s.matches('accepting') ? 'accepting' : s.matches('failed') ? 'failed' : null;
export const selectJoinError = (s: JoinSnapshot) => s.context.error;

type Panel = StandardDiscussionSnapshot | HybridDiscussionSnapshot;
export const selectRoom = (s: Panel) => s.context.room;
/** A run joined by an invite (not the reader's own discussion). */
export const selectIsJoinedRun = (s: Panel) => !!s.context.run?.room;
export const selectMyRole = (s: Panel) => roleOf(s.context.room, s.context.run?.room);
/** The message box shows for the owner and participants; a watcher sees 'You are watching'. */
export const selectMayTalk = (s: Panel) => mayTalk(selectMyRole(s));
export const selectOwnsRoom = (s: Panel) => ownsRoom(s.context.room, s.context.run?.room);
/** 'Here now' shows once someone besides the reader is here (or the reader joined someone else's). */
export const selectShowsRoom = (s: Panel) => hasOthers(s.context.room) || selectIsJoinedRun(s);
/** The format's seats the reader holds in a room (their controls follow them); null outside a room. */
export const selectRoomSeats = (s: Panel) => (s.context.room ? seatsOf(s.context.room) : null);
/** The Invite button: the owner's own live run (a joined run invites nobody). */
export const selectMayInvite = (s: Panel) => s.hasTag('live') && !!s.context.run && !s.context.run.room;
/** The run's session, by which the Invite finds the stored discussion. */
export const selectInviteSessionId = (s: Panel) => s.context.run?.sessionId ?? null;
