// @vitest-environment jsdom
// One turn, one bubble: the feed rows as a reader meets them — the agent's avatar and colour, name and
// role, the text once with its caret while it streams, and what the protocol added collapsed beneath it in plain
// words; light rows for what is not a turn; the Research tab's empty state and failure notice.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Agent } from '../../src/schemas/agents';
import { applyFrames, emptyFeed, type FeedInput } from '../../src/model/feed';
import { selectMessages } from '../../src/model/feedSelectors';
import { agentColor } from '../../src/model/agentIdentity';
import { workspaceMachine, type WorkspaceActorRef } from '../../src/machines/workspace.machine';
import { FeedRowView } from '../../src/ui/discussion/common/FeedRow';
import { ResearchList } from '../../src/ui/discussion/common/ResearchList';

afterEach(cleanup);

const CLAIM = 'Shared bikes would cut traffic on the bridge by a fifth.';
const turnFrames: FeedInput[] = [
  { type: 'agent_message_start', id: 'm1', agent_id: 'ada-1', agent_name: 'Ada Lovelace' },
  {
    type: 'agent_message',
    id: 'm1',
    agent_id: 'ada-1',
    agent_name: 'Ada Lovelace',
    agent_role: 'Planner',
    content: CLAIM,
    message_type: 'enhanced',
    confidence: 0.72,
    reasoning_chain: ['Count the trips', 'Compare with the bus'],
    formal_communications: [{ performative: 'query-if', receiver: 'Bo', content: { claim: CLAIM } }],
    audio_url: '/media/tts/m1.wav',
    timestamp: '2026-11-22T09:00:00.000Z',
  } as FeedInput,
  {
    type: 'acl_message',
    performative: 'query-if',
    sender: 'Ada Lovelace',
    receiver: 'Bo',
    content: { topic: 't', claim: CLAIM, stance: 'supports', confidence: 0.72, ontology: 'agora-discussion' },
    natural_language: CLAIM,
  },
  { type: 'request', from_agent: 'Ada Lovelace', to_agent: 'Bo', action: 'query-if', content: CLAIM },
  { type: 'delegation', delegation: { from: 'Ada Lovelace', to: 'Bo', task: 'check the bridge counts' } },
];

const rowsOf = (frames: FeedInput[], workspace?: WorkspaceActorRef) => {
  const items = selectMessages(applyFrames(emptyFeed, frames));
  return render(
    <div className="discussion-panel">
      {items.map((it) => (
        <FeedRowView key={it.id} item={it} workspace={workspace} />
      ))}
    </div>,
  );
};

