import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { fileForm, pdfOf } from '../../support/documents';
import { startTestServer, type TestServer } from '../harness';

// On PGlite a source is read as an in-process job: parsed in a reader thread (not on the event loop), refused past
// the read cap with nothing stored.
describe('reading a source on PGlite', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer({ sources: { ...loadConfig({}).sources, readThreads: 1 } });
    ({ token } = await t.register());
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('reads the file in a reader thread, as an in-process job', async () => {
    const reading = t.server.ctx.sourceReading!;
    expect(reading.queue.kind).toBe('in-process');
    const before = reading.pool.completed;
    const r = await t.api('POST', '/sources', {
      token,
      body: fileForm('ferry.pdf', pdfOf(['The ferry carries 4,000 riders a day.'])),
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ kind: 'pdf', pages: 1, passages: 1 });
    expect(reading.pool.completed).toBe(before + 1);
  }, 60_000);

  it('refuses a file whose reading passes the read cap, and keeps nothing of it', async () => {
    const cfg = t.server.ctx.config.sources;
    const cap = cfg.readTimeoutMs;
    cfg.readTimeoutMs = 1;
    try {
      const r = await t.api('POST', '/sources', { token, body: fileForm('late.md', '# Late\n\nToo late.') });
      expect(r.status).toBe(422);
      expect(r.body.detail).toBe('Reading took longer than 0 s (SOURCE_READ_TIMEOUT_MS); nothing was added.');
    } finally {
      cfg.readTimeoutMs = cap;
    }
    const names = ((await t.api('GET', '/sources', { token })).body as { name: string }[]).map((s) => s.name);
    expect(names).not.toContain('late.md');
  }, 60_000);
});
