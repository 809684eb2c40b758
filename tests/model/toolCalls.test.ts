// Tool calls in the feed (docs/tools.md): tool_call then tool_result under their turn, in order, once; a call that
// waits for the person; a cut or failed result; a result before its call; the agent's 'using …' status.
import { describe, expect, it } from 'vitest';
import {
  applyFrame,
  applyFrames,
  emptyFeed,
  toolCallState,
  toolCallsOf,
  toolsInUse,
  turnWithoutTools,
  type FeedInput,
} from '../../src/model/feed';
import { selectItem, selectMessageIds } from '../../src/model/feedSelectors';

const call = (id: string, extra: object = {}): FeedInput =>
  ({
    type: 'tool_call',
    id,
    agent_id: 'ada',
    message_id: 'm1',
    tool: 'calculator',
    server: 'builtin',
    arguments: { expression: '12 * 7' },
    timestamp: '2026-11-28T10:00:00Z',
    ...extra,
  }) as FeedInput;
const result = (id: string, extra: object = {}): FeedInput =>
  ({ type: 'tool_result', id, ok: true, content: '84', truncated: false, ms: 3, ...extra }) as FeedInput;
const final = (id: string, content: string): FeedInput =>
  ({
    type: 'agent_message',
    id,
    agent_id: 'ada',
    agent_name: 'Ada',
    content,
    message_type: 'hybrid',
    formal_communications: [],
  }) as FeedInput;
const started: FeedInput = {
  type: 'discussion_initialized',
  session_id: 's1',
  participants: [{ id: 'ada', name: 'Ada', role: 'Analyst' }],
} as unknown as FeedInput;

describe('tool calls in the feed', () => {
  it('joins call and result to their turn in order, and the turn text lands on the same item', () => {
    const feed = applyFrames(emptyFeed, [started, call('c1'), result('c1'), final('m1', '12 × 7 is 84.')]);
    expect(selectMessageIds(feed)).toEqual(['m1']);
    expect(selectItem(feed, 'm1')?.content).toBe('12 × 7 is 84.');
    const calls = toolCallsOf(feed, 'm1');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ tool: 'calculator', server: 'builtin', arguments: { expression: '12 * 7' } });
    expect(calls[0]!.result).toEqual({ ok: true, content: '84', truncated: false, ms: 3, error: null });
    expect(toolCallState(calls[0]!)).toBe('done');
  });

  it('starts the turn under which the call sits, named from the participants', () => {
    const feed = applyFrames(emptyFeed, [started, call('c1')]);
    expect(selectItem(feed, 'm1')).toMatchObject({ agentId: 'ada', agentName: 'Ada', streaming: true });
    expect(toolsInUse(feed)).toEqual({ ada: 'calculator' });
    expect(toolsInUse(applyFrame(feed, result('c1')))).toEqual({});
  });

  it('a call from an agent the feed cannot name leaves the name to the canvas (never its id)', () => {
    const feed = applyFrames(emptyFeed, [call('c1')]);
    expect(selectItem(feed, 'm1')).toMatchObject({ agentId: 'ada', agentName: null, streaming: true });
  });

  it('keeps a cut result and a failed one with its error', () => {
    const feed = applyFrames(emptyFeed, [
      call('c1'),
      result('c1', { content: 'x'.repeat(100), truncated: true }),
      call('c2', { tool: 'lookup', server: 'conn-1' }),
      result('c2', { ok: false, content: '', error: 'timed out after 30 s' }),
    ]);
    const [a, b] = toolCallsOf(feed, 'm1');
    expect(a!.result?.truncated).toBe(true);
    expect(toolCallState(a!)).toBe('done');
    expect(toolCallState(b!)).toBe('failed');
    expect(b!.result?.error).toBe('timed out after 30 s');
  });

  it('a call that waits says so until the person answers; a refusal shows at once', () => {
    const waiting = applyFrames(emptyFeed, [call('c1', { needs_approval: true })]);
    expect(toolCallState(toolCallsOf(waiting, 'm1')[0]!)).toBe('waiting');
    const refused = applyFrame(waiting, { type: 'tool_approval_local', id: 'c1', approve: false });
    expect(toolCallState(toolCallsOf(refused, 'm1')[0]!)).toBe('refused');
    const approved = applyFrame(waiting, { type: 'tool_approval_local', id: 'c1', approve: true });
    expect(toolCallState(toolCallsOf(approved, 'm1')[0]!)).toBe('running');
    // A stored discussion has no local answer: the server's result for a refused call says it.
    const stored = applyFrame(waiting, result('c1', { ok: false, content: '', error: 'refused by the person' }));
    expect(toolCallState(toolCallsOf(stored, 'm1')[0]!)).toBe('refused');
  });

  it('a replayed frame changes nothing, and a result before its call waits for it', () => {
    const once = applyFrames(emptyFeed, [call('c1'), result('c1')]);
    expect(applyFrames(once, [call('c1'), result('c1')])).toBe(once);
    const early = applyFrame(emptyFeed, result('c9'));
    expect(toolCallsOf(early, 'm1')).toHaveLength(0);
    const joined = applyFrame(early, call('c9'));
    expect(toolCallState(toolCallsOf(joined, 'm1')[0]!)).toBe('done');
  });

  it('an answer for an unknown or finished call changes nothing', () => {
    const done = applyFrames(emptyFeed, [call('c1', { needs_approval: true }), result('c1')]);
    expect(applyFrame(done, { type: 'tool_approval_local', id: 'c1', approve: false })).toBe(done);
    expect(applyFrame(emptyFeed, { type: 'tool_approval_local', id: 'nope', approve: true })).toBe(emptyFeed);
  });

  it('marks the turn whose model cannot call tools, from either panel’s notice, and no other turn', () => {
    const note = (type: 'system' | 'error', agent: string, messageId: string, extra: object = {}): FeedInput =>
      ({
        type,
        [type === 'system' ? 'content' : 'message']: `${agent}'s model cannot call tools here.`,
        about: 'tools_unsupported',
        agent_id: agent,
        message_id: messageId,
        ...extra,
      }) as FeedInput;
    expect(turnWithoutTools(applyFrames(emptyFeed, [started]), 'm1')).toBe(false);
    const feed = applyFrames(emptyFeed, [
      started,
      note('system', 'ada', 'm1'),
      note('error', 'bo', 'm2', { fatal: false }),
      { type: 'system', content: 'Something else', message_id: 'm3' } as FeedInput,
    ]);
    expect(['m1', 'm2', 'm3', 'm4'].map((id) => turnWithoutTools(feed, id))).toEqual([true, true, false, false]);
  });
});
