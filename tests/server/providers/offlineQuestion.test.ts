import { beforeAll, describe, expect, it } from 'vitest';
import { loadTagger } from '../../../server/providers/llm/offlineModel/tagging';
import { questionClause, questionSubject } from '../../../server/providers/llm/offlineModel/phrases';

// The topic question turned into a clause is what the summary and many turns open with; a compound subject read
// as subject + verb ("whether our town should square be closed") garbled them.
describe('the offline model reads a topic question', () => {
  beforeAll(loadTagger);
  it.each([
    ['Should our town square be closed to cars?', 'whether our town square should be closed to cars', 'our town square'],
    ['Should the city park stay open late?', 'whether the city park should stay open late', 'the city park'],
    ['Should our council fund bike lanes?', 'whether our council should fund bike lanes', 'our council'],
    ['Should a family farm offer tours?', 'whether a family farm should offer tours', 'a family farm'],
    ['Should the pension fund invest in bonds?', 'whether the pension fund should invest in bonds', 'the pension fund'],
    ['Should our school switch to a four-day week?', 'whether our school should switch to a four-day week', 'our school'],
  ])('%s', (topic, clause, subject) => {
    expect(questionClause(topic)).toBe(clause);
    expect(questionSubject(topic)).toBe(subject);
  });
});
