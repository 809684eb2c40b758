// The History API behind an actor (the navigation chart's `address`, navigation.machine.ts): it reports the page's
// address when it starts (the first address, after sign-in) and at each popstate (Back, Forward), parsed by
// model/address.ts, and writes the addresses the chart asks for. It decides nothing.
import { fromCallback } from 'xstate';
import { parseAddress } from '../model/address';
import type { AddressCommand, NavigationEvent } from '../machines/navigation.machine';

/** The part of `window` it uses (a test gives its own). */
export interface AddressWindow {
  location: { pathname: string; search: string; hash: string };
  history: Pick<History, 'pushState' | 'replaceState' | 'state'>;
  addEventListener(type: 'popstate', listener: () => void): void;
  removeEventListener(type: 'popstate', listener: () => void): void;
}

export const createAddressBar = (win: AddressWindow = window) =>
  fromCallback<AddressCommand>(({ sendBack, receive }) => {
    const here = () => parseAddress(win.location);
    const onPop = () => sendBack({ type: 'nav.popped', route: here() } satisfies NavigationEvent);
    win.addEventListener('popstate', onPop);
    receive((command) => {
      const current = `${win.location.pathname}${win.location.search}${win.location.hash}`;
      if (command.path === current) return;
      if (command.mode === 'push') win.history.pushState(null, '', command.path);
      else win.history.replaceState(win.history.state, '', command.path);
    });
    sendBack({ type: 'nav.arrived', route: here() } satisfies NavigationEvent);
    return () => win.removeEventListener('popstate', onPop);
  });

/** No address bar (a test's app, or a page embedded elsewhere): the canvas, and nothing written. */
export const noAddressBar = fromCallback<AddressCommand>(({ sendBack }) => {
  sendBack({ type: 'nav.arrived', route: parseAddress({ pathname: '/', search: '', hash: '' }) });
});
