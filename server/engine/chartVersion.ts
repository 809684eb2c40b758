import { createHash } from 'node:crypto';
import type { AnyStateMachine } from 'xstate';

// A stored engine snapshot is only fed back to the chart it came from: a rolling upgrade that changed the chart's
// states or the events they take would otherwise restore a snapshot whose state no longer exists. The version is
// worked out from the chart's own structure (state ids, the events each takes, its delays), so no one has to
// remember to bump it.

interface NodeShape {
  id: string;
  on?: Record<string, unknown>;
  after?: unknown;
  states?: Record<string, NodeShape>;
}

export function chartVersion(machine: AnyStateMachine): string {
  const parts: string[] = [];
  const walk = (node: NodeShape) => {
    parts.push(
      `${node.id}:${Object.keys(node.on ?? {})
        .sort()
        .join(',')}:${node.after ? Object.keys(node.after).join(',') : ''}`,
    );
    for (const key of Object.keys(node.states ?? {}).sort()) walk(node.states![key]!);
  };
  walk(machine.root as unknown as NodeShape);
  return createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 16);
}

/** The snapshot as stored: the machine's persisted snapshot with the version of the chart that wrote it. */
export function versioned(machine: AnyStateMachine, persisted: unknown): unknown {
  return { ...(persisted as object), engine_chart: chartVersion(machine) };
}

/** The persisted snapshot to restore, or null when it was written by another chart (or by no versioned one). */
export function restorable(machine: AnyStateMachine, stored: unknown): unknown | null {
  if (!stored || typeof stored !== 'object') return null;
  const { engine_chart, ...snapshot } = stored as { engine_chart?: unknown };
  return engine_chart === chartVersion(machine) ? snapshot : null;
}
