// Properties of applyFrame over generated frames of every type (each generated frame passes the schemas, as
// everything reaching the model does).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyFrame, applyFrames, emptyFeed, frameKey, type FeedInput } from '../../src/model/feed';
import {
  countMessages,
  selectArgumentTree,
  selectMessageIds,
  selectMessages,
  selectAnalytics,
  selectPapers,
  type ArgumentNode,
} from '../../src/model/feedSelectors';
import { kvValues } from '../../src/model/keyedVec';
import { isMessageKind } from '../../src/shared/messageCount';
import { buildExport } from '../../src/model/exportJson';
import { communicationConfig, reasoningConfig, researchConfig } from '../../src/schemas/settings';
import { ARGUMENT_TYPES, REASONING_STAGES } from '../../src/schemas/constants';
import { parseFeedFrame } from './transcriptFrames';

const RUNS = Number(process.env.FEED_PROPERTY_RUNS ?? 300);

// Small pools so that ids, agents and rounds collide often (replacements, streaming, audio, parents).
const messageId = fc.constantFrom('m0', 'm1', 'm2', 'm3', 'm4', '__proto__', 'constructor');
const argumentId = fc.constantFrom('a0', 'a1', 'a2', 'a3', 'a4');
const agentId = fc.constantFrom('ada', 'bo', 'constructor', '__proto__');
const name = fc.constantFrom('Ada', 'Bo', 'Cy', 'Анна', 'Ζωή');
const text = fc.string({ maxLength: 40 });
const ts = fc.option(
  fc.integer({ min: 0, max: 50 }).map((s) => `2026-11-22T02:00:${String(s).padStart(2, '0')}.000Z`),
  { nil: undefined },
);
const round = fc.integer({ min: 1, max: 4 });
const unit = fc.double({ min: 0, max: 1, noNaN: true });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const paper = fc.record({
  title: fc.constantFrom('Drip irrigation', 'drip  IRRIGATION', 'Soil probes', 'Frost'),
  authors: fc.constant(['A. B.']),
  url: fc.option(fc.constantFrom('https://x/1', 'https://x/2'), { nil: null }),
});
const researchResult = fc.record({
  source: fc.constantFrom('arxiv', 'pubmed'),
  query: opt(text),
  results: fc.array(paper, { maxLength: 3 }),
});
const consensus = fc.record({
  solution: text,
  confidence: unit,
  support_level: unit,
  dissenting_opinions: fc.array(text, { maxLength: 2 }),
});
const delegation = fc.record({ from: name, to: name, task: opt(text) });

