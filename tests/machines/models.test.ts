import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { withPreselectedModel } from '../../src/machines/editor.machine';
import { groupModelOptions } from '../../src/machines/editor.selectors';
import { modelsMachine, saveBody } from '../../src/machines/models.machine';
import * as sel from '../../src/machines/models.selectors';
import type { ModelConnection, ModelJob } from '../../src/schemas/modelConnections';
import { normalizeModels } from '../../src/schemas/system';

const settle = () => new Promise((r) => setTimeout(r, 0));

const conn = (over: Partial<ModelConnection> = {}): ModelConnection => ({
  id: 'c1',
  kind: 'ollama',
  preset: null,
  name: 'Home',
  base_url: 'http://127.0.0.1:11434',
  api_key_hint: null,
  read_only: false,
  manage_models: true,
  status: { state: 'reachable' },
  models: [{ id: '@c1/llama3.2:1b', name: 'llama3.2:1b', label: 'Home · llama3.2:1b' }],
  stale: false,
  ...over,
});
const job = (over: Partial<ModelJob> = {}): ModelJob => ({
  id: 'j1',
  connection_id: 'c1',
  connection_name: 'Home',
  model: 'qwen2.5:0.5b',
  status: 'running',
  phase: 'pulling 6a07',
  completed: 250,
  total: 1000,
  error: null,
  started_at: '2025-01-01T00:00:00Z',
  ...over,
});

function start(
  opts: {
    connections?: ModelConnection[];
    jobs?: ModelJob[];
    save?: (input: unknown) => Promise<ModelConnection>;
  } = {},
) {
  const calls: Record<string, unknown[]> = {
    save: [],
    test: [],
    pull: [],
    cancel: [],
    deleteModel: [],
    deleteConnection: [],
    list: [],
  };
  let connections = opts.connections ?? [];
  const actor = createActor(
    modelsMachine.provide({
      actors: {
        loadConnections: fromPromise(async () => {
          calls.list.push(1);
          return connections;
        }),
        loadJobs: fromPromise(async () => opts.jobs ?? []),
        testConnection: fromPromise(async ({ input }) => {
          calls.test.push(input);
          return {
            ok: false as const,
            reason: 'refused' as const,
            detail: 'Nothing is listening at 127.0.0.1:1 (connection refused)',
          };
        }),
        saveConnection: fromPromise(async ({ input }) => {
          calls.save.push(input);
          if (opts.save) return opts.save(input);
          const made = conn({ id: 'c2', name: 'Saved' });
          connections = [...connections, made];
          return made;
        }),
        deleteConnection: fromPromise(async ({ input }) => {
          calls.deleteConnection.push(input);
          connections = connections.filter((c) => c.id !== input.id);
          return null;
        }),
        startPull: fromPromise(async ({ input }) => {
          calls.pull.push(input);
          return job({ id: 'j9', model: input.model });
        }),
        cancelPull: fromPromise(async ({ input }) => {
          calls.cancel.push(input);
          return job({ id: input.jobId });
        }),
        deleteModel: fromPromise(async ({ input }) => {
          calls.deleteModel.push(input);
          throw new Error('Ollama has no model named gone:1b');
        }),
      },
    }),
  ).start();
  return { actor, calls, snap: () => actor.getSnapshot() };
}

