import type { AnyStateMachine } from 'xstate';

// The actor tree as a Mermaid flowchart, read from the machines themselves: each machine's spawnChild entry
// actions and invoke definitions, followed into the child machines its setup names. Promise and callback actors
// (the services the composition root provides) are left out: the picture is of the charts and who owns whom.
// Actors spawned by an action that picks its logic at run time (the app's signed-in group) are passed in `dynamic`.

export interface TreeChild {
  id: string;
  how: 'spawn' | 'invoke';
  systemId?: string;
  machine: AnyStateMachine;
}

export const isMachine = (v: unknown): v is AnyStateMachine =>
  typeof v === 'object' &&
  v !== null &&
  'root' in v &&
  'config' in v &&
  typeof (v as { transition?: unknown }).transition === 'function';

interface StateNodeLike {
  entry: unknown[];
  invoke: Array<{ src: unknown; id?: string; systemId?: string }>;
  states: Record<string, StateNodeLike>;
}

type SpawnAction = { type?: unknown; id?: unknown; systemId?: unknown; src?: unknown };

function childrenOf(machine: AnyStateMachine): TreeChild[] {
  const actors = (machine.implementations.actors ?? {}) as Record<string, unknown>;
  const logicOf = (src: unknown) => (typeof src === 'string' ? actors[src] : src);
  const out: TreeChild[] = [];
  const add = (src: unknown, id: string | undefined, systemId: string | undefined, how: TreeChild['how']) => {
    const logic = logicOf(src);
    if (!isMachine(logic)) return;
    const name = id ?? (typeof src === 'string' ? src : logic.id);
    if (!out.some((c) => c.id === name)) out.push({ id: name, how, ...(systemId ? { systemId } : {}), machine: logic });
  };
  const visit = (node: StateNodeLike) => {
    for (const a of node.entry as SpawnAction[]) {
      if (a && a.type === 'xstate.spawnChild')
        add(
          a.src,
          typeof a.id === 'string' ? a.id : undefined,
          typeof a.systemId === 'string' ? a.systemId : undefined,
          'spawn',
        );
    }
    // An invoke without an id of its own gets a generated one ('0.workspace.positions.saving'): named by its src.
    for (const inv of node.invoke)
      add(inv.src, inv.id && !/^\d+\./.test(inv.id) ? inv.id : undefined, inv.systemId, 'invoke');
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root as unknown as StateNodeLike);
  return out;
}

/** A Mermaid flowchart of the tree under `root`; `dynamic` adds children a machine spawns with logic chosen at run time. */
export function renderActorTree(root: AnyStateMachine, dynamic: Record<string, TreeChild[]> = {}): string {
  const lines = ['flowchart LR'];
  const label = (c: { id: string; systemId?: string }, machine: AnyStateMachine) =>
    `${c.id}${machine.id !== c.id ? `<br/><small>${machine.id}</small>` : ''}${c.systemId ? `<br/><small>systemId ${c.systemId}</small>` : ''}`;
  const walk = (machine: AnyStateMachine, nodeId: string, depth: number) => {
    if (depth > 6) return; // a chart never nests that deep; this guards a cycle
    const kids = [...childrenOf(machine), ...(dynamic[machine.id] ?? [])];
    for (const c of kids) {
      const childNode = `${nodeId}_${c.id}`.replace(/[^A-Za-z0-9_]/g, '_');
      lines.push(`  ${nodeId} -->|${c.how}| ${childNode}["${label(c, c.machine)}"]`);
      walk(c.machine, childNode, depth + 1);
    }
  };
  lines.push(`  ${root.id}["${root.id}<br/><small>systemId app</small>"]`);
  walk(root, root.id, 0);
  return lines.join('\n');
}
