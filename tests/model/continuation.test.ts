import { describe, expect, it } from 'vitest';
import { buildStandardConfig } from '../../src/model/standardConfig';
import { continuedDraft, startedRun } from '../../src/model/panelRun';
import { initialStandardContext, standardVariant } from '../../src/model/standardVariant';
import { basicConfig } from '../../src/schemas/standardSocket';
import { buildHybridConfig } from '../../src/model/hybridConfig';
import { hybridVariant, initialHybridContext } from '../../src/model/hybridVariant';
import { hybridConfig } from '../../src/schemas/hybridSocket';

// 'Continue from here' in the standard panel: History's choice becomes the draft and rides on the next Start's
// configuration as `continued_from`, once.

describe('a continuation in the standard panel', () => {
  const continuation = { discussionId: 'd-source', turn: 3, title: 'Fare-free buses?' };

  it('takes the topic as the draft and sends continued_from with the next Start only', () => {
    const draft = {
      ...initialStandardContext,
      token: 't',
      ...continuedDraft({ continuation, topic: 'Fare-free buses?' }),
    };
    expect(draft.topic).toBe('Fare-free buses?');
    const start = { agentIds: ['a', 'b'], connections: [], endpoint: 'basic' as const };
    const started = startedRun(standardVariant.newRun(draft, start));
    expect(started.continuation).toBeNull();
    const first = buildStandardConfig(started.run!);
    expect(first.continued_from).toEqual({ discussion_id: 'd-source', turn: 3 });
    expect(basicConfig.safeParse(first).success).toBe(true);
    const again = startedRun(standardVariant.newRun({ ...draft, ...started }, start));
    expect(buildStandardConfig(again.run!)).not.toHaveProperty('continued_from');
  });

  it('is refused by the schema when the turn is not a turn', () => {
    const bad = {
      agent_ids: ['a', 'b'],
      session_id: 's',
      context: 'x',
      continued_from: { discussion_id: 'd', turn: 0 },
    };
    expect(basicConfig.safeParse(bad).success).toBe(false);
    const extra = { ...bad, continued_from: { discussion_id: 'd', turn: 1, secret: true } };
    expect(basicConfig.safeParse(extra).success).toBe(false);
  });
});

describe('a continuation in the hybrid panel', () => {
  const continuation = { discussionId: 'd-hybrid', turn: 2, title: 'Frost nights' };

  it('takes the topic and the stored settings, and sends continued_from with the next Start only', () => {
    const settings = { ...initialHybridContext.settings, mode: 'structured' as const, max_rounds: 4 };
    const draft = {
      ...initialHybridContext,
      ...hybridVariant.continued({ continuation, topic: 'Frost nights', settings }, true),
    };
    expect(draft.topic).toBe('Frost nights');
    expect(draft.settings).toEqual(settings);
    const start = { agentIds: ['a', 'b'], endpoint: 'hybrid' as const };
    const started = startedRun(hybridVariant.newRun(draft, start));
    expect(started.continuation).toBeNull();
    const first = buildHybridConfig(started.run!);
    expect(first.continued_from).toEqual({ discussion_id: 'd-hybrid', turn: 2 });
    expect(hybridConfig.safeParse(first).success).toBe(true);
    const again = startedRun(hybridVariant.newRun({ ...draft, ...started }, start));
    expect(buildHybridConfig(again.run!)).not.toHaveProperty('continued_from');
  });

  it('keeps the panel’s settings when it is told not to take the stored ones (a run is on)', () => {
    const settings = { ...initialHybridContext.settings, mode: 'natural' as const };
    expect(hybridVariant.continued({ continuation, topic: 'x', settings }, false)).not.toHaveProperty('settings');
  });
});

describe('the canvas marks of a stored moment', () => {
  it('give each agent its option words and the colour slot of its option id', async () => {
    const { canvasPositionsOf } = await import('../../src/model/positionSelectors');
    const marks = canvasPositionsOf({
      options: [
        { id: 'o1', label: 'Fare-free' },
        { id: 'o3', label: 'Trial first' },
      ],
      byAgent: { a: { agentId: 'a', optionId: 'o3' }, b: { agentId: 'b', optionId: 'o9' } },
    } as never);
    expect(marks).toEqual({ a: { label: 'Trial first', slot: 2 }, b: { label: 'o9', slot: 0 } });
  });
});
