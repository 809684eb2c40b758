// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, SHELL_MESSAGES } from '../../src/schemas/messages';
import { tokenExpiringIn } from '../support/tokens';
import { healthy, json, renderApp, type Route, warmLazyChunks } from './appHarness';

beforeAll(warmLazyChunks, 60_000);
afterEach(cleanup);

const agents = [
  { id: 'a1', name: 'Ada', role: 'Analyst' },
  { id: 'a2', name: 'Bo', role: 'Skeptic' },
  { id: 'a3', name: 'Cy', role: 'Moderator' },
];
const connections = [
  { id: 'c1', from_agent_id: 'a1', to_agent_id: 'a2' },
  { id: 'c2', source: 'a2', target: 'a3' },
];

function signedIn(over: Record<string, Route> = {}, config = {}) {
  const token = tokenExpiringIn(Date.now(), 60 * 60_000, 'user-0123456789abcdef');
  return renderApp({
    token,
    config,
    routes: {
      'GET /health': () => json(200, healthy),
      'GET /auth/me': () => json(200, { email: 'ada@example.com' }),
      'GET /agents/': () => json(200, agents),
      'GET /connections/': () => json(200, connections),
      'GET /monitor/stats': () => json(200, { agents: 3 }),
      ...over,
    },
  });
}

const count = (id: string) => screen.getByTestId(`count-${id}`).textContent;

