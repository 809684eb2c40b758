import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, spawnChild, type AnyEventObject } from 'xstate';
import {
  APPLY_TIMEOUT_MS,
  navigationMachine,
  selectAddressPage,
  type AddressCommand,
  type NavigationActorRef,
  type NavigationEvent,
} from '../../src/machines/navigation.machine';
import { parseAddress, type Route } from '../../src/model/address';

const at = (address: string): Route => {
  const url = new URL(address, 'http://agora.test');
  return parseAddress({ pathname: url.pathname, search: url.search, hash: url.hash });
};

/**
 * The navigation chart with stand-ins around it: an address bar that starts at `start` and records what it is asked
 * to write, and History and Evaluate charts that record what they are asked to show.
 */
function harness(start: string) {
  const writes: string[] = [];
  const asked: AnyEventObject[] = [];
  const recorder = createMachine({ on: { '*': { actions: ({ event }) => asked.push(event) } } });
  const address = fromCallback<AddressCommand>(({ sendBack, receive }) => {
    receive((c) => writes.push(`${c.mode} ${c.path}`));
    sendBack({ type: 'nav.arrived', route: at(start) } satisfies NavigationEvent);
  });
  const root = createActor(
    createMachine({
      entry: [
        spawnChild(recorder, { systemId: 'history' }),
        spawnChild(recorder, { systemId: 'evaluation' }),
        spawnChild(recorder, { systemId: 'app' }),
        spawnChild(navigationMachine.provide({ actors: { address } }), { id: 'nav', systemId: 'navigation' }),
      ],
    }),
  ).start();
  const nav = root.system.get('navigation') as NavigationActorRef;
  const follow = (address: string) => nav.send({ type: 'nav.follow', route: at(address) });
  return { nav, writes, asked, follow };
}

describe('navigation: the address follows the charts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('adds a Back step for a new view and replaces the address when only its state changes', () => {
    const { nav, writes, follow } = harness('/');
    expect(nav.getSnapshot().value).toBe('following');
    follow('/'); // what the address already says: nothing written
    follow('/history');
    follow('/history?format=debate');
    follow('/history?format=debate&q=cats');
    follow('/discussions/d1');
    follow('/discussions/d1/replay#t=0');
    follow('/discussions/d1/replay#t=4');
    follow('/history?format=debate&q=cats');
    follow('/');
    expect(writes).toEqual([
      'push /history',
      'replace /history?format=debate',
      'replace /history?format=debate&q=cats',
      'push /discussions/d1',
      'push /discussions/d1/replay#t=0',
      'replace /discussions/d1/replay#t=4',
      'push /history?format=debate&q=cats',
      'push /',
    ]);
  });

  it('applies an address at start: asks History for it and writes nothing while it gets there', () => {
    const { nav, writes, asked, follow } = harness('/discussions/d1/replay#t=7');
    expect(nav.getSnapshot().value).toBe('applying');
    expect(asked).toContainEqual({ type: 'history.visit', id: 'd1', replay: true, turn: 7 });
    follow('/history'); // on the way: History shows its list first
    follow('/discussions/d1');
    expect(nav.getSnapshot().value).toBe('applying');
    follow('/discussions/d1/replay#t=7');
    expect(nav.getSnapshot().value).toBe('following');
    expect(writes).toEqual([]);
  });

  it('drives the charts on Back and Forward, for every kind of view', () => {
    const { nav, asked, writes } = harness('/');
    const pop = (address: string) => nav.send({ type: 'nav.popped', route: at(address) });
    pop('/history?format=council&q=x');
    // History lives in the discussion panel: a hidden panel is shown for it.
    expect(asked).toContainEqual({ type: 'view.panel.show' });
    expect(asked.at(-1)).toEqual({ type: 'history.list', format: 'council', q: 'x' });
    pop('/discussions/d2');
    expect(asked.at(-1)).toEqual({ type: 'history.visit', id: 'd2', replay: false, turn: null });
    pop('/evaluations/r1');
    expect(asked.slice(-2)).toEqual([{ type: 'history.hide' }, { type: 'evaluation.visit', id: 'r1' }]);
    pop('/');
    expect(asked.slice(-2)).toEqual([{ type: 'evaluation.close' }, { type: 'history.hide' }]);
    expect(writes).toEqual([]);
  });

  it("shows 'not found' for an id a chart does not know, and goes home from it", () => {
    const { nav, writes, asked, follow } = harness('/discussions/foreign');
    expect(selectAddressPage(nav.getSnapshot())).toBeNull();
    nav.send({ type: 'nav.missing' });
    expect(selectAddressPage(nav.getSnapshot())).toEqual({ kind: 'discussion', id: 'foreign' });
    nav.send({ type: 'nav.home' });
    expect(writes).toEqual(['push /']);
    expect(asked.at(-1)).toEqual({ type: 'history.hide' });
    expect(selectAddressPage(nav.getSnapshot())).toBeNull();
    follow('/history');
    expect(writes).toEqual(['push /', 'push /history']);
  });

  it("ignores a chart's 'missing' once the address is followed (a row deleted elsewhere is History's own error)", () => {
    const { nav } = harness('/');
    nav.send({ type: 'nav.missing' });
    expect(selectAddressPage(nav.getSnapshot())).toBeNull();
  });

  it("shows 'not found' for an address of no view; share and invite links are their own pages, not the shell's", () => {
    expect(selectAddressPage(harness('/no/such/page').nav.getSnapshot())).toEqual({
      kind: 'notFound',
      path: '/no/such/page',
    });
    for (const path of ['/s/tok', '/join/tok']) {
      const snapshot = harness(path).nav.getSnapshot();
      expect(snapshot.hasTag('outside'), path).toBe(true);
      expect(selectAddressPage(snapshot), path).toBeNull();
    }
  });

  it('gives up an address the charts never reach, and writes what they show instead', () => {
    const { nav, writes, follow } = harness('/discussions/slow');
    follow('/history');
    vi.advanceTimersByTime(APPLY_TIMEOUT_MS);
    expect(nav.getSnapshot().value).toBe('following');
    expect(writes).toEqual(['replace /history']);
  });
});
