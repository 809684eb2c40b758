// Chooses the screen from the session: loading while a stored token is verified, the sign-in screen when
// logged out, the main screen when authenticated. Toasts sit above all of them. The main screen is loaded on
// demand, so what the sign-in screen needs stays small (the canvas and panels are heavy).
import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { selectSession, selectToasts } from '../machines/app.selectors';
import type { SessionActorRef } from '../machines/session.machine';
import { selectIsAuthenticated, selectIsLoading, selectLoginForm } from '../machines/session.selectors';
import { useAppActor } from './AppContext';
import { LoadingScreen } from './common/LoadingScreen';
import { Toasts } from './common/Toasts';
import { LoginScreen } from './login/LoginScreen';

const Shell = lazy(() => import('./shell/Shell').then((m) => ({ default: m.Shell })));

function Screen({ session }: { session: SessionActorRef }) {
  const loading = useSelector(session, selectIsLoading);
  const authenticated = useSelector(session, selectIsAuthenticated);
  const loginForm = useSelector(session, selectLoginForm);
  if (loading) return <LoadingScreen />;
  if (authenticated) {
    return (
      <Suspense fallback={<LoadingScreen text="Opening your workspace…" />}>
        <Shell session={session} />
      </Suspense>
    );
  }
  if (loginForm) return <LoginScreen form={loginForm} session={session} />;
  return <LoadingScreen text="Signing out…" />;
}

export function App() {
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const toasts = useSelector(app, selectToasts);
  return (
    <>
      {session ? <Screen session={session} /> : <LoadingScreen />}
      {toasts && <Toasts toasts={toasts} />}
    </>
  );
}
