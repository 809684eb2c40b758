// @vitest-environment jsdom
// The hybrid panel's modes look like what they are: Structured draws each turn as its message card (the
// performative as a word, sender → receivers, what it says, what it answers), Hybrid the prose and the card,
// Natural the prose alone. Never raw markup.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyFrames, emptyFeed, type FeedInput } from '../../src/model/feed';
import { selectMessages } from '../../src/model/feedSelectors';
import { FeedRowView } from '../../src/ui/discussion/common/FeedRow';

afterEach(cleanup);

const PROSE = 'Honestly, I think the levy is too blunt; a targeted rebate would do more for the same money.';
const CLAIM = 'A targeted rebate beats a flat levy.';
const frames: FeedInput[] = [
  {
    type: 'agent_message',
    id: 'm2',
    agent_id: 'bo-1',
    agent_name: 'Bo',
    content: PROSE,
    message_type: 'hybrid',
    timestamp: '2026-11-22T09:00:00.000Z',
  } as FeedInput,
  {
    type: 'acl_message',
    performative: 'reject-proposal',
    sender: 'Bo',
    receiver: 'Ada',
    content: { topic: 't', claim: CLAIM, stance: 'oppose', confidence: 0.76, ontology: 'agora-discussion' },
    natural_language: PROSE,
    reply_to: { sender: 'Ada', excerpt: 'A flat levy on every trip is the simplest fix.' },
  } as FeedInput,
];

const row = (mode: string) => {
  const [item] = selectMessages(applyFrames(emptyFeed, frames));
  return render(
    <div className="discussion-panel">
      <FeedRowView item={item} mode={mode} />
    </div>,
  );
};

describe('hybrid modes', () => {
  it('Structured: the turn is a message card — verb, route, content, what it answers — and no prose or markup', () => {
    const { container } = row('structured');
    const card = screen.getByRole('group', { name: 'Rejects: Bo to Ada' });
    expect(card.querySelector('.acl-card__verb')?.textContent).toBe('Rejects');
    expect(card.querySelector('.acl-card__route')?.textContent?.replace(/\s+/g, ' ')).toBe('Bo → to Ada');
    expect(card.querySelector('.acl-card__content')?.textContent).toBe(CLAIM);
    expect(card.querySelector('.acl-card__answers')?.textContent).toBe(
      'In reply to Ada: A flat levy on every trip is the simplest fix.',
    );
    expect(card.querySelector('.acl-card__stated')?.textContent).toBe('against · 76 % sure');
    expect(container.querySelector('.message-card__text')).toBeNull();
    expect(container.textContent).not.toMatch(/[{}<>]|reject-proposal|ontology/);
    // The folded line does not repeat what the card says.
    expect(container.querySelector('.turn-details summary')?.textContent ?? '').not.toMatch(/rejects|sure/);
  });

  it('Hybrid: the prose and the card; Natural: the prose alone', () => {
    const hybrid = row('hybrid');
    expect(hybrid.container.querySelector('.message-card__text')?.textContent).toBe(PROSE);
    expect(screen.getByRole('group', { name: 'Rejects: Bo to Ada' })).toBeTruthy();
    cleanup();
    const natural = row('natural');
    expect(natural.container.querySelector('.message-card__text')?.textContent).toBe(PROSE);
    expect(natural.container.querySelector('.acl-card')).toBeNull();
  });
});
