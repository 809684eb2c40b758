import { describe, expect, it } from 'vitest';
import { and, fromPromise, not, setup, spawnChild } from 'xstate';
import { machineLegend, machineToMermaid, renderIndex, renderMachineDoc } from '../../scripts/lib/statechart';

// A small machine with every construct the generator must draw: nesting, a parallel state, guards
// (named and composed), a numeric and a named delay, an invoke with done/error, a spawned child,
// an eventless transition, a targetless transition, and final states.
const demoMachine = setup({
  types: { events: {} as { type: 'go' } | { type: 'retry' } | { type: 'ping' } | { type: 'finish' } },
  actors: { load: fromPromise(async () => 1), ticker: fromPromise(async () => 0) },
  guards: { canGo: () => true, isReady: () => true },
  delays: { PATIENCE: 30000 },
}).createMachine({
  id: 'demo',
  initial: 'idle',
  states: {
    idle: {
      on: { go: { target: 'working', guard: 'canGo' }, ping: {} },
      after: { 500: 'idle' },
    },
    working: {
      initial: 'loading',
      entry: spawnChild('ticker', { id: 'tick' }),
      states: {
        loading: {
          invoke: { src: 'load', id: 'loader', onDone: 'ready', onError: 'failed' },
        },
        ready: { always: { target: 'done', guard: and(['isReady', not('canGo')]) } },
        failed: { on: { retry: 'loading', finish: '#demo.finished' }, after: { PATIENCE: '#demo.idle' } },
        done: { type: 'final' },
      },
      onDone: 'both',
    },
    both: {
      type: 'parallel',
      states: {
        left: { initial: 'a', states: { a: { on: { finish: 'b' } }, b: { type: 'final' } } },
        right: { initial: 'x', states: { x: {} } },
      },
      on: { finish: 'finished' },
    },
    finished: { type: 'final' },
  },
});

describe('machineToMermaid', () => {
  const diagram = machineToMermaid(demoMachine);
  const lines = diagram.split('\n').map((l) => l.trim());

  it('is a stateDiagram-v2 wrapped in a box for the machine itself', () => {
    expect(lines[0]).toBe('stateDiagram-v2');
    expect(lines).toContain('state "demo" as s {');
    expect(lines).toContain('[*] --> s');
  });

  it('nests compound states and marks their initial states', () => {
    expect(lines).toContain('state "working" as s_working {');
    expect(lines).toContain('state "loading" as s_working_loading');
    expect(lines).toContain('[*] --> s_idle');
    expect(lines).toContain('[*] --> s_working_loading');
  });

  it('draws the regions of a parallel state as concurrent sections', () => {
    const start = lines.indexOf('state "both" as s_both {');
    expect(start).toBeGreaterThan(0);
    const section = lines.slice(start, start + 16);
    expect(section).toContain('state "left" as s_both_left {');
    expect(section).toContain('--');
    expect(section).toContain('state "right" as s_both_right {');
    expect(section.indexOf('--')).toBeGreaterThan(section.indexOf('state "left" as s_both_left {'));
    expect(section.indexOf('--')).toBeLessThan(section.indexOf('state "right" as s_both_right {'));
  });

  it('labels transitions with their event and guard', () => {
    expect(lines).toContain('s_idle --> s_working : go [canGo]');
    expect(lines).toContain('s_working_ready --> s_working_done : always [(isReady and not canGo)]');
    expect(lines).toContain('s_working_failed --> s_working_loading : retry');
  });

  it('shows numeric and named delays in milliseconds', () => {
    expect(lines).toContain('s_idle --> s_idle : ping<br/>after 500ms');
    expect(lines).toContain('s_working_failed --> s_idle : after 30000ms (PATIENCE)');
  });

  it('names invoked and spawned actors and their completion events', () => {
    expect(lines).toContain('s_working_loading : invokes load as loader');
    expect(lines).toContain('note right of s_working : spawns ticker as tick');
    expect(lines).toContain('s_working_loading --> s_working_ready : done(loader)');
    expect(lines).toContain('s_working_loading --> s_working_failed : error(loader)');
    expect(lines).toContain('s_working --> s_both : done');
  });

  it('marks final states and keeps targetless transitions as self-loops', () => {
    expect(lines).toContain('s_working_done --> [*]');
    expect(lines).toContain('s_both_left_b --> [*]');
    expect(lines).toContain('s_finished --> [*]');
    expect(lines).toContain('s_idle --> s_idle : ping<br/>after 500ms');
  });

  it('writes a transition next to its source unless that would name its target before its declaration', () => {
    const raw = diagram.split('\n');
    const indent = (needle: string) => {
      const line = raw.find((l) => l.includes(needle))!;
      return line.length - line.trimStart().length;
    };
    // idle is declared before working's block, so failed → idle stays inside it ...
    expect(indent('s_working_failed --> s_idle')).toBe(indent('s_working_failed --> s_working_loading'));
    // ... but finished comes later, so failed → finished is written in the machine's block after it.
    expect(indent('s_working_failed --> s_finished')).toBeLessThan(indent('s_working_failed --> s_working_loading'));
    expect(raw.findIndex((l) => l.includes('s_working_failed --> s_finished'))).toBeGreaterThan(
      raw.findIndex((l) => l.includes('state "finished" as s_finished')),
    );
  });

  it('is deterministic', () => {
    expect(machineToMermaid(demoMachine)).toBe(diagram);
    expect(renderMachineDoc({ name: 'demo', exportName: 'demoMachine', source: 'x.ts', machine: demoMachine })).toBe(
      renderMachineDoc({ name: 'demo', exportName: 'demoMachine', source: 'x.ts', machine: demoMachine }),
    );
  });
});

