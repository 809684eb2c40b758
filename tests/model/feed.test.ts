// The feed model over real recorded frames (tests/transcripts) and over the orders a socket can produce.
import { describe, expect, it } from 'vitest';
import {
  applyFrame,
  applyFrames,
  emptyFeed,
  feedWith,
  frameKey,
  type Feed,
  type FeedInput,
} from '../../src/model/feed';
import {
  countProblems,
  selectAnalytics,
  selectArgumentTree,
  selectConsensus,
  selectCounts,
  selectCurrentStage,
  selectDelegations,
  selectItem,
  selectMessageIds,
  selectMessages,
  selectPapers,
  selectRound,
  type ArgumentNode,
} from '../../src/model/feedSelectors';
import { parseFeedFrame, serverData, transcriptFrames } from './transcriptFrames';

const run = (name: string) => applyFrames(emptyFeed, transcriptFrames(name));
const depth = (nodes: ArgumentNode[]): number =>
  nodes.length === 0 ? 0 : 1 + Math.max(...nodes.map((n) => depth(n.children)));
const countNodes = (nodes: ArgumentNode[]): number => nodes.reduce((a, n) => a + 1 + countNodes(n.children), 0);

describe('recorded discussions', () => {
  it('basic: six text turns in order, participants and the end', () => {
    const feed = run('basic-sequential');
    const msgs = selectMessages(feed);
    expect(msgs.map((m) => m.kind)).toEqual(Array(6).fill('text'));
    expect(msgs.map((m) => m.agentName)).toEqual(['Ada', 'Bo', 'Cy', 'Ada', 'Bo', 'Cy']);
    expect(msgs[0].id).toMatch(/-msg-1$/);
    expect(msgs[0].content).toMatch(/whether our family vineyard should switch from furrow to drip irrigation/);
    expect(feed.participants.map((p) => p.name)).toEqual(['Ada', 'Bo', 'Cy']);
    expect(feed.session).toMatchObject({ endpoint: 'basic', ended: { reason: 'completed' }, fatalError: null });
    expect(selectCounts(feed)).toEqual({ messages: 6, arguments: 0, papers: 0 });
    const a = selectAnalytics(feed);
    expect(a.agentContributions).toEqual([
      { agentId: msgs[0].agentId, name: 'Ada', count: 2 },
      { agentId: msgs[1].agentId, name: 'Bo', count: 2 },
      { agentId: msgs[2].agentId, name: 'Cy', count: 2 },
    ]);
    expect(a.countsByKind.text).toBe(6);
  });

  it('enhanced: one item per turn (its ACL message joined to it), consensus, summary and statistics', () => {
    const feed = run('enhanced-default');
    const kinds = selectMessages(feed).map((m) => m.kind);
    expect(kinds).toEqual([...Array(6).fill('hybrid'), 'consensus', 'summary']);
    const first = selectMessages(feed)[0];
    expect(first).toMatchObject({ kind: 'hybrid', agentName: 'Ada', agentRole: 'Agronomist', confidence: 0.56 });
    expect(first.extras).toEqual([
      expect.objectContaining({ kind: 'acl', performative: expect.any(String), stance: expect.any(String) }),
    ]);
    expect(selectCounts(feed).messages).toBe(6);
    expect(selectConsensus(feed)).toMatchObject({ score: 0.36, reached: false, consensus: { confidence: 0.355 } });
    expect(feed.statistics).toMatchObject({ messageCount: 6, avgResponseTime: 81 });
    expect(selectAnalytics(feed).consensus).toMatchObject({ score: 0.36, reached: false, supportLevel: 0.333 });
  });

  it('enhanced with a failing model: non-fatal errors are items where they happened; a fatal one is not', () => {
    const feed = run('enhanced-model-error');
    const errors = selectMessages(feed).filter((m) => m.kind === 'error');
    expect(errors).toHaveLength(2); // same words, different moments: both kept
    expect(errors[0].content).toMatch(/^Bo could not answer/);
    expect(errors[0].id).not.toBe(errors[1].id);
    const bad = run('basic-bad-config');
    expect(selectMessages(bad)).toEqual([]);
    expect(bad.session.fatalError).toMatch(/^Invalid discussion configuration/);
  });

  it('multi-round reasoning: stages, arguments as a chain tree, rounds and confidence per round', () => {
    const feed = run('multi_round_reasoning-default');
    const tree = selectArgumentTree(feed);
    expect(tree).toHaveLength(1);
    expect(countNodes(tree)).toBe(15);
    expect(depth(tree)).toBe(15); // each argument answers the previous one
    expect(tree[0].argument).toMatchObject({
      type: 'proposal',
      parent_id: null,
      votes: { support: 1, oppose: 0 },
      confidence: 0.61,
    });
    expect(selectCurrentStage(feed)).toMatchObject({ stage: 'consensus', round: 1 });
    expect(selectRound(feed)).toMatchObject({ current: 1, ended: [1] }); // converged in round 1
    const a = selectAnalytics(feed);
    expect(a.totalArguments).toBe(15);
    expect(a.countsByKind).toMatchObject({ stage: 5, argument: 15, round: 2, consensus: 1, summary: 1 });
    expect(a.confidenceByRound.map((r) => r.round)).toEqual([1]);
    const args = feed.arguments.values.chunks.flat();
    const mean = args.reduce((s, x) => s + x.confidence, 0) / 15;
    expect(a.averageArgumentConfidence).toBeCloseTo(mean, 10);
    const r1 = args.filter((x) => x.round === 1);
    expect(a.confidenceByRound[0].avgConfidence).toBeCloseTo(r1.reduce((s, x) => s + x.confidence, 0) / r1.length, 10);
  });

  it('multi-round with research: papers from every result, deduplicated, with their source', () => {
    const feed = run('multi_round_reasoning-research');
    const papers = selectPapers(feed);
    expect(papers.map((p) => [p.source, p.title])).toEqual([
      ['arxiv', 'Regulated deficit irrigation in Vitis vinifera: a meta-analysis'],
      ['arxiv', 'Capacitive soil moisture probes for precision viticulture'],
      ['pubmed', 'Water use efficiency of drip-irrigated vineyards over three seasons'],
    ]);
    expect(
      selectMessages(feed)
        .filter((m) => m.kind === 'research')
        .map((m) => m.content),
    ).toEqual([
      expect.stringMatching(/^Research \(arxiv\): 2 papers/),
      expect.stringMatching(/^Research \(pubmed\): 1 paper /),
    ]);
    // the same paper found again (by url, then by title without url) is not listed twice
    const again = applyFrames(feed, [
      {
        type: 'research_results',
        results: [
          {
            source: 'semantic_scholar',
            results: [
              { ...papers[0], source: 'semantic_scholar', authors: [] },
              { title: '  capacitive SOIL moisture probes — for precision viticulture ', authors: [] },
            ],
          },
        ],
        timestamp: 'x',
      },
    ]);
    expect(selectPapers(again)).toHaveLength(4); // the url duplicate is dropped; a paper without url is keyed by title
    expect(selectPapers(again)[3].source).toBe('semantic_scholar');
    expect(selectAnalytics(again).totalPapers).toBe(4);
  });

  it('hybrid: rounds, requests, delegations of the smart mode, and audio attached to its message', () => {
    const adaptive = run('hybrid-adaptive');
    expect(selectRound(adaptive)).toMatchObject({ current: 4, max: 4, ended: [1, 2, 3, 4] });
    expect(selectMessages(adaptive).filter((m) => m.kind === 'system')).toHaveLength(3);
    expect(selectMessages(adaptive)[0]).toMatchObject({
      kind: 'system',
      content: expect.stringMatching(/^Adaptive mode/),
    });
    expect(adaptive.metrics.keys.length).toBe(16);
    expect(selectAnalytics(adaptive).metrics[0]).toMatchObject({ metric: 'response_time_ms', count: 12 });
    expect(selectAnalytics(adaptive).countsByMessageType).toEqual({
      natural: 3,
      structured: 9,
      round: 8,
      system: 3,
      consensus: 1,
      summary: 1,
    });
    // every ACL message joined its turn: the recording has 9 (no requests), one per structured turn
    const extras = selectMessages(adaptive).flatMap((m) => m.extras ?? []);
    expect(extras.filter((e) => e.kind === 'acl' || e.kind === 'request')).toHaveLength(9);
    expect(selectMessages(adaptive).filter((m) => m.kind === 'acl')).toHaveLength(0);

    const tts = run('hybrid-tts');
    const withAudio = selectMessages(tts).filter((m) => m.audioUrl);
    expect(withAudio.map((m) => m.agentName)).toEqual(['Ada', 'Bo', 'Cy']);
    expect(withAudio[0]).toMatchObject({
      kind: 'hybrid',
      audioUrl: expect.stringMatching(/^\/media\/tts\/.+\.wav$/),
      audioId: expect.stringMatching(/-audio-1$/),
    });
    expect(selectMessages(run('hybrid-tts-no-engine')).find((m) => m.kind === 'system')).toMatchObject({
      agentName: 'System',
      content: 'No speech engine configured',
    });

    const delegation = run('basic-smart-delegation');
    // two delegation frames, each also carried by the text that asks for it: two delegations, not four
    expect(selectDelegations(delegation)).toHaveLength(2);
    expect(selectDelegations(delegation)[0]).toMatchObject({
      from: 'Bo',
      to: 'Cy',
      task: expect.stringMatching(/^check the assumptions behind the furrow from the grower point of view/),
    });
    expect(selectAnalytics(delegation).delegations).toBe(2);
    // …and each joined the text that carries it: no row of its own, the text's bubble says it once
    expect(selectMessages(delegation).map((m) => m.kind)).toEqual(Array(8).fill('text'));
    const handing = selectMessages(delegation).filter((m) => m.extras?.length); // Bo then Ada hand over to Cy
    expect(handing.map((m) => m.extras!.map((e) => [e.kind, e.receiver]))).toEqual([
      [['delegation', 'Cy']],
      [['delegation', 'Cy']],
    ]);
  });

  it('basic with speech: audio frames land on the messages they name', () => {
    const feed = run('basic-tts');
    expect(selectMessages(feed).map((m) => m.audioId)).toEqual(
      selectMessages(feed).map((m) => m.id.replace('-msg-', '-audio-')),
    );
  });

  it('a malformed frame never reaches the model, and the rest is shown', () => {
    const data = serverData('hybrid-malformed-frame');
    expect(data.map(parseFeedFrame).filter((f) => f === null).length).toBe(1);
    // The refused frame is msg-1's final agent_message: msg-1 still shows what streamed, closed as interrupted at the end.
    const hybrid = selectMessages(run('hybrid-malformed-frame')).filter((m) => m.kind === 'hybrid');
    expect(hybrid).toHaveLength(3);
    expect(hybrid[0]).toMatchObject({ id: expect.stringMatching(/-msg-1$/), agentName: 'Ada', interrupted: true });
    expect(hybrid.filter((m) => m.interrupted || m.streaming)).toHaveLength(1);
  });
});

