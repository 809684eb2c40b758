// One turn, one item: the frames that go with an agent's turn join it (docs/architecture.md#rules), and the one message
// count (src/shared/messageCount.ts) agrees with what the server counts.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyFrame, applyFrames, emptyFeed, type FeedInput } from '../../src/model/feed';
import { countMessages, selectItem, selectMessageIds, selectMessages } from '../../src/model/feedSelectors';
import { countStoredMessages, messageCountLabel } from '../../src/shared/messageCount';
import { extraPhrases, performativePhrase, statedPosition } from '../../src/model/turnExtras';
import { isEphemeral } from '../../server/engine/frames';
import { serverData, transcriptFrames, TRANSCRIPTS } from './transcriptFrames';

const start = (id: string, name = 'Ada'): FeedInput => ({
  type: 'agent_message_start',
  id,
  agent_id: name.toLowerCase(),
  agent_name: name,
});
const final = (id: string, content: string, name = 'Ada'): FeedInput =>
  ({
    type: 'agent_message',
    id,
    agent_id: name.toLowerCase(),
    agent_name: name,
    content,
    message_type: 'hybrid',
    formal_communications: [],
  }) as FeedInput;
const acl = (sender: string, performative: string, receiver: string, claim: string, extra: object = {}): FeedInput =>
  ({
    type: 'acl_message',
    performative,
    sender,
    receiver,
    content: { claim, stance: 'support', confidence: 0.72 },
    natural_language: claim,
    ...extra,
  }) as FeedInput;
const request = (from: string, to: string, content: string): FeedInput => ({
  type: 'request',
  from_agent: from,
  to_agent: to,
  action: 'query-if',
  content,
});
const delegation = (from: string, to: string, task: string): FeedInput => ({
  type: 'delegation',
  delegation: { from, to, task },
});

describe('frames of one turn make one item', () => {
  it('the final message, its ACL message, request and delegation: one item with extras, counted once', () => {
    const feed = applyFrames(emptyFeed, [
      start('m1'),
      { type: 'agent_message_delta', id: 'm1', delta: 'Shared ' },
      acl('Ada', 'query-if', 'Bo', 'Shared bikes cut traffic.'),
      final('m1', 'Shared bikes cut traffic.'),
      request('Ada', 'Bo', 'Shared bikes cut traffic.'),
      delegation('Ada', 'Bo', 'check the costs'),
      { type: 'audio_message', agent_id: 'ada', audio_url: '/media/tts/1.wav', audio_id: 'au1', message_id: 'm1' },
    ]);
    expect(selectMessageIds(feed)).toEqual(['m1']);
    const m1 = selectItem(feed, 'm1')!;
    expect(m1).toMatchObject({ content: 'Shared bikes cut traffic.', audioUrl: '/media/tts/1.wav' });
    expect(m1.extras!.map((e) => e.kind)).toEqual(['acl', 'request', 'delegation']);
    // the ACL message and its request say the same thing once
    expect(extraPhrases(m1.extras)).toEqual(['asks Bo whether…', 'hands over to Bo: check the costs']);
    expect(statedPosition(m1.extras)).toEqual({ stance: 'support', confidence: 0.72 });
    expect(countMessages(feed)).toBe(1);
  });

  it('multi-round: an argument and its ACL message are one turn', () => {
    const feed = applyFrames(emptyFeed, [
      {
        type: 'argument',
        argument: {
          id: 'a1',
          agent_id: 'ada',
          agent_name: 'Ada',
          type: 'proposal',
          content: 'Open the square to bikes.',
          confidence: 0.6,
          supporting_evidence: [],
          votes: { support: 0, oppose: 0 },
        },
      } as FeedInput,
      acl('Ada', 'propose', 'all', 'Open the square to bikes.'),
    ]);
    expect(selectMessages(feed).map((m) => [m.kind, m.extras?.length])).toEqual([['argument', 1]]);
    expect(extraPhrases(selectItem(feed, 'a1')!.extras)).toEqual(['proposes to everyone']);
  });

  it('the recorded multi-round transcript: every ACL message joined its argument', () => {
    const feed = applyFrames(emptyFeed, transcriptFrames('multi_round_reasoning-default'));
    expect(selectMessages(feed).some((m) => m.kind === 'acl')).toBe(false);
    expect(countMessages(feed)).toBe(15);
  });

  it('a delegation sent before the text that carries it (Basic) joins that text, once', () => {
    const feed = applyFrames(emptyFeed, [
      { type: 'text', id: 't1', from_id: 'bo', from: 'Bo', text: 'First.', turn: 1 },
      { type: 'text', id: 't2', from_id: 'ada', from: 'Ada', text: 'Second.', turn: 2 },
      delegation('Bo', 'Ada', 'check it'),
      {
        type: 'text',
        id: 't3',
        from_id: 'bo',
        from: 'Bo',
        text: 'Third.',
        turn: 3,
        delegation: { from: 'Bo', to: 'Ada', task: 'check it' },
      },
    ]);
    expect(selectMessageIds(feed)).toEqual(['t1', 't2', 't3']);
    expect(selectItem(feed, 't1')!.extras).toBeUndefined();
    expect(selectItem(feed, 't3')!.extras!.map((e) => [e.kind, e.receiver, e.note])).toEqual([
      ['delegation', 'Ada', 'check it'],
    ]);
  });

  it('an ACL message before any turn of its sender waits for that turn', () => {
    let feed = applyFrame(emptyFeed, acl('Bo', 'propose', 'Ada', 'Later words.'));
    expect(selectMessageIds(feed)).toEqual([]);
    expect(feed.pendingBySender.Bo).toHaveLength(1);
    feed = applyFrames(feed, [start('m2', 'Bo'), final('m2', 'Later words.', 'Bo')]);
    expect(selectMessageIds(feed)).toEqual(['m2']);
    expect(extraPhrases(selectItem(feed, 'm2')!.extras)).toEqual(['proposes to Ada']);
    expect(feed.pendingBySender).toEqual({});
  });

  it('nothing is dropped: what no turn took becomes a row at the end, or at once after it', () => {
    const waiting = applyFrame(emptyFeed, acl('Cy', 'inform', 'all', 'Nobody took me.'));
    const ended = applyFrame(waiting, { type: 'discussion_ended', reason: 'completed' });
    expect(selectMessages(ended).map((m) => [m.kind, m.agentName, m.content])).toEqual([
      ['acl', 'Cy', 'Nobody took me.'],
    ]);
    const late = applyFrame(ended, request('Dee', 'Cy', 'A late question'));
    expect(selectMessages(late).map((m) => m.content)).toEqual(['Nobody took me.', 'A late question']);
    expect(countMessages(late)).toBe(0); // rows that are not turns are not messages
    // replays change nothing
    expect(applyFrame(late, acl('Cy', 'inform', 'all', 'Nobody took me.'))).toBe(late);
  });

  it("an ACL message's envelope repeats it: the feed keeps one copy, and the envelope is not part of its identity", () => {
    const own = acl('Ada', 'inform', 'all', 'Bikes.');
    const { type: _t, ...fields } = own as unknown as Record<string, unknown>;
    const enveloped = { ...own, message: fields } as FeedInput;
    const feed = applyFrames(emptyFeed, [start('m1'), final('m1', 'Bikes.'), enveloped]);
    const extra = selectItem(feed, 'm1')!.extras![0]!;
    expect(extra.source).toEqual(own);
    expect(extra.source).not.toHaveProperty('message');
    // The same message again, with or without its envelope, is a replay; other words are another message.
    expect(applyFrame(feed, own)).toBe(feed);
    expect(applyFrame(feed, { ...enveloped, message: { ...fields, performative: 'x' } } as FeedInput)).toBe(feed);
    expect(selectItem(applyFrame(feed, acl('Ada', 'inform', 'all', 'Trains.')), 'm1')!.extras).toHaveLength(2);
  });
});

