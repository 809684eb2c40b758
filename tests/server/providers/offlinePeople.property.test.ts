import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTagger } from '../../../server/providers/llm/offlineModel/tagging';
import { discuss, factAndAsk, factAndAskText, human, team, topic } from './offlineDiscussions';
import { brokenShapes, sentencesOf } from './offlineGrammar';

// The demo reads like people: over 200 topics × 8 turns, no sentence has a known broken shape (the list grows), a
// question put to an agent by name is answered in that agent's next turn, a person's fact is quoted whole (its
// name and figure exactly as written), and an agent that changes its position says so and why.

const SHIFT =
  /changed my mind|brought me round|now in favour|made up my mind|doubt it|doubt them|more cautious|come down against|turned me against|less sure|shaken my confidence|softened/;

describe('the offline demo reads like people (property)', () => {
  beforeAll(loadTagger);

  it('answers a question put to an agent by name, quotes the figures, and holds or explains its position', () => {
    fc.assert(
      fc.property(topic, team, factAndAsk, fc.integer({ min: 2, max: 6 }), (subject, agents, m, humanAt) => {
        const asked = agents[m.to].name;
        const { text, fact } = factAndAskText(m, asked);
        const turns = discuss(subject, agents, text, humanAt);
        for (const t of turns) {
          for (const sentence of sentencesOf(t.content)) {
            const broken = brokenShapes(sentence);
            if (broken.length) throw new Error(`${broken.join(', ')}: "${sentence}" (topic: ${subject})`);
          }
        }
        const after = turns.findIndex((t) => t.afterHuman);
        const reply = turns[after];
        if (reply.speaker !== asked && !reply.content.includes(fact))
          throw new Error(`${reply.speaker} did not quote "${fact}" whole: ${reply.content}`);
        if (!reply.content.includes(m.figure))
          throw new Error(`${reply.speaker} lost the figure ${m.figure}: ${reply.content}`);
        const answer = turns.slice(after).find((t) => t.speaker === asked);
        const q = m.question.replace(/\?$/, '').slice(1);
        if (answer && !answer.content.includes(q))
          throw new Error(`${asked} did not take up "${m.question}": ${answer.content}`);
        checkPositions(turns);
      }),
      { numRuns: 200, seed: 34 },
    );
  }, 240_000);

  it('over 200 topics × 8 turns with any message: no broken shape, positions held or explained', () => {
    fc.assert(
      fc.property(topic, team, human, fc.integer({ min: 2, max: 7 }), (subject, agents, message, humanAt) => {
        const turns = discuss(subject, agents, message, humanAt);
        for (const t of turns) {
          for (const sentence of sentencesOf(t.content)) {
            const broken = brokenShapes(sentence);
            if (broken.length) throw new Error(`${broken.join(', ')}: "${sentence}" (topic: ${subject})`);
          }
        }
        checkPositions(turns);
      }),
      { numRuns: 200, seed: 35 },
    );
  }, 240_000);

  it('the broken shapes found so far are caught', () => {
    for (const bad of [
      'One option is to pair the city with public transport and compare the results.',
      'The trade-off is between brainstorm ways and public transport, and as an economist I would weight it higher.',
      'You say data point for you all: Tallinn made buses free in 2013.',
      "I was undecided before; after Vera's argument, I'm now in favour of food waste.",
      "I won't support public transport as it stands.",
    ])
      expect(brokenShapes(bad), bad).not.toEqual([]);
    expect(brokenShapes('You wrote, "Tallinn made buses free in 2013."')).toEqual([]);
  });
});

function checkPositions(turns: Array<{ speaker: string; content: string; stance?: string }>) {
  const last = new Map<string, string>();
  for (const t of turns) {
    const before = last.get(t.speaker);
    if (before && t.stance && before !== t.stance && !SHIFT.test(t.content)) {
      throw new Error(`${t.speaker} moved from ${before} to ${t.stance} without saying why: ${t.content}`);
    }
    if (t.stance) last.set(t.speaker, t.stance);
  }
}
