import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  BUILTIN_POLL_MS,
  builtinModelsMachine,
  type BuiltinModelsEvent,
} from '../../src/machines/builtinModels.machine';
import * as sel from '../../src/machines/builtinModels.selectors';
import type { BuiltinModelsList } from '../../src/schemas/builtinModels';
import { builtinList } from '../support/builtinModelsFixture';

type Op = Extract<BuiltinModelsEvent, { type: 'download.start' | 'download.cancel' | 'file.add' | 'file.delete' }>;

function start(lists: BuiltinModelsList[], op: (input: Op) => Promise<unknown> = async () => ({})) {
  const ops: Op[] = [];
  let reads = 0;
  const actor = createActor(
    builtinModelsMachine.provide({
      actors: {
        listModels: fromPromise(async () => lists[Math.min(reads++, lists.length - 1)]),
        runOperation: fromPromise<unknown, Op>(async ({ input }) => (ops.push(input), op(input))),
      },
    }),
  ).start();
  return { actor, ops, reads: () => reads };
}
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('builtinModels chart', () => {
  it('loads the list, then shows files, downloads with their percent, and each recommended model’s status', async () => {
    const { actor } = start([builtinList()]);
    expect(sel.selectLoading(actor.getSnapshot())).toBe(true);
    await settle();
    const s = actor.getSnapshot();
    expect(s.value).toBe('ready');
    expect(sel.selectFiles(s).map((f) => f.name)).toEqual(['Qwen3-0.6B-Q4_K_M.gguf']);
    expect(sel.downloadPercent(sel.selectDownloads(s)[0])).toBe(36);
    expect(Object.fromEntries(sel.selectRecommended(s).map((m) => [m.id, m.status]))).toMatchObject({
      'qwen3-0.6b': 'installed',
      'llama-3.2-1b-instruct': 'downloading',
      'phi-4-mini-instruct': 'available',
    });
  });

  it('moves a download’s bar with live frames, and reads the list again when one ends', async () => {
    const { actor, reads } = start([builtinList(), builtinList({ downloads: [] })]);
    await settle();
    const d = builtinList().downloads[0];
    actor.send({ type: 'live.frame', frame: { type: 'model_download', download: { ...d, received: 600_000_000 } } });
    expect(sel.downloadPercent(sel.selectDownloads(actor.getSnapshot())[0])).toBe(74);
    actor.send({
      type: 'live.frame',
      frame: { type: 'model_download', download: { ...d, received: d.total!, state: 'done' } },
    });
    expect(actor.getSnapshot().value).toBe('refreshing');
    await settle();
    expect(reads()).toBe(2);
    expect(sel.selectDownloads(actor.getSnapshot())).toEqual([]);
  });

  it('does not poll while live frames bring the progress; polls once they stop coming', async () => {
    const { actor, reads } = start([builtinList()]);
    await settle();
    const d = builtinList().downloads[0];
    for (let i = 1; i <= 6; i++) {
      await vi.advanceTimersByTimeAsync(BUILTIN_POLL_MS / 2);
      actor.send({
        type: 'live.frame',
        frame: { type: 'model_download', download: { ...d, received: d.received + i * 1_000_000 } },
      });
    }
    expect(reads()).toBe(1);
    await vi.advanceTimersByTimeAsync(BUILTIN_POLL_MS);
    expect(reads()).toBe(2);
  });

  it('polls while a download runs (the live socket being down), and stops polling when none does', async () => {
    const idle = builtinList({ downloads: [] });
    const { actor, reads } = start([builtinList(), builtinList(), idle]);
    await settle();
    await vi.advanceTimersByTimeAsync(BUILTIN_POLL_MS);
    expect(reads()).toBe(2);
    await vi.advanceTimersByTimeAsync(BUILTIN_POLL_MS);
    expect(reads()).toBe(3);
    await vi.advanceTimersByTimeAsync(BUILTIN_POLL_MS * 5);
    expect(reads()).toBe(3);
    expect(actor.getSnapshot().value).toBe('ready');
  });

  it('runs one request at a time, then reads the list; a refusal shows the server’s words until dismissed', async () => {
    let fail = false;
    const { actor, ops, reads } = start([builtinList({ downloads: [] })], async () => {
      if (fail)
        throw Object.assign(new Error('HTTP 409'), {
          status: 409,
          detail: 'x.gguf is already in the models directory',
        });
      return {};
    });
    await settle();
    actor.send({ type: 'download.start', request: { url: 'https://example.org/x.gguf' } });
    expect(sel.selectBusy(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'file.delete', name: 'ignored-while-busy.gguf' });
    await settle();
    expect(ops).toEqual([{ type: 'download.start', request: { url: 'https://example.org/x.gguf' } }]);
    expect(reads()).toBe(2);
    fail = true;
    actor.send({ type: 'file.add', path: '/srv/models/x.gguf' });
    await settle();
    expect(sel.selectError(actor.getSnapshot())).toBe('x.gguf is already in the models directory');
    actor.send({ type: 'error.dismiss' });
    expect(sel.selectError(actor.getSnapshot())).toBeNull();
  });

  it('says why the list could not be read and tries again when asked', async () => {
    let n = 0;
    const actor = createActor(
      builtinModelsMachine.provide({
        actors: {
          listModels: fromPromise(async () => {
            if (n++ === 0)
              throw Object.assign(new Error('x'), {
                status: 503,
                detail: 'The built-in engine is not available on this server',
              });
            return builtinList();
          }),
        },
      }),
    ).start();
    await settle();
    expect(sel.selectLoadFailed(actor.getSnapshot())).toBe(true);
    expect(sel.selectError(actor.getSnapshot())).toBe('The built-in engine is not available on this server');
    actor.send({ type: 'models.reload' });
    await settle();
    expect(actor.getSnapshot().value).toBe('ready');
  });
});
