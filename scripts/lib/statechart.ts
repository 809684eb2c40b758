import type { AnyStateMachine, AnyStateNode } from 'xstate';

// Turns an XState v5 machine definition into a Mermaid stateDiagram-v2, by walking machine.root.
// Output depends only on the definition (states in definition order, everything else sorted), so the
// committed docs can be compared byte for byte with a fresh run.

type Node = AnyStateNode;
type Transition = {
  source: Node;
  target?: readonly Node[];
  guard?: unknown;
  eventType: string;
};

/** Mermaid ids must be plain identifiers and unique across the whole diagram, whatever the nesting. */
function makeIds(root: Node): Map<Node, string> {
  const ids = new Map<Node, string>();
  const used = new Set<string>();
  const visit = (node: Node) => {
    const base = ['s', ...node.path].join('_').replace(/[^A-Za-z0-9_]/g, '_');
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
    used.add(id);
    ids.set(node, id);
    for (const child of children(node)) visit(child);
  };
  visit(root);
  return ids;
}

const children = (node: Node): Node[] => Object.values(node.states) as Node[];

/**
 * Mermaid fails to lay out an edge that touches a region of a parallel state nested in another one ("No such
 * shape: divider"), so every edge end on a region moves to the parallel state itself, and the label names the
 * region-relative path it stands for.
 */
function lift(node: Node): Node {
  let n = node;
  while (n.parent && n.parent.type === 'parallel') n = n.parent;
  return n;
}

const relPath = (outer: Node, inner: Node) => inner.path.slice(outer.path.length).join('.') || inner.key;

