// A page an address names that is not one of the main screen's views: 'not found' (an address of no view, or an id
// this user has none of), and — until their parts are merged — the share link's and the invite's pages. Each has
// one way back: the canvas. It reads the navigation actor's route and only sends `nav.home`.
import { useEffect, useRef } from 'react';
import type { NavigationActorRef } from '../../machines/navigation.machine';
import type { Route } from '../../model/address';

const TEXT: Record<'notFound' | 'share' | 'join', { title: string; body: string }> = {
  notFound: {
    title: 'Not found',
    body: 'Nothing here: the address names no page of Agora, or a discussion or evaluation that is not yours or no longer exists.',
  },
  // Placeholders: the shares and rooms parts draw these pages (the lead wires them at the merge).
  share: { title: 'A shared discussion', body: 'Shared read-only discussions open here.' },
  join: { title: 'An invitation', body: 'Invitations to a live discussion open here.' },
};

const kindOf = (route: Route) => (route.kind === 'share' || route.kind === 'join' ? route.kind : 'notFound');

export function AddressPage({ route, navigation }: { route: Route; navigation: NavigationActorRef }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A page that replaced the view: the reader's focus starts at its heading, not on the body.
  useEffect(() => heading.current?.focus(), []);
  const text = TEXT[kindOf(route)];
  return (
    <main className="address-page" aria-labelledby="address-page-title">
      <div className="address-page__card">
        <h1 id="address-page-title" ref={heading} tabIndex={-1}>
          {text.title}
        </h1>
        <p className="muted">{text.body}</p>
        {route.kind === 'notFound' && (
          <p className="address-page__path">
            <code>{route.path}</code>
          </p>
        )}
        <button type="button" className="button button--primary" onClick={() => navigation.send({ type: 'nav.home' })}>
          Back to the canvas
        </button>
      </div>
    </main>
  );
}
