// The replay half of a model-based test: xstate/graph finds the paths; each one becomes a test that drives a
// fresh running actor with the same events (through `exec`, which plays the user and the test doubles) and
// compares the running actor with the model at every state on the way.
import { it } from 'vitest';

interface ModelPath {
  description: string;
  test(params: { events?: object; states?: object }): Promise<unknown>;
}

export interface RunningModel<S> {
  actor: { getSnapshot(): S; stop(): void };
  /** One executor per event type of the model. */
  exec: object;
}

export function replayEachPath<S>(
  paths: readonly ModelPath[],
  start: () => RunningModel<S>,
  compare: (got: S, expected: S) => void,
) {
  for (const path of paths) {
    it(path.description, async () => {
      const { actor, exec } = start();
      await path.test({ events: exec, states: { '*': (expected: S) => compare(actor.getSnapshot(), expected) } });
      actor.stop();
    });
  }
}

/** The distinct state values the paths end in, as JSON, sorted: what "reaches every state" compares. */
export const reachedValues = (paths: readonly { state: unknown }[]) =>
  [...new Set(paths.map((p) => JSON.stringify((p.state as { value: unknown }).value)))].sort();

/** What the panel charts' model paths end in (discussionPanel.machine.ts): a run-region state and a banner. */
interface PanelModelSnapshot {
  value: { run: unknown };
  context: { error: string | null; run: { sessionId: string } | null };
}

/**
 * A panel chart's replay: one shortest path per distinct run-region state and banner keeps it small; each is named by
 * its events (the default description prints the whole context) and compared by its run state, banner and session.
 */
export function replayPanelPaths<S extends PanelModelSnapshot>(
  paths: readonly (ModelPath & { state: unknown; steps: readonly { event: { type: string } }[] })[],
  start: () => RunningModel<S>,
  check: (what: { got: S; expected: S }) => void,
) {
  const byKey = new Map<string, (typeof paths)[number]>();
  for (const p of paths) {
    const s = p.state as S;
    const key = JSON.stringify([s.value.run, s.context.error]);
    const seen = byKey.get(key);
    if (!seen || p.steps.length < seen.steps.length) byKey.set(key, p);
  }
  const named = [...byKey.values()].map((p) => ({
    description: `${JSON.stringify((p.state as S).value.run)} via ${
      p.steps
        .map((st) => st.event.type)
        .slice(1)
        .join(' → ') || 'start'
    }`,
    test: p.test.bind(p),
  }));
  replayEachPath<S>(named, start, (got, expected) => check({ got, expected }));
}

/** The token the panel charts' walks and replays start with (the app gives the session's). */
export const PANEL_INPUT = { token: 'tok' };

/** A panel's socket closing with `code` after it had opened (`gaveUp`: its reconnects ran out). */
export const closedNotice = (code: number, gaveUp = false) => ({
  type: 'socketSession.closed',
  code,
  reason: '',
  wasClean: code === 1000,
  gaveUp,
  everOpened: true,
});