describe('a failed search', () => {
  it("recorded on the hybrid socket: the Research tab's notice, not a row", () => {
    const feed = applyFrames(emptyFeed, transcriptFrames('hybrid-research-unavailable'));
    expect(feed.researchNotice).toBe('Could not reach arXiv, PubMed and Semantic Scholar: no network.');
    expect(selectMessages(feed).some((m) => m.content === feed.researchNotice)).toBe(false);
  });
});

describe('the one message count', () => {
  it('turns (streaming ones too) and human messages; not rounds, consensus, notices or attachments', () => {
    const feed = applyFrames(emptyFeed, [
      { type: 'round_start', round: 1 },
      start('m1'),
      { type: 'human_message_local', id: 'h1', text: 'Parking brings in money.', timestamp: 't' },
      { type: 'system', content: 'Speech is off' },
      acl('Ada', 'inform', 'all', 'x'),
    ]);
    expect(countMessages(feed)).toBe(2);
    expect(messageCountLabel(2)).toBe('2 messages');
    expect(messageCountLabel(1)).toBe('1 message');
    expect(messageCountLabel(0)).toBe('0 messages');
  });

  const discussions = readdirSync(TRANSCRIPTS).filter(
    (f) => /^(hybrid|enhanced|basic|multi_round_reasoning)-.*\.jsonl$/.test(f) && !f.includes('malformed'),
  );
  it.each(discussions)("%s: the server's count of the stored frames equals the feed's count", (name) => {
    // What the server stores: no stream frames (server/engine/frames.ts isEphemeral).
    const stored = serverData(name).filter((f) => !isEphemeral(f as { type: string }));
    const feed = applyFrames(emptyFeed, transcriptFrames(name));
    const humans = selectMessages(feed).filter((m) => m.kind === 'human').length;
    expect(countStoredMessages(stored, humans)).toBe(countMessages(feed));
    // The rule holds with the stream starts too: a turn's start shares its final frame's id, and the summary's
    // start (kind 'summary') is not a turn.
    const withStarts = serverData(name).filter((f) => (f as { type?: string }).type !== 'agent_message_delta');
    expect(countStoredMessages(withStarts, humans)).toBe(countMessages(feed));
  });
});

