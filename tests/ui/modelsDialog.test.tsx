// @vitest-environment jsdom
// The Models dialog over the real models chart (its requests stand-ins): the user's and the server's connections
// with their states, the Add connection form with Test and a refused Save that keeps the fields, a pull's progress
// bar driven by live frames, and the 'Connect a model' hint.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { builtinModelsMachine } from '../../src/machines/builtinModels.machine';
import { modelsMachine } from '../../src/machines/models.machine';
import type { BuiltinModelsList } from '../../src/schemas/builtinModels';
import type { ModelConnection, ModelConnectionTestResult, ModelJob } from '../../src/schemas/modelConnections';
import { ConnectModelHint } from '../../src/ui/models/ConnectModelHint';
import { ModelsDialog } from '../../src/ui/models/ModelsDialog';
import { builtinList } from '../support/builtinModelsFixture';

afterEach(cleanup);

const home: ModelConnection = {
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
};
const server: ModelConnection = {
  ...home,
  id: 'server-openai',
  kind: 'openai',
  name: 'Server',
  base_url: 'https://api.example.com/v1',
  api_key_hint: '••••',
  read_only: true,
  status: { state: 'key_rejected', reason: 'key_rejected', detail: 'The server rejected the API key (401: bad key)' },
  models: [],
};
const builtinConnection: ModelConnection = {
  ...home,
  id: 'server-builtin',
  kind: 'builtin',
  name: 'Built-in',
  base_url: 'GGUF files in /srv/agora/data/models',
  read_only: true,
  models: [
    {
      id: '@server-builtin/qwen2.5-0.5b-instruct-q4_k_m.gguf',
      name: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
      label: 'Built-in · qwen2.5-0.5b-instruct-q4_k_m.gguf',
    },
  ],
};
const job: ModelJob = {
  id: 'j1',
  connection_id: 'c1',
  connection_name: 'Home',
  model: 'qwen2.5:0.5b',
  status: 'running',
  phase: 'pulling 6a0746a1ec1a',
  completed: 0,
  total: 0,
  error: null,
  started_at: '2025-01-01T00:00:00Z',
};

function setup(connections: ModelConnection[], builtin: BuiltinModelsList = builtinList({ downloads: [] })) {
  const sent: unknown[] = [];
  const builtinModels = builtinModelsMachine.provide({
    actors: {
      listModels: fromPromise(async () => builtin),
      runOperation: fromPromise(async (): Promise<unknown> => null),
    },
  });
  const actor = createActor(
    modelsMachine.provide({
      actors: {
        loadConnections: fromPromise(async () => connections),
        loadJobs: fromPromise(async (): Promise<ModelJob[]> => []),
        testConnection: fromPromise(
          async (): Promise<ModelConnectionTestResult> => ({
            ok: false,
            reason: 'dns',
            detail: 'The name ollama.lan could not be found (DNS: ENOTFOUND)',
          }),
        ),
        saveConnection: fromPromise(async ({ input }) => {
          sent.push(input);
          throw new Error('You already have a connection named "Home"; choose another name');
        }),
        deleteConnection: fromPromise(async (): Promise<unknown> => null),
        startPull: fromPromise(async ({ input }) => ({ ...job, model: input.model })),
        cancelPull: fromPromise(async (): Promise<ModelJob> => job),
        deleteModel: fromPromise(async (): Promise<unknown> => null),
        builtinModels,
      },
    }),
  ).start();
  return { actor, sent };
}

