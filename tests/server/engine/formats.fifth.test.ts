import { describe, expect, it } from 'vitest';
import { parseTurnAnswer } from '../../../server/engine/answer';
import { definitionOf, formatPlanOf, formatProblem, registerFormat, withFormat } from '../../../server/engine/formats';
import type { FormatPlan } from '../../../server/engine/formats/formatPlan';
import { createOfflineProvider } from '../../../server/providers/llm/offline';
import { OFFLINE_MODEL } from '../../../src/schemas/constants';
import type { DiscussionFormat } from '../../../src/schemas/format';
import { RELAY, relayDefinition } from '../../support/relayFormat';
import { AGENTS, plans, run, speakerIn } from './machineKit';

// A fifth format is one definition registered by kind: the engine's chart and steps run it with no other change.
// Driven here on the engine machine with the built-in offline model answering every turn.

const offline = createOfflineProvider();
const relayFrame = (over: object = {}) => ({ kind: RELAY, ...over }) as DiscussionFormat;
const relayPlan = (over: object = {}) => {
  // Independent first answers off: each runner speaks once, and the anchor should hear the legs before it.
  const base = { ...plans.basic({ turns: 4 }), independentFirst: false };
  return withFormat(base, formatPlanOf(relayFrame(over), AGENTS) as FormatPlan);
};

describe('a fifth format, registered from one definition', () => {
  it('is unknown until registered', () => {
    expect(() => definitionOf('relay_unregistered')).toThrow(/no format 'relay_unregistered'/);
  });

  it('runs end to end with the offline model: its script, stages, prompt words and hearing; it ends itself', async () => {
    registerFormat(relayDefinition);
    expect(formatProblem(relayFrame(), ['a1'])).toBe('a relay needs two agents');
    expect(formatProblem(relayFrame({ chair: 'zz' }), ['a1', 'a2'])).toMatch(/format.chair "zz" is not an agent/);
    expect(formatProblem(relayFrame({ chair: 'a1' }), ['a1', 'a2'])).toBeNull();

    const plan = relayPlan({ chair: 'a1' });
    expect(plan.format).toEqual({ kind: 'relay', anchor: 'a1' });
    // It ends itself: one round of one stage holding the whole turn budget.
    expect(plan.rounds).toBe(1);
    const r = run(plan, async (req) => {
      const reply = await offline.chat({ ...req, model: OFFLINE_MODEL });
      return parseTurnAnswer(reply.content, null);
    });
    await r.done;

    // Every agent but the anchor runs a leg in order, then the anchor: three turns, each after its floor frame.
    expect(r.requests.map(speakerIn)).toEqual(['Bo', 'Cy', 'Ada']);
    const floors = r.frames.filter((f) => f.type === 'floor');
    expect(floors.map((f) => f.agent_name)).toEqual(['Bo', 'Cy', 'Ada']);
    expect(floors.every((f) => f.by === 'order' && f.reason === 'next in order')).toBe(true);
    const stages = r.frames.filter((f) => f.type === 'format_stage');
    expect(stages.map((f) => [f.format, f.stage, f.title])).toEqual([
      ['relay', 'legs', 'The legs'],
      ['relay', 'anchor', 'The anchor'],
    ]);
    const turns = r.frames.filter((f) => f.type === 'text');
    expect(turns).toHaveLength(3);
    for (const t of turns) expect(String(t.text).length).toBeGreaterThan(0);

    // Its own words in each prompt; the anchor hears both legs (hearing 'everyone').
    const system = (i: number) => r.requests[i].messages[0].content;
    expect(system(0)).toContain('Run your leg: add one point.');
    expect(system(2)).toContain('You run the last leg: carry the points to a conclusion.');
    const anchorHeard = r.requests[2].context!.history.map((h) => h.speaker);
    expect(anchorHeard).toEqual(expect.arrayContaining(['Bo', 'Cy']));

    // Its script done, it ends itself with the summary (no fourth turn although the plan allows more).
    expect(r.types()).toContain('discussion_summary');
    expect(r.frames[r.frames.length - 1]).toMatchObject({ type: 'discussion_ended' });
  });
});
