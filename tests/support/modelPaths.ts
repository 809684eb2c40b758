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
