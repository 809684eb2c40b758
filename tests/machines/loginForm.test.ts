import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { loginFormMachine, type LoginFormActorRef, type SubmitResult } from '../../src/machines/loginForm.machine';
import {
  selectBackendBadge,
  selectFieldErrors,
  selectFormError,
  selectIsBusy,
  selectSuccessMessage,
} from '../../src/machines/loginForm.selectors';
import { LOGIN_SUCCESS_DELAY_MS } from '../../src/schemas/constants';
import { AUTH_MESSAGES } from '../../src/schemas/messages';
import type { Health } from '../../src/schemas/system';
import { deferred, flush, underParent } from '../support/harness';

const NOW = 1_700_000_000_000;
const healthy: Health = {
  status: 'healthy',
  version: '2.1.0',
  components: {
    database: { status: 'ok' },
    llm: { status: 'ok' },
    speech: { status: 'disabled' },
    transcription: { status: 'disabled' },
  },
};
const claims = { sub: 'user-1', exp: NOW / 1000 + 3600 };
const good: SubmitResult = {
  response: { access_token: 'a.b.c', user: { email: 'ada@example.com' } },
  claims,
  now: NOW,
};

function start(opts: { health?: () => Promise<Health> } = {}) {
  const submit = deferred<SubmitResult>();
  const logic = loginFormMachine.provide({
    actors: {
      submitCredentials: submit.logic as never,
      checkBackend: fromPromise(opts.health ?? (async () => healthy)),
    },
  });
  const h = underParent<LoginFormActorRef>(logic, 'loginForm');
  const form = h.child;
  const type = (email: string, password: string) => {
    form.send({ type: 'login.field', field: 'email', value: email });
    form.send({ type: 'login.field', field: 'password', value: password });
  };
  return { ...h, form, submit, type, snap: () => form.getSnapshot() };
}

describe('login form: validation (docs/product.md#workspace-validation)', () => {
  it('says what is missing and does not submit', () => {
    const { form, submit, snap } = start();
    form.send({ type: 'login.submit' });
    expect(selectFieldErrors(snap())).toEqual({
      email: AUTH_MESSAGES.emailRequired,
      password: AUTH_MESSAGES.passwordRequired,
    });
    expect(snap().matches({ form: 'editing' })).toBe(true);
    expect(submit.calls).toHaveLength(0);
  });

  it('wants an @ in the email and 6 characters of password', () => {
    const { form, type, snap } = start();
    type('ada.example.com', '12345');
    form.send({ type: 'login.submit' });
    expect(selectFieldErrors(snap())).toEqual({
      email: AUTH_MESSAGES.emailInvalid,
      password: AUTH_MESSAGES.passwordTooShort,
    });
  });

  it('clears a field message once that field is edited', () => {
    const { form, snap } = start();
    form.send({ type: 'login.submit' });
    form.send({ type: 'login.field', field: 'email', value: 'ada@example.com' });
    expect(selectFieldErrors(snap())).toEqual({ email: undefined, password: AUTH_MESSAGES.passwordRequired });
  });

  it('submits trimmed email and the password as typed, in the current mode', () => {
    const { form, type, submit } = start();
    form.send({ type: 'login.mode.toggle' });
    type('  ada@example.com ', ' secret ');
    form.send({ type: 'login.submit' });
    expect(submit.calls).toEqual([{ mode: 'register', email: 'ada@example.com', password: ' secret ' }]);
  });
});