describe('the Models dialog', () => {
  it('lists the connections with their state, and the server’s own read-only', async () => {
    const { actor } = setup([home, server]);
    act(() => actor.send({ type: 'models.open' }));
    render(<ModelsDialog models={actor} />);
    const dialog = await screen.findByRole('dialog', { name: 'Models' });
    const mine = await within(dialog).findByRole('article', { name: 'Connection Home' });
    expect(within(mine).getByText('Reachable')).toBeTruthy();
    expect(within(mine).getByRole('list', { name: 'Models of Home' }).textContent).toContain('llama3.2:1b');
    const theirs = within(dialog).getByRole('article', { name: 'Connection Server' });
    expect(within(theirs).getByText('Key rejected')).toBeTruthy();
    expect(within(theirs).getByText(/rejected the API key \(401/)).toBeTruthy();
    expect(within(theirs).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(theirs).queryByLabelText('Pull a model')).toBeNull();
  });

  it('adds a connection: Test says what failed, a refused Save keeps every field', async () => {
    const user = userEvent.setup();
    const { actor, sent } = setup([home]);
    act(() => actor.send({ type: 'models.open' }));
    render(<ModelsDialog models={actor} />);
    await screen.findByRole('article', { name: 'Connection Home' });
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    const form = screen.getByRole('form', { name: 'Add connection' });
    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), 'Home');
    await user.clear(within(form).getByLabelText('Base URL'));
    await user.type(within(form).getByLabelText('Base URL'), 'http://ollama.lan:11434');
    await user.click(within(form).getByRole('button', { name: 'Test' }));
    expect((await within(form).findByRole('status')).textContent).toBe(
      'Name not found. The name ollama.lan could not be found (DNS: ENOTFOUND)',
    );
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('already have a connection named "Home"');
    expect(sent).toEqual([{ id: null, body: { kind: 'ollama', name: 'Home', base_url: 'http://ollama.lan:11434' } }]);
    expect((within(form).getByLabelText('Base URL') as HTMLInputElement).value).toBe('http://ollama.lan:11434');

    // The built-in kind is explained, not saved from here; its files section shows under the form instead.
    await user.selectOptions(within(form).getByLabelText('Kind'), 'builtin');
    expect(within(form).getByText(/always listed as “Built-in”/)).toBeTruthy();
    expect(within(form).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(await screen.findByRole('region', { name: 'Built-in engine' })).toBeTruthy();
  });

  it("shows the Built-in connection's files in its card; a model_download frame moves the bar without a request", async () => {
    const running = builtinList().downloads[0];
    const { actor } = setup([builtinConnection], builtinList());
    act(() => actor.send({ type: 'models.open' }));
    render(<ModelsDialog models={actor} />);
    const card = await screen.findByRole('article', { name: 'Connection Built-in' });
    const section = await within(card).findByRole('region', { name: 'Built-in engine' });
    expect(section.textContent).toContain('Qwen3-0.6B-Q4_K_M.gguf');
    // The section replaces the card's list of names: each file is listed once.
    expect(within(card).queryByRole('list', { name: 'Models of Built-in' })).toBeNull();
    const bar = within(section).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('36');
    // The live channel sends the frame to the child by its system id.
    act(() =>
      actor.system.get('builtinModels')!.send({
        type: 'live.frame',
        frame: { type: 'model_download', download: { ...running, received: 727_000_000 } },
      }),
    );
    expect(within(section).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('90');
  });

  it('pulls: the bar follows the live frames with bytes and percent, then says Pulled', async () => {
    const user = userEvent.setup();
    const { actor } = setup([home]);
    act(() => actor.send({ type: 'models.open' }));
    render(<ModelsDialog models={actor} />);
    const card = await screen.findByRole('article', { name: 'Connection Home' });
    await user.type(within(card).getByLabelText('Pull a model'), 'qwen2.5:0.5b');
    await user.click(within(card).getByRole('button', { name: 'Pull' }));
    const bar = await within(card).findByRole('progressbar', { name: 'Pulling qwen2.5:0.5b' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    act(() =>
      actor.send({
        type: 'live.frame',
        frame: { type: 'model_job', job: { ...job, completed: 125_000_000, total: 500_000_000 } },
      }),
    );
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(within(card).getByText('125 MB of 500 MB · 25%')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    act(() =>
      actor.send({
        type: 'live.frame',
        frame: {
          type: 'model_job',
          job: { ...job, status: 'done', completed: 500_000_000, total: 500_000_000, phase: 'success' },
        },
      }),
    );
    expect(within(card).queryByRole('progressbar')).toBeNull();
    expect(within(card).getByText('Pulled')).toBeTruthy();
  });
});

describe('the Connect a model hint', () => {
  it('shows while only the offline model can answer, opens the dialog, and can be put away', async () => {
    const user = userEvent.setup();
    const { actor } = setup([
      { ...home, models: [], status: { state: 'unreachable', reason: 'refused', detail: 'refused' } },
    ]);
    render(<ConnectModelHint models={actor} where="canvas" />);
    const hint = await screen.findByRole('note', { name: 'Model status' });
    expect(hint.textContent).toContain('offline demo model');
    await user.click(within(hint).getByRole('button', { name: 'Connect a model' }));
    expect(actor.getSnapshot().hasTag('dialogOpen')).toBe(true);
    await user.click(within(hint).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('note', { name: 'Model status' })).toBeNull();
  });

  it('says nothing when a connection offers a model', async () => {
    const { actor } = setup([home]);
    render(<ConnectModelHint models={actor} where="panel" />);
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(screen.queryByRole('note', { name: 'Model status' })).toBeNull();
  });
});
