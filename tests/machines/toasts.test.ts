import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { toastsMachine } from '../../src/machines/toasts.machine';
import { TOAST_DURATION_MS } from '../../src/schemas/constants';

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const texts = (a: ReturnType<typeof createActor<typeof toastsMachine>>) =>
    a.getSnapshot().context.toasts.map((t) => t.text);

  it('queues toasts in order, and each leaves 5 s after it appeared', () => {
    const toasts = createActor(toastsMachine).start();
    toasts.send({ type: 'toast.show', kind: 'info', text: 'one' });
    vi.advanceTimersByTime(2_000);
    toasts.send({ type: 'toast.show', kind: 'error', text: 'two' });
    expect(texts(toasts)).toEqual(['one', 'two']);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 2_000 - 1);
    expect(texts(toasts)).toEqual(['one', 'two']);
    vi.advanceTimersByTime(1);
    expect(texts(toasts)).toEqual(['two']);
    vi.advanceTimersByTime(2_000 - 1);
    expect(texts(toasts)).toEqual(['two']);
    vi.advanceTimersByTime(1);
    expect(texts(toasts)).toEqual([]);
  });

  it('dismissing early removes the toast and cancels its timer', () => {
    const toasts = createActor(toastsMachine).start();
    toasts.send({ type: 'toast.show', kind: 'info', text: 'one' });
    const id = toasts.getSnapshot().context.toasts[0].id;
    toasts.send({ type: 'toast.dismiss', id });
    expect(texts(toasts)).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts error toasts for the footer, even after they leave', () => {
    const toasts = createActor(toastsMachine).start();
    toasts.send({ type: 'toast.show', kind: 'error', text: 'a' });
    toasts.send({ type: 'toast.show', kind: 'warning', text: 'b' });
    toasts.send({ type: 'toast.show', kind: 'error', text: 'c' });
    vi.advanceTimersByTime(TOAST_DURATION_MS);
    expect(toasts.getSnapshot().context).toMatchObject({ toasts: [], errorCount: 2 });
  });

  it('gives every toast its own id', () => {
    const toasts = createActor(toastsMachine).start();
    toasts.send({ type: 'toast.show', kind: 'info', text: 'same' });
    toasts.send({ type: 'toast.show', kind: 'info', text: 'same' });
    const [a, b] = toasts.getSnapshot().context.toasts;
    expect(a.id).not.toBe(b.id);
  });
});