describe('invokes without an id', () => {
  it('name the invoked logic instead of the id XState generates', () => {
    const m = setup({ actors: { fetchUser: fromPromise(async () => 1) } }).createMachine({
      id: 'anon',
      initial: 'loading',
      states: { loading: { invoke: { src: 'fetchUser', onDone: 'ready' } }, ready: {} },
    });
    const lines = machineToMermaid(m)
      .split('\n')
      .map((l) => l.trim());
    expect(lines).toContain('s_loading : invokes fetchUser');
    expect(lines).toContain('s_loading --> s_ready : done(fetchUser)');
  });
});

describe('edges on parallel regions', () => {
  // Mermaid cannot lay out an edge that touches a region of a nested parallel state, so the generator
  // draws it on the parallel state and names the region in the label.
  const nested = setup({}).createMachine({
    id: 'nested',
    type: 'parallel',
    states: {
      outer: {
        initial: 'p',
        states: {
          p: {
            type: 'parallel',
            states: {
              list: { initial: 'loading', states: { loading: {}, ready: {} }, on: { refetch: '.loading', touch: {} } },
              side: { initial: 'off', states: { off: {} } },
            },
          },
        },
      },
    },
  });
  const lines = machineToMermaid(nested)
    .split('\n')
    .map((l) => l.trim());

  it('moves region ends to the parallel state and says which region in the label', () => {
    expect(lines).toContain('s_outer_p --> s_outer_p_list_loading : refetch (list → loading)');
    expect(lines.some((l) => l.startsWith('s_outer_p --> s_outer_p :') && l.includes('touch (in list)'))).toBe(true);
    expect(lines.some((l) => /^s_outer_p_list -->|--> s_outer_p_list :/.test(l))).toBe(false);
  });
});

describe('legend and index', () => {
  it('lists events, guards, delays and actors sorted', () => {
    const legend = machineLegend(demoMachine);
    expect(legend.events).toEqual(['finish', 'go', 'ping', 'retry']);
    expect(legend.guards).toEqual(['(isReady and not canGo)', 'canGo']);
    expect(legend.delays).toEqual(['30000ms (PATIENCE)', '500ms']);
    expect(legend.actors).toEqual(['load', 'ticker']);
  });

  it('links every machine page from the index, sorted by name', () => {
    const index = renderIndex([
      { name: 'zeta', exportName: 'zetaMachine', source: 'src/machines/zeta.machine.ts' },
      { name: 'alpha', exportName: 'alphaMachine', source: 'src/machines/alpha.machine.ts' },
    ]);
    expect(index.indexOf('[alpha](alpha.md)')).toBeGreaterThan(0);
    expect(index.indexOf('[alpha](alpha.md)')).toBeLessThan(index.indexOf('[zeta](zeta.md)'));
  });
});
