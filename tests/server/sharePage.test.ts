import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

// /s/{token} answers the app with `noindex` in its HTML and its headers (whatever the token: the app asks the API).
let s: TestServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'agora-share-page-'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html>\n<html>\n  <head>\n    <title>Agora</title>\n  </head>\n  <body><div id="root"></div></body>\n</html>\n',
  );
  s = await startTestServer({ staticDir: dir });
});
afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

it('serves the app at /s/{token} marked noindex, and the root page without it', async () => {
  const res = await fetch(`${s.url}/s/${'A'.repeat(22)}`, { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/html');
  expect(res.headers.get('x-robots-tag')).toContain('noindex');
  const html = await res.text();
  expect(html).toMatch(/<head>\s*<meta name="robots" content="noindex, nofollow">/);
  expect(html).toContain('<div id="root">');
  const root = await (await fetch(`${s.url}/`, { headers: { accept: 'text/html' } })).text();
  expect(root).not.toContain('noindex');
});