/** Text inside a Mermaid label: no quotes, statement separators or comment starts. */
const clean = (text: string) => text.replace(/"/g, "'").replace(/[;#]/g, ' ').replace(/\s+/g, ' ').trim();

/** A guard as written: its name, or not/and/or of names; an inline function reads as its name or 'inline'. */
export function describeGuard(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const g = guard as { guards?: unknown[]; check?: unknown; name?: string };
    if (Array.isArray(g.guards)) {
      const parts = g.guards.map(describeGuard);
      if (g.name === 'not') return `not ${parts[0]}`;
      if (g.name === 'and' || g.name === 'or') return `(${parts.join(` ${g.name} `)})`;
    }
    if (g.name === 'stateIn') return 'stateIn(…)';
    return g.name && g.name !== 'guard' ? g.name : 'inline';
  }
  if (guard && typeof guard === 'object' && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'inline';
}

function describeDelay(machine: AnyStateMachine, delay: unknown): string {
  if (typeof delay === 'number') return `after ${delay}ms`;
  const named = (machine.implementations.delays as Record<string, unknown>)[String(delay)];
  if (typeof named === 'number') return `after ${named}ms (${String(delay)})`;
  return `after ${String(delay)}`;
}

/** The label of one transition: its event (readable for XState's generated events) and its guard. */
function describeEvent(machine: AnyStateMachine, t: Transition, delays: Map<string, unknown>): string {
  const type = t.eventType;
  let event: string;
  if (delays.has(type)) event = describeDelay(machine, delays.get(type));
  else if (type === '') event = 'always';
  else if (type.startsWith('xstate.done.actor.'))
    event = `done(${actorName(t.source, type.slice('xstate.done.actor.'.length))})`;
  else if (type.startsWith('xstate.error.actor.'))
    event = `error(${actorName(t.source, type.slice('xstate.error.actor.'.length))})`;
  else if (type.startsWith('xstate.snapshot.')) event = `snapshot(${type.slice('xstate.snapshot.'.length)})`;
  else if (type.startsWith('xstate.done.state.')) event = 'done';
  else event = type;
  return clean(t.guard === undefined ? event : `${event} [${describeGuard(t.guard)}]`);
}

type Invoke = { id: string; src: unknown; systemId?: string };

/** An invoke's logic name ('inline actor' when it was given as logic rather than a setup name). */
const srcName = (inv: Invoke) =>
  typeof inv.src === 'string' && !inv.src.startsWith('xstate.invoke.') ? inv.src : 'inline actor';

/** XState names an invoke without an id `<index>.<state id>`; such ids say nothing, so they are left out. */
const isGeneratedId = (id: string) => /^\d+\./.test(id);

/** How a done/error event names its actor: the explicit id, or the invoked logic when the id is generated. */
function actorName(source: Node, id: string): string {
  if (!isGeneratedId(id)) return id;
  const inv = (source.invoke as Invoke[]).find((i) => i.id === id);
  return inv ? srcName(inv) : id;
}

function transitionsOf(node: Node): Transition[] {
  const out: Transition[] = [];
  for (const list of node.transitions.values()) out.push(...(list as Transition[]));
  for (const t of (node.always ?? []) as Transition[]) out.push({ ...t, eventType: '' });
  return out;
}

/** Where a state is declared: inside its parent's block (the root sits at the top level, null). */
const scopeOf = (node: Node): Node | null => node.parent ?? null;

function ancestors(node: Node | null): (Node | null)[] {
  const chain: (Node | null)[] = [];
  for (let n: Node | null | undefined = node; n; n = n.parent) chain.push(n);
  chain.push(null);
  return chain;
}

/** The innermost block that contains both ends' declarations. */
function commonScope(a: Node, b: Node): Node | null {
  const outer = new Set(ancestors(scopeOf(b)));
  return ancestors(scopeOf(a)).find((n) => outer.has(n)) ?? null;
}

/**
 * The block a transition is written in. Mermaid puts a state in the block where it is first named, and lays a
 * nested state out best when its transitions sit next to it; so a transition goes in its source's block unless
 * its target would be named there before its own declaration, then in the block that holds both.
 */
function placement(root: Node) {
  const order = new Map<Node, number>();
  const lastInSubtree = new Map<Node, number>();
  let i = 0;
  const visit = (node: Node) => {
    order.set(node, i++);
    children(node).forEach(visit);
    lastInSubtree.set(node, i - 1);
  };
  visit(root);
  // Mermaid cannot draw an edge written between the concurrent sections of a parallel block (it fails with
  // "No such shape: divider"), so such an edge moves out to the block around the parallel state.
  const outsideParallel = (scope: Node | null): Node | null => {
    let s = scope;
    while (s && s.type === 'parallel') s = scopeOf(s);
    return s;
  };
  return (source: Node, target: Node): Node | null => {
    const scope = scopeOf(source);
    const declaredBy = scope === null ? Infinity : lastInSubtree.get(scope)!;
    return outsideParallel(order.get(target)! <= declaredBy ? scope : commonScope(source, target));
  };
}

function actorNotes(node: Node): string[] {
  const notes: string[] = [];
  for (const inv of node.invoke as Invoke[]) {
    const src = srcName(inv);
    const as = inv.id !== src && !isGeneratedId(inv.id) ? ` as ${inv.id}` : '';
    notes.push(`invokes ${src}${as}${inv.systemId ? ` (systemId ${inv.systemId})` : ''}`);
  }
  const actions = [
    ...(node.entry as unknown[]),
    ...transitionsOf(node).flatMap((t) => (t as { actions?: unknown[] }).actions ?? []),
  ];
  for (const a of actions) {
    const s = a as { type?: string; src?: unknown; id?: unknown };
    if (typeof a === 'function' && s.type === 'xstate.spawnChild') {
      const src = typeof s.src === 'string' ? s.src : 'inline actor';
      const id = typeof s.id === 'string' ? ` as ${s.id}` : '';
      notes.push(`spawns ${src}${id}`);
    }
  }
  return [...new Set(notes)].sort();
}

/** The stateDiagram-v2 source (without the ```mermaid fence). */
export function machineToMermaid(machine: AnyStateMachine): string {
  const root = machine.root as Node;
  const ids = makeIds(root);
  const lines: string[] = ['stateDiagram-v2'];

  // Every transition, grouped by the block it is written in; several events between the same two states share
  // one arrow (Mermaid draws only one of parallel edges).
  const place = placement(root);
  const byScope = new Map<Node | null, Map<string, string[]>>();
  const emit = (scope: Node | null, edge: string, label: string) => {
    const edges = byScope.get(scope) ?? new Map<string, string[]>();
    const labels = edges.get(edge) ?? [];
    if (!labels.includes(label)) labels.push(label);
    edges.set(edge, labels);
    byScope.set(scope, edges);
  };
  const edgeLines = (scope: Node | null) =>
    [...(byScope.get(scope) ?? new Map<string, string[]>())].map(
      ([edge, labels]) => `${edge} : ${labels.join('<br/>')}`,
    );
  const walk = (node: Node) => {
    const delays = new Map<string, unknown>(
      (node.after as { eventType: string; delay: unknown }[]).map((t) => [t.eventType, t.delay]),
    );
    for (const t of transitionsOf(node)) {
      const label = describeEvent(machine, t, delays);
      const targetless = !t.target || t.target.length === 0;
      for (const target of targetless ? [node] : t.target!) {
        const from = lift(node);
        const to = lift(target);
        let text = label;
        if (from !== node || to !== target) {
          text += targetless ? ` (in ${relPath(from, node)})` : ` (${relPath(from, node)} → ${relPath(to, target)})`;
        }
        emit(place(from, to), `${ids.get(from)} --> ${ids.get(to)}`, text);
      }
    }
    children(node).forEach(walk);
  };
  walk(root);

  const write = (depth: number, line: string) => lines.push(`${'  '.repeat(depth)}${line}`);

  const declare = (node: Node, depth: number) => {
    const id = ids.get(node)!;
    const label = clean(
      node === root ? machine.id : node.type === 'history' ? `${node.key} (${node.history} history)` : node.key,
    );
    const kids = children(node);
    const notes = clean(actorNotes(node).join(', '));
    if (kids.length === 0) {
      write(depth, `state "${label}" as ${id}`);
      // A simple state shows its actors inside its box; a composite one in a note beside it.
      if (notes) write(depth, `${id} : ${notes}`);
    } else {
      write(depth, `state "${label}" as ${id} {`);
      body(node, depth + 1);
      write(depth, '}');
      if (notes) write(depth, `note right of ${id} : ${notes}`);
    }
  };

  const body = (node: Node, depth: number) => {
    const kids = children(node);
    if (node.type === 'parallel') {
      // Each region of a parallel state is one concurrent section; all of them are active at once.
      kids.forEach((region, i) => {
        if (i > 0) write(depth, '--');
        declare(region, depth);
      });
    } else {
      kids.forEach((kid) => declare(kid, depth));
      for (const target of node.initial?.target ?? []) write(depth, `[*] --> ${ids.get(target as Node)}`);
    }
    for (const kid of kids) if (kid.type === 'final') write(depth, `${ids.get(kid)} --> [*]`);
    for (const line of edgeLines(node)) write(depth, line);
  };

  declare(root, 1);
  write(1, `[*] --> ${ids.get(root)}`);
  for (const line of edgeLines(null)) write(1, line);
  return lines.join('\n');
}

/** Sorted names of what the machine refers to, for the legend under the diagram. */
export function machineLegend(machine: AnyStateMachine) {
  const events = new Set<string>();
  const guards = new Set<string>();
  const delays = new Set<string>();
  const visit = (node: Node) => {
    for (const t of transitionsOf(node)) {
      if (t.eventType && !t.eventType.startsWith('xstate.')) events.add(t.eventType);
      if (t.guard !== undefined) guards.add(describeGuard(t.guard));
    }
    for (const a of node.after as { delay: unknown }[])
      delays.add(describeDelay(machine, a.delay).replace(/^after /, ''));
    children(node).forEach(visit);
  };
  visit(machine.root as Node);
  const impl = machine.implementations as { actors: object; actions: object; guards: object; delays: object };
  const sorted = (xs: Iterable<string>) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    events: sorted(events),
    guards: sorted(guards),
    delays: sorted(delays),
    actors: sorted(Object.keys(impl.actors).filter((k) => !k.startsWith('xstate.invoke.'))),
    actions: sorted(Object.keys(impl.actions)),
  };
}

