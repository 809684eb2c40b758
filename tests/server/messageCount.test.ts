import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discussionHistory, storedDiscussion } from '../../src/schemas/history';
import { countMessages } from '../../src/model/feedSelectors';
import { countStoredMessages } from '../../src/shared/messageCount';
import { replayStored } from '../../src/model/storedReplay';
import { startTestServer, type TestServer } from './harness';
import type { ChatRequest } from '../../server/providers/types';
import {
  humanMessagesStored,
  makeAgents,
  offlineLlm,
  openDiscussion,
  sessionId,
  testProviders,
} from './engine/helpers';

// The History list's message_count is the one count (src/shared/messageCount.ts): the same number the opened
// discussion (the feed replayed from the stored frames), the panel, the PDF and the JSON show — turns once, however
// many frames carried them (an ACL message, a request, an argument on the multi-round endpoint), plus the human's.

// The first turn waits until the human's message is in, so every run has one.
let hold: { gate: Promise<void>; open: () => void } | null = null;
const llm = offlineLlm(async (req: ChatRequest, next) => {
  if (hold && req.context?.turn === 1) await hold.gate;
  return next(req);
});

let s: TestServer;
let token: string;
let agentIds: string[];
beforeAll(async () => {
  s = await startTestServer({}, { providers: testProviders({ llm }) });
  ({ token } = await s.register());
  agentIds = await makeAgents(s, token, 3);
});
afterAll(() => s.close());

const RUNS: [string, string, object, 'standard' | 'hybrid'][] = [
  [
    'enhanced (turns with ACL messages)',
    '/ws/enhanced',
    {
      context: 'Should the town square go car-free?',
      communication_config: { useACL: true },
      legacy_config: { turns: 4, mode: 'enhanced' },
    },
    'standard',
  ],
  [
    'multi-round (turns are arguments)',
    '/ws/multi_round_reasoning',
    { context: 'Should the library open on Sundays?', reasoning_config: { maxRounds: 1 } },
    'standard',
  ],
  [
    'hybrid (requests and delegations)',
    '/ws/hybrid',
    { topic: 'Four-day school week?', mode: 'structured', max_rounds: 2 },
    'hybrid',
  ],
];

describe('one message count: History list = stored frames = opened feed', () => {
  it.each(RUNS)('%s', async (_name, path, config, panel) => {
    let open!: () => void;
    hold = { gate: new Promise<void>((r) => (open = r)), open: () => open() };
    const sid = sessionId('count');
    const c = await openDiscussion(s, path, token, { agent_ids: agentIds, session_id: sid, ...config }, panel);
    await c.waitFor((f) => f.type === 'agent_status' && f.status === 'thinking');
    c.send({ type: 'human_message', text: 'Think of the bus riders.', timestamp: new Date().toISOString() });
    await humanMessagesStored(s, token, sid);
    hold.open();
    hold = null;
    await c.waitClose();

    const stored = storedDiscussion.parse((await s.api('GET', `/discussion/${sid}`, { token })).body);
    const listed = discussionHistory
      .parse((await s.api('GET', '/discussion/history', { token })).body)
      .find((h) => h.session_id === sid)!;
    const fromFrames = countStoredMessages(
      stored.frames.map((f) => f.data),
      stored.human_messages.length,
    );
    const opened = countMessages(replayStored(stored).feed);
    expect(stored.human_messages).toHaveLength(1);
    expect(fromFrames).toBeGreaterThan(1);
    expect(listed.message_count).toBe(fromFrames);
    expect(opened).toBe(fromFrames);
    // not the frame count: a turn's companions are not messages
    expect(listed.message_count).toBeLessThan(stored.frames.length);
  });
});