describe('models chart', () => {
  it('says only the offline model exists once the list is in and no connection offers a reachable model; dismissed, it stays quiet', async () => {
    const { actor, snap } = start({
      connections: [conn({ status: { state: 'unreachable', reason: 'refused', detail: 'x' }, stale: true })],
    });
    expect(sel.selectOnlyOffline(snap())).toBe(false); // still loading: nothing flashes
    await settle();
    expect(sel.selectShowConnectHint(snap())).toBe(true);
    actor.send({ type: 'models.hint.dismiss' });
    expect(sel.selectShowConnectHint(snap())).toBe(false);

    const reachable = start({ connections: [conn()] });
    await settle();
    expect(sel.selectOnlyOffline(reachable.snap())).toBe(false);
  });

  it('adds a connection: presets fill the address and name, Test shows what failed, Save keeps the fields when refused', async () => {
    const { actor, snap, calls } = start({
      save: async () => Promise.reject(new Error('You already have a connection named "Groq"; choose another name')),
    });
    await settle();
    actor.send({ type: 'models.open' });
    actor.send({ type: 'models.add', kind: 'openai' });
    expect(sel.selectForm(snap())).toMatchObject({
      kind: 'openai',
      preset: 'openai',
      name: 'OpenAI',
      base_url: 'https://api.openai.com/v1',
    });
    actor.send({ type: 'models.form.preset', preset: 'groq' });
    expect(sel.selectForm(snap())).toMatchObject({
      preset: 'groq',
      name: 'Groq',
      base_url: 'https://api.groq.com/openai/v1',
    });
    actor.send({ type: 'models.form.field', field: 'name', value: 'Work Groq' });
    actor.send({ type: 'models.form.preset', preset: 'together' });
    expect(sel.selectForm(snap())?.name).toBe('Work Groq'); // a typed name stays
    actor.send({ type: 'models.form.field', field: 'api_key', value: 'gsk_secret_1234' });

    actor.send({ type: 'models.form.test' });
    expect(sel.selectIsTesting(snap())).toBe(true);
    await settle();
    expect(sel.selectTestResult(snap())).toMatchObject({ ok: false, reason: 'refused' });
    expect(calls.test[0]).toEqual({
      kind: 'openai',
      base_url: 'https://api.together.xyz/v1',
      api_key: 'gsk_secret_1234',
    });

    actor.send({ type: 'models.form.save' });
    await settle();
    expect(sel.selectFormError(snap())).toContain('already have a connection named');
    expect(sel.selectForm(snap())).toMatchObject({ name: 'Work Groq', api_key: 'gsk_secret_1234' });
    expect(sel.selectIsFormOpen(snap())).toBe(true);
  });

  it('an edit sends the key only when a new one was typed; the built-in kind cannot be saved from here', () => {
    const form = {
      mode: 'edit' as const,
      id: 'c1',
      kind: 'openai' as const,
      preset: 'groq',
      name: ' Groq ',
      base_url: 'https://api.groq.com/openai/v1',
      api_key: '',
      keyHint: '••••1234',
    };
    expect(saveBody(form)).toEqual({ name: 'Groq', base_url: 'https://api.groq.com/openai/v1', preset: 'groq' });
    expect(saveBody({ ...form, api_key: 'new' })).toMatchObject({ api_key: 'new' });
    const { actor, snap } = start();
    actor.send({ type: 'models.add', kind: 'builtin' });
    expect(sel.selectCanSave(snap())).toBe(false);
    expect(sel.selectCanTest(snap())).toBe(false);
  });

  it('saves, closes the form and reloads the list', async () => {
    const { actor, snap, calls } = start();
    await settle();
    actor.send({ type: 'models.add' });
    expect(sel.selectForm(snap())).toMatchObject({ kind: 'ollama', base_url: 'http://127.0.0.1:11434' });
    actor.send({ type: 'models.form.save' });
    await settle();
    await settle();
    expect(calls.save).toEqual([
      { id: null, body: { kind: 'ollama', name: 'Ollama', base_url: 'http://127.0.0.1:11434' } },
    ]);
    expect(sel.selectIsFormOpen(snap())).toBe(false);
    expect(sel.selectConnections(snap()).map((c) => c.name)).toEqual(['Saved']);
  });

  it('keeps pulls from live frames (newer than the list read on open) and cancels one', async () => {
    const { actor, snap, calls } = start({ connections: [conn()], jobs: [job({ completed: 100 })] });
    actor.send({ type: 'live.frame', frame: { type: 'model_job', job: job({ completed: 600 }) } });
    await settle();
    expect(sel.selectJobsOf(snap(), 'c1')).toEqual([expect.objectContaining({ completed: 600 })]);
    expect(sel.jobPercent(sel.selectJobsOf(snap(), 'c1')[0])).toBe(60);
    actor.send({ type: 'models.pull', connectionId: 'c1', model: '  llama3.2:3b ' });
    await settle();
    expect(calls.pull).toEqual([{ connectionId: 'c1', model: 'llama3.2:3b' }]);
    expect(sel.selectJobsOf(snap(), 'c1').map((j) => j.id)).toContain('j9');
    actor.send({ type: 'models.pull.cancel', jobId: 'j1' });
    await settle();
    expect(calls.cancel).toEqual([{ jobId: 'j1' }]);
    // A changed-connections frame from another tab reloads the list.
    actor.send({ type: 'models.open' });
    actor.send({ type: 'models.add' });
    await settle();
    const before = calls.list.length;
    actor.send({ type: 'live.frame', frame: { type: 'model_connections_changed' } });
    actor.send({ type: 'live.resync' });
    await settle();
    expect(calls.list.length).toBe(before + 2);
    // Reloading the list leaves the rest alone: the dialog, the form and the pulls stay.
    expect(sel.selectIsDialogOpen(snap())).toBe(true);
    expect(sel.selectIsFormOpen(snap())).toBe(true);
    expect(sel.selectJobsOf(snap(), 'c1').length).toBe(2);
  });

  it('deletes after a confirmation, and says why a delete failed', async () => {
    const { actor, snap, calls } = start({
      connections: [conn(), conn({ id: 'server-ollama', name: 'Server', read_only: true })],
    });
    await settle();
    actor.send({ type: 'models.connection.delete', id: 'server-ollama' });
    expect(sel.selectPendingDelete(snap())).toBeNull(); // the server's own is read-only
    actor.send({ type: 'models.model.delete', connectionId: 'c1', model: 'gone:1b' });
    expect(sel.selectPendingDelete(snap())).toMatchObject({ what: 'model', model: 'gone:1b' });
    actor.send({ type: 'models.delete.confirm' });
    await settle();
    expect(sel.selectActionError(snap())).toBe('Ollama has no model named gone:1b');
    actor.send({ type: 'models.connection.delete', id: 'c1' });
    actor.send({ type: 'models.delete.cancel' });
    expect(calls.deleteConnection).toEqual([]);
    actor.send({ type: 'models.connection.delete', id: 'c1' });
    actor.send({ type: 'models.delete.confirm' });
    await settle();
    await settle();
    expect(calls.deleteConnection).toEqual([{ id: 'c1' }]);
    expect(sel.selectConnections(snap()).map((c) => c.id)).toEqual(['server-ollama']);
  });
});