describe('replay after a reconnect', () => {
  it('drop-resume: frames resent after the reconnect show once', () => {
    const frames = transcriptFrames('basic-drop-resume');
    const once = applyFrames(emptyFeed, frames);
    expect(selectMessageIds(once)).toHaveLength(6);
    // The server replays what the client may not have received, byte-identical: replay everything up to the drop,
    // or all of it, and the feed is the same object.
    const dropAt = frames.findIndex((f) => f.type === 'text' && f.id?.endsWith('-msg-3'));
    const replayed = applyFrames(once, [...frames.slice(0, dropAt), ...frames]);
    expect(replayed).toBe(once);
    // …and the same messages if the replay interleaves with the first delivery
    const interleaved = applyFrames(emptyFeed, [
      ...frames.slice(0, dropAt),
      ...frames.slice(0, dropAt),
      ...frames.slice(dropAt),
    ]);
    expect(selectMessages(interleaved)).toEqual(selectMessages(once));
  });

  it('frames without an id are keyed by their content: replayed once, distinct events kept', () => {
    const feed = run('hybrid-structured');
    const again = applyFrames(feed, transcriptFrames('hybrid-structured'));
    expect(again).toBe(feed);
    const round = transcriptFrames('hybrid-structured').find((f) => f.type === 'round_start')!;
    expect(frameKey(round)).toBe(frameKey(JSON.parse(JSON.stringify(round))));
    expect(frameKey(round)).not.toBe(frameKey({ ...round, timestamp: '2030-01-01T00:00:00.000Z' } as FeedInput));
    // The hash takes two UTF-16 units a step: a change in either of a pair, in the odd last one, or a swap within a
    // pair, is another key; so are values of other kinds that JSON would write alike, and strings split otherwise.
    const keyOf = (content: unknown) => frameKey({ type: 'system', content } as FeedInput);
    const variants: unknown[] = [
      'abcd',
      'abce',
      'abdd',
      'bacd',
      'abcde',
      'abcdf',
      'abcdé',
      'abcd😀',
      'a\u0000',
      'a',
      1,
      '1',
      true,
      'true',
      null,
      'null',
      [],
      {},
      ['ab', 'c'],
      ['a', 'bc'],
      { a: 1 },
      { b: 1 },
      [1, 2],
      [2, 1],
    ];
    expect(new Set(variants.map(keyOf)).size).toBe(variants.length);
    // What JSON leaves out is not part of the key; key order is (JSON writes it).
    expect(keyOf({ a: 1, b: undefined })).toBe(keyOf({ a: 1 }));
    expect(keyOf('x'.repeat(5000))).toBe(keyOf('x'.repeat(5000)));
  });
});

