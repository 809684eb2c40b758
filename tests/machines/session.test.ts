import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { loginFormMachine, type SubmitResult } from '../../src/machines/loginForm.machine';
import { sessionMachine, type RestoredSession, type SessionActorRef } from '../../src/machines/session.machine';
import {
  selectIsExpiringSoon,
  selectIsLoading,
  selectTokenSubjectTail,
  selectUserEmail,
} from '../../src/machines/session.selectors';
import { fromTicker } from '../../src/services/clock';
import { LOGIN_SUCCESS_DELAY_MS, SESSION_CHECK_INTERVAL_MS } from '../../src/schemas/constants';
import { AUTH_MESSAGES } from '../../src/schemas/messages';
import type { Health } from '../../src/schemas/system';
import { flush, underParent } from '../support/harness';

const T0 = 1_700_000_000_000;
const MIN = 60_000;
const user = { email: 'ada@example.com' };
const restoredExpiringIn = (ms: number): RestoredSession => ({
  token: 'stored.token.x',
  user,
  claims: { sub: 'user-0123456789abcdef', exp: (T0 + ms) / 1000 },
});

function start(restore: () => Promise<RestoredSession | null>, submit?: () => Promise<SubmitResult>) {
  const persisted: unknown[] = [];
  let cleared = 0;
  const logic = sessionMachine.provide({
    actors: {
      restoreSession: fromPromise(restore),
      // The real ticker: the 30 s period is the machine's (its input), the clock is Date.now (faked here).
      sessionTicker: fromTicker('session.tick') as never,
      loginForm: loginFormMachine.provide({
        actors: {
          submitCredentials: fromPromise(submit ?? (() => new Promise<SubmitResult>(() => {}))),
          checkBackend: fromPromise<Health>(() => new Promise<never>(() => {})),
        },
      }),
    },
    actions: {
      persistLogin: (_, params) => void persisted.push(params),
      clearStoredLogin: () => void cleared++,
    },
  });
  const h = underParent<SessionActorRef>(logic, 'session');
  return {
    ...h,
    snap: () => h.child.getSnapshot(),
    persisted,
    cleared: () => cleared,
    notices: () => h.heard.map((e) => e.type),
  };
}

