import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../server/providers/types';
import { startTestServer, type TestServer } from '../harness';
import { refersTo } from '../providers/offlineDiscussions';
import { streamProblems, unstreamedFinals } from './frameOrder';
import {
  humanMessagesStored,
  makeAgents,
  offlineLlm,
  openDiscussion,
  recordedResearch,
  sessionId,
  testProviders,
} from './helpers';

// Through the real server, socket and engine with the offline demo model: a person's message is taken up by the
// next agent turn, every turn (multi-round arguments and the summary too) streams, and a failed paper search is one
// plain sentence.

const requests: ChatRequest[] = [];
let gate: { wait: Promise<void>; open: () => void } | null = null;
const watched = offlineLlm(async (req, next) => {
  requests.push(req);
  if (gate && req.context?.turn === 1 && req.context.task === 'turn') await gate.wait;
  return next(req);
});

let s: TestServer;
let token: string;
let agentIds: string[];
beforeAll(async () => {
  s = await startTestServer({}, { providers: testProviders({ llm: watched, research: recordedResearch(false) }) });
  ({ token } = await s.register());
  agentIds = await makeAgents(s, token);
});
afterAll(() => s.close());

describe('the offline model in a live discussion', () => {
  it('after a person’s message, the next agent turn refers to it', async () => {
    let open!: () => void;
    gate = { wait: new Promise<void>((r) => (open = r)), open: () => open() };
    requests.length = 0;
    const message = 'parking lots bring in 2 million dollars a year in fees';
    try {
      const sid = sessionId('human-reply');
      const c = await openDiscussion(s, '/ws/enhanced', token, {
        agent_ids: agentIds,
        session_id: sid,
        context: 'Should the city raise parking fees to fund bike lanes?',
        legacy_config: { turns: 4 },
      });
      await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
      c.send({ type: 'human_message', text: message, timestamp: new Date().toISOString() });
      await humanMessagesStored(s, token, sid);
      gate.open();
      await c.waitClose(30_000);
      expect(c.invalid).toEqual([]);
      // The first turn whose model call heard the message answers it (the turn in progress when it was sent was
      // asked before it, and is recorded after it).
      const first = requests.find((r) => r.context?.task === 'turn' && r.context.history.some((h) => h.human))!;
      expect(first.context!.history.find((h) => h.human)?.content).toBe(message);
      const turns = c.frames.filter((f) => f.type === 'agent_message' && !f.interrupted);
      const reply = turns.find(
        (f) => f.agent_name === first.context!.agent.name && f.id.endsWith(`-msg-${first.context!.turn}`),
      );
      expect(reply, JSON.stringify(turns.map((t) => t.id))).toBeTruthy();
      expect(refersTo(reply.content, message), reply.content).toBe(true);
      expect(streamProblems(c.frames)).toEqual([]);
      expect(unstreamedFinals(c.frames)).toEqual([]);
    } finally {
      gate = null;
    }
  });

  it('multi-round: every argument and the closing summary stream; a failed search is one plain sentence', async () => {
    const c = await openDiscussion(s, '/ws/multi_round_reasoning', token, {
      agent_ids: agentIds,
      session_id: sessionId('multi-stream'),
      context: 'How can a small bakery cut food waste?',
      reasoning_config: { maxRounds: 1 },
      research_config: { enableResearch: true },
    });
    await c.waitClose(30_000);
    expect(c.invalid).toEqual([]);
    expect(c.frames.filter((f) => f.type === 'argument').length).toBeGreaterThan(0);
    expect(unstreamedFinals(c.frames)).toEqual([]);
    expect(streamProblems(c.frames)).toEqual([]);
    const summary = c.frames.find((f) => f.type === 'discussion_summary');
    expect(c.frames.find((f) => f.type === 'agent_message_start' && f.id === summary.id)).toMatchObject({
      kind: 'summary',
    });
    const research = c.frames.find((f) => f.type === 'research_results');
    expect(research.unavailable).toBe('Could not reach arXiv: no network.');
  });
});