describe('feedWith', () => {
  it('copies every field, changes only the patched ones and leaves the original alone', () => {
    const feed = run('hybrid-hybrid');
    const next = feedWith(feed, { messageCount: feed.messageCount + 1, researchNotice: 'x' });
    expect(next).not.toBe(feed);
    expect(Object.keys(next)).toEqual(Object.keys(emptyFeed));
    expect(next).toEqual({ ...feed, messageCount: feed.messageCount + 1, researchNotice: 'x' });
    expect(feed.researchNotice).toBeNull();
  });

  it('makes every feed of a recorded discussion with the same fields in the same order', () => {
    let feed: Feed = emptyFeed;
    for (const f of transcriptFrames('hybrid-research')) {
      feed = applyFrame(feed, f);
      expect(Object.keys(feed)).toEqual(Object.keys(emptyFeed));
    }
  });
});

describe('applyFrame returns the same feed when nothing changes', () => {
  it('for agent_status, tts streaming markers, and an unknown message id of a late delta', () => {
    const feed = run('basic-sequential');
    const same: FeedInput[] = [
      { type: 'agent_status', agent_id: 'a', status: 'thinking' },
      { type: 'tts_streaming_start', agent_name: 'Ada', total_chunks: 1 },
      { type: 'tts_streaming_end' },
      { type: 'discussion_ended', reason: 'completed' },
    ];
    for (const f of same) expect(applyFrame(feed, f)).toBe(feed);
    // audio for nobody attaches nowhere: the list is the same array
    const clip = applyFrame(feed, { type: 'audio', agent_id: 'nobody', audio_url: '/media/x.wav' });
    expect(selectMessages(clip)).toBe(selectMessages(feed));
    expect(applyFrame(clip, { type: 'audio', agent_id: 'nobody', audio_url: '/media/x.wav' })).toBe(clip);
  });

  it('keeps earlier versions untouched (purity) and shares the ids array while a message streams', () => {
    const start = applyFrame(emptyFeed, { type: 'agent_message_start', id: 's1', agent_id: 'a', agent_name: 'Ada' });
    const ids = selectMessageIds(start);
    const next = applyFrame(start, { type: 'agent_message_delta', id: 's1', delta: 'Hel' });
    expect(selectItem(start, 's1')!.content).toBe('');
    expect(selectItem(next, 's1')!.content).toBe('Hel');
    expect(selectMessageIds(next)).toBe(ids);
    expect(selectMessages(next)).not.toBe(selectMessages(start));
    // two different frames on the same version: each result sees only its own
    const a = applyFrame(start, { type: 'human_message_local', id: 'h-a', text: 'A', timestamp: 't' });
    const b = applyFrame(start, { type: 'human_message_local', id: 'h-b', text: 'B', timestamp: 't' });
    expect(selectMessageIds(a)).toEqual(['s1', 'h-a']);
    expect(selectMessageIds(b)).toEqual(['s1', 'h-b']);
    expect(selectItem(a, 'h-b')).toBeUndefined();
    expect(selectItem(b, 'h-a')).toBeUndefined();
    const b2 = applyFrame(b, { type: 'human_message_local', id: 'h-a', text: 'A later', timestamp: 't' });
    expect(selectMessageIds(b2)).toEqual(['s1', 'h-b', 'h-a']);
    expect(selectItem(a, 'h-a')!.content).toBe('A');
    expect(selectItem(b2, 'h-a')!.content).toBe('A later');
  });
});

