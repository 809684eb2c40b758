import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, type EventObject } from 'xstate';
import type { Agent } from '../../src/schemas/agents';
import type { Edge } from '../../src/schemas/connections';
import { appMachine, type LiveLogic } from '../../src/machines/app.machine';
import { selectDevPanel, selectIsHybridView, selectIsPanelShown } from '../../src/machines/app.selectors';
import { loginFormMachine } from '../../src/machines/loginForm.machine';
import { sessionMachine, type RestoredSession } from '../../src/machines/session.machine';
import { workspaceMachine } from '../../src/machines/workspace.machine';
import { withLiveSocket } from '../../src/machines/liveUpdates.machine';
import type { Health } from '../../src/schemas/system';
import { SHELL_MESSAGES } from '../../src/schemas/messages';
import { flush } from '../support/harness';

const restored: RestoredSession = {
  token: 't.t.t',
  user: { email: 'ada@example.com' },
  claims: { sub: 'u1', exp: 4_000_000_000 },
};
const health = (status: Health['status']): Health => ({
  status,
  version: '2.1.0',
  components: {
    database: { status: 'ok' },
    llm: { status: 'ok' },
    speech: { status: 'ok' },
    transcription: { status: 'ok' },
  },
});

function start(probe: () => Promise<Health> = async () => health('healthy')) {
  const opened: string[] = [];
  const app = appMachine.provide({
    actors: {
      session: sessionMachine.provide({
        actors: {
          restoreSession: fromPromise<RestoredSession | null>(async () => restored),
          sessionTicker: fromCallback(() => undefined),
          loginForm: loginFormMachine.provide({
            actors: { checkBackend: fromPromise<Health>(() => new Promise<never>(() => {})) },
          }),
        },
        // No storage in this test.
        actions: { persistLogin: () => undefined, clearStoredLogin: () => undefined },
      }),
      // The signed-in chunk: the workspace, real live updates over a socket that only records where it was
      // opened; the other actors are stand-ins that do nothing.
      loadLiveLogic: fromPromise<LiveLogic>(async () => ({
        workspace: workspaceMachine.provide({
          actors: {
            loadAgents: fromPromise<Agent[]>(async () => []),
            loadConnections: fromPromise<Edge[]>(async () => []),
            loadStats: fromPromise(async () => ({})),
          },
        }),
        models: createMachine({}),
        evaluation: createMachine({}),
        navigation: createMachine({}),
        liveUpdates: withLiveSocket(
          fromCallback<EventObject, { path: string }>(({ input }) => void opened.push(input.path)),
        ),
        audioQueue: createMachine({}),
        sources: createMachine({}),
        standardDiscussion: createMachine({}),
        hybridDiscussion: createMachine({}),
        history: createMachine({}),
        panelSave: createMachine({}),
        panels: createMachine({}),
        apiTokens: createMachine({}),
        profile: createMachine({}),
        invite: createMachine({}),
        join: createMachine({}),
      })),
      probeHealth: fromPromise(probe),
    },
  });
  const actor = createActor(app, { systemId: 'app' }).start();
  return {
    actor,
    opened,
    toastTexts: () =>
      actor.system
        .get('toasts')
        .getSnapshot()
        .context.toasts.map((t: { text: string }) => t.text),
  };
}

describe('app (root actor)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('spawns session and toasts; once signed in, runs workspace and live updates; stops them at logout', async () => {
    const { actor, opened } = start();
    expect(actor.system.get('session')).toBeDefined();
    expect(actor.system.get('toasts')).toBeDefined();
    expect(actor.system.get('workspace')).toBeUndefined();
    await flush();
    expect(actor.getSnapshot().matches({ auth: 'signedIn' })).toBe(true);
    expect(actor.system.get('workspace')).toBeDefined();
    await flush();
    expect(actor.system.get('liveUpdates')).toBeDefined();
    expect(actor.system.get('standardDiscussion')).toBeDefined();
    expect(opened).toEqual(['/ws/updates', '/ws/system']);
    actor.system.get('session').send({ type: 'session.logout' });
    expect(actor.getSnapshot().matches({ auth: 'signedOut' })).toBe(true);
    expect(actor.system.get('workspace')).toBeUndefined();
    expect(actor.system.get('liveUpdates')).toBeUndefined();
    expect(actor.system.get('audioQueue')).toBeUndefined();
    expect(actor.system.get('standardDiscussion')).toBeUndefined();
  });

  it('switches between standard and hybrid, shows/hides the panel, and opens one dev panel at a time', () => {
    const { actor } = start();
    expect(selectIsHybridView(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'view.discussion.toggle' });
    expect(selectIsHybridView(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'view.discussion.toggle' });
    expect(selectIsHybridView(actor.getSnapshot())).toBe(false);
    // History re-attaching a discussion shows the panel that runs it, whichever is shown.
    actor.send({ type: 'view.discussion.show', panel: 'standard' });
    expect(selectIsHybridView(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'view.discussion.show', panel: 'hybrid' });
    expect(selectIsHybridView(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'view.discussion.show', panel: 'hybrid' });
    expect(selectIsHybridView(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'view.discussion.show', panel: 'standard' });
    expect(selectIsHybridView(actor.getSnapshot())).toBe(false);
    expect(selectIsPanelShown(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'view.panel.toggle' });
    expect(selectIsPanelShown(actor.getSnapshot())).toBe(false);
    // A discussion asked to be shown (a saved panel started) brings the hidden panel back.
    actor.send({ type: 'view.discussion.show', panel: 'standard' });
    expect(selectIsPanelShown(actor.getSnapshot())).toBe(true);
    // So does an address of History (Back or Forward to it), without changing which panel is shown.
    actor.send({ type: 'view.panel.toggle' });
    actor.send({ type: 'view.panel.show' });
    expect(selectIsPanelShown(actor.getSnapshot())).toBe(true);
    expect(selectIsHybridView(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'view.debug.toggle' });
    expect(selectDevPanel(actor.getSnapshot())).toBe('debug');
    actor.send({ type: 'view.tester.toggle' });
    expect(selectDevPanel(actor.getSnapshot())).toBe('tester');
    actor.send({ type: 'view.tester.toggle' });
    expect(selectDevPanel(actor.getSnapshot())).toBeNull();
  });

  it.each([
    ['healthy', async () => health('healthy'), SHELL_MESSAGES.connectionTestOk],
    ['degraded', async () => health('degraded'), SHELL_MESSAGES.connectionTestFailed],
    ['a 503', () => Promise.reject({ status: 503 }), SHELL_MESSAGES.connectionTestFailed],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch')), SHELL_MESSAGES.connectionTestError],
  ] as const)('the connection Test says so for %s', async (_, probe, text) => {
    const { actor, toastTexts } = start(probe as () => Promise<Health>);
    actor.send({ type: 'connection.test' });
    expect(actor.getSnapshot().matches({ connectionTest: 'testing' })).toBe(true);
    await flush();
    expect(actor.getSnapshot().matches({ connectionTest: 'idle' })).toBe(true);
    expect(toastTexts()).toEqual([text]);
  });
});