/** Every frame type of both unions, plus the local human message. */
const frameArb: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  discussion_started: fc.record({
    type: fc.constant('discussion_started'),
    session_id: fc.constant('s1'),
    endpoint: opt(fc.constantFrom('basic', 'enhanced')),
    participants: fc.array(fc.record({ id: agentId, name }), { maxLength: 3 }),
    timestamp: ts,
  }),
  discussion_initialized: fc.record({
    type: fc.constant('discussion_initialized'),
    session_id: fc.constant('s1'),
    mode: opt(fc.constant('hybrid')),
    max_rounds: opt(round),
    participants: fc.array(fc.record({ id: agentId, name }), { maxLength: 3 }),
    timestamp: ts,
  }),
  reasoning_stage: fc.record({
    type: fc.constant('reasoning_stage'),
    stage: fc.constantFrom(...REASONING_STAGES),
    round: opt(round),
    description: opt(text),
    timestamp: ts,
  }),
  argument: fc.record({
    type: fc.constant('argument'),
    argument: fc.record({
      id: argumentId,
      agent_id: agentId,
      type: fc.constantFrom(...ARGUMENT_TYPES),
      content: text,
      confidence: unit,
      parent_id: fc.option(argumentId, { nil: null }),
      votes: fc.record({ support: fc.nat(3), oppose: fc.nat(3) }),
      round: opt(round),
    }),
    timestamp: ts,
  }),
  research_result: fc.record({ type: fc.constant('research_result'), result: researchResult, timestamp: ts }),
  research_results: fc.record({
    type: fc.constant('research_results'),
    results: fc.array(researchResult, { maxLength: 2 }),
    unavailable: opt(text),
    timestamp: ts,
  }),
  acl_message: fc.record({
    type: fc.constant('acl_message'),
    performative: fc.constantFrom('propose', 'inform'),
    sender: name,
    receiver: opt(name),
    content: fc.oneof(text, fc.record({ claim: text })),
    natural_language: opt(text),
    timestamp: ts,
  }),
  consensus_reached: fc.record({ type: fc.constant('consensus_reached'), score: unit, consensus, timestamp: ts }),
  round_start: fc.record({ type: fc.constant('round_start'), round, max_rounds: opt(round), timestamp: ts }),
  round_end: fc.record({ type: fc.constant('round_end'), round, agreement: opt(unit), timestamp: ts }),
  agent_message: fc.record({
    type: fc.constant('agent_message'),
    id: messageId,
    agent_id: agentId,
    agent_name: name,
    content: text,
    confidence: opt(unit),
    round: opt(round),
    audio_url: opt(fc.constant('/media/tts/in.wav')),
    interrupted: opt(fc.boolean()),
    timestamp: ts,
  }),
  agent_message_start: fc.record({
    type: fc.constant('agent_message_start'),
    id: messageId,
    agent_id: agentId,
    agent_name: name,
    round: opt(round),
    timestamp: ts,
  }),
  agent_message_delta: fc.record({
    type: fc.constant('agent_message_delta'),
    id: messageId,
    delta: fc.string({ maxLength: 6 }),
  }),
  discussion_summary: fc.record({
    type: fc.constant('discussion_summary'),
    summary: fc.record({ text: opt(text), message_count: opt(fc.nat(20)) }),
    timestamp: ts,
  }),
  text: fc.record({
    type: fc.constant('text'),
    id: opt(messageId),
    from_id: agentId,
    from: name,
    text,
    turn: fc.nat(20),
    delegation: fc.option(delegation, { nil: null }),
    interrupted: opt(fc.boolean()),
    timestamp: ts,
  }),
  delegation: fc.record({ type: fc.constant('delegation'), delegation, timestamp: ts }),
  agent_status: fc.record({
    type: fc.constant('agent_status'),
    agent_id: agentId,
    status: fc.constantFrom('thinking', 'speaking', 'idle'),
    timestamp: ts,
  }),
  audio: fc.record({
    type: fc.constant('audio'),
    agent_id: agentId,
    audio_url: fc.constantFrom('/media/tts/1.wav', '/media/tts/2.wav'),
    audio_id: opt(fc.constant('au')),
    message_id: opt(fc.oneof(messageId, fc.constant('nowhere'))),
    timestamp: ts,
  }),
  audio_message: fc.record({
    type: fc.constant('audio_message'),
    agent_id: agentId,
    audio_url: fc.constantFrom('/media/tts/3.wav'),
    audio_id: fc.constant('au3'),
    message_id: opt(messageId),
    timestamp: ts,
  }),
  discussion_ended: fc.record({
    type: fc.constant('discussion_ended'),
    reason: opt(fc.constantFrom('completed', 'stopped')),
    timestamp: ts,
  }),
  request: fc.record({
    type: fc.constant('request'),
    from_agent: name,
    to_agent: name,
    action: fc.constant('query-if'),
    content: opt(text),
    timestamp: ts,
  }),
  tts_streaming_start: fc.record({
    type: fc.constant('tts_streaming_start'),
    agent_name: name,
    total_chunks: fc.nat(3),
    timestamp: ts,
  }),
  tts_streaming_end: fc.record({ type: fc.constant('tts_streaming_end'), agent_name: opt(name), timestamp: ts }),
  performance_metric: fc.record({
    type: fc.constant('performance_metric'),
    metric: fc.constantFrom('response_time_ms', 'tts_ms'),
    value: fc.nat(500),
    timestamp: ts,
  }),
  tts_error: fc.record({ type: fc.constant('tts_error'), agent_name: name, error: text, timestamp: ts }),
  error: fc.record({ type: fc.constant('error'), message: text, fatal: opt(fc.boolean()), timestamp: ts }),
  system: fc.record({ type: fc.constant('system'), content: text, timestamp: ts }),
  human_message_local: fc.record({
    type: fc.constant('human_message_local'),
    id: fc.constantFrom('h0', 'h1', 'h2'),
    text,
    timestamp: fc.constant('2026-11-22T02:00:00.000Z'),
  }),
};