describe('streaming', () => {
  const start = (id: string, over: object = {}): FeedInput => ({
    type: 'agent_message_start',
    id,
    agent_id: 'ada',
    agent_name: 'Ada',
    round: 1,
    ...over,
  });
  const delta = (id: string, d: string): FeedInput => ({ type: 'agent_message_delta', id, delta: d });
  const final = (id: string, content: string, over: object = {}): FeedInput =>
    ({
      type: 'agent_message',
      id,
      agent_id: 'ada',
      agent_name: 'Ada',
      content,
      message_type: 'hybrid',
      formal_communications: [],
      confidence: 0.8,
      ...over,
    }) as FeedInput;

  it('start makes a placeholder, deltas append, the final frame replaces and keeps the position', () => {
    let feed = applyFrames(emptyFeed, [
      { type: 'human_message_local', id: 'h0', text: 'before', timestamp: 't0' },
      start('m1'),
    ]);
    expect(selectItem(feed, 'm1')).toMatchObject({
      kind: 'hybrid',
      streaming: true,
      content: '',
      agentName: 'Ada',
      round: 1,
    });
    feed = applyFrames(feed, [
      delta('m1', 'Drip '),
      delta('m1', 'irrigation'),
      { type: 'human_message_local', id: 'h1', text: 'during', timestamp: 't1' },
    ]);
    expect(selectItem(feed, 'm1')).toMatchObject({ content: 'Drip irrigation', streaming: true });
    expect(feed.streamingIds).toEqual(['m1']);
    feed = applyFrame(feed, final('m1', 'Drip irrigation saves water.'));
    expect(selectMessageIds(feed)).toEqual(['h0', 'm1', 'h1']);
    const m = selectItem(feed, 'm1')!;
    expect(m).toMatchObject({ kind: 'hybrid', content: 'Drip irrigation saves water.', confidence: 0.8 });
    expect(m.streaming).toBeUndefined();
    expect(feed.streamingIds).toEqual([]);
    // a late delta or a replayed start changes nothing
    expect(applyFrame(feed, delta('m1', '!!'))).toBe(feed);
    expect(applyFrame(feed, start('m1'))).toBe(feed);
  });

  it('a delta for an unknown id starts a placeholder that the start and the final complete', () => {
    let feed = applyFrame(emptyFeed, delta('m9', 'Hello'));
    expect(selectItem(feed, 'm9')).toMatchObject({ streaming: true, content: 'Hello', agentId: null });
    feed = applyFrame(feed, start('m9'));
    expect(selectItem(feed, 'm9')).toMatchObject({
      streaming: true,
      content: 'Hello',
      agentId: 'ada',
      agentName: 'Ada',
    });
    feed = applyFrames(feed, [delta('m9', ' world'), final('m9', 'Hello world.')]);
    expect(selectItem(feed, 'm9')).toMatchObject({ content: 'Hello world.', agentId: 'ada' });
    expect(feed.lastMessageByAgent.ada).toBe('m9');
  });

  it('the Basic endpoint streams text cards; the final text frame replaces; interrupted is kept', () => {
    let feed = applyFrames(emptyFeed, [
      { type: 'discussion_started', session_id: 's', endpoint: 'basic', participants: [] },
      start('t1'),
      delta('t1', 'I think'),
    ]);
    expect(selectItem(feed, 't1')!.kind).toBe('text');
    feed = applyFrame(feed, {
      type: 'text',
      id: 't1',
      from_id: 'ada',
      from: 'Ada',
      text: 'I think',
      turn: 1,
      interrupted: true,
    });
    expect(selectItem(feed, 't1')).toMatchObject({ kind: 'text', content: 'I think', interrupted: true });
    expect(selectItem(feed, 't1')!.streaming).toBeUndefined();
  });

  it('a placeholder whose final frame never came is closed as interrupted when the discussion ends', () => {
    const feed = applyFrames(emptyFeed, [
      start('x'),
      delta('x', 'half a thou'),
      { type: 'discussion_ended', reason: 'stopped' },
    ]);
    expect(selectItem(feed, 'x')).toMatchObject({ streaming: false, interrupted: true, content: 'half a thou' });
    expect(feed.streamingIds).toEqual([]);
  });

  it('a multi-round turn streams and its argument (same id) becomes the item in place; the summary streams likewise', () => {
    let feed = applyFrames(emptyFeed, [start('s-msg-1', { stage: 'brainstorming' }), delta('s-msg-1', 'Pumps ')]);
    expect(selectItem(feed, 's-msg-1')).toMatchObject({ streaming: true, content: 'Pumps ' });
    const argument = {
      id: 's-msg-1',
      agent_id: 'ada',
      agent_name: 'Ada',
      type: 'proposal',
      content: 'Pumps first.',
      confidence: 0.7,
      supporting_evidence: [],
      parent_id: null,
      votes: { support: 0, oppose: 0 },
      stage: 'brainstorming',
      round: 1,
    };
    feed = applyFrame(feed, { type: 'argument', argument } as FeedInput);
    expect(selectItem(feed, 's-msg-1')).toMatchObject({ kind: 'argument', content: 'Pumps first.' });
    expect(selectItem(feed, 's-msg-1')!.streaming).toBeUndefined();
    expect(feed.streamingIds).toEqual([]);

    feed = applyFrames(feed, [
      start('s-summary', { kind: 'summary', round: undefined }),
      delta('s-summary', 'Ada proposed'),
    ]);
    expect(selectItem(feed, 's-summary')).toMatchObject({ kind: 'summary', streaming: true, content: 'Ada proposed' });
    const summary = {
      type: 'discussion_summary',
      id: 's-summary',
      summary: { text: 'Ada proposed pumps first.', message_count: 1 },
    } as FeedInput;
    feed = applyFrame(feed, summary);
    expect(selectItem(feed, 's-summary')).toMatchObject({ kind: 'summary', content: 'Ada proposed pumps first.' });
    expect(feed.streamingIds).toEqual([]);
    expect(applyFrame(feed, summary)).toBe(feed); // a replayed summary changes nothing
    expect(feed.lastMessageByAgent.ada).toBe('s-msg-1'); // the summary is not Ada's turn
  });

  it('a discussion without deltas works as before, and audio for the streamed message attaches', () => {
    const feed = applyFrames(emptyFeed, [
      { type: 'audio_message', agent_id: 'ada', audio_url: '/media/tts/early.wav', audio_id: 'au1', message_id: 'm1' },
      final('m1', 'No deltas at all.'),
    ]);
    expect(selectMessages(feed)).toHaveLength(1);
    expect(selectItem(feed, 'm1')).toMatchObject({
      content: 'No deltas at all.',
      audioUrl: '/media/tts/early.wav',
      audioId: 'au1',
    });
    expect(feed.audioByMessage.keys.length).toBe(1);
  });
});

