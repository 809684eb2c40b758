import { beforeAll, describe, expect, it } from 'vitest';
import { loadTagger } from '../../../server/providers/llm/offlineModel/tagging';
import { questionClause, questionSubject } from '../../../server/providers/llm/offlineModel/phrases';

// The topic question turned into a clause is what the summary and many turns open with; a compound subject read
// as subject + verb ("whether our town should square be closed") garbled them.
describe('the offline model reads a topic question', () => {
  beforeAll(loadTagger);
  it.each([
    [
      'Should our town square be closed to cars?',
      'whether our town square should be closed to cars',
      'our town square',
    ],
    ['Should the city park stay open late?', 'whether the city park should stay open late', 'the city park'],
    ['Should our council fund bike lanes?', 'whether our council should fund bike lanes', 'our council'],
    ['Should a family farm offer tours?', 'whether a family farm should offer tours', 'a family farm'],
    ['Should the pension fund invest in bonds?', 'whether the pension fund should invest in bonds', 'the pension fund'],
    [
      'Should our school switch to a four-day week?',
      'whether our school should switch to a four-day week',
      'our school',
    ],
  ])('%s', (topic, clause, subject) => {
    expect(questionClause(topic)).toBe(clause);
    expect(questionSubject(topic)).toBe(subject);
  });
});

describe('the offline summary', () => {
  beforeAll(loadTagger);
  it('counts turns as the message count does: a person’s message is not a turn', async () => {
    const { offlineAnswer } = await import('../../../server/providers/llm/offline');
    const agent = { id: 'a', name: 'Ada', role: 'Economist', prompt: '' };
    const history = [
      { speaker: 'Ada', content: 'One.', stance: 'support' },
      { speaker: 'Bo', content: 'Two.', stance: 'oppose' },
      { speaker: 'Human', content: 'What about cost?', human: true },
      { speaker: 'Ada', content: 'Three.', stance: 'support' },
    ];
    const text = offlineAnswer({
      model: 'offline',
      messages: [],
      context: {
        agent,
        others: [{ ...agent, id: 'b', name: 'Bo' }],
        topic: 'Free buses?',
        turn: 5,
        history,
        task: 'summary',
      },
    });
    expect(text).toMatch(/^Summary of 3 turns/);
  });
});