/** Generated frames go through the schemas (defaults filled in, exactly as production delivers them). */
const validFrame: fc.Arbitrary<FeedInput> = fc.oneof(...Object.values(frameArb)).map((raw) => {
  if (raw.type === 'human_message_local') return raw as FeedInput;
  const parsed = parseFeedFrame(raw);
  if (!parsed) throw new Error(`generated an invalid frame: ${JSON.stringify(raw)}`);
  return parsed;
});
const frames = fc.array(validFrame, { maxLength: 60 });

const countNodes = (nodes: ArgumentNode[]): number => nodes.reduce((a, n) => a + 1 + countNodes(n.children), 0);

/** The frames that join an agent's turn (or, with no turn to join, make a row of their own). */
const ATTACHMENT_TYPES = new Set(['acl_message', 'request', 'delegation']);
const isAttachment = (f: FeedInput) => ATTACHMENT_TYPES.has(f.type);

/**
 * Where each attachment frame is reachable: inside a turn's extras, as a row of its own, or waiting for its
 * agent's turn. Every one is in exactly one place, and nothing waits once the discussion has ended.
 */
function expectAttachmentsReachable(seq: readonly FeedInput[], feed: ReturnType<typeof applyFrames>) {
  const rows = new Set(selectMessageIds(feed));
  const inTurns = new Set(selectMessages(feed).flatMap((m) => (m.extras ?? []).map((e) => e.key)));
  const waiting = new Set(Object.values(feed.pendingBySender).flat());
  for (const f of seq.filter(isAttachment)) {
    const key = frameKey(f);
    const entry = kvValues(feed.attachments).find((e) => e.key === key);
    expect(entry, key).toBeDefined();
    if (entry!.placed === 'turn') expect(inTurns.has(entry!.extra.key) && !rows.has(key)).toBe(true);
    else if (entry!.placed === 'row') expect(rows.has(key)).toBe(true);
    else expect(waiting.has(key) && !rows.has(key)).toBe(true);
  }
  if (feed.session.ended) expect(waiting.size).toBe(0);
}

/** The ids the feed must show for these frames: every message id, argument id and item-making frame's key (attachments aside). */
function expectedIds(seq: readonly FeedInput[]): Set<string> {
  const ids = new Set<string>();
  for (const f of seq) {
    switch (f.type) {
      case 'agent_message':
      case 'agent_message_start':
      case 'agent_message_delta':
      case 'human_message_local':
        ids.add(f.id);
        break;
      case 'text':
        ids.add(f.id ?? frameKey(f));
        break;
      case 'argument':
        ids.add(f.argument.id);
        break;
      case 'error':
        if (!f.fatal) ids.add(frameKey(f));
        break;
      case 'research_results':
        if (!(f.unavailable && f.results.length === 0)) ids.add(frameKey(f)); // a failed search is the Research tab's notice
        break;
      case 'reasoning_stage':
      case 'research_result':
      case 'consensus_reached':
      case 'round_start':
      case 'round_end':
      case 'discussion_summary':
      case 'tts_error':
      case 'system':
        ids.add(frameKey(f));
        break;
      default:
        break; // not items: status, audio, session, metrics, tts markers
    }
  }
  return ids;
}

/** What the server may resend: everything but deltas (they are neither stored nor replayed). */
const replayable = (seq: readonly FeedInput[]) => seq.filter((f) => f.type !== 'agent_message_delta');

