import { describe, expect, it } from 'vitest';
import { createFrameBatch, FRAME_BATCH_MAX, nextTask } from '../../src/services/frameBatch';

/** A deferral the test runs by hand. */
function manual() {
  const queued: { flush: () => void; cancelled: boolean }[] = [];
  const defer = (flush: () => void) => {
    const entry = { flush, cancelled: false };
    queued.push(entry);
    return () => void (entry.cancelled = true);
  };
  const run = () => {
    for (const e of queued.splice(0)) if (!e.cancelled) e.flush();
  };
  return { defer, run, queued };
}

describe('frame batches', () => {
  it('without a deferral, each frame goes on at once, alone', () => {
    const got: number[][] = [];
    const batch = createFrameBatch<number>((f) => got.push(f));
    batch.push(1);
    batch.push(2);
    expect(got).toEqual([[1], [2]]);
  });

  it('a burst goes on together, in order, when the deferral runs; one deferral per burst', () => {
    const got: number[][] = [];
    const m = manual();
    const batch = createFrameBatch<number>((f) => got.push(f), m.defer);
    for (const n of [1, 2, 3]) batch.push(n);
    expect(got).toEqual([]);
    expect(m.queued).toHaveLength(1);
    m.run();
    expect(got).toEqual([[1, 2, 3]]);
    batch.push(4);
    m.run();
    expect(got).toEqual([[1, 2, 3], [4]]);
  });

  it('never holds more than the most one event carries', () => {
    const got: number[][] = [];
    const m = manual();
    const batch = createFrameBatch<number>((f) => got.push(f), m.defer, 3);
    for (let n = 1; n <= 7; n++) batch.push(n);
    expect(got).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    m.run();
    expect(got.at(-1)).toEqual([7]);
    expect(FRAME_BATCH_MAX).toBeGreaterThan(1);
  });

  it('a flush hands on what waits now and cancels the deferral; cancel forgets it', () => {
    const got: number[][] = [];
    const m = manual();
    const batch = createFrameBatch<number>((f) => got.push(f), m.defer);
    batch.push(1);
    batch.flush();
    expect(got).toEqual([[1]]);
    m.run(); // the cancelled deferral delivers nothing twice
    expect(got).toEqual([[1]]);
    batch.push(2);
    batch.cancel();
    m.run();
    expect(got).toEqual([[1]]);
  });

  it('nextTask runs after the current task, and a cancelled one never', async () => {
    const order: string[] = [];
    // Awaited through the deferral itself, not a wall-clock wait, so a busy machine cannot reorder it.
    const ran = new Promise<void>((resolve) =>
      nextTask(() => {
        order.push('task');
        resolve();
      }),
    );
    const cancel = nextTask(() => order.push('cancelled'));
    cancel();
    await Promise.resolve();
    order.push('microtask');
    await ran;
    await new Promise<void>((resolve) => nextTask(resolve));
    expect(order).toEqual(['microtask', 'task']);
  });
});