describe('a turn is one bubble', () => {
  it('avatar, colour, name, role and text once; the protocol collapsed beneath in plain words', async () => {
    const { container } = rowsOf(turnFrames);
    const bubbles = screen.getAllByRole('article');
    expect(bubbles).toHaveLength(1);
    const b = bubbles[0];
    expect(b.getAttribute('aria-label')).toBe('Ada Lovelace');
    expect(b.querySelector('.turn__avatar')!.textContent).toBe('AL');
    expect(b.style.getPropertyValue('--agent-color')).toBe(agentColor({ id: 'ada-1' }));
    expect(within(b).getByText('Planner')).toBeTruthy();
    expect(within(b).getAllByText(CLAIM)).toHaveLength(1);
    expect(container.textContent!.split(CLAIM)).toHaveLength(2); // the ACL message and request did not repeat it
    // Collapsed: one short line, none of the protocol's words.
    const details = b.querySelector('details')!;
    expect(details.open).toBe(false);
    const summary = within(b).getByText((_, el) => el?.tagName === 'SUMMARY');
    expect(summary.textContent).toBe(
      'asks Bo whether… · hands over to Bo: check the bridge counts · in favour · 72% sure · 2 reasoning steps · audio clip',
    );
    expect(container.textContent).not.toMatch(/ENHANCED|\bACL\b|query-if|ontology|agora-discussion/i);
    expect(b.querySelector('audio')).toBeNull(); // built only when opened
    // Opened: the reasoning steps, the hand-over and the clip.
    await userEvent.setup().click(summary);
    expect(details.open).toBe(true);
    expect(within(b).getByText('Count the trips')).toBeTruthy();
    expect(within(b).getByText('Compare with the bus')).toBeTruthy();
    expect(within(b).getByText('Hands over to Bo: check the bridge counts')).toBeTruthy();
    expect(b.querySelector('audio')!.getAttribute('src')).toBe('/media/tts/m1.wav');
  });

  it('while it streams: the text grows with a caret, the screen reader hears "still writing", no extras yet', () => {
    rowsOf([turnFrames[0], { type: 'agent_message_delta', id: 'm1', delta: 'Shared bikes' }]);
    const b = screen.getByRole('article', { name: 'Ada Lovelace' });
    expect(b.getAttribute('aria-busy')).toBe('true');
    expect(b.querySelector('.message-card__text')!.textContent).toBe('Shared bikes');
    expect(b.querySelector('.typing-caret')).toBeTruthy();
    expect(within(b).getByText('(still writing)')).toBeTruthy();
    expect(b.querySelector('details')).toBeNull();
  });

  it('takes the colour and avatar the workspace gives the agent', async () => {
    const ada = { id: 'ada-1', name: 'Ada Lovelace', role: 'Planner', color: '#0E7490', avatar: '🦉' } as Agent;
    const workspace = createActor(
      workspaceMachine.provide({
        actors: {
          loadAgents: fromPromise(async () => [ada]),
          loadConnections: fromPromise(async () => [] as { id: string; source: string; target: string }[]),
        },
      }),
    ).start();
    await waitFor(() => expect(workspace.getSnapshot().context.agents).toHaveLength(1));
    rowsOf(turnFrames, workspace as unknown as WorkspaceActorRef);
    const b = screen.getByRole('article', { name: 'Ada Lovelace' });
    expect(b.querySelector('.turn__avatar')!.textContent).toBe('🦉');
    expect(b.style.getPropertyValue('--agent-color')).toBe('#0e7490');
    workspace.stop();
  });

  it("says 'demo model' beside the name of an agent on the offline model, from the workspace or the stored record", async () => {
    const ada = { id: 'ada-1', name: 'Ada Lovelace', role: 'Planner', model: 'offline' } as Agent;
    const workspace = createActor(
      workspaceMachine.provide({
        actors: {
          loadAgents: fromPromise(async () => [ada]),
          loadConnections: fromPromise(async () => [] as { id: string; source: string; target: string }[]),
        },
      }),
    ).start();
    await waitFor(() => expect(workspace.getSnapshot().context.agents).toHaveLength(1));
    rowsOf(turnFrames, workspace as unknown as WorkspaceActorRef);
    const live = screen.getByRole('article', { name: 'Ada Lovelace' });
    expect(within(live).getByText('demo model')).toBeTruthy();
    cleanup();
    workspace.stop();
    // A stored discussion says what the agent spoke with then, whatever it uses now.
    const item = selectMessages(applyFrames(emptyFeed, turnFrames))[0];
    render(<FeedRowView item={item} participants={[{ id: 'ada-1', name: 'Ada Lovelace', model: '@c/walk-sim-7b' }]} />);
    expect(within(screen.getByRole('article', { name: 'Ada Lovelace' })).queryByText('demo model')).toBeNull();
    cleanup();
    render(<FeedRowView item={item} participants={[{ id: 'ada-1', name: 'Ada Lovelace', model: 'offline' }]} />);
    expect(within(screen.getByRole('article', { name: 'Ada Lovelace' })).getByText('demo model')).toBeTruthy();
  });

  it('a multi-round argument and a stopped turn keep the agent role, from the workspace when the frames carry none', async () => {
    const ada = { id: 'ada-1', name: 'Ada Lovelace', role: 'Planner' } as Agent;
    const workspace = createActor(
      workspaceMachine.provide({
        actors: {
          loadAgents: fromPromise(async () => [ada]),
          loadConnections: fromPromise(async () => [] as { id: string; source: string; target: string }[]),
        },
      }),
    ).start();
    await waitFor(() => expect(workspace.getSnapshot().context.agents).toHaveLength(1));
    rowsOf(
      [
        {
          type: 'argument',
          argument: {
            id: 'arg-1',
            agent_id: 'ada-1',
            agent_name: 'Ada Lovelace',
            type: 'support',
            content: CLAIM,
            confidence: 0.6,
            supporting_evidence: [],
            parent_id: null,
            votes: { support: 0, oppose: 0 },
          },
        } as FeedInput,
        { type: 'agent_message_start', id: 'm2', agent_id: 'ada-1', agent_name: 'Ada Lovelace' },
        { type: 'agent_message_delta', id: 'm2', delta: 'Half a thought' } as FeedInput,
        { type: 'discussion_ended' } as FeedInput,
      ],
      workspace as unknown as WorkspaceActorRef,
    );
    const bubbles = screen.getAllByRole('article', { name: 'Ada Lovelace' });
    expect(bubbles).toHaveLength(2);
    for (const b of bubbles) expect(b.querySelector('.turn__role')?.textContent).toBe('Planner');
    expect(within(bubbles[1]).getByText('Stopped while writing.')).toBeTruthy();
    workspace.stop();
  });

  it("the human's message is a bubble on the right, named You, counted as a message", () => {
    rowsOf([
      {
        type: 'human_message_local',
        id: 'h1',
        text: 'Parking brings in money too.',
        timestamp: '2026-11-22T09:00:05.000Z',
      },
    ]);
    const mine = screen.getByRole('article', { name: 'You' });
    expect(mine.className).toContain('turn--human');
    expect(mine.querySelector('.turn__avatar')).toBeNull();
  });
});

