import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { shareDialogMachine } from '../../src/machines/shareDialog.machine';
import * as sel from '../../src/machines/shareDialog.selectors';
import type { ShareCreated, ShareRow } from '../../src/schemas/rooms';

// The Share dialog's chart: loads the links when shown, makes one (shown with its address), copies it, revokes
// each, and keeps the list and its words when a call fails.

const row = (id: string): ShareRow => ({
  id,
  created_at: '2026-11-01T00:00:00.000Z',
  expires_at: '2026-12-01T00:00:00.000Z',
});
const deferred = <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
};
const settle = () => new Promise((r) => setTimeout(r, 0));

function start(
  over: {
    list?: () => Promise<ShareRow[]>;
    create?: () => Promise<ShareCreated>;
    revoke?: (id: string) => Promise<void>;
    copy?: (t: string) => Promise<void>;
  } = {},
) {
  const calls: string[] = [];
  const logic = shareDialogMachine.provide({
    actors: {
      listShares: fromPromise(async ({ input }: { input: { discussionId: string } }) => {
        calls.push(`list ${input.discussionId}`);
        return (over.list ?? (async () => [row('s1')]))();
      }),
      createShare: fromPromise(async ({ input }: { input: { discussionId: string } }) => {
        calls.push(`create ${input.discussionId}`);
        return (
          over.create ??
          (async () => ({ id: 's2', url: '/s/AAAAAAAAAAAAAAAAAAAAAA', expires_at: '2026-12-28T00:00:00.000Z' }))
        )();
      }),
      revokeShare: fromPromise(async ({ input }: { input: { id: string } }) => {
        calls.push(`revoke ${input.id}`);
        return (over.revoke ?? (async () => {}))(input.id);
      }),
      copyText: fromPromise(async ({ input }: { input: { text: string } }) => {
        calls.push(`copy ${input.text}`);
        return (over.copy ?? (async () => {}))(input.text);
      }),
    },
  });
  const actor = createActor(logic, { input: { discussionId: 'd1' } }).start();
  return { actor, calls, snap: () => actor.getSnapshot() };
}

describe('shareDialog', () => {
  it('is hidden until shown, then lists the links of its discussion', async () => {
    const { actor, calls, snap } = start();
    expect(sel.selectShareState(snap())).toBe('hidden');
    expect(calls).toEqual([]);
    actor.send({ type: 'share.show' });
    expect(sel.selectShareState(snap())).toBe('loading');
    expect(sel.selectShareBusy(snap())).toBe(true);
    await settle();
    expect(sel.selectShareState(snap())).toBe('ready');
    expect(sel.selectShares(snap()).map((s) => s.id)).toEqual(['s1']);
    expect(calls).toEqual(['list d1']);
  });

  it('makes a link, lists it first, shows its address, and copies it', async () => {
    const made = deferred<ShareCreated>();
    const { actor, calls, snap } = start({ create: () => made.promise });
    actor.send({ type: 'share.show' });
    await settle();
    actor.send({ type: 'share.create' });
    expect(sel.selectIsCreating(snap())).toBe(true);
    // Busy: a second create or a revoke is not taken.
    actor.send({ type: 'share.create' });
    actor.send({ type: 'share.revoke', id: 's1' });
    made.resolve({ id: 's2', url: '/s/BBBBBBBBBBBBBBBBBBBBBB', expires_at: '2026-12-28T00:00:00.000Z' });
    await settle();
    expect(sel.selectCreated(snap())?.url).toBe('/s/BBBBBBBBBBBBBBBBBBBBBB');
    expect(sel.selectShares(snap()).map((s) => s.id)).toEqual(['s2', 's1']);
    actor.send({ type: 'share.copy', text: 'http://x/s/BBBBBBBBBBBBBBBBBBBBBB' });
    await settle();
    expect(sel.selectCopied(snap())).toBe(true);
    expect(calls).toEqual(['list d1', 'create d1', 'copy http://x/s/BBBBBBBBBBBBBBBBBBBBBB']);
  });

  it('revokes one link (the new one too: its address goes), and refuses an id it does not list', async () => {
    const { actor, calls, snap } = start();
    actor.send({ type: 'share.show' });
    await settle();
    actor.send({ type: 'share.create' });
    await settle();
    actor.send({ type: 'share.revoke', id: 'nope' });
    expect(sel.selectShareState(snap())).toBe('ready');
    actor.send({ type: 'share.revoke', id: 's2' });
    expect(sel.selectRevokingId(snap())).toBe('s2');
    await settle();
    expect(sel.selectShares(snap()).map((s) => s.id)).toEqual(['s1']);
    expect(sel.selectCreated(snap())).toBeNull();
    expect(calls.filter((c) => c.startsWith('revoke'))).toEqual(['revoke s2']);
  });

  it('keeps the list and says why when a revoke or a copy fails; a failed load offers Retry', async () => {
    let fail = true;
    const { actor, snap } = start({
      list: async () => {
        if (fail) throw new Error('Server down');
        return [row('s1')];
      },
      revoke: async () => {
        throw new Error('Not found');
      },
      copy: async () => {
        throw new Error('No clipboard');
      },
    });
    actor.send({ type: 'share.show' });
    await settle();
    expect(sel.selectShareState(snap())).toBe('failed');
    expect(sel.selectShareError(snap())).toBe('Server down');
    fail = false;
    actor.send({ type: 'share.retry' });
    await settle();
    expect(sel.selectShareState(snap())).toBe('ready');
    actor.send({ type: 'share.revoke', id: 's1' });
    await settle();
    expect(sel.selectShareError(snap())).toBe('Not found');
    expect(sel.selectShares(snap()).map((s) => s.id)).toEqual(['s1']);
    actor.send({ type: 'share.copy', text: 'x' });
    await settle();
    expect(sel.selectShareError(snap())).toBe('No clipboard');
    expect(sel.selectCopied(snap())).toBe(false);
  });

  it('forgets the new link when hidden (its address is shown once)', async () => {
    const { actor, snap } = start();
    actor.send({ type: 'share.show' });
    await settle();
    actor.send({ type: 'share.create' });
    await settle();
    expect(sel.selectCreated(snap())).not.toBeNull();
    actor.send({ type: 'share.hide' });
    actor.send({ type: 'share.show' });
    expect(sel.selectCreated(snap())).toBeNull();
  });
});
