import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createActor,
  fromCallback,
  fromPromise,
  setup,
  spawnChild,
  type AnyActorLogic,
  type AnyEventObject,
} from 'xstate';
import { createSocketFactory } from '../../src/services/socket';
import { createStandardDiscussionLogic } from '../../src/services/standardDiscussionActors';
import { inviteMachine } from '../../src/machines/invite.machine';
import { JOIN_INVALID_TEXT, joinMachine } from '../../src/machines/join.machine';
import { profileMachine } from '../../src/machines/profile.machine';
import { sessionMachine, type RestoredSession } from '../../src/machines/session.machine';
import { selectDisplayName } from '../../src/machines/session.selectors';
import * as roomSel from '../../src/machines/rooms.selectors';
import { kvValues } from '../../src/model/keyedVec';
import { CLOSE_REMOVED_FROM_ROOM, REMOVED_FROM_ROOM_TEXT, type RoomPerson } from '../../src/schemas/rooms';
import { fakeSockets } from '../support/fakeWebSocket';

// Rooms in the SPA (README 'Sharing and rooms'): the Invite, /join and profile charts, and the panel chart in a room
// (joined by an invite, who is here, typing, the owner's controls, removal).

const recorder = (log: AnyEventObject[]) =>
  fromCallback<AnyEventObject>(({ receive }) => {
    receive((event) => void log.push(event));
  });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('invite chart', () => {
  it('creates a link for the chosen role, copies it, and forgets it on close', async () => {
    const asked: unknown[] = [];
    const copied: string[] = [];
    const actor = createActor(
      inviteMachine.provide({
        actors: {
          createInvite: fromPromise(async ({ input }) => {
            asked.push(input);
            return { id: 'inv1', url: 'http://agora.test/join/tok123456', role: input.role };
          }),
          copyText: fromPromise(async ({ input }) => void copied.push(input.text)),
        },
      }),
    ).start();
    actor.send({ type: 'invite.open', sessionId: 'session_1' });
    actor.send({ type: 'invite.role', role: 'watcher' });
    actor.send({ type: 'invite.create' });
    expect(roomSel.selectIsInviteBusy(actor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual([{ sessionId: 'session_1', role: 'watcher' }]);
    expect(roomSel.selectInviteCreated(actor.getSnapshot())).toMatchObject({ role: 'watcher' });
    actor.send({ type: 'invite.copy' });
    await vi.advanceTimersByTimeAsync(0);
    expect(copied).toEqual(['http://agora.test/join/tok123456']);
    expect(roomSel.selectInviteCopy(actor.getSnapshot())).toBe('copied');
    actor.send({ type: 'invite.close' });
    expect(actor.getSnapshot().context.created).toBeNull();
  });

  it('says why a link could not be made and lets the owner try again', async () => {
    const actor = createActor(
      inviteMachine.provide({
        actors: { createInvite: fromPromise(async () => Promise.reject(new Error('Only the owner may do that.'))) },
      }),
    ).start();
    actor.send({ type: 'invite.open', sessionId: 'session_1' });
    actor.send({ type: 'invite.create' });
    await vi.advanceTimersByTimeAsync(0);
    expect(roomSel.selectInviteError(actor.getSnapshot())).toBe('Only the owner may do that.');
    expect(actor.getSnapshot().matches({ open: 'choosing' })).toBe(true);
  });
});

function underApp(logic: { join?: unknown; profile?: unknown }) {
  const standard: AnyEventObject[] = [];
  const hybrid: AnyEventObject[] = [];
  const app: AnyEventObject[] = [];
  const session: AnyEventObject[] = [];
  const parent = setup({
    actors: {
      standard: recorder(standard),
      hybrid: recorder(hybrid),
      app: recorder(app),
      session: recorder(session),
      sut: (logic.join ?? logic.profile) as AnyActorLogic,
    },
  }).createMachine({
    entry: [
      spawnChild('standard', { systemId: 'standardDiscussion' }),
      spawnChild('hybrid', { systemId: 'hybridDiscussion' }),
      spawnChild('app', { systemId: 'app' }),
      spawnChild('session', { systemId: 'session' }),
      spawnChild('sut', { id: 'sut', systemId: 'sut' }),
    ],
  });
  const root = createActor(parent).start();
  return { root, sut: root.system.get('sut'), standard, hybrid, app, session };
}

describe('join chart', () => {
  it('opens the token an address names, accepts it and attaches the hybrid panel with the role and endpoint, then shows it', async () => {
    const accepted: string[] = [];
    const { sut, standard, hybrid, app } = underApp({
      join: joinMachine.provide({
        actors: {
          acceptInvite: fromPromise(async ({ input }) => {
            accepted.push(input.token);
            return {
              discussion_id: 'd1',
              role: 'participant' as const,
              panel: 'hybrid' as const,
              endpoint: '/ws/hybrid',
            };
          }),
        },
      }),
    });
    sut.send({ type: 'join.open', token: 'abcDEF123_-x' });
    await vi.advanceTimersByTimeAsync(0);
    expect(accepted).toEqual(['abcDEF123_-x']);
    expect(hybrid).toEqual([
      { type: 'panel.room.join', discussionId: 'd1', role: 'participant', endpoint: '/ws/hybrid' },
    ]);
    expect(standard).toEqual([]);
    expect(app).toEqual([{ type: 'view.discussion.show', panel: 'hybrid' }]);
    expect(sut.getSnapshot().value).toBe('joined');
  });

  it('an unknown or expired invite says so, with the way back', async () => {
    const { sut, standard } = underApp({
      join: joinMachine.provide({
        actors: {
          acceptInvite: fromPromise(async () => Promise.reject({ status: 404, message: 'not found' })),
        },
      }),
    });
    sut.send({ type: 'join.open', token: 'abcDEF123' });
    await vi.advanceTimersByTimeAsync(0);
    expect(roomSel.selectJoinPage(sut.getSnapshot())).toBe('failed');
    expect(roomSel.selectJoinError(sut.getSnapshot())).toBe(JOIN_INVALID_TEXT);
    expect(standard).toEqual([]);
    sut.send({ type: 'join.dismiss' });
    expect(roomSel.selectJoinPage(sut.getSnapshot())).toBeNull();
  });
});

describe('profile chart', () => {
  it('refuses an empty name, saves a good one and tells the session', async () => {
    const saved: unknown[] = [];
    const { sut, session } = underApp({
      profile: profileMachine.provide({
        actors: {
          saveProfile: fromPromise(async ({ input }) => {
            saved.push(input);
            return { display_name: input.display_name };
          }),
        },
      }),
    });
    sut.send({ type: 'profile.open', current: 'ada' });
    expect(roomSel.selectProfileDraft(sut.getSnapshot())).toBe('ada');
    sut.send({ type: 'profile.change', name: '   ' });
    sut.send({ type: 'profile.save' });
    expect(roomSel.selectProfileError(sut.getSnapshot())).toBe('Say what others should call you.');
    expect(saved).toEqual([]);
    sut.send({ type: 'profile.change', name: '  Ada Lovelace ' });
    sut.send({ type: 'profile.save' });
    expect(roomSel.selectIsProfileSaving(sut.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(saved).toEqual([{ display_name: 'Ada Lovelace' }]);
    expect(session).toEqual([{ type: 'session.profile.saved', displayName: 'Ada Lovelace' }]);
    expect(roomSel.selectIsProfileOpen(sut.getSnapshot())).toBe(false);
  });

  it('keeps the dialog open with the reason when the server refuses', async () => {
    const { sut, session } = underApp({
      profile: profileMachine.provide({
        actors: { saveProfile: fromPromise(async () => Promise.reject(new Error('HTTP 422: too long'))) },
      }),
    });
    sut.send({ type: 'profile.open', current: 'ada' });
    sut.send({ type: 'profile.save' });
    await vi.advanceTimersByTimeAsync(0);
    expect(roomSel.selectProfileError(sut.getSnapshot())).toBe('HTTP 422: too long');
    expect(sut.getSnapshot().matches({ open: 'editing' })).toBe(true);
    expect(session).toEqual([]);
  });
});

describe('session: the display name', () => {
  it('defaults to the email before @, and takes the name the profile saved', async () => {
    const session = createActor(
      sessionMachine.provide({
        actors: {
          restoreSession: fromPromise<RestoredSession | null>(async () => ({
            token: 't',
            user: { email: 'bea.smith@example.com' },
            claims: { sub: 'u2', exp: 4_000_000_000 },
          })),
          sessionTicker: fromCallback(() => undefined),
        },
        actions: { persistLogin: () => undefined, clearStoredLogin: () => undefined },
      }),
      { input: {} },
    ).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(selectDisplayName(session.getSnapshot())).toBe('bea.smith');
    session.send({ type: 'session.profile.saved', displayName: 'Bea' });
    expect(selectDisplayName(session.getSnapshot())).toBe('Bea');
    expect(session.getSnapshot().matches({ authenticated: 'valid' })).toBe(true);
    session.stop();
  });
});

// ---- the panel chart in a room -------------------------------------------------------------------------------

function panel() {
  const sockets = fakeSockets();
  const fromSocket = createSocketFactory({
    wsBase: 'ws://test',
    getToken: () => 'tok',
    WebSocket: sockets.Ctor,
    debug: () => {},
  });
  const logic = createStandardDiscussionLogic({
    fromSocket,
    probeEndpoint: fromPromise(async () => true),
    getAgent: async (id) => ({ id, name: `Agent ${id}` }),
    settings: { load: () => null, save: () => {} },
    saveFile: () => {},
    log: () => {},
  });
  const actor = createActor(logic, { input: { token: 'tok' } }).start();
  return { actor, sockets };
}

const person = (user_id: string, role: RoomPerson['role'], extra: Partial<RoomPerson> = {}): RoomPerson => ({
  user_id,
  display_name: `Name ${user_id}`,
  role,
  colour: '#0e7490',
  typing: false,
  seats: [],
  ...extra,
});
const people = (you: RoomPerson, others: RoomPerson[]) => ({
  type: 'room_people',
  people: [you, ...others],
  you: { user_id: you.user_id, role: you.role },
});

async function joined(role: 'participant' | 'watcher', endpoint = '/ws/enhanced') {
  const p = panel();
  p.actor.send({ type: 'panel.room.join', discussionId: 'd1', role, endpoint });
  await vi.advanceTimersByTimeAsync(0);
  const ws = p.sockets.last(endpoint);
  ws.serverOpen();
  return { ...p, ws };
}

describe('the panel in a room', () => {
  it('a joined run attaches with room_join first (again on a reconnect), on the endpoint the invite named', async () => {
    const { actor, ws, sockets } = await joined('participant');
    expect(ws.sent[0]).toEqual({ type: 'room_join', discussion_id: 'd1' });
    expect(actor.getSnapshot().hasTag('live')).toBe(true);
    ws.serverClose(1006);
    await vi.advanceTimersByTimeAsync(2_000);
    const again = sockets.last('/ws/enhanced');
    expect(again).not.toBe(ws);
    again.serverOpen();
    expect(again.sent[0]).toEqual({ type: 'room_join', discussion_id: 'd1' });
    actor.stop();
  });

  it('keeps who is here from room_people; a participant talks and another person’s message shows under their name', async () => {
    const { actor, ws } = await joined('participant');
    ws.serverSend(people(person('u2', 'participant'), [person('u1', 'owner', { seats: ['judge'] })]));
    const s = actor.getSnapshot();
    expect(roomSel.selectRoom(s)?.people.map((p) => p.display_name)).toEqual(['Name u2', 'Name u1']);
    expect(roomSel.selectMyRole(s)).toBe('participant');
    expect(roomSel.selectMayTalk(s)).toBe(true);
    expect(roomSel.selectOwnsRoom(s)).toBe(false);

    actor.send({ type: 'panel.human.send', text: 'What about cost?' });
    expect(ws.sent.at(-1)).toMatchObject({ type: 'human_message', text: 'What about cost?' });
    // The server's echo names the author: the card already shown takes the name and colour, no second card.
    ws.serverSend({
      type: 'room_message',
      message_id: 'm1',
      text: 'What about cost?',
      author: { user_id: 'u2', display_name: 'Bea', colour: '#c2410c' },
      at: '2026-01-01T00:00:00Z',
    });
    ws.serverSend({
      type: 'room_message',
      message_id: 'm2',
      text: 'And time?',
      author: { user_id: 'u1', display_name: 'Ada', colour: '#0e7490' },
      at: '2026-01-01T00:00:01Z',
    });
    // A replay (reconnect) changes nothing.
    ws.serverSend({
      type: 'room_message',
      message_id: 'm1',
      text: 'What about cost?',
      author: { user_id: 'u2', display_name: 'Bea', colour: '#c2410c' },
      at: '2026-01-01T00:00:00Z',
    });
    const humans = kvValues(actor.getSnapshot().context.feed.items).filter((i) => i.kind === 'human');
    expect(humans.map((i) => [i.agentName, i.content])).toEqual([
      ['Bea', 'What about cost?'],
      ['Ada', 'And time?'],
    ]);
    actor.stop();
  });

  it('a watcher sends no message and no typing', async () => {
    const { actor, ws } = await joined('watcher');
    ws.serverSend(people(person('u3', 'watcher'), [person('u1', 'owner')]));
    const before = ws.sent.length;
    expect(roomSel.selectMayTalk(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'panel.human.send', text: 'Hello?' });
    actor.send({ type: 'panel.room.typing' });
    expect(ws.sent.length).toBe(before);
    actor.stop();
  });

  it('typing is throttled: a burst of keys is one `true` and, after a quiet spell, one `false`', async () => {
    const { actor, ws } = await joined('participant');
    ws.serverSend(people(person('u2', 'participant'), [person('u1', 'owner')]));
    for (let i = 0; i < 10; i++) {
      actor.send({ type: 'panel.room.typing' });
      await vi.advanceTimersByTimeAsync(500);
    }
    const typing = () => ws.sent.filter((f) => (f as { type: string }).type === 'room_typing');
    expect(typing()).toEqual([{ type: 'room_typing', typing: true }]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(typing()).toEqual([
      { type: 'room_typing', typing: true },
      { type: 'room_typing', typing: false },
    ]);
    actor.stop();
  });

  it('the owner gives a seat and removes a person; a participant cannot', async () => {
    const p = panel();
    p.actor.send({
      type: 'panel.resume',
      sessionId: 'session_1',
      endpoint: 'basic',
      agentIds: ['a1', 'a2'],
      context: 'Tea?',
    });
    await vi.advanceTimersByTimeAsync(0);
    const ws = p.sockets.last('/ws/discuss');
    ws.serverOpen();
    ws.serverSend(people(person('u1', 'owner'), [person('u2', 'participant'), person('u3', 'watcher')]));
    expect(roomSel.selectOwnsRoom(p.actor.getSnapshot())).toBe(true);
    p.actor.send({ type: 'panel.room.seat', seat: 'judge', userId: 'u2' });
    p.actor.send({ type: 'panel.room.remove', userId: 'u3' });
    expect(ws.sent.slice(-2)).toEqual([
      { type: 'room_seat', seat: 'judge', user_id: 'u2' },
      { type: 'room_remove', user_id: 'u3' },
    ]);
    p.actor.stop();

    const { actor, ws: mine } = await joined('participant');
    mine.serverSend(people(person('u2', 'participant'), [person('u1', 'owner'), person('u3', 'watcher')]));
    const before = mine.sent.length;
    actor.send({ type: 'panel.room.remove', userId: 'u3' });
    actor.send({ type: 'panel.room.seat', seat: 'judge', userId: 'u2' });
    expect(mine.sent.length).toBe(before);
    actor.stop();
  });

  it('a removed person is told plainly and the socket is not retried', async () => {
    const { actor, ws, sockets } = await joined('watcher');
    ws.serverSend(people(person('u3', 'watcher'), [person('u1', 'owner')]));
    ws.serverClose(CLOSE_REMOVED_FROM_ROOM, REMOVED_FROM_ROOM_TEXT);
    await vi.advanceTimersByTimeAsync(10_000);
    const s = actor.getSnapshot();
    expect(s.matches({ run: 'ended' })).toBe(true);
    expect(s.context.error).toBe(REMOVED_FROM_ROOM_TEXT);
    expect(s.context.room).toBeNull();
    expect(sockets.on('/ws/enhanced')).toHaveLength(1);
    actor.stop();
  });

  it('Leave closes a joined run’s socket without asking the server to stop the discussion', async () => {
    const { actor, ws } = await joined('participant');
    actor.send({ type: 'panel.stop' });
    await vi.advanceTimersByTimeAsync(0);
    expect(ws.sent.some((f) => (f as { type: string }).type === 'stop')).toBe(false);
    expect(ws.closedByClient?.code).toBe(1000);
    actor.stop();
  });
});

describe('the judge’s vote in a room', () => {
  it('names the seat holder the server names; the person’s own vote still says You', async () => {
    const { formatRowText } = await import('../../src/model/feed/formatRows');
    const vote = {
      type: 'vote',
      voter_id: 'human',
      side: 'for',
      confidence: 0.7,
      phase: 'before',
      reason: '',
    } as const;
    expect(formatRowText({ ...vote, voter_name: 'Bea' } as never)).toBe('Bea votes For (70%) before the debate.');
    expect(formatRowText({ ...vote, voter_name: 'You' } as never)).toBe('You vote For (70%) before the debate.');
    expect(formatRowText(vote as never)).toBe('You vote For (70%) before the debate.');
  });
});
