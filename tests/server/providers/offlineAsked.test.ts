import { beforeAll, describe, expect, it } from 'vitest';
import { summaryRequest } from '../../../server/engine/prompt';
import type { TurnContext } from '../../../server/engine/turnAnswer';
import { emptyRecord, withTurn, type DiscussionRecord } from '../../../server/engine/record';
import { loadTagger } from '../../../server/providers/llm/offlineModel/tagging';
import { plans } from '../engine/machineKit';

// A question put to an agent by name — by a person or by another agent's turn — is taken up in that agent's next
// turn: its words echo the question's subject (issue 47).

const TOPIC = 'Should the city make buses free to ride?';
const people = ['Vera', 'Tomas', 'Ines'].map((name, i) => ({
  id: `a${i}`,
  name,
  role: ['Economist', 'Bus driver', 'Planner'][i],
  prompt: '',
}));

async function turnOf(name: string, history: TurnContext['history']) {
  const { offlineAnswer } = await import('../../../server/providers/llm/offline');
  const agent = people.find((p) => p.name === name)!;
  const raw = offlineAnswer({
    model: 'offline',
    messages: [],
    context: {
      agent,
      others: people.filter((p) => p !== agent),
      topic: TOPIC,
      turn: history.length + 1,
      history,
      task: 'turn',
    },
  });
  try {
    return JSON.parse(raw).content as string;
  } catch {
    return raw;
  }
}

describe('the offline model answers what it is asked', () => {
  beforeAll(loadTagger);
  it('a person’s question by name, with another agent speaking in between', async () => {
    const t = await turnOf('Tomas', [
      {
        speaker: 'Vera',
        content: 'Free fares cost the city 38 million euros a year.',
        stance: 'support',
        confidence: 0.6,
      },
      { speaker: 'Tomas', content: 'Drivers would welcome it.', stance: 'support', confidence: 0.6 },
      { speaker: 'Human', content: 'Tomas, would free fares overcrowd your route 12?', human: true },
      { speaker: 'Vera', content: 'I still think the budget can carry it.', stance: 'support', confidence: 0.6 },
    ]);
    expect(t).toMatch(/route 12|overcrowd/i);
  });
  it('a person’s question that came while the agent was writing its turn is answered in its next one', async () => {
    const history = [
      {
        speaker: 'Vera',
        content: 'Free fares cost the city 38 million euros a year.',
        stance: 'support',
        confidence: 0.6,
      },
      { speaker: 'Human', content: 'Tomas, would free fares overcrowd your route 12?', human: true },
      { speaker: 'Tomas', content: 'Drivers would welcome it.', stance: 'support', confidence: 0.6 },
      { speaker: 'Vera', content: 'I still think the budget can carry it.', stance: 'support', confidence: 0.6 },
    ];
    const t = await turnOf('Tomas', history);
    expect(t).toMatch(/route 12/);
    // Once answered, it is not answered again.
    const again = await turnOf('Tomas', [
      ...history,
      { speaker: 'Tomas', content: t, stance: 'support', confidence: 0.6 },
      history[3],
    ]);
    expect(again).not.toMatch(/route 12/);
  });

  it('another agent’s question by name', async () => {
    const t = await turnOf('Tomas', [
      { speaker: 'Tomas', content: 'Drivers would welcome it.', stance: 'support', confidence: 0.6 },
      {
        speaker: 'Vera',
        content: 'Free fares cost the city 38 million euros a year. Tomas, would free fares overcrowd your route 12?',
        stance: 'support',
        confidence: 0.6,
      },
    ]);
    expect(t).toMatch(/route 12|overcrowd/i);
  });
});

describe('the summary counts the agents’ turns', () => {
  beforeAll(loadTagger);
  it('all of them, however long the run, and never a person’s message', async () => {
    const { offlineAnswer } = await import('../../../server/providers/llm/offline');
    const plan = plans.basic({ turns: 40 });
    let record: DiscussionRecord = emptyRecord();
    const say = (speaker: string, content: string, human = false) => {
      record = {
        ...record,
        ...withTurn(record, { speakerId: human ? null : speaker, speaker, content, human }),
        figures: { ...record.figures, messages: record.figures.messages + (human ? 0 : 1) },
      };
    };
    for (let i = 0; i < 35; i++) {
      say(['Ada', 'Bo', 'Cy'][i % 3], `Point ${i} about free buses.`);
      if (i === 3 || i === 30) say('Human', 'Bo, what about the cost?', true);
    }
    expect(offlineAnswer(summaryRequest(plan, record, 0.5))).toMatch(/^Summary of 35 turns/);
  });
});
