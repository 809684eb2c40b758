// The page of an address that names no view: 'not found' (an address of no view, or an id this user has none of),
// with one way back: the canvas. (A share link's page has a root of its own, src/sharedMain.tsx; an invite's is the
// join chart's, ui/rooms.) It reads the navigation actor's route and only sends `nav.home`.
import { useEffect, useRef } from 'react';
import type { NavigationActorRef } from '../../machines/navigation.machine';
import type { Route } from '../../model/address';

const TEXT = {
  title: 'Not found',
  body: 'Nothing here: the address names no page of Agora, or a discussion or evaluation that is not yours or no longer exists.',
};

export function AddressPage({ route, navigation }: { route: Route; navigation: NavigationActorRef }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A page that replaced the view: the reader's focus starts at its heading, not on the body.
  useEffect(() => heading.current?.focus(), []);
  const text = TEXT;
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