describe('session', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
  });
  afterEach(() => vi.useRealTimers());

  it('shows loading while verifying, then logs in a verified stored token', async () => {
    const t = start(async () => restoredExpiringIn(60 * MIN));
    expect(selectIsLoading(t.snap())).toBe(true);
    await flush();
    expect(t.snap().matches({ authenticated: 'valid' })).toBe(true);
    expect(selectUserEmail(t.snap())).toBe('ada@example.com');
    expect(selectTokenSubjectTail(t.snap())).toBe('89abcdef');
    expect(t.notices()).toEqual(['session.signedIn']);
    expect(t.toastTexts()).toEqual([]);
  });

  it('with nothing stored, goes quietly to the sign-in form', async () => {
    const t = start(async () => null);
    await flush();
    expect(t.snap().matches('loggedOut')).toBe(true);
    expect(t.snap().children.loginForm).toBeDefined();
    expect(t.toastTexts()).toEqual([]);
    expect(t.notices()).toEqual(['session.signedOut']);
  });

  it.each([
    [
      { status: 401, detail: 'Could not validate credentials' },
      AUTH_MESSAGES.authFailed(AUTH_MESSAGES.tokenInvalidOrExpired),
    ],
    [{ status: 500 }, AUTH_MESSAGES.authFailed(AUTH_MESSAGES.authFailedGeneric)],
    [new TypeError('Failed to fetch'), AUTH_MESSAGES.authFailed(AUTH_MESSAGES.authFailedGeneric)],
    [{ reason: AUTH_MESSAGES.invalidTokenFormat }, AUTH_MESSAGES.authFailed(AUTH_MESSAGES.invalidTokenFormat)],
  ])('a failed verification (%o) removes the token and says %j', async (error, text) => {
    const t = start(() => Promise.reject(error));
    await flush();
    expect(t.snap().matches('loggedOut')).toBe(true);
    expect(t.cleared()).toBe(1);
    expect(t.toastTexts()).toEqual([`error: ${text}`]);
  });

  it('checks expiry every 30 s: a token that crosses the 5-minute mark is logged out at the next check', async () => {
    // 5 min 10 s left at start: still valid (and inside the warning window); crosses the mark at +10 s.
    const t = start(async () => restoredExpiringIn(5 * MIN + 10_000));
    await flush();
    expect(t.snap().matches('authenticated')).toBe(true);
    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS - 1);
    expect(t.snap().matches('authenticated')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.snap().matches('loggedOut')).toBe(true);
    expect(t.cleared()).toBe(1);
    expect(t.toastTexts()).toContain(`warning: ${AUTH_MESSAGES.sessionExpired}`);
    expect(t.notices()).toEqual(['session.signedIn', 'session.signedOut']);
  });

  it('warns once between the 10- and 5-minute marks, shows the badge, then logs out at 5 minutes', async () => {
    const t = start(async () => restoredExpiringIn(20 * MIN));
    await flush();
    const warnings = () => t.toastTexts().filter((x) => x.startsWith('warning:'));

    // Exactly 10 minutes left is not yet 'under 10 minutes'.
    await vi.advanceTimersByTimeAsync(10 * MIN);
    expect(t.snap().matches({ authenticated: 'valid' })).toBe(true);
    expect(selectIsExpiringSoon(t.snap())).toBe(false);

    await vi.advanceTimersByTimeAsync(SESSION_CHECK_INTERVAL_MS);
    expect(t.snap().matches({ authenticated: 'expiringSoon' })).toBe(true);
    expect(selectIsExpiringSoon(t.snap())).toBe(true);
    expect(warnings()).toEqual([`warning: ${AUTH_MESSAGES.sessionExpiringSoon(9)}`]);

    // Later checks in the window say nothing more (toasts last 5 s, so look at the count of all shown).
    await vi.advanceTimersByTimeAsync(4 * MIN);
    expect(t.toasts.getSnapshot().context.nextId).toBe(2);
    expect(t.snap().matches('authenticated')).toBe(true);

    // 5 min 0 s left counts as expired.
    await vi.advanceTimersByTimeAsync(30_000 - 1);
    expect(t.snap().matches('authenticated')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.snap().matches('loggedOut')).toBe(true);
    expect(t.toastTexts()).toContain(`warning: ${AUTH_MESSAGES.sessionExpired}`);
  });

  it('a token already inside 5 minutes is logged out at the first check', async () => {
    const t = start(async () => restoredExpiringIn(4 * MIN));
    await flush();
    expect(t.snap().matches('loggedOut')).toBe(true);
    expect(t.toastTexts()).toEqual([`warning: ${AUTH_MESSAGES.sessionExpired}`]);
  });

  it("a 401 anywhere ('auth.expired') clears the login and says 'Authentication expired'", async () => {
    const t = start(async () => restoredExpiringIn(60 * MIN));
    await flush();
    t.child.send({ type: 'auth.expired' });
    expect(t.snap().matches('loggedOut')).toBe(true);
    expect(t.cleared()).toBe(1);
    expect(t.toastTexts()).toEqual([`error: ${AUTH_MESSAGES.authenticationExpired}`]);
  });

  it('logout clears the login without a toast and stops the expiry checks', async () => {
    const t = start(async () => restoredExpiringIn(60 * MIN));
    await flush();
    t.child.send({ type: 'session.logout' });
    expect(t.snap().matches('loggedOut')).toBe(true);
    expect(t.snap().context).toMatchObject({ token: null, user: null, claims: null });
    expect(t.snap().context.parent).toBeDefined(); // signing out keeps who hears the session
    expect(t.cleared()).toBe(1);
    expect(t.toastTexts()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('signs in through the form: 1 s after success the session is authenticated and the login stored', async () => {
    const claims = { sub: 'user-42', exp: (T0 + 60 * MIN) / 1000 };
    const t = start(
      async () => null,
      async () => ({ response: { access_token: 'new.token.x', user }, claims, now: Date.now() }),
    );
    await flush();
    const form = t.snap().children.loginForm!;
    form.send({ type: 'login.field', field: 'email', value: 'ada@example.com' });
    form.send({ type: 'login.field', field: 'password', value: 'secret1' });
    form.send({ type: 'login.submit' });
    await flush();
    expect(t.snap().matches('loggedOut')).toBe(true);
    await vi.advanceTimersByTimeAsync(LOGIN_SUCCESS_DELAY_MS);
    expect(t.snap().matches({ authenticated: 'valid' })).toBe(true);
    expect(t.snap().context).toMatchObject({ token: 'new.token.x', user, claims });
    expect(t.persisted).toEqual([{ token: 'new.token.x', user }]);
    expect(t.snap().children.loginForm).toBeUndefined();
  });
});