describe('performatives in plain words', () => {
  it.each([
    ['propose', 'Ada', 'proposes to Ada'],
    ['query-if', 'Bo', 'asks Bo whether…'],
    ['inform', 'all', 'shares a view'],
    ['inform', 'Bo', 'tells Bo'],
    ['accept-proposal', 'Ada', "accepts Ada's proposal"],
    ['reject-proposal', null, 'rejects the proposal'],
    ['disconfirm', 'Cy', "disputes Cy's point"],
    ['some_new_act', 'Bo', 'some new act (to Bo)'],
  ])('%s to %s → %s', (p, r, phrase) => {
    expect(performativePhrase(p, r)).toBe(phrase);
  });
});

describe('a streamed turn is one bubble, a streamed summary one light row', () => {
  const streamed = [
    'multi_round_reasoning-default',
    'multi_round_reasoning-research',
    'enhanced-default',
    'hybrid-natural',
    'hybrid-adaptive',
  ];
  it.each(streamed)('%s: each stream became its final item in place; nothing left streaming or interrupted', (name) => {
    const data = serverData(name) as { type?: string; id?: string; kind?: string; summary?: { text?: string } }[];
    const starts = data.filter((f) => f.type === 'agent_message_start');
    const summaryStart = starts.filter((f) => f.kind === 'summary');
    const feed = applyFrames(emptyFeed, transcriptFrames(name));
    const items = selectMessages(feed);
    expect(items.filter((m) => m.streaming || m.interrupted)).toEqual([]);
    expect(feed.streamingIds).toEqual([]);
    expect(new Set(items.map((m) => m.id)).size).toBe(items.length);
    // every turn's stream is exactly one turn item, under the stream's id
    const turnIds = starts.filter((f) => f.kind !== 'summary').map((f) => f.id);
    expect(items.filter((m) => m.kind === 'argument' || m.kind === 'hybrid').map((m) => m.id)).toEqual(turnIds);
    expect(countMessages(feed)).toBe(turnIds.length);
    // the summary: one row with the stream's id and the final frame's text
    expect(summaryStart).toHaveLength(1);
    const summaries = items.filter((m) => m.kind === 'summary');
    expect(summaries.map((m) => m.id)).toEqual([summaryStart[0].id]);
    const final = data.find((f) => f.type === 'discussion_summary')!;
    expect(summaries[0].content).toBe(final.summary!.text);
  });

  it('a multi-round draft turns into its argument at the same place', () => {
    const arg = {
      id: 's-msg-1',
      agent_id: 'ada',
      agent_name: 'Ada',
      type: 'proposal',
      content: 'Open the square to bikes.',
      confidence: 0.6,
      supporting_evidence: [],
      votes: { support: 0, oppose: 0 },
    };
    const draft = applyFrames(emptyFeed, [
      { type: 'round_start', round: 1 },
      {
        type: 'agent_message_start',
        id: 's-msg-1',
        agent_id: 'ada',
        agent_name: 'Ada',
        round: 1,
        stage: 'brainstorming',
      },
      { type: 'agent_message_delta', id: 's-msg-1', delta: 'Open the square' },
    ] as FeedInput[]);
    const at = selectMessageIds(draft).indexOf('s-msg-1');
    expect(selectItem(draft, 's-msg-1')).toMatchObject({ streaming: true, content: 'Open the square' });
    const done = applyFrames(draft, [
      { type: 'argument', argument: arg },
      { type: 'discussion_ended', reason: 'completed' },
    ] as FeedInput[]);
    const turns = selectMessages(done).filter((m) => m.agentName === 'Ada');
    expect(turns.map((m) => [m.id, m.kind, m.content, m.streaming, m.interrupted])).toEqual([
      ['s-msg-1', 'argument', 'Open the square to bikes.', undefined, undefined],
    ]);
    expect(selectMessageIds(done).indexOf('s-msg-1')).toBe(at);
    expect(countMessages(done)).toBe(1);
  });

  it('the summary row names no speaker, streaming or done, and is not a message; deltas before its start too', () => {
    const s = (first: FeedInput[]) =>
      applyFrames(emptyFeed, [
        ...first,
        { type: 'discussion_summary', id: 's-summary', summary: { text: 'Two turns on bikes.' } },
      ] as FeedInput[]);
    const startFirst: FeedInput[] = [
      { type: 'agent_message_start', id: 's-summary', agent_id: 'ada', agent_name: 'Ada', kind: 'summary' },
      { type: 'agent_message_delta', id: 's-summary', delta: 'Two turns' },
    ] as FeedInput[];
    const live = applyFrames(emptyFeed, startFirst);
    expect(selectItem(live, 's-summary')).toMatchObject({
      kind: 'summary',
      agentName: null,
      streaming: true,
      content: 'Two turns',
    });
    expect(countMessages(live)).toBe(0);
    for (const first of [startFirst, [startFirst[1], startFirst[0]]]) {
      const done = s(first);
      expect(selectMessages(done).map((m) => [m.id, m.kind, m.agentName, m.content, m.streaming])).toEqual([
        ['s-summary', 'summary', null, 'Two turns on bikes.', undefined],
      ]);
      expect(countMessages(done)).toBe(0);
      expect(done.streamingIds).toEqual([]);
    }
  });
});
