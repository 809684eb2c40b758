import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

// One origin: the built SPA and the API side by side.
describe('serving the built SPA', () => {
  let s: TestServer;
  beforeAll(async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'agora-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    s = await startTestServer({ staticDir: dist });
  });
  afterAll(() => s.close());

  it('answers / and deep links with index.html, assets as files', async () => {
    for (const p of ['/', '/anything/deep']) {
      const r = await fetch(s.url + p, { headers: { accept: 'text/html' } });
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('id="root"');
    }
    const js = await fetch(`${s.url}/assets/app.js`);
    expect(js.headers.get('content-type')).toContain('javascript');
  });

  it('answers unknown API paths with a JSON detail, not the page', async () => {
    const r = await s.api('GET', '/no/such/route');
    expect(r.status).toBe(404);
    expect(r.body.detail).toContain('/no/such/route');
  });
});
