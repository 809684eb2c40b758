import { describe, expect, it } from 'vitest';
import { buildHybridConfig, hybridSettingsOf } from '../../src/model/hybridConfig';
import { settingsOf } from '../../src/model/storedReplay';
import { defaults } from '../../src/schemas/settings';

// A stored run's configuration read back for a re-attach keeps its format, in both panels; a run without one is the
// round table, and the hybrid panel's round table sends no format (the spec's first message).

describe('a re-attached run keeps its format', () => {
  it('hybrid: the format read back from the stored first frame goes out again the same', () => {
    const wire = { kind: 'debate', judge: 'c', sides: { for: ['a'], against: ['b'] } };
    const settings = hybridSettingsOf({ topic: 'T', agent_ids: ['a', 'b', 'c'], max_rounds: 4, format: wire });
    expect(settings.format).toEqual({ kind: 'debate', judge: 'c', moderator: 'human', chair: '' });
    expect(settings.max_rounds).toBe(4);
    const again = buildHybridConfig({
      sessionId: 's',
      agentIds: ['a', 'b', 'c'],
      topic: 'T',
      token: null,
      settings,
      startedAt: 0,
      resumeFrom: 3,
    });
    expect(again.format).toEqual({
      kind: 'debate',
      judge: 'c',
      sides: { for: ['a'], against: ['b'] },
    });
    expect(hybridSettingsOf({}).format.kind).toBe('round_table');
    const plain = buildHybridConfig({
      sessionId: 's',
      agentIds: ['a', 'b'],
      topic: 'T',
      token: null,
      settings: defaults.hybrid,
      startedAt: 0,
    });
    expect('format' in plain).toBe(false);
  });

  it('standard: the stored format becomes the run’s setting; none is the round table', () => {
    expect(settingsOf({ format: { kind: 'moderated', moderator: 'a' } }).format).toMatchObject({
      kind: 'moderated',
      moderator: 'a',
    });
    expect(settingsOf({}).format.kind).toBe('round_table');
    expect(settingsOf({ format: { kind: 'nonsense' } }).format.kind).toBe('round_table');
  });
});
