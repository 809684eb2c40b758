// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/schemas/messages';
import { healthy, json, renderApp, type Route, warmLazyChunks } from './appHarness';
import { tokenExpiringIn } from '../support/tokens';

beforeAll(warmLazyChunks, 60_000);
afterEach(cleanup);

/** A route that answers only when the test says so. */
function held() {
  let answer: (r: Response) => void = () => {};
  const route: Route = () => new Promise<Response>((resolve) => (answer = resolve));
  return { route, answer: (r: Response) => answer(r) };
}

const base = { 'GET /health': () => json(200, healthy) };
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('login screen', () => {
  it('shows the sign-in form with typed email and password fields and the backend status', async () => {
    renderApp({ routes: base });
    const email = await screen.findByLabelText('Email');
    expect(email.getAttribute('type')).toBe('email');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeTruthy();
    expect(await screen.findByText(/Backend online/)).toBeTruthy();
  });

  it('shows the validation messages of docs/product.md#workspace-validation and does not call the server', async () => {
    const user = userEvent.setup();
    const { calls } = renderApp({ routes: base });
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(screen.getByText(AUTH_MESSAGES.emailRequired)).toBeTruthy();
    expect(screen.getByText(AUTH_MESSAGES.passwordRequired)).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), '12345');
    await user.click(button('Sign In'));
    expect(screen.queryByText(AUTH_MESSAGES.emailRequired)).toBeNull();
    expect(screen.getByText(AUTH_MESSAGES.passwordTooShort)).toBeTruthy();
    expect(calls.filter((c) => c.includes('/auth/'))).toEqual([]);
  });

  it('disables the buttons while submitting, then shows the catalogue message on 401', async () => {
    const user = userEvent.setup();
    const login = held();
    renderApp({ routes: { ...base, 'POST /auth/login': login.route } });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(button('Sign In'));
    expect(button('Signing in…').disabled).toBe(true);
    expect(button('Create Account').disabled).toBe(true);
    expect((screen.getByLabelText('Email') as HTMLInputElement).disabled).toBe(true);
    login.answer(json(401, { detail: 'Incorrect email or password' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', AUTH_MESSAGES.invalidCredentials);
    expect(button('Sign In').disabled).toBe(false);
  });

  it('offers demo quick-fill only in register mode, and it fills the fields', async () => {
    const user = userEvent.setup();
    renderApp({ routes: base });
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('region', { name: 'Demo accounts' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Demo researcher' })).toBeNull();
    await user.click(button('Create Account'));
    expect(screen.getByRole('heading', { name: 'Create Account' })).toBeTruthy();
    const demo = screen.getByRole('region', { name: 'Demo accounts' });
    await user.click(within(demo).getByRole('button', { name: 'Demo reviewer' }));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('reviewer@agora.local');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('demo1234');
    await user.click(button('Sign In'));
    expect(screen.queryByRole('button', { name: 'Demo reviewer' })).toBeNull();
  });

  it("registers: 'already registered' in register mode, then success, the success message, and the shell", async () => {
    const user = userEvent.setup();
    const token = tokenExpiringIn(Date.now(), 60 * 60_000, 'user-0123456789abcdef');
    let attempt = 0;
    renderApp({
      routes: {
        ...base,
        'POST /auth/register': () =>
          ++attempt === 1
            ? json(400, { detail: 'Email already registered' })
            : json(200, { access_token: token, token_type: 'bearer', user: { email: 'new@example.com' } }),
        'GET /agents/': () => json(200, []),
        'GET /connections/': () => json(200, []),
        'GET /monitor/stats': () => json(200, {}),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create Account' }));
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret12');
    await user.click(screen.getAllByRole('button', { name: 'Create Account' })[0]);
    expect(await screen.findByText(AUTH_MESSAGES.alreadyRegistered)).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: 'Create Account' })[0]);
    expect(await screen.findByText(AUTH_MESSAGES.registerSuccess)).toBeTruthy();
    // The shell: the top bar names the user by their display name (by default the email's part before '@').
    expect(await screen.findByRole('button', { name: /Your display name: new\b/ }, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('signs in: the success message and a button that does not flip back, through the 1 s, then the shell', async () => {
    const user = userEvent.setup();
    const token = tokenExpiringIn(Date.now(), 60 * 60_000, 'user-0123456789abcdef');
    renderApp({
      routes: {
        ...base,
        'POST /auth/login': () =>
          json(200, { access_token: token, token_type: 'bearer', user: { email: 'ada@example.com' } }),
        'GET /agents/': () => json(200, []),
        'GET /connections/': () => json(200, []),
        'GET /monitor/stats': () => json(200, {}),
      },
    });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret12');
    await user.click(button('Sign In'));
    expect((await screen.findByText(AUTH_MESSAGES.loginSuccess)).getAttribute('role')).toBe('status');
    expect(button('Opening your workspace…').disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
    expect(await screen.findByRole('button', { name: 'Logout' }, { timeout: 3000 })).toBeTruthy();
  });

  it('shows Test Backend and the debug toggle only in development', async () => {
    const user = userEvent.setup();
    renderApp({ routes: base });
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('button', { name: 'Test Backend' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Show Debug' })).toBeNull();
    cleanup();

    const { calls } = renderApp({ routes: base, config: { isDev: true } });
    await screen.findByText(/Backend online/);
    await user.click(button('Test Backend'));
    await waitFor(() => expect(calls.filter((c) => c === 'GET /health')).toHaveLength(2));
    await user.click(button('Show Debug'));
    const debug = screen.getByLabelText('Debug information');
    expect(within(debug).getByText('http://localhost:8000')).toBeTruthy();
    expect(within(debug).getByText('ws://localhost:8000')).toBeTruthy();
    expect(within(debug).getByText('test')).toBeTruthy();
    expect(within(debug).getByText('(none)')).toBeTruthy();
  });
});
