// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { catalogueFor } from '../../server/providers/llm/builtin/catalog';
import { builtinModelsLogic } from '../../src/services/builtinModelsActors';
import { createHttp } from '../../src/services/http';
import { BuiltinModels } from '../../src/ui/models/BuiltinModels';
import { SuggestedBuiltin } from '../../src/ui/models/GetRealModelCard';
import { builtinList } from '../support/builtinModelsFixture';

// 'Get a real model': the built-in model suggested for this server's memory, with its size, memory need and
// licence; a download that could not reach the internet says its reason (with the folder) once, in the download's
// own row, and the button pressed says it failed and where the reason is.

afterEach(cleanup);

const GB = 1e9;
const offlineError =
  'Download of Qwen3-1.7B-Q4_K_M.gguf failed: fetch failed. This server cannot reach huggingface.co: put a .gguf file in /srv/agora/data/models, then Refresh.';

function actorFor(list: ReturnType<typeof builtinList>) {
  const fetch = (async () =>
    new Response(JSON.stringify(list), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    })) as typeof globalThis.fetch;
  return createActor(builtinModelsLogic(createHttp({ getToken: () => 't', fetch }))).start();
}

describe('Get a real model', () => {
  const { recommended } = catalogueFor({ total_bytes: 8 * GB, free_bytes: 2.2 * GB, cpus: 8 });
  const list = builtinList({
    files: [],
    recommended,
    suggested: 'qwen3-1.7b',
    system: { total_bytes: 8 * GB, free_bytes: 2.2 * GB, cpus: 8 },
    downloads: [
      {
        file: 'Qwen3-1.7B-Q4_K_M.gguf',
        url: recommended[4].url,
        received: 0,
        total: null,
        state: 'failed',
        error: offlineError,
        sha256: null,
      },
    ],
  });

  it('offers the suggested built-in model with its size, memory and licence; a failure points to its reason', async () => {
    render(<SuggestedBuiltin actor={actorFor(list)} />);
    const button = await screen.findByRole('button', { name: 'Download Qwen3 1.7B' }, { timeout: 15_000 });
    const item = button.parentElement!;
    expect(item.textContent).toMatch(
      /Qwen3 1\.7B, recommended for this server: 1\.11 GB, needs about 1\.78 GB of memory \(Fits\), Apache-2\.0/,
    );
    expect(within(item).getByRole('alert').textContent).toBe(
      'The download failed: its reason is under Built-in engine, Downloads.',
    );
  });

  it('says a failed download’s reason once in the dialog: the top card and the built-in engine together', async () => {
    const actor = actorFor(list);
    render(
      <>
        <SuggestedBuiltin actor={actor} />
        <BuiltinModels actor={actor} />
      </>,
    );
    await screen.findByRole('progressbar', { name: 'Qwen3-1.7B-Q4_K_M.gguf' }, { timeout: 15_000 });
    const said = screen.getAllByRole('alert').filter((a) => a.textContent?.includes('cannot reach huggingface.co'));
    expect(said).toHaveLength(1);
  });

  it('tells a user who is not the operator (no folder in the list) to ask the operator, naming no folder', async () => {
    const { recommended: none } = catalogueFor({ total_bytes: 1 * GB, free_bytes: 0.1 * GB, cpus: 1 });
    const small = builtinList({
      dir: null,
      can_manage: false,
      files: [],
      downloads: [],
      recommended: none,
      suggested: null,
    });
    render(<SuggestedBuiltin actor={actorFor(small)} />);
    const said = await screen.findByText(/No built-in model fits/, undefined, { timeout: 15_000 });
    expect(said.textContent).toContain('ask the server’s operator to add a model file');
    expect(said.textContent).not.toContain('folder');
  });

  it('marks every recommended model Fits, May be slow or Too big, and shows a failed download in its own row', async () => {
    render(<BuiltinModels actor={actorFor(list)} />);
    const button = await screen.findByRole('button', { name: 'Download Qwen3 1.7B' }, { timeout: 15_000 });
    const row = button.closest('li')!;
    expect(within(row).queryByRole('alert')).toBeNull();
    const download = screen.getByRole('progressbar', { name: 'Qwen3-1.7B-Q4_K_M.gguf' }).parentElement!;
    expect(within(download).getByRole('alert').textContent).toContain('then Refresh');
    expect(within(row).getByText('Fits')).toBeTruthy();
    const big = screen.getByRole('button', { name: 'Download Qwen3 4B Instruct 2507' }).closest('li')!;
    expect(within(big).getByText('May be slow')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
  });
});
