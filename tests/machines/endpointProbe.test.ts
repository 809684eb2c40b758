// endpointProbe with probe doubles the test settles by hand, on fake timers for the 2 s time-out.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { endpointProbeMachine, type ProbeEndpointInput } from '../../src/machines/endpointProbe.machine';
import { selectAvailability, selectAvailableNames, selectIsProbing } from '../../src/machines/endpointProbe.selectors';
import { ENDPOINT_PROBE_TIMEOUT_MS, ENDPOINTS } from '../../src/schemas/constants';
import { flush } from '../support/harness';

function start() {
  const calls: {
    path: string;
    resolve: (ok: boolean) => void;
    reject: (e: unknown) => void;
    aborted: () => boolean;
  }[] = [];
  const probeEndpoint = fromPromise<boolean, ProbeEndpointInput>(
    ({ input, signal }) =>
      new Promise<boolean>((resolve, reject) =>
        calls.push({ path: input.path, resolve, reject, aborted: () => signal.aborted }),
      ),
  );
  const actor = createActor(endpointProbeMachine.provide({ actors: { probeEndpoint } })).start();
  const answer = async (path: string, ok: boolean) => {
    calls
      .filter((c) => c.path === path)
      .at(-1)!
      .resolve(ok);
    await flush();
  };
  return { actor, calls, answer, snap: () => actor.getSnapshot() };
}

describe('endpointProbe', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('probes the four standard paths at once and shows Checking... until every one answered', async () => {
    const t = start();
    expect(t.calls.map((c) => c.path)).toEqual([
      '/ws/discuss',
      '/ws/enhanced',
      '/ws/multi_round_reasoning',
      '/ws/hybrid',
    ]);
    expect(selectIsProbing(t.snap())).toBe(true);
    expect(selectAvailableNames(t.snap())).toBe('Checking...');
    await t.answer('/ws/discuss', true);
    await t.answer('/ws/enhanced', false);
    await t.answer('/ws/multi_round_reasoning', true);
    expect(selectAvailability(t.snap())).toEqual({
      basic: 'available',
      enhanced: 'unavailable',
      multi_round: 'available',
      hybrid: 'unknown',
    });
    expect(selectAvailableNames(t.snap())).toBe('Checking...');
    await t.answer('/ws/hybrid', true);
    expect(selectIsProbing(t.snap())).toBe(false);
    expect(t.snap().value).toBe('idle');
    expect(selectAvailableNames(t.snap())).toBe(
      `${ENDPOINTS.basic.name}, ${ENDPOINTS.multi_round.name}, ${ENDPOINTS.hybrid.name}`,
    );
  });

  it('an endpoint that does not answer within 2 s is unavailable, and its probe is stopped', async () => {
    const t = start();
    await t.answer('/ws/discuss', true);
    await vi.advanceTimersByTimeAsync(ENDPOINT_PROBE_TIMEOUT_MS - 1);
    expect(selectAvailability(t.snap()).enhanced).toBe('unknown');
    await vi.advanceTimersByTimeAsync(1);
    expect(selectAvailability(t.snap())).toEqual({
      basic: 'available',
      enhanced: 'unavailable',
      multi_round: 'unavailable',
      hybrid: 'unavailable',
    });
    expect(t.calls.slice(1).every((c) => c.aborted())).toBe(true);
    expect(selectAvailableNames(t.snap())).toBe('Basic');
    expect(t.snap().value).toBe('idle');
  });

  it('a probe that fails counts as unavailable; none available reads none', async () => {
    const t = start();
    t.calls[0].reject(new Error('boom'));
    await flush();
    for (const path of ['/ws/enhanced', '/ws/multi_round_reasoning', '/ws/hybrid']) await t.answer(path, false);
    expect(selectAvailableNames(t.snap())).toBe('none');
  });

  it('endpoints.refresh probes again, keeping the last answers until the new ones arrive', async () => {
    const t = start();
    await vi.advanceTimersByTimeAsync(ENDPOINT_PROBE_TIMEOUT_MS);
    expect(selectAvailableNames(t.snap())).toBe('none');
    t.actor.send({ type: 'endpoints.refresh' });
    expect(t.calls).toHaveLength(8);
    expect(selectIsProbing(t.snap())).toBe(true);
    expect(selectAvailableNames(t.snap())).toBe('none');
    for (const path of ['/ws/discuss', '/ws/enhanced', '/ws/multi_round_reasoning', '/ws/hybrid'])
      await t.answer(path, true);
    expect(selectAvailableNames(t.snap())).toBe('Basic, Enhanced, Multi-Round Reasoning, Hybrid NLP/ACL');
    expect(t.snap().value).toBe('idle');
  });

  it('a refresh while probing starts over with fresh time-outs', async () => {
    const t = start();
    await vi.advanceTimersByTimeAsync(ENDPOINT_PROBE_TIMEOUT_MS - 500);
    t.actor.send({ type: 'endpoints.refresh' });
    expect(t.calls).toHaveLength(8);
    expect(t.calls.slice(0, 4).every((c) => c.aborted())).toBe(true);
    await vi.advanceTimersByTimeAsync(500);
    expect(selectAvailability(t.snap()).basic).toBe('unknown');
    await vi.advanceTimersByTimeAsync(ENDPOINT_PROBE_TIMEOUT_MS - 500);
    expect(selectAvailability(t.snap()).basic).toBe('unavailable');
  });
});
