import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { buildServerIfNeeded, SOURCE_READER_BUNDLE } from '../../../scripts/lib/serverBundle.mjs';
import { fileForm, pdfOf } from '../../support/documents';
import { call, type ServerProcess, startServerProcess } from '../serverProcess';

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
    expect(readFileSync(bundle, 'utf8')).toContain(JSON.stringify(pathToFileURL(SOURCE_READER_BUNDLE).href));
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
});
