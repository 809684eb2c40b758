// A format's wait note in a room (src/model/room.ts noteForReader): the server words it for the person the format
// waits for; a watcher, a participant without the seat, or the owner who gave the seat away reads whom it waits for.
import { describe, expect, it } from 'vitest';
import { emptyFeed } from '../../src/model/feed';
import { selectMessages } from '../../src/model/feedSelectors';
import { incomingAfter } from '../../src/model/discussionSocket';
import { noteForReader, type RoomState } from '../../src/model/room';
import type { RoomPerson } from '../../src/schemas/rooms';

const person = (user_id: string, display_name: string, role: RoomPerson['role'], seats: RoomPerson['seats'] = []) =>
  ({ user_id, display_name, role, seats, colour: '#123456', typing: false }) satisfies RoomPerson;
const judgeNote = {
  type: 'format_note' as const,
  kind: 'judge' as const,
  text: 'Waiting for your vote as judge before the debate: For or Against, with your confidence.',
};
const floorNote = {
  type: 'format_note' as const,
  kind: 'waiting' as const,
  text: 'Waiting for you to give the floor: choose who speaks, or @mention an agent.',
};
const room = (you: string, people: RoomPerson[]): RoomState => ({
  people,
  you: { user_id: you, role: people.find((p) => p.user_id === you)!.role },
});

describe('a format wait note in a room', () => {
  const ada = person('u-ada', 'Ada', 'owner');
  const bo = person('u-bo', 'Bo', 'participant');
  const cy = person('u-cy', 'Cy', 'watcher');

  it('is said to the person it waits for as the server words it', () => {
    expect(noteForReader(null, judgeNote)).toBe(judgeNote);
    expect(noteForReader(room('u-ada', [ada, bo, cy]), judgeNote)).toBe(judgeNote);
    const boJudges = [ada, { ...bo, seats: ['judge' as const] }, cy];
    expect(noteForReader(room('u-bo', boJudges), judgeNote)).toBe(judgeNote);
    // The owner keeps the moderator's seat when only the judge's was given away.
    expect(noteForReader(room('u-ada', boJudges), floorNote)).toBe(floorNote);
  });

  it('names whom it waits for to everyone else', () => {
    expect(noteForReader(room('u-cy', [ada, bo, cy]), judgeNote).text).toBe('Waiting for Ada to vote as judge.');
    expect(noteForReader(room('u-bo', [ada, bo, cy]), floorNote).text).toBe('Waiting for Ada to give the floor.');
    const boJudges = [ada, { ...bo, seats: ['judge' as const] }, cy];
    expect(noteForReader(room('u-ada', boJudges), judgeNote).text).toBe('Waiting for Bo to vote as judge.');
    expect(noteForReader(room('u-cy', boJudges), judgeNote).text).toBe('Waiting for Bo to vote as judge.');
    // The owner has left the room: the seat is named, not a person.
    expect(noteForReader(room('u-cy', [bo, cy]), judgeNote).text).toBe("Waiting for the judge's vote.");
    expect(noteForReader(room('u-cy', [bo, cy]), floorNote).text).toBe('Waiting for the moderator to give the floor.');
  });

  it('is said to no one in particular to someone who joined, before the room first says who is here', () => {
    expect(noteForReader(null, judgeNote, true).text).toBe("Waiting for the judge's vote.");
    expect(noteForReader(null, floorNote, true).text).toBe('Waiting for the moderator to give the floor.');
  });

  it('leaves every other frame as it is', () => {
    const ask = { type: 'format_note' as const, kind: 'ask' as const, text: 'Moderator asks you: why?' };
    expect(noteForReader(room('u-cy', [ada, bo, cy]), ask)).toBe(ask);
    const text = { type: 'text', id: 'm1', from_id: 'a', from: 'Ada', text: 'Hi', turn: 1 };
    expect(noteForReader(room('u-cy', [ada, bo, cy]), text)).toBe(text);
  });

  it("is what the watcher's feed shows", () => {
    const state = incomingAfter({ feed: emptyFeed, error: null, room: room('u-cy', [ada, bo, cy]) }, {
      ...judgeNote,
      timestamp: '2026-11-29T00:00:00Z',
    } as never);
    expect(selectMessages(state.feed).map((m) => m.content)).toEqual(['Waiting for Ada to vote as judge.']);
  });
});
