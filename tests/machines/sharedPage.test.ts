import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { withExporter } from '../../src/machines/discussionExport.machine';
import { selectSharedState, sharedPageMachine } from '../../src/machines/sharedPage.machine';
import { selectOpenTab } from '../../src/machines/discussionTabs.selectors';
import { selectCounts } from '../../src/model/feedSelectors';
import { parseAddress, turnInHash } from '../../src/model/address';
import type { StandardExportRequest } from '../../src/model/standardVariant';
import type { SharedDiscussion } from '../../src/schemas/shares';

// The public page's chart: a valid link opens the discussion read-only through History's replay (the same feed and
// moments), a 404 is the one 'not valid' state, anything else can be retried; tabs and export work as History's.

const shared: SharedDiscussion = {
  id: 'd1',
  topic: 'Sundays?',
  status: 'ended',
  created_at: '2026-11-01T00:00:00.000Z',
  panel: 'standard',
  endpoint: '/ws/discuss',
  participants: [{ id: 'a1', name: 'Ada', role: 'Agronomist' }],
  frames: [1, 2, 3].map((n) => ({
    seq: n,
    at: `2026-11-01T00:00:0${n}.000Z`,
    data: { type: 'text', id: `m${n}`, from_id: 'a1', from: 'Ada', text: `Turn ${n}`, turn: n },
  })),
  human_messages: [],
  expires_at: '2026-12-01T00:00:00.000Z',
};
const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });
const settle = () => new Promise((r) => setTimeout(r, 0));

function start(load: () => Promise<SharedDiscussion>) {
  const exports: StandardExportRequest[] = [];
  const logic = sharedPageMachine.provide({
    actors: {
      loadShared: fromPromise(async ({ input }: { input: { token: string } }) => {
        expect(input.token).toBe('tok');
        return load();
      }),
      exportDiscussion: withExporter(async (r: StandardExportRequest) => void exports.push(r)),
    },
  });
  const actor = createActor(logic, { input: { token: 'tok' } }).start();
  return { actor, exports };
}

describe('sharedPage', () => {
  it('opens a valid link read-only: three turns, four moments, tabs and export', async () => {
    const { actor, exports } = start(async () => shared);
    expect(selectSharedState(actor.getSnapshot())).toBe('loading');
    await settle();
    const s = actor.getSnapshot();
    expect(selectSharedState(s)).toBe('open');
    expect(selectCounts(s.context.opened!.feed).messages).toBe(3);
    expect(s.context.opened!.moments).toHaveLength(4);
    expect(s.context.expiresAt).toBe(shared.expires_at);
    actor.send({ type: 'shared.tab.select', tab: 'analytics' });
    expect(selectOpenTab(actor.getSnapshot().children.tabs?.getSnapshot())).toBe('analytics');
    actor.send({ type: 'shared.export', format: 'json' });
    await settle();
    expect(exports.map((e) => [e.format, e.run.context])).toEqual([['json', 'Sundays?']]);
  });

  it('says a 404 is a link that is not valid, with nothing to retry', async () => {
    const { actor } = start(async () => {
      throw httpError(404);
    });
    await settle();
    expect(selectSharedState(actor.getSnapshot())).toBe('invalid');
    actor.send({ type: 'shared.retry' });
    expect(selectSharedState(actor.getSnapshot())).toBe('invalid');
  });

  it('offers Retry for any other failure (rate-limited, server down)', async () => {
    let n = 0;
    const { actor } = start(async () => {
      if (n++ === 0) throw httpError(429);
      return shared;
    });
    await settle();
    expect(selectSharedState(actor.getSnapshot())).toBe('failed');
    expect(actor.getSnapshot().context.error).toBe('HTTP 429');
    actor.send({ type: 'shared.retry' });
    await settle();
    expect(selectSharedState(actor.getSnapshot())).toBe('open');
  });
});

describe('a share address', () => {
  const at = (pathname: string, hash = '') => parseAddress({ pathname, search: '', hash });
  it('is read by the one address grammar, with the moment #t= names', () => {
    expect(at('/s/AbC_-12345678901234567')).toEqual({ kind: 'share', token: 'AbC_-12345678901234567' });
    expect(at('/').kind).toBe('canvas');
    expect(at('/s/a/b').kind).toBe('notFound');
    expect(turnInHash('#t=2')).toBe(2);
  });
});
