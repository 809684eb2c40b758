import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTagger } from '../../../server/providers/llm/offlineModel/tagging';
import { discuss, human, refersTo, team, topic } from './offlineDiscussions';
import { brokenShapes, sentencesOf } from './offlineGrammar';

// The offline demo model answers like a participant: over generated topics, teams and human messages, no sentence it
// writes has a known broken shape (offlineGrammar.ts), and the first turn after a person's message refers to it.

describe('the offline model answers like a participant (property)', () => {
  beforeAll(loadTagger);
  it('over 200 generated topics: no broken noun phrase, and the first turn after a person’s message refers to it', () => {
    fc.assert(
      fc.property(topic, team, human, fc.integer({ min: 2, max: 7 }), (subject, agents, message, humanAt) => {
        const turns = discuss(subject, agents, message, humanAt);
        for (const t of turns) {
          for (const sentence of sentencesOf(t.content)) {
            const broken = brokenShapes(sentence);
            if (broken.length) throw new Error(`${broken.join(', ')}: "${sentence}" (topic: ${subject})`);
          }
        }
        const reply = turns.find((t) => t.afterHuman)!;
        if (!refersTo(reply.content, message))
          throw new Error(`${reply.speaker} ignored "${message}": ${reply.content}`);
      }),
      { numRuns: 200, seed: 18 },
    );
  }, 180_000);

  it('the failure shapes are caught: each known broken sentence is flagged, a sound one is not', () => {
    for (const bad of [
      'Basil raises city.',
      "We haven't tested how team interacts with environmental.",
      'The the plan works.',
      'This is a idea worth testing.',
      'City parking fees is the lever.',
      'I would start with.',
    ]) {
      expect(brokenShapes(bad), bad).not.toEqual([]);
    }
    for (const good of [
      'Basil should raise city parking fees.',
      'The team interacts with the environment.',
      'The plan is sound.',
      'I would start with food waste.',
      'City parking fees are the lever.',
    ]) {
      expect(brokenShapes(good), good).toEqual([]);
    }
  });
});
