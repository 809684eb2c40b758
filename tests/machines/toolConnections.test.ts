// The Models dialog's 'Tools' section chart (toolConnections.machine, the one connections section of the kit):
// add an MCP server, Test lists its tools, Save sends the body and reloads; a failed Test and a refused save say why;
// edit keeps the stored key unless a new one is typed; delete asks first; the server's own are not editable.
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { sectionActors } from '../../src/machines/kit/connectionSection';
import { toolConnectionsMachine } from '../../src/machines/toolConnections.machine';
import type {
  ToolConnection,
  ToolConnectionCreate,
  ToolConnectionTestBody,
  ToolConnectionTestResult,
  ToolConnectionUpdate,
} from '../../src/schemas/toolConnections';

const builtin: ToolConnection = {
  id: 'builtin',
  kind: 'builtin',
  name: 'Built-in tools',
  base_url: '',
  transport: 'auto',
  api_key_hint: null,
  read_only: true,
  status: { state: 'reachable' },
  tools: [{ name: 'calculator', description: 'Exact arithmetic' }],
};
const weather: ToolConnection = {
  ...builtin,
  id: 'conn-1',
  kind: 'mcp',
  name: 'Weather',
  base_url: 'http://127.0.0.1:3001/mcp',
  api_key_hint: '…wxyz',
  read_only: false,
  tools: [{ name: 'forecast', description: 'The forecast for a city' }],
};

function start(opts: { test?: ToolConnectionTestResult; saveError?: string } = {}) {
  let list: ToolConnection[] = [builtin];
  const tests: ToolConnectionTestBody[] = [];
  const saves: { id: string | null; body: ToolConnectionCreate | ToolConnectionUpdate }[] = [];
  const deletes: string[] = [];
  const actor = createActor(
    toolConnectionsMachine.provide({
      actors: sectionActors<ToolConnection, ToolConnectionTestBody, ToolConnectionTestResult, ToolConnectionCreate>({
        load: async () => list,
        test: async (body) => {
          tests.push(body);
          return opts.test ?? { ok: true, tools: weather.tools, summary: 'It lists 1 tool.' };
        },
        save: async (input) => {
          saves.push(input);
          if (opts.saveError) throw new Error(opts.saveError);
          list = [builtin, weather];
          return weather;
        },
        remove: async ({ id }) => {
          deletes.push(id);
          list = [builtin];
          return null;
        },
      }),
    }),
  ).start();
  return { actor, tests, saves, deletes };
}

describe('toolConnections', () => {
  it('adds an MCP server: Test lists its tools, Save sends the form and reloads the list', async () => {
    const { actor, tests, saves } = start();
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'tools.add' });
    expect(actor.getSnapshot().context.form).toMatchObject({ kind: 'mcp', transport: 'auto' });
    actor.send({ type: 'tools.form.field', field: 'name', value: ' Weather ' });
    actor.send({ type: 'tools.form.field', field: 'base_url', value: 'http://127.0.0.1:3001/mcp' });
    actor.send({ type: 'tools.form.field', field: 'transport', value: 'streamable_http' });
    actor.send({ type: 'tools.form.field', field: 'api_key', value: 'sk-abc' });
    actor.send({ type: 'tools.form.test' });
    await waitFor(actor, (s) => s.context.test !== null);
    expect(tests).toEqual([
      { kind: 'mcp', base_url: 'http://127.0.0.1:3001/mcp', transport: 'streamable_http', api_key: 'sk-abc' },
    ]);
    expect(actor.getSnapshot().context.test).toMatchObject({ ok: true, tools: [{ name: 'forecast' }] });
    actor.send({ type: 'tools.form.save' });
    await waitFor(actor, (s) => s.matches({ form: 'closed' }) && s.context.connections.length === 2);
    expect(saves).toEqual([
      {
        id: null,
        body: {
          kind: 'mcp',
          name: 'Weather',
          base_url: 'http://127.0.0.1:3001/mcp',
          transport: 'streamable_http',
          api_key: 'sk-abc',
        },
      },
    ]);
  });

  it('a failed Test and a refused save are said in words, and the form keeps what was typed', async () => {
    const { actor } = start({
      test: { ok: false, reason: 'refused', detail: 'Nothing answers at 127.0.0.1:3001' },
      saveError: 'You already have a tool server named "Weather"',
    });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'tools.add' });
    actor.send({ type: 'tools.form.test' });
    await waitFor(actor, (s) => s.context.test !== null);
    expect(actor.getSnapshot().context.test).toMatchObject({ ok: false, detail: 'Nothing answers at 127.0.0.1:3001' });
    actor.send({ type: 'tools.form.save' });
    await waitFor(actor, (s) => s.context.formError !== null);
    expect(actor.getSnapshot().context.formError).toBe('You already have a tool server named "Weather"');
    expect(actor.getSnapshot().context.form?.base_url).toBe('http://127.0.0.1:3000/mcp');
  });

  it('edit keeps the stored key unless one is typed; delete asks first; the built-ins cannot be edited', async () => {
    const { actor, saves, deletes } = start();
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'tools.add' });
    actor.send({ type: 'tools.form.save' });
    await waitFor(actor, (s) => s.context.connections.length === 2);
    actor.send({ type: 'tools.edit', id: 'builtin' });
    expect(actor.getSnapshot().matches({ form: 'closed' })).toBe(true);
    actor.send({ type: 'tools.edit', id: 'conn-1' });
    expect(actor.getSnapshot().context.form).toMatchObject({ mode: 'edit', keyHint: '…wxyz', api_key: '' });
    actor.send({ type: 'tools.form.save' });
    await waitFor(actor, (s) => s.matches({ form: 'closed' }));
    expect(saves.at(-1)).toEqual({
      id: 'conn-1',
      body: { name: 'Weather', base_url: 'http://127.0.0.1:3001/mcp', transport: 'auto' },
    });
    actor.send({ type: 'tools.delete', id: 'builtin' });
    expect(actor.getSnapshot().context.pendingDelete).toBeNull();
    actor.send({ type: 'tools.delete', id: 'conn-1' });
    expect(actor.getSnapshot().context.pendingDelete).toEqual({ id: 'conn-1', name: 'Weather' });
    actor.send({ type: 'tools.delete.confirm' });
    await waitFor(actor, (s) => s.matches({ delete: 'idle' }) && s.context.connections.length === 1);
    expect(deletes).toEqual(['conn-1']);
  });
});