describe('login form: submitting and the error catalogue (docs/product.md#workspace-errors)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  async function failWith(error: unknown, mode: 'signIn' | 'register' = 'signIn') {
    const t = start();
    if (mode === 'register') t.form.send({ type: 'login.mode.toggle' });
    t.type('ada@example.com', 'secret1');
    t.form.send({ type: 'login.submit' });
    expect(selectIsBusy(t.snap())).toBe(true);
    t.submit.reject(error);
    await flush();
    expect(t.snap().matches({ form: 'editing' })).toBe(true);
    expect(selectIsBusy(t.snap())).toBe(false);
    return selectFormError(t.snap());
  }

  it.each([
    [{ status: 401, detail: 'Incorrect email or password' }, 'signIn', AUTH_MESSAGES.invalidCredentials],
    [{ status: 400, detail: 'Email already registered' }, 'register', AUTH_MESSAGES.alreadyRegistered],
    [{ status: 400, detail: 'Email already registered' }, 'signIn', 'Email already registered'],
    [{ status: 422, detail: 'email: invalid' }, 'signIn', AUTH_MESSAGES.invalidInput],
    [{ status: 500 }, 'register', AUTH_MESSAGES.serverError],
    [{ status: 429, detail: 'Too many attempts' }, 'signIn', 'Too many attempts'],
    [{ status: 503 }, 'signIn', AUTH_MESSAGES.loginFailed],
    [{ status: 503 }, 'register', AUTH_MESSAGES.registrationFailed],
    [new TypeError('Failed to fetch'), 'signIn', AUTH_MESSAGES.loginFailed],
  ] as const)('%o in %s mode says %j', async (error, mode, message) => {
    expect(await failWith(error, mode)).toBe(message);
  });

  it.each([
    [{ ...good, response: { user: { email: 'ada@example.com' } } }, AUTH_MESSAGES.noAccessToken],
    [{ ...good, claims: null }, AUTH_MESSAGES.invalidTokenFormat],
    [{ ...good, claims: { sub: 'u', exp: NOW / 1000 - 1 } }, AUTH_MESSAGES.receivedExpiredToken],
  ])('refuses a bad answer: %j', async (result, message) => {
    const t = start();
    t.type('ada@example.com', 'secret1');
    t.form.send({ type: 'login.submit' });
    t.submit.resolve(result);
    await flush();
    expect(selectFormError(t.snap())).toBe(message);
    expect(t.snap().matches({ form: 'editing' })).toBe(true);
  });

  it('shows the success message, keeps the buttons disabled, and hands the login over after exactly 1 s', async () => {
    const t = start();
    t.type('ada@example.com', 'secret1');
    t.form.send({ type: 'login.submit' });
    t.submit.resolve(good);
    await flush();
    expect(t.snap().matches({ form: 'succeeded' })).toBe(true);
    expect(selectSuccessMessage(t.snap())).toBe(AUTH_MESSAGES.loginSuccess);
    expect(selectIsBusy(t.snap())).toBe(true);
    vi.advanceTimersByTime(LOGIN_SUCCESS_DELAY_MS - 1);
    expect(t.heard.filter((e) => e.type === 'session.authenticated')).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(t.heard.filter((e) => e.type === 'session.authenticated')).toEqual([
      { type: 'session.authenticated', token: 'a.b.c', user: { email: 'ada@example.com' }, claims },
    ]);
  });

  it('uses the typed email as the user when the server sends none', async () => {
    const t = start();
    t.type('ada@example.com', 'secret1');
    t.form.send({ type: 'login.submit' });
    t.submit.resolve({ ...good, response: { access_token: 'a.b.c' } });
    await flush();
    vi.advanceTimersByTime(LOGIN_SUCCESS_DELAY_MS);
    expect(t.heard.find((e) => e.type === 'session.authenticated')).toMatchObject({
      user: { email: 'ada@example.com' },
    });
  });

  it('ignores edits and a second submit while submitting', () => {
    const t = start();
    t.type('ada@example.com', 'secret1');
    t.form.send({ type: 'login.submit' });
    t.form.send({ type: 'login.field', field: 'email', value: 'eve@example.com' });
    t.form.send({ type: 'login.submit' });
    expect(t.submit.calls).toHaveLength(1);
    expect(t.snap().context.email).toBe('ada@example.com');
  });
});

describe('login form: mode, demo accounts, backend badge', () => {
  it('fills demo credentials only in register mode', () => {
    const { form, snap } = start();
    form.send({ type: 'login.demoFill', email: 'demo@agora.local', password: 'demo1234' });
    expect(snap().context.email).toBe('');
    form.send({ type: 'login.mode.toggle' });
    form.send({ type: 'login.demoFill', email: 'demo@agora.local', password: 'demo1234' });
    expect(snap().context).toMatchObject({ email: 'demo@agora.local', password: 'demo1234', mode: 'register' });
  });

  it('switching mode clears the messages', () => {
    const { form, snap } = start();
    form.send({ type: 'login.submit' });
    form.send({ type: 'login.mode.toggle' });
    expect(selectFieldErrors(snap())).toEqual({});
  });

  it('shows the backend status from /health and re-checks on demand', async () => {
    let answer: () => Promise<Health> = async () => healthy;
    const { form, snap } = start({ health: () => answer() });
    expect(selectBackendBadge(snap())).toBe('checking');
    await flush();
    expect(selectBackendBadge(snap())).toBe('online');
    answer = async () => ({ ...healthy, status: 'degraded' });
    form.send({ type: 'login.backend.check' });
    await flush();
    expect(selectBackendBadge(snap())).toBe('degraded');
    answer = async () => Promise.reject(new TypeError('Failed to fetch'));
    form.send({ type: 'login.backend.check' });
    await flush();
    expect(selectBackendBadge(snap())).toBe('offline');
  });
});