describe('main screen shell', () => {
  it('shows the user and the workspace counts in the top bar, and follows selection and live frames', async () => {
    const { actor, sockets } = signedIn();
    // The first test of the file also waits for the lazily loaded main screen (the canvas, React Flow) to import.
    expect(await screen.findByRole('button', { name: /Your display name: ada\b/ }, { timeout: 10_000 })).toBeTruthy();
    // The top bar's count (the canvas placeholder that said '3 agents' gave way to the canvas).
    // The workspace comes with the signed-in chunk (composeWorkspace.ts), which the first test also waits to import.
    await waitFor(() => expect(count('agents')).toBe('3'), { timeout: 10_000 });
    expect([count('agents'), count('selected'), count('connections')]).toEqual(['3', '0', '2']);

    act(() => actor.system.get('workspace').send({ type: 'selection.toggle', id: 'a2' }));
    expect(count('selected')).toBe('1');

    // Live updates come with the signed-in chunk, a moment after the shell.
    const updates = await waitFor(() => {
      const socket = sockets.last('/ws/updates');
      if (!socket) throw new Error('no /ws/updates socket yet');
      return socket;
    });
    expect(updates.query.token).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Live updates: Idle' })).toBeTruthy();
    act(() => updates.serverOpen());
    expect(screen.getByRole('status', { name: 'Live updates: Ready' })).toBeTruthy();
    // A socket hands its frames on after the task they came in (services/frameBatch.ts), as the app composes it.
    act(() => updates.serverSend({ type: 'agent_created', agent: { id: 'a4', name: 'Dee', role: 'Scribe' } }));
    await waitFor(() => expect(count('agents')).toBe('4'));
    act(() => updates.serverSend({ type: 'agent_deleted', agent_id: 'a2' }));
    await waitFor(() => expect([count('agents'), count('selected'), count('connections')]).toEqual(['3', '0', '0']));
  });

  it('footer shows version, host and the tail of the token subject', async () => {
    signedIn();
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByText('v2.1.0')).toBeTruthy();
    expect(within(footer).getByText('localhost:8000')).toBeTruthy();
    expect(within(footer).getByText('user …89abcdef')).toBeTruthy();
    expect(within(footer).getByText('0 errors')).toBeTruthy();
  });

  it('switches Standard/Hybrid with its badge, and shows/hides the discussion panel', async () => {
    const user = userEvent.setup();
    signedIn();
    await user.click(await screen.findByRole('button', { name: 'Switch to Hybrid' }));
    expect(screen.getByText('Hybrid Mode')).toBeTruthy();
    // The panels are a lazily loaded chunk: they arrive a moment after the switch.
    expect(await screen.findByRole('complementary', { name: 'Hybrid discussion' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Switch to Standard' }));
    expect(screen.queryByText('Hybrid Mode')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Hide Discussion' }));
    expect(screen.queryByRole('complementary')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show Discussion' }));
    expect(await screen.findByRole('complementary', { name: 'Discussion' })).toBeTruthy();
    expect(screen.queryByText('Discussion Active')).toBeNull();
  });

  it('shows Session Expiring Soon once the session enters its warning window', async () => {
    const { actor } = signedIn();
    await screen.findByRole('button', { name: /Your display name: ada\b/ });
    expect(screen.queryByText('Session Expiring Soon')).toBeNull();
    const exp = actor.system.get('session').getSnapshot().context.claims.exp;
    act(() => actor.system.get('session').send({ type: 'session.tick', now: exp * 1000 - 8 * 60_000 }));
    expect(screen.getByText('Session Expiring Soon')).toBeTruthy();
    expect(screen.getByText(AUTH_MESSAGES.sessionExpiringSoon(8))).toBeTruthy();
  });

  it('Debug and Test appear only in development', async () => {
    const user = userEvent.setup();
    signedIn();
    await screen.findByRole('button', { name: /Your display name: ada\b/ });
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    expect(screen.getByRole('menuitem', { name: 'Test Connection' })).toBeTruthy();
    expect(screen.queryByRole('menuitemcheckbox', { name: 'Debug' })).toBeNull();
    expect(screen.queryByRole('menuitemcheckbox', { name: 'Test' })).toBeNull();
    cleanup();
    signedIn({}, { isDev: true });
    await user.click(await screen.findByRole('button', { name: 'More actions' }));
    await user.click(screen.getByRole('menuitemcheckbox', { name: 'Debug' }));
    // The developer tools are a lazy chunk (development builds only).
    const debug = await screen.findByRole('region', { name: 'Debug' });
    expect(within(debug).getByRole('region', { name: 'Connection debugger' })).toBeTruthy();
    expect(within(debug).getByRole('button', { name: 'Run tests' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await user.click(screen.getByRole('menuitemcheckbox', { name: 'Test' }));
    const tester = await screen.findByRole('region', { name: 'WebSocket tester' });
    expect(within(tester).getByRole('button', { name: 'Connect' })).toBeTruthy();
    expect(within(tester).getByText('Status: disconnected')).toBeTruthy();
  });

  it('the connection test probes /health and says how it went', async () => {
    const user = userEvent.setup();
    let up = true;
    const { calls } = signedIn({
      'GET /health': () => (up ? json(200, healthy) : Promise.reject(new TypeError('Failed to fetch'))),
    });
    // A secondary action: it lives in the top bar's 'More actions' menu.
    await user.click(await screen.findByRole('button', { name: 'More actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Test Connection' }));
    expect(await screen.findByText(SHELL_MESSAGES.connectionTestOk)).toBeTruthy();
    expect(calls).toContain('GET /health');
    up = false;
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await user.click(screen.getByRole('menuitem', { name: 'Test Connection' }));
    expect(await screen.findByText(SHELL_MESSAGES.connectionTestError)).toBeTruthy();
  });

  it('Logout returns to the sign-in screen and forgets the stored login', async () => {
    const user = userEvent.setup();
    const { storage } = signedIn();
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeTruthy();
    expect(storage.readToken()).toBeNull();
  });

  it("a 401 from any call ends the session with 'Authentication expired'", async () => {
    const { sockets, storage } = signedIn({ 'GET /connections/': () => json(401, { detail: 'Not authenticated' }) });
    await screen.findByRole('button', { name: /Your display name: ada\b/ });
    // The first connections load already answered 401.
    expect(await screen.findByText(AUTH_MESSAGES.authenticationExpired)).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeTruthy();
    expect(storage.readToken()).toBeNull();
    // Whatever live socket had opened by then is closed (the session may end before the live chunk arrives).
    for (const socket of sockets.on('/ws/updates')) expect(socket.closedByClient).toMatchObject({ code: 1000 });
  });

  it('a stored token the server rejects goes to sign-in with the reason', async () => {
    const token = tokenExpiringIn(Date.now(), 60 * 60_000);
    renderApp({
      token,
      routes: {
        'GET /health': () => json(200, healthy),
        'GET /auth/me': () => json(401, { detail: 'Could not validate credentials' }),
      },
    });
    expect(await screen.findByText(AUTH_MESSAGES.authFailed(AUTH_MESSAGES.tokenInvalidOrExpired))).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Sign In' })).toBeTruthy();
  });
});