describe('unexpected orders', () => {
  it('round_end before round_start; the round never moves back', () => {
    const feed = applyFrames(emptyFeed, [
      { type: 'round_end', round: 2, agreement: 0.5 },
      { type: 'round_start', round: 1, max_rounds: 3 },
      { type: 'round_start', round: 2 },
    ]);
    expect(selectRound(feed)).toEqual({ current: 2, max: 3, ended: [2], agreement: { 2: 0.5 } });
    expect(selectMessages(feed).map((m) => m.content)).toEqual([
      'Round 2 ended · agreement 50%',
      'Round 1 of 3',
      'Round 2',
    ]);
  });

  it('an argument whose parent is unknown shows at the root until the parent arrives; votes update in place', () => {
    const arg = (id: string, parent: string | null, support = 0) =>
      ({
        type: 'argument',
        argument: {
          id,
          agent_id: 'a',
          type: 'support',
          content: id,
          confidence: 0.5,
          supporting_evidence: [],
          parent_id: parent,
          votes: { support, oppose: 0 },
        },
      }) as FeedInput;
    let feed = applyFrame(emptyFeed, arg('child', 'parent'));
    expect(selectArgumentTree(feed).map((n) => n.argument.id)).toEqual(['child']);
    feed = applyFrame(feed, arg('parent', null));
    const tree = selectArgumentTree(feed);
    expect(tree.map((n) => n.argument.id)).toEqual(['parent']);
    expect(tree[0].children.map((n) => n.argument.id)).toEqual(['child']);
    feed = applyFrame(feed, arg('parent', null, 3));
    expect(selectArgumentTree(feed)[0].argument.votes.support).toBe(3);
    expect(selectMessageIds(feed)).toEqual(['child', 'parent']);
    // a cycle cannot hide arguments
    const cyc = applyFrames(emptyFeed, [arg('x', 'y'), arg('y', 'x'), arg('z', 'z')]);
    expect(countNodes(selectArgumentTree(cyc))).toBe(3);
  });

  it("audio for an unknown message waits for it; audio without message_id goes to the agent's last message", () => {
    let feed = applyFrame(emptyFeed, {
      type: 'audio',
      agent_id: 'ada',
      audio_url: '/media/a.wav',
      message_id: 'later',
    });
    expect(selectItem(feed, 'later')).toBeUndefined();
    feed = applyFrames(feed, [
      { type: 'text', id: 'm1', from_id: 'ada', from: 'Ada', text: 'one', turn: 1 },
      { type: 'text', id: 'm2', from_id: 'bo', from: 'Bo', text: 'two', turn: 2 },
      { type: 'audio', agent_id: 'ada', audio_url: '/media/b.wav', audio_id: 'b' },
    ]);
    expect(selectItem(feed, 'm1')).toMatchObject({ audioUrl: '/media/b.wav', audioId: 'b' });
    feed = applyFrame(feed, { type: 'text', id: 'later', from_id: 'ada', from: 'Ada', text: 'three', turn: 3 });
    expect(selectItem(feed, 'later')).toMatchObject({ audioUrl: '/media/a.wav' });
    // replaying the final frame (without audio) keeps the audio
    expect(applyFrame(feed, { type: 'text', id: 'later', from_id: 'ada', from: 'Ada', text: 'three', turn: 3 })).toBe(
      feed,
    );
  });
});

