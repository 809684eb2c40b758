// Start asks first when a selected agent's model server is not answering ("Bo's model server is not answering —
// start anyway?"): the question is a state of both panel charts (their startQuestion region), not the view's.
// Cancel leaves the run where it was and opens no socket; 'Start anyway' starts the same Start.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as hybridSel from '../../src/machines/discussionPanel.selectors';
import * as standardSel from '../../src/machines/discussionPanel.selectors';
import { ENDPOINTS } from '../../src/schemas/constants';
import { defaults } from '../../src/schemas/settings';
import { flush } from '../support/harness';
import { hybridPanel, standardPanel } from './panelHarness';

const AGENTS = ['agent-a', 'agent-b'];
const settle = async () => {
  await flush();
  await vi.advanceTimersByTimeAsync(0);
};

describe('the start question in the panel charts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('standard: asks when an agent is not answering; Cancel starts nothing, Start anyway starts', async () => {
    const p = standardPanel({ saved: defaults.standardPanel, now: () => 1_700_000_000_000 });
    await settle();
    p.panel.send({ type: 'panel.topic.change', text: 'Free buses?' });
    const begin = () => p.panel.send({ type: 'panel.start', agentIds: AGENTS, connections: [], unreachable: ['Bo'] });
    begin();
    await settle();
    expect(standardSel.selectStartQuestion(p.panel.getSnapshot())).toEqual(['Bo']);
    expect(p.panel.getSnapshot().value).toMatchObject({ run: 'idle', startQuestion: 'confirmingStart' });
    p.panel.send({ type: 'panel.start.cancel' });
    await settle();
    expect(standardSel.selectStartQuestion(p.panel.getSnapshot())).toBeNull();
    expect(p.panel.getSnapshot().value).toMatchObject({ run: 'idle' });
    expect(p.agentCalls).toEqual([]);
    expect(p.sockets.instances).toEqual([]);

    begin();
    p.panel.send({ type: 'panel.start.confirm' });
    await settle();
    expect(standardSel.selectStartQuestion(p.panel.getSnapshot())).toBeNull();
    expect(p.panel.getSnapshot().context.run?.agentIds).toEqual(AGENTS);
    expect(p.sockets.instances).toHaveLength(1);
  });

  it('standard: everyone answering starts at once, and an invalid Start is explained, not asked', async () => {
    const p = standardPanel({ saved: defaults.standardPanel, now: () => 1_700_000_000_000 });
    await settle();
    p.panel.send({ type: 'panel.start', agentIds: AGENTS, connections: [], unreachable: ['Bo'] });
    await settle();
    expect(standardSel.selectStartQuestion(p.panel.getSnapshot())).toBeNull();
    expect(standardSel.selectError(p.panel.getSnapshot())).not.toBeNull();
    p.panel.send({ type: 'panel.topic.change', text: 'Free buses?' });
    p.panel.send({ type: 'panel.start', agentIds: AGENTS, connections: [], unreachable: [] });
    await settle();
    expect(p.sockets.instances).toHaveLength(1);
  });

  it('hybrid: the same question, Cancel and Start anyway', async () => {
    const p = hybridPanel({ now: () => 1_700_000_000_000 });
    await settle();
    p.panel.send({ type: 'panel.topic.change', text: 'Free buses?' });
    p.panel.send({ type: 'panel.start', agentIds: AGENTS, unreachable: ['Bo', 'Vera'] });
    await settle();
    expect(hybridSel.selectStartQuestion(p.panel.getSnapshot())).toEqual(['Bo', 'Vera']);
    p.panel.send({ type: 'panel.start.cancel' });
    await settle();
    expect(hybridSel.selectStartQuestion(p.panel.getSnapshot())).toBeNull();
    expect(p.sockets.instances).toEqual([]);
    expect(hybridSel.selectStatusLine(p.panel.getSnapshot())).toBe('Ready');

    p.panel.send({ type: 'panel.start', agentIds: AGENTS, unreachable: ['Bo'] });
    p.panel.send({ type: 'panel.start.confirm' });
    await settle();
    expect(p.sockets.instances.map((s) => new URL(s.url).pathname)).toEqual([ENDPOINTS.hybrid.path]);
    expect(hybridSel.selectSettingsLocked(p.panel.getSnapshot())).toBe(true);
  });
});
