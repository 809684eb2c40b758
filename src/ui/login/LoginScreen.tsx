// Sign in / Create account (docs/product.md#workspace-screens 'Login / register screen'). Every rule lives in the
// loginForm actor; this view shows its snapshot and sends what the user does.
import { useSelector } from '@xstate/react';
import { useId, useState, type FormEvent } from 'react';
import { APP_VERSION } from '../../schemas/constants';
import type { LoginFormActorRef } from '../../machines/loginForm.machine';
import {
  selectFieldErrors,
  selectFields,
  selectFormError,
  selectIsBusy,
  selectIsCheckingBackend,
  selectIsRegisterMode,
  selectPendingToken,
  selectSuccessMessage,
} from '../../machines/loginForm.selectors';
import type { SessionActorRef } from '../../machines/session.machine';
import { selectToken } from '../../machines/session.selectors';
import { useUiConfig } from '../AppContext';
import { BackendStatus } from './BackendStatus';
import { CredentialField } from './CredentialField';
import { LoginDebug } from './LoginDebug';

export function LoginScreen({ form, session }: { form: LoginFormActorRef; session: SessionActorRef }) {
  const config = useUiConfig();
  const fields = useSelector(form, selectFields, (a, b) => a.email === b.email && a.password === b.password);
  const fieldErrors = useSelector(form, selectFieldErrors);
  const error = useSelector(form, selectFormError);
  const success = useSelector(form, selectSuccessMessage);
  const busy = useSelector(form, selectIsBusy);
  const register = useSelector(form, selectIsRegisterMode);
  const checkingBackend = useSelector(form, selectIsCheckingBackend);
  const pendingToken = useSelector(form, selectPendingToken);
  const sessionToken = useSelector(session, selectToken);
  const [showDebug, setShowDebug] = useState(false);
  const id = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    form.send({ type: 'login.submit' });
  };
  const title = register ? 'Create Account' : 'Sign In';

  return (
    <main className="login">
      <section className="login__card" aria-labelledby={`${id}-title`}>
        <header className="login__header">
          <p className="login__brand">Agora</p>
          <h1 id={`${id}-title`}>{title}</h1>
          <p className="login__tagline">Multi-agent AI discussions · v{APP_VERSION}</p>
          <BackendStatus form={form} />
        </header>

        <form className="login__form" onSubmit={submit}>
          <CredentialField
            id={`${id}-email`}
            label="Email"
            type="email"
            autoComplete="email"
            autoFocus
            value={fields.email}
            error={fieldErrors.email}
            disabled={busy}
            onChange={(value) => form.send({ type: 'login.field', field: 'email', value })}
          />
          <CredentialField
            id={`${id}-password`}
            label="Password"
            type="password"
            autoComplete={register ? 'new-password' : 'current-password'}
            value={fields.password}
            error={fieldErrors.password}
            hint="At least 6 characters"
            disabled={busy}
            onChange={(value) => form.send({ type: 'login.field', field: 'password', value })}
          />

          {/* Space kept for the one message the form may show, so the card does not jump. */}
          <div className="login__message">
            {error && (
              <p className="form-message form-message--error" role="alert">
                {error}
              </p>
            )}
            {success && (
              <p className="form-message form-message--success" role="status">
                {success}
              </p>
            )}
          </div>

          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {/* Through the success second the button says what comes next, never its idle label again. */}
            {success ? 'Opening your workspace…' : busy ? (register ? 'Creating account…' : 'Signing in…') : title}
          </button>
        </form>

        {register && config.demoAccounts.length > 0 && (
          <section className="login__demo" aria-label="Demo accounts">
            <p className="muted">Quick fill a demo account:</p>
            <div className="button-row">
              {config.demoAccounts.map((d) => (
                <button
                  key={d.email}
                  type="button"
                  className="button button--ghost"
                  disabled={busy}
                  onClick={() => form.send({ type: 'login.demoFill', email: d.email, password: d.password })}
                >
                  {d.label}
                </button>
              ))}
            </div>
          </section>
        )}

        <p className="login__toggle">
          {register ? 'Already have an account?' : 'New here?'}{' '}
          <button
            type="button"
            className="link-button"
            disabled={busy}
            onClick={() => form.send({ type: 'login.mode.toggle' })}
          >
            {register ? 'Sign In' : 'Create Account'}
          </button>
        </p>

        {config.isDev && (
          <footer className="login__dev">
            <div className="button-row">
              <button
                type="button"
                className="button button--small"
                disabled={busy || checkingBackend}
                onClick={() => form.send({ type: 'login.backend.check' })}
              >
                Test Backend
              </button>
              <button
                type="button"
                className="button button--small"
                aria-pressed={showDebug}
                disabled={busy}
                onClick={() => setShowDebug((v) => !v)}
              >
                {showDebug ? 'Hide Debug' : 'Show Debug'}
              </button>
            </div>
            {showDebug && <LoginDebug config={config} token={pendingToken ?? sessionToken} />}
          </footer>
        )}
      </section>
    </main>
  );
}