it('selectors are memo-friendly: same feed, same outputs', () => {
  const feed: Feed = run('multi_round_reasoning-research');
  expect(selectMessages(feed)).toBe(selectMessages(feed));
  expect(selectArgumentTree(feed)).toBe(selectArgumentTree(feed));
  expect(selectPapers(feed)).toBe(selectPapers(feed));
  expect(selectAnalytics(feed)).toBe(selectAnalytics(feed));
  expect(selectCounts(feed)).toBe(
    selectCounts(applyFrame(feed, { type: 'agent_status', agent_id: 'x', status: 'idle' })),
  );
  expect(selectCounts(feed)).toEqual({ messages: 18, arguments: 18, papers: 3 }); // 18 `argument` frames in the recording
});

describe('problem rows', () => {
  it('counts the rows the feed shows as problems, once each, as the status bar adds them to its errors', () => {
    const err = (message: string, timestamp: string) => ({ type: 'error', message, timestamp }) as unknown as FeedInput;
    let feed = applyFrame(emptyFeed, err('Bo: the model server did not answer', '2026-11-27T08:00:01Z'));
    feed = applyFrame(feed, err('Vera: the model server did not answer', '2026-11-27T08:00:02Z'));
    feed = applyFrame(feed, err('Vera: the model server did not answer', '2026-11-27T08:00:02Z'));
    expect(selectMessages(feed).filter((m) => m.kind === 'error')).toHaveLength(countProblems(feed));
    expect(countProblems(feed)).toBe(2);
    expect(countProblems(emptyFeed)).toBe(0);
  });
});