describe('applyFrame properties', () => {
  it('every generated frame is valid for the schemas', () => {
    for (const [type, arb] of Object.entries(frameArb)) {
      fc.assert(
        fc.property(arb, (raw) => type === 'human_message_local' || parseFeedFrame(raw) !== null),
        { numRuns: 50 },
      );
    }
  });

  it('never throws, whatever the sequence, and the selectors and export never throw either', () => {
    fc.assert(
      fc.property(frames, (seq) => {
        const feed = applyFrames(emptyFeed, seq);
        selectMessages(feed);
        selectArgumentTree(feed);
        selectPapers(feed);
        selectAnalytics(feed);
        buildExport(feed, {
          sessionId: null,
          endpoint: '/ws/hybrid',
          context: 'c',
          now: new Date(0),
          configuration: {
            communication: communicationConfig.parse({}),
            reasoning: reasoningConfig.parse({}),
            research: researchConfig.parse({}),
          },
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps every message: one item per distinct id, in first-arrival order, never twice', () => {
    fc.assert(
      fc.property(frames, (seq) => {
        const feed = applyFrames(emptyFeed, seq);
        const ids = selectMessageIds(feed);
        expect(new Set(ids).size).toBe(ids.length);
        const attachmentRows = new Set(
          kvValues(feed.attachments)
            .filter((e) => e.placed === 'row')
            .map((e) => e.key),
        );
        const own = ids.filter((id) => !attachmentRows.has(id));
        expect(new Set(own)).toEqual(expectedIds(seq));
        expect(own).toEqual([...expectedIds(seq)]); // Set keeps first insertion order
        expectAttachmentsReachable(seq, feed);
        // the one message count: turns and human messages, never an attachment
        expect(countMessages(feed)).toBe(selectMessages(feed).filter((m) => isMessageKind(m.kind)).length);
        const args = new Set(seq.flatMap((f) => (f.type === 'argument' ? [f.argument.id] : [])));
        expect(countNodes(selectArgumentTree(feed))).toBe(args.size);
      }),
      { numRuns: RUNS },
    );
  });

  it('is idempotent under replay: the server resending what was sent yields the same messages', () => {
    fc.assert(
      fc.property(frames, fc.nat(), (seq, cut) => {
        const feed = applyFrames(emptyFeed, seq);
        const suffix = replayable(seq).slice(cut % (seq.length + 1));
        expect(selectMessages(applyFrames(feed, replayable(seq)))).toEqual(selectMessages(feed));
        expect(selectMessages(applyFrames(feed, suffix))).toEqual(selectMessages(feed));
      }),
      { numRuns: RUNS },
    );
  });

  it('duplicated frames (each resent right after itself) change nothing', () => {
    fc.assert(
      fc.property(frames, (seq) => {
        const doubled = seq.flatMap((f): FeedInput[] => (f.type === 'agent_message_delta' ? [f] : [f, f]));
        expect(selectMessages(applyFrames(emptyFeed, doubled))).toEqual(selectMessages(applyFrames(emptyFeed, seq)));
      }),
      { numRuns: RUNS },
    );
  });

  it('a replayed frame already seen returns the very same feed', () => {
    fc.assert(
      fc.property(frames, (seq) => {
        const feed = applyFrames(emptyFeed, seq);
        const last = replayable(seq).at(-1);
        if (last) expect(applyFrame(feed, last)).toBe(feed);
      }),
      { numRuns: RUNS },
    );
  });

  it('out of order (any permutation: round_end first, orphan arguments, audio or deltas first) keeps every item', () => {
    fc.assert(
      fc.property(
        frames.chain((seq) =>
          fc.tuple(fc.constant(seq), fc.shuffledSubarray(seq, { minLength: seq.length, maxLength: seq.length })),
        ),
        ([seq, shuffled]) => {
          const a = applyFrames(emptyFeed, seq);
          const b = applyFrames(emptyFeed, shuffled);
          // Attachments may join a turn in one order and stand alone in another; everything else is the same set.
          const notAttachment = (feed: typeof a) => {
            const rows = new Set(
              kvValues(feed.attachments)
                .filter((e) => e.placed === 'row')
                .map((e) => e.key),
            );
            return new Set(selectMessageIds(feed).filter((id) => !rows.has(id)));
          };
          expect(notAttachment(b)).toEqual(notAttachment(a));
          expectAttachmentsReachable(shuffled, b);
          expect(countMessages(b)).toBe(countMessages(a));
          expect(countNodes(selectArgumentTree(b))).toBe(countNodes(selectArgumentTree(a)));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('earlier feeds never change (purity under structural sharing)', () => {
    fc.assert(
      fc.property(frames, frames, frames, (base, x, y) => {
        const feed = applyFrames(emptyFeed, base);
        const snapshot = JSON.stringify(selectMessages(feed));
        const fx = applyFrames(feed, x);
        const fy = applyFrames(feed, y);
        expect(JSON.stringify(selectMessages(feed))).toBe(snapshot);
        // each branch equals the same frames applied from scratch
        expect(selectMessages(fx)).toEqual(selectMessages(applyFrames(emptyFeed, [...base, ...x])));
        expect(selectMessages(fy)).toEqual(selectMessages(applyFrames(emptyFeed, [...base, ...y])));
      }),
      { numRuns: RUNS },
    );
  });
});
