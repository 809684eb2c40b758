import { describe, expect, it } from 'vitest';
import type { EngineFrame } from '../../../server/engine/frames';
import { UsageTally } from '../../../server/engine/usage';
import { answerOf, turnsOf } from '../../../server/integrations/panelAnswer';

// What a panel concluded, read from its frames: a council's answer is its chair's, not the summary that points to
// it; otherwise the summary; the consensus figure and the positions come from the frames as sent.

const turn = (agent_name: string, content: string, extra: object = {}) =>
  ({
    type: 'agent_message',
    id: `m-${agent_name}`,
    agent_id: agent_name,
    agent_name,
    content,
    ...extra,
  }) as EngineFrame;
const frames = [
  turn('Ada', 'Open on Sundays.', { position: 'Open', consensus_score: 0.5 }),
  turn('Bo', 'Stay closed.', { position: 'Closed', consensus_score: 0.5 }),
  turn('Cy', 'Open from noon, as chair.', { position: 'Open', consensus_score: 0.67 }),
  {
    type: 'discussion_summary',
    summary: { text: 'Cy, as chair, weighed the answers…', outcome: 'Moved by the discussion' },
  },
  { type: 'discussion_ended', reason: 'completed' },
] as EngineFrame[];

describe('answerOf', () => {
  it('answers a council with its chair’s answer, others with the summary', () => {
    const base = { discussionId: 'd1', panel: 'P', frames, turns: turnsOf(frames) };
    expect(answerOf({ ...base, formatKind: 'council' }).answer).toBe('Open from noon, as chair.');
    expect(answerOf({ ...base, formatKind: 'round_table' }).answer).toBe('Cy, as chair, weighed the answers…');
  });

  it('carries the last consensus figure, the outcome and each agent’s last position, and the metered usage', () => {
    const usage = new UsageTally();
    usage.meter({ prompt: 10, completion: 5, source: 'provider' });
    usage.meter({ prompt: 7, completion: 3, source: 'estimate' });
    const a = answerOf({ discussionId: 'd1', panel: 'P', formatKind: null, frames, turns: turnsOf(frames), usage });
    expect(a.consensus).toBe(0.67);
    expect(a.positions).toEqual(['Moved by the discussion', 'Ada: Open', 'Bo: Closed', 'Cy: Open']);
    expect(a.usage).toEqual({ prompt_tokens: 17, completion_tokens: 8, total_tokens: 25, estimated: true });
    expect(a.end_reason).toBe('completed');
    expect(a.address).toBe('/discussions/d1');
  });
});
