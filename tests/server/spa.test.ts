import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

/** A GET with the path exactly as written (fetch would resolve its dot segments first). */
function rawGet(base: string, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + rawPath, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

// One origin: the built SPA and the API side by side.
describe('serving the built SPA', () => {
  let s: TestServer;
  let outside = '';
  beforeAll(async () => {
    // dist/ inside a folder of its own, beside a file the server must never hand out.
    outside = await mkdtemp(path.join(tmpdir(), 'agora-dist-'));
    const dist = path.join(outside, 'dist');
    await mkdir(dist);
    await writeFile(path.join(outside, 'package.json'), '{"name":"outside"}');
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(path.join(dist, '.secret'), 'hidden');
    s = await startTestServer({ staticDir: dist });
  });
  afterAll(async () => {
    await s.close();
    await rm(outside, { recursive: true, force: true });
  });

  it('answers / and deep links with index.html, assets as files', async () => {
    for (const p of ['/', '/anything/deep']) {
      const r = await fetch(s.url + p, { headers: { accept: 'text/html' } });
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('id="root"');
    }
    const js = await fetch(`${s.url}/assets/app.js`);
    expect(js.headers.get('content-type')).toContain('javascript');
  });

  // issue 43: a reload or a link on any view opens the app there, whatever the Accept header says.
  it("answers every view's address with index.html and the headers of /", async () => {
    const root = await fetch(`${s.url}/`);
    for (const p of [
      '/history?format=debate&q=cats',
      '/discussions/abc-123',
      '/discussions/abc-123/replay',
      '/evaluations',
      '/evaluations/run-1',
      '/s/tok_EN-1',
      '/join/tok_EN-2',
    ]) {
      const r = await fetch(s.url + p, { headers: { accept: '*/*' } });
      expect(r.status, p).toBe(200);
      expect(r.headers.get('content-type'), p).toContain('text/html');
      expect(await r.text(), p).toContain('id="root"');
      // A share link's page is never cached (it says whether the link still holds: server/shares/routes.ts).
      const shared = ['content-security-policy', 'x-content-type-options', 'x-frame-options'];
      for (const h of p.startsWith('/s/') ? shared : ['cache-control', ...shared])
        expect(r.headers.get(h), `${p} ${h}`).toBe(root.headers.get(h));
      expect(r.headers.get('x-robots-tag'), p).toBe(p.startsWith('/s/') ? 'noindex, nofollow' : null);
    }
  });

  it('keeps the 404s of API and asset paths beside the app paths', async () => {
    for (const p of ['/discussions', '/discussions/abc/shares/x/y', '/assets/missing.js']) {
      const r = await fetch(s.url + p, { headers: { accept: '*/*' } });
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type'), p).toContain('application/json');
    }
  });

  // The files are served by one wildcard route (server/app.ts): nothing outside the folder, no dotfile.
  it('serves no file outside the built folder and no dotfile', async () => {
    for (const p of ['/%2e%2e/package.json', '/assets/%2e%2e/%2e%2e/package.json', '/..%2fpackage.json', '/.secret']) {
      const r = await rawGet(s.url, p);
      expect(r.status, p).not.toBe(200);
      expect(r.body, p).not.toContain('"name"');
      expect(r.body, p).not.toContain('hidden');
    }
  });

  it('answers unknown API paths with a JSON detail, not the page', async () => {
    const r = await s.api('GET', '/no/such/route');
    expect(r.status).toBe(404);
    expect(r.body.detail).toContain('/no/such/route');
  });
});
