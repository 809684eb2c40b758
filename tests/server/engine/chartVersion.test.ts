import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { chartVersion, restorable, versioned } from '../../../server/engine/chartVersion';

const chart = (extra: Record<string, object> = {}) =>
  createMachine({
    id: 'engine',
    initial: 'running',
    states: {
      running: { on: { stop: 'ended', pause: 'paused' } },
      paused: { on: { resume: 'running' } },
      ended: { type: 'final' },
      ...extra,
    },
  });

describe('engine snapshots carry the version of the chart that wrote them', () => {
  it('is the same for the same chart and changes with its states or the events they take', () => {
    expect(chartVersion(chart())).toBe(chartVersion(chart()));
    expect(chartVersion(chart({ judging: { on: { vote: 'running' } } }))).not.toBe(chartVersion(chart()));
    const renamedEvent = createMachine({
      id: 'engine',
      initial: 'running',
      states: {
        running: { on: { halt: 'ended', pause: 'paused' } },
        paused: { on: { resume: 'running' } },
        ended: { type: 'final' },
      },
    });
    expect(chartVersion(renamedEvent)).not.toBe(chartVersion(chart()));
  });

  it('restores a snapshot only into the chart that wrote it', () => {
    const actor = createActor(chart()).start();
    actor.send({ type: 'pause' });
    const stored = JSON.parse(JSON.stringify(versioned(chart(), actor.getPersistedSnapshot())));
    const back = restorable(chart(), stored);
    expect(back).not.toBeNull();
    expect(back).not.toHaveProperty('engine_chart');
    expect(
      createActor(chart(), { snapshot: back as never })
        .start()
        .getSnapshot().value,
    ).toBe('paused');

    expect(restorable(chart({ judging: {} }), stored)).toBeNull();
    expect(restorable(chart(), actor.getPersistedSnapshot())).toBeNull(); // stored before versions existed
    expect(restorable(chart(), null)).toBeNull();
  });
});
