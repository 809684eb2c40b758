// @vitest-environment jsdom
// The room's views (README 'Sharing and rooms'): the profile dialog in the whole app (the top bar's name, PATCH
// /auth/me), the Invite dialog over its chart, 'Here now' with the owner's controls, and a person's message bubble.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { inviteMachine } from '../../src/machines/invite.machine';
import { applyFrames, emptyFeed, humanAuthorOf, type FeedInput } from '../../src/model/feed';
import { kvValues } from '../../src/model/keyedVec';
import type { RoomState } from '../../src/model/room';
import { TurnBubble } from '../../src/ui/discussion/common/TurnBubble';
import { HereNow } from '../../src/ui/rooms/HereNow';
import { InviteDialog } from '../../src/ui/rooms/InviteDialog';
import { tokenExpiringIn } from '../support/tokens';
import { healthy, json, renderApp, warmLazyChunks } from './appHarness';

beforeAll(warmLazyChunks, 60_000);
afterEach(cleanup);

describe('profile dialog', () => {
  it('the top bar shows the display name; the dialog saves a new one with PATCH /auth/me', async () => {
    const patched: unknown[] = [];
    renderApp({
      token: tokenExpiringIn(Date.now(), 60 * 60_000, 'user-0123456789abcdef'),
      routes: {
        'GET /health': () => json(200, healthy),
        'GET /auth/me': () => json(200, { email: 'ada@example.com' }),
        'PATCH /auth/me': (init) => {
          const body = JSON.parse(String(init.body));
          patched.push(body);
          return json(200, { email: 'ada@example.com', display_name: body.display_name });
        },
        'GET /agents/': () => json(200, []),
        'GET /connections/': () => json(200, []),
        'GET /monitor/stats': () => json(200, {}),
      },
    });
    const name = await screen.findByRole('button', { name: 'Your display name: ada. Change it' }, { timeout: 15_000 });
    await waitFor(() => expect((name as HTMLButtonElement).disabled).toBe(false), { timeout: 15_000 });
    await userEvent.click(name);
    // The dialog is a lazy chunk: under a loaded machine its first import takes seconds.
    const dialog = await screen.findByRole('dialog', { name: 'Your profile' }, { timeout: 30_000 });
    expect(within(dialog).getByText(/never see your email \(ada@example.com\)/)).toBeTruthy();
    const field = within(dialog).getByLabelText('Display name');
    await userEvent.clear(field);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Say what others should call you.');
    await userEvent.type(field, 'Ada L.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByRole('button', { name: 'Your display name: Ada L.. Change it' }, { timeout: 10_000 });
    expect(patched).toEqual([{ display_name: 'Ada L.' }]);
    expect(screen.queryByRole('dialog', { name: 'Your profile' })).toBeNull();
  }, 60_000);
});

describe('Invite dialog', () => {
  it('a watcher’s link is made, shown once and copied', async () => {
    const copied: string[] = [];
    const actor = createActor(
      inviteMachine.provide({
        actors: {
          createInvite: fromPromise(async ({ input }) => ({
            id: 'i1',
            url: 'http://agora.test/join/abcdefgh1234',
            role: input.role,
          })),
          copyText: fromPromise(async ({ input }) => void copied.push(input.text)),
        },
      }),
    ).start();
    actor.send({ type: 'invite.open', sessionId: 'session_1' });
    render(<InviteDialog actor={actor} />);
    await userEvent.click(screen.getByRole('radio', { name: /^Watcher/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Create link' }));
    const link = (await screen.findByLabelText('Invite link')) as HTMLInputElement;
    expect(link.value).toBe('http://agora.test/join/abcdefgh1234');
    expect(screen.getByText('watcher')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await screen.findByText('The link is on the clipboard.');
    expect(copied).toEqual(['http://agora.test/join/abcdefgh1234']);
  });
});

const room: RoomState = {
  you: { user_id: 'u1', role: 'owner' },
  people: [
    { user_id: 'u1', display_name: 'Ada', role: 'owner', colour: '#0e7490', typing: false, seats: ['judge'] },
    { user_id: 'u2', display_name: 'Bea', role: 'participant', colour: '#c2410c', typing: true, seats: [] },
    { user_id: 'u3', display_name: 'Cy', role: 'watcher', colour: '#4d7c0f', typing: false, seats: [] },
  ],
};

describe('Here now', () => {
  it('lists names, roles, seats and a typing dot; the owner may seat a participant and remove anyone else', async () => {
    const sent: unknown[] = [];
    render(
      <HereNow
        room={room}
        owner
        seats={['judge']}
        onSeat={(seat, userId) => sent.push({ seat, userId })}
        onRemove={(userId) => sent.push({ remove: userId })}
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringMatching(/^Ada \(you\)owner, judge$/),
      expect.stringMatching(/^Beaparticipant/),
      expect.stringMatching(/^Cywatcher/),
    ]);
    expect(screen.getByRole('status', { name: 'Bea is typing' })).toBeTruthy();
    // Not for the owner's own row; no seat for a watcher.
    expect(within(items[0]).queryByRole('button')).toBeNull();
    expect(within(items[2]).queryByRole('button', { name: /seat/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: "Give the judge's seat to Bea" }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Cy' }));
    expect(sent).toEqual([{ seat: 'judge', userId: 'u2' }, { remove: 'u3' }]);
  });

  it('someone who is not the owner sees the list without controls', () => {
    render(
      <HereNow
        room={{ ...room, you: { user_id: 'u2', role: 'participant' } }}
        owner={false}
        seats={[]}
        onSeat={() => {}}
        onRemove={() => {}}
      />,
    );
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByText(/Bea \(you\)/)).toBeTruthy();
  });
});

describe('a person’s message', () => {
  it('shows its author’s name and colour, not “(you)”; the reader’s own card takes their name when it comes back', () => {
    const frames: FeedInput[] = [
      { type: 'human_message_local', id: 'h1', text: 'Mine', timestamp: '2026-01-01T00:00:00Z' },
      {
        type: 'room_message',
        message_id: 'm1',
        text: 'Mine',
        author: { user_id: 'u1', display_name: 'Ada', colour: '#0e7490' },
        at: '2026-01-01T00:00:00Z',
      },
      {
        type: 'room_message',
        message_id: 'm2',
        text: 'Theirs',
        author: { user_id: 'u2', display_name: 'Bea', colour: '#c2410c' },
        at: '2026-01-01T00:00:01Z',
      },
    ];
    const items = kvValues(applyFrames(emptyFeed, frames).items);
    expect(items.map((i) => humanAuthorOf(i))).toEqual([
      { name: 'Ada', colour: '#0e7490', mine: true },
      { name: 'Bea', colour: '#c2410c', mine: false },
    ]);
    render(
      <>
        {items.map((i) => (
          <TurnBubble key={i.id} item={i} look={{ color: '#333333', avatar: '?' }} />
        ))}
      </>,
    );
    const mine = screen.getByRole('article', { name: 'You' });
    expect(within(mine).getByText('Ada (you)')).toBeTruthy();
    const theirs = screen.getByRole('article', { name: 'Bea' });
    expect(theirs.className).toContain('turn--person');
    expect(theirs.style.getPropertyValue('--agent-color')).toBe('#c2410c');
  });
});