export interface MachineDocInput {
  /** Doc name, e.g. 'session' for sessionMachine. */
  name: string;
  exportName: string;
  /** Repository-relative path of the machine's module. */
  source: string;
  machine: AnyStateMachine;
}

const list = (items: string[]) => (items.length === 0 ? '—' : items.map((i) => `\`${i}\``).join(', '));

/** One Markdown page per machine: the diagram and a legend of events, guards, delays and actors. */
export function renderMachineDoc({ name, exportName, source, machine }: MachineDocInput): string {
  const legend = machineLegend(machine);
  return [
    `# ${name}`,
    '',
    `<!-- Generated by \`npm run statecharts\` from ${source}. Do not edit by hand. -->`,
    '',
    `\`${exportName}\` in [${source}](../../${source}) (machine id \`${machine.id}\`).`,
    '',
    '```mermaid',
    machineToMermaid(machine),
    '```',
    '',
    `- **Events:** ${list(legend.events)}`,
    `- **Guards:** ${list(legend.guards)}`,
    `- **Delays:** ${list(legend.delays)}`,
    `- **Actors (setup):** ${list(legend.actors)}`,
    `- **Actions (setup):** ${list(legend.actions)}`,
    '',
  ].join('\n');
}

export function renderIndex(docs: Pick<MachineDocInput, 'name' | 'exportName' | 'source'>[]): string {
  const rows = [...docs]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((d) => `| [${d.name}](${d.name}.md) | \`${d.exportName}\` | [${d.source}](../../${d.source}) |`);
  return [
    '# Statecharts',
    '',
    '<!-- Generated by `npm run statecharts`. Do not edit by hand. -->',
    '',
    "One diagram per XState machine in `src/machines` and the server's discussion engine (`server/engine`, as",
    '`engine-…`), generated from the machine definitions themselves',
    '(`npm run statecharts`; CI runs `npm run statecharts:check` and fails when these pages are stale).',
    'Transitions read `event [guard]`; `after Nms` is a delayed transition, `always` an eventless one,',
    '`done(id)` / `error(id)` the completion of an invoked actor; notes name invoked and spawned actors.',
    '',
    '| Machine | Export | Source |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
