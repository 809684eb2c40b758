import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { buildServerIfNeeded, SOURCE_READER_BUNDLE } from '../../../scripts/lib/serverBundle.mjs';
import { fileForm, pdfOf } from '../../support/documents';
import { startScriptedOllama } from '../../support/scriptedModels';
import { call, type ServerProcess, startServerProcess } from '../serverProcess';

/** The chunk files a bundle names, statically or in an import(), and the ones those name (only those present). */
function chunksOf(bundle: string): Set<string> {
  const dir = path.dirname(bundle);
  const named = new Set<string>();
  const visit = (file: string) => {
    if (!existsSync(path.join(dir, file))) return;
    for (const [, chunk] of readFileSync(path.join(dir, file), 'utf8').matchAll(/"\.\/(chunk-[A-Z0-9]+\.mjs)"/g))
      if (!named.has(chunk!)) {
        named.add(chunk!);
        visit(chunk!);
      }
  };
  visit(path.basename(bundle));
  return named;
}

// The server `npm start` runs is a bundle (scripts/lib/serverBundle.mjs); a reader thread starts from a file of its
// own, which must be in the built output too: the built server reads a PDF.
describe('the built server', () => {
  let server: ServerProcess;
  let dir: string;
  let bundle: string;
  beforeAll(async () => {
    bundle = await buildServerIfNeeded();
    dir = mkdtempSync(path.join(tmpdir(), 'agora-built-sources-'));
    server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: 'memory://' }, 90_000, [bundle]);
  }, 180_000);
  afterAll(async () => {
    await server?.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads a PDF in a reader thread started from its own bundled file', async () => {
    // The bundle starts its threads from the bundled reader, not from the TypeScript sources through tsx.
    expect(existsSync(SOURCE_READER_BUNDLE)).toBe(true);
    const code = [bundle, ...chunksOf(bundle)].map((f) =>
      readFileSync(path.join(path.dirname(bundle), path.basename(f)), 'utf8'),
    );
    expect(code.join('\n')).toContain(JSON.stringify(pathToFileURL(SOURCE_READER_BUNDLE).href));
    const reg = await call(server.url, 'POST', '/auth/register', undefined, {
      email: 'built@example.com',
      password: 'built-pass-1',
    });
    const token = reg.body.access_token as string;
    const res = await fetch(`${server.url}/sources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: fileForm('report.pdf', pdfOf(['The ferry carries 4,000 riders a day.', 'The bridge is closed.'])),
    });
    const body = await res.json();
    expect(res.status, `${JSON.stringify(body)}\n${server.output()}`).toBe(201);
    expect(body).toMatchObject({ kind: 'pdf', pages: 2, passages: 2, status: 'ready' });
  }, 90_000);

  it('loads what it loads later from chunks of its own, all in place: the MCP SDK answers /mcp', async () => {
    // Every chunk the server names, statically or in an import(), is beside it (the chunks of later parts too).
    const named = chunksOf(bundle);
    expect(named.size).toBeGreaterThan(0);
    const present = new Set(readdirSync(path.dirname(bundle)));
    for (const chunk of named) expect(present.has(chunk), chunk).toBe(true);

    const reg = await call(server.url, 'POST', '/auth/register', undefined, {
      email: 'built-mcp@example.com',
      password: 'built-pass-1',
    });
    const made = await call(server.url, 'POST', '/api-tokens', reg.body.access_token, {
      name: 'mcp',
      scopes: ['read'],
    });
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${made.body.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      }),
    });
    const text = await res.text();
    expect(res.status, `${text}\n${server.output()}`).toBe(200);
    expect(text).toContain('"serverInfo":{"name":"agora"');
  }, 60_000);

  it("reaches a person's model server through the address rule's undici, loaded from its chunk", async () => {
    const ollama = await startScriptedOllama({ p: 0.5, seed: 1, models: ['fake-a:1b'] });
    try {
      const reg = await call(server.url, 'POST', '/auth/register', undefined, {
        email: 'built-models@example.com',
        password: 'built-pass-1',
      });
      const token = reg.body.access_token as string;
      const made = await call(server.url, 'POST', '/model-connections', token, {
        kind: 'ollama',
        name: 'Home',
        base_url: ollama.url,
      });
      expect(made.status, `${JSON.stringify(made.body)}\n${server.output()}`).toBe(201);
      expect(made.body.status).toEqual({ state: 'reachable' });
      const models = await call(server.url, 'GET', '/models/', token);
      expect(models.body.map((m: { label: string }) => m.label)).toContain('Home · fake-a:1b');
    } finally {
      await ollama.close();
    }
  }, 60_000);
});