describe('the editor model picker', () => {
  const options = normalizeModels([
    { name: 'offline', provider: 'offline', label: 'Built-in offline model (no LLM)', offline: true },
    {
      name: '@c1/llama3.2:1b',
      label: 'Home · llama3.2:1b',
      connection_id: 'c1',
      connection_name: 'Home',
      reachable: false,
    },
    {
      name: '@c2/llama-3.3-70b',
      label: 'Groq · llama-3.3-70b',
      connection_id: 'c2',
      connection_name: 'Groq',
      reachable: true,
    },
  ]);

  it('groups models by connection and marks unreachable ones', () => {
    expect(groupModelOptions(options).map((g) => [g.group, g.unreachable, g.options.map((o) => o.label)])).toEqual([
      ['Offline demo', false, ['Built-in offline model (no LLM)']],
      ['Home', true, ['Home · llama3.2:1b']],
      ['Groq', false, ['Groq · llama-3.3-70b']],
    ]);
  });

  it('preselects the first reachable model for a new agent, else the offline one; never touches an edit', () => {
    const fields = { name: '', role: '', prompt: '', model: '', personality: '', color: '', avatar: '' };
    expect(withPreselectedModel({ mode: 'create', fields }, options).model).toBe('@c2/llama-3.3-70b');
    expect(withPreselectedModel({ mode: 'create', fields }, options.slice(0, 2)).model).toBe('offline');
    expect(withPreselectedModel({ mode: 'edit', fields }, options).model).toBe('');
    expect(withPreselectedModel({ mode: 'create', fields: { ...fields, model: 'mine' } }, options).model).toBe('mine');
  });
});
