// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { builtinModelsLogic } from '../../src/services/builtinModelsActors';
import { createHttp } from '../../src/services/http';
import { BuiltinModels } from '../../src/ui/models/BuiltinModels';
import { builtinList } from '../support/builtinModelsFixture';

// The built-in models section over a real actor and the real HTTP helper; fetch answers as the server does.

afterEach(cleanup);

function mount(answer: (method: string, path: string, body: unknown) => { status: number; body?: unknown }) {
  const calls: Array<{ method: string; path: string; body: unknown }> = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    const method = init?.method ?? 'GET';
    calls.push({ method, path, body });
    const a = answer(method, path, body);
    return new Response(a.body === undefined ? null : JSON.stringify(a.body), {
      status: a.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  const actor = createActor(builtinModelsLogic(createHttp({ getToken: () => 't', fetch }))).start();
  render(<BuiltinModels actor={actor} />);
  return { actor, calls };
}

describe('BuiltinModels', () => {
  it('lists the files, a download’s progress bar, and the recommended models with sizes and licences', async () => {
    mount(() => ({ status: 200, body: builtinList() }));
    expect(await screen.findByText('Qwen3-0.6B-Q4_K_M.gguf', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('Loaded')).toBeTruthy();
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('36');
    expect(bar.getAttribute('aria-valuetext')).toBe('36 % (297 MB of 808 MB)');
    expect(screen.getByRole('link', { name: 'MIT' }).getAttribute('href')).toContain('Phi-4-mini');
    expect(screen.getByRole('button', { name: 'Download Phi-4-mini Instruct' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Download Llama 3.2 1B Instruct' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('says so when there are no files and adding from disk is off', async () => {
    mount(() => ({ status: 200, body: builtinList({ files: [], downloads: [], import_dirs: [] }) }));
    expect(await screen.findByText(/No model files yet/)).toBeTruthy();
    expect(screen.getByText(/Adding files from the server’s disk is off/)).toBeTruthy();
  });

  it('starts a recommended download and shows the server’s refusal of a URL', async () => {
    const { calls } = mount((method, path) =>
      method === 'POST' && path === '/api/builtin-models/downloads'
        ? calls.length > 3
          ? {
              status: 422,
              body: {
                detail: '10.0.0.5 is a loopback or private address; this server downloads only from public ones',
              },
            }
          : {
              status: 202,
              body: {
                file: 'microsoft_Phi-4-mini-instruct-Q4_K_M.gguf',
                url: 'u',
                received: 0,
                total: null,
                state: 'running',
                error: null,
                sha256: null,
              },
            }
        : { status: 200, body: builtinList() },
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Download Phi-4-mini Instruct' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      url: expect.stringContaining('microsoft_Phi-4-mini-instruct-Q4_K_M.gguf'),
      file: 'microsoft_Phi-4-mini-instruct-Q4_K_M.gguf',
    });

    await user.type(screen.getByLabelText('GGUF file URL'), 'http://10.0.0.5/m.gguf');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Download' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await user.click(screen.getByRole('button', { name: 'Download' }));
    expect((await screen.findByRole('alert')).textContent).toContain('loopback or private address');
  });

  it('deletes a file only after a second, explicit click, and adds one by path', async () => {
    const { calls } = mount(() => ({ status: 200, body: builtinList() }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Qwen3-0.6B-Q4_K_M.gguf' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete file' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.method === 'DELETE' && c.path === '/api/builtin-models/files/Qwen3-0.6B-Q4_K_M.gguf'),
      ).toBe(true),
    );

    await user.type(screen.getByLabelText('Path of a .gguf file'), '/srv/models/mine.gguf');
    await user.click(screen.getByRole('button', { name: 'Add file' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/builtin-models/files' && c.method === 'POST')?.body).toEqual({
        path: '/srv/models/mine.gguf',
      }),
    );
    const row = screen.getByText('Llama-3.2-1B-Instruct-Q4_K_M.gguf').closest('li')!;
    await user.click(within(row).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(
        calls.some(
          (c) => c.method === 'DELETE' && c.path === '/api/builtin-models/downloads/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
        ),
      ).toBe(true),
    );
  });
});