describe('what is not a turn is a light row', () => {
  it('a round is a divider; consensus naming a turn does not repeat its words; an ACL message no turn took says what it did', () => {
    const { container } = rowsOf([
      { type: 'round_start', round: 1, max_rounds: 2 },
      turnFrames[1],
      {
        type: 'consensus_reached',
        score: 0.8,
        reached: true,
        consensus: { solution: CLAIM, confidence: 0.7, support_level: 0.66, dissenting_opinions: ['Bo: Wait'] },
        final_vote: { option_id: 'o1', label: 'Drip first', holders: 2, of: 3, score: 0.8 },
        dissent: [{ agent_name: 'Bo', label: 'Wait' }],
      },
      { type: 'discussion_ended', reason: 'completed' },
      {
        type: 'acl_message',
        performative: 'inform',
        sender: 'Cy',
        receiver: 'all',
        content: 'late',
        natural_language: 'A late remark.',
      },
    ]);
    expect(screen.getByRole('separator', { name: 'Round 1 of 2' })).toBeTruthy();
    const notes = screen.getAllByRole('note');
    expect(notes.map((n) => n.getAttribute('aria-label'))).toEqual(['Agreed (70 %)', 'Cy shares a view']);
    expect(notes[0].textContent).toContain('2 of 3 hold "Drip first" · strength 70 %. Dissent: Bo holds "Wait".');
    expect(container.textContent!.split(CLAIM)).toHaveLength(2);
  });
});

describe('the Research tab', () => {
  it('says research is off only when it is off, and a failed search is one quiet notice', () => {
    const { rerender } = render(<ResearchList papers={[]} researchOn={true} />);
    expect(screen.queryByText(/Turn on research/)).toBeNull();
    expect(screen.getByText(/Research is on/)).toBeTruthy();
    rerender(<ResearchList papers={[]} researchOn={false} />);
    expect(screen.getByText('Research is off')).toBeTruthy();
    expect(screen.getByText(/Turn on research in Advanced Settings/)).toBeTruthy();
    rerender(<ResearchList papers={[]} researchOn={true} notice="Could not reach arXiv: no network" />);
    expect(screen.getByRole('status').textContent).toBe('Could not reach arXiv: no network');
    expect(screen.queryByText(/Turn on research/)).toBeNull();
  });

  it('a failed search never becomes a row of the discussion', () => {
    const feed = applyFrames(emptyFeed, [
      { type: 'research_results', query: 'bikes', results: [], unavailable: 'Could not reach arXiv: no network' },
      { type: 'system', content: 'Could not reach arXiv: no network', about: 'research_unavailable' } as FeedInput,
    ]);
    expect(selectMessages(feed)).toEqual([]);
    expect(feed.researchNotice).toBe('Could not reach arXiv: no network');
  });
});
