import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { docxOf, fileForm, pdfOf } from '../../support/documents';
import { startLoopback } from '../../support/loopback';
import { startTestServer, type TestServer } from '../harness';

// /sources: what is added is read whole and searchable; what cannot be read is refused by the POST itself with a
// sentence, and nothing of it is stored.

const caps = {
  ...loadConfig({}).sources,
  maxBytes: 64 * 1024,
  maxPages: 4,
  unzippedMaxBytes: 1024 * 1024,
  allowPrivate: true,
};

let t: TestServer;
let token: string;
let page: Awaited<ReturnType<typeof startLoopback>>;
const ARTICLE = `<!doctype html><html><head><title>Route 12 ridership</title></head><body>
<nav>Home · About · Contact</nav><article><h1>Route 12 ridership</h1>
<p>${'The route 12 buses carried 4,200 riders a day in 2025, up from 3,100 the year before. '.repeat(6)}</p>
<h2>Fares</h2><p>${'Free fares were tried for six weeks in spring and the buses were full at rush hour. '.repeat(6)}</p>
</article><footer>© City transit</footer></body></html>`;

beforeAll(async () => {
  t = await startTestServer({ sources: caps });
  ({ token } = await t.register());
  page = await startLoopback((req, res) => {
    if (req.url === '/article') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    if (req.url === '/moved') return res.writeHead(302, { location: '/article' }).end();
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'text/html' });
      // Far over the cap, with no length declared: cut as it streams.
      const chunk = `<p>${'x'.repeat(8_000)}</p>`;
      for (let i = 0; i < 200; i++) res.write(chunk);
      return res.end();
    }
    if (req.url === '/image') return res.writeHead(200, { 'content-type': 'image/png' }).end('png');
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>');
  });
});
afterAll(async () => {
  await page?.close();
  await t?.close();
});

const upload = (name: string, bytes: Uint8Array | string, who = token) =>
  t.api('POST', '/sources', { token: who, body: fileForm(name, bytes) });
const stored = async () => (await t.api('GET', '/sources', { token })).body as Array<{ id: string; name: string }>;

describe('adding sources', () => {
  it('reads Markdown into passages under their headings, and removes them', async () => {
    const md = `# Budget\n\n${'The council set aside 2 million for the pilot. '.repeat(50)}\n\n## Risks\n\nCrowding at rush hour is the main risk.`;
    const r = await upload('plan.md', md);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'plan.md', kind: 'markdown', pages: 1, status: 'ready' });
    expect(r.body.passages).toBeGreaterThanOrEqual(2);
    const list = await t.api('GET', `/sources/${r.body.id}/passages?limit=50`, { token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(r.body.passages);
    const headings = list.body.items.map((p: { heading: string }) => p.heading);
    expect(headings[0]).toBe('Budget');
    expect(headings.at(-1)).toBe('Risks');
    const one = await t.api('GET', `/sources/${r.body.id}/passages/${list.body.items.at(-1).id}`, { token });
    expect(one.body).toMatchObject({ source_id: r.body.id, heading: 'Risks', page: null });
    expect(one.body.text).toContain('Crowding at rush hour');
    expect((await t.api('DELETE', `/sources/${r.body.id}`, { token })).status).toBe(200);
    expect((await t.api('GET', `/sources/${r.body.id}`, { token })).status).toBe(404);
  });

  it('reads a PDF page by page, so each passage knows its page', async () => {
    const r = await upload(
      'report.pdf',
      pdfOf(['Ridership rose on every route.', 'Route 12 carried 4,200 riders a day.']),
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ kind: 'pdf', pages: 2 });
    const { body } = await t.api('GET', `/sources/${r.body.id}/passages`, { token });
    expect(body.items[0].page).toBe(1);
    expect(body.items.map((p: { text: string }) => p.text).join(' ')).toContain('4,200 riders');
  });

  it('reads a Word document with its headings', async () => {
    const r = await upload('memo.docx', await docxOf(['# Summary', 'Free fares doubled weekend trips.']));
    expect(r.status).toBe(201);
    expect(r.body.kind).toBe('docx');
    const { body } = await t.api('GET', `/sources/${r.body.id}/passages`, { token });
    expect(body.items[0]).toMatchObject({ heading: 'Summary' });
    expect(body.items[0].text).toContain('doubled weekend trips');
  });

  it("reads a web page's main text (not its menus), following a redirect", async () => {
    const r = await t.api('POST', '/sources', { token, body: { url: `${page.url}/moved` } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ kind: 'html', name: 'Route 12 ridership', url: `${page.url}/article` });
    const { body } = await t.api('GET', `/sources/${r.body.id}/passages`, { token });
    const all = body.items.map((p: { text: string }) => p.text).join(' ');
    expect(all).toContain('4,200 riders');
    expect(all).not.toContain('Home · About');
  });

  it("keeps another user's source from them, in the words of one that does not exist", async () => {
    const mine = await upload('mine.txt', 'Only mine.');
    const other = await t.register();
    const theirs = await t.api('GET', `/sources/${mine.body.id}`, { token: other.token });
    const none = await t.api('GET', '/sources/no-such-source', { token: other.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.detail).toBe(none.body.detail);
    expect((await t.api('GET', `/sources/${mine.body.id}/passages`, { token: other.token })).status).toBe(404);
    expect((await t.api('DELETE', `/sources/${mine.body.id}`, { token: other.token })).status).toBe(404);
    expect((await t.api('GET', '/sources', { token: other.token })).body).toEqual([]);
  });
});

describe('bad input is refused by the POST, and nothing is stored', () => {
  const cases: Array<[string, () => Promise<{ status: number; body: any }>, number, RegExp]> = [
    ['an encrypted PDF', async () => upload('secret.pdf', pdfOf(['Hidden.'], { password: 'pw' })), 422, /encrypted/],
    ['a scanned PDF with no text', async () => upload('scan.pdf', pdfOf(['', ''])), 422, /no text layer/],
    [
      'a .docx that is a zip bomb',
      async () => upload('bomb.docx', await docxOf(['Hi'], { 'word/media/fill.bin': new Uint8Array(4 * 1024 * 1024) })),
      413,
      /expands to more than/,
    ],
    ['a file over the cap', async () => upload('big.txt', 'word '.repeat(20_000)), 413, /SOURCE_MAX_BYTES/],
    ['text behind a PDF name', async () => upload('fake.pdf', 'just some text'), 415, /name says a PDF/],
    ['a PDF behind a text name', async () => upload('notes.txt', pdfOf(['x'])), 415, /content is a PDF/],
    ['a binary file behind a Markdown name', async () => upload('x.md', new Uint8Array([1, 0, 2, 0])), 415, /binary/],
    ['a kind this server does not read', async () => upload('tool.exe', 'MZ'), 415, /Sources can be/],
    ['a PDF over the page cap', async () => upload('long.pdf', pdfOf(['1', '2', '3', '4', '5', '6'])), 413, /6 pages/],
    [
      'a page that answers 404',
      async () => t.api('POST', '/sources', { token, body: { url: `${page.url}/gone` } }),
      422,
      /404/,
    ],
    [
      'a page larger than the cap',
      async () => t.api('POST', '/sources', { token, body: { url: `${page.url}/huge` } }),
      413,
      /larger than/,
    ],
    [
      'a page that is an image',
      async () => t.api('POST', '/sources', { token, body: { url: `${page.url}/image` } }),
      415,
      /image\/png/,
    ],
    [
      'an address that is no address',
      async () => t.api('POST', '/sources', { token, body: { url: 'not a url' } }),
      422,
      /not a web address/,
    ],
  ];
  it.each(cases)('%s', async (_what, send, status, words) => {
    const before = (await stored()).length;
    const r = await send();
    expect(r.status).toBe(status);
    expect(r.body.detail).toMatch(words);
    expect((await stored()).length).toBe(before);
  });
});

describe('the operator decides whether pages may be on private addresses', () => {
  it('refuses a loopback page by default', async () => {
    const strict = await startTestServer({ sources: { ...caps, allowPrivate: false } });
    try {
      const { token: tk } = await strict.register();
      const r = await strict.api('POST', '/sources', { token: tk, body: { url: `${page.url}/article` } });
      expect(r.status).toBe(422);
      expect(r.body.detail).toMatch(/SOURCES_ALLOW_PRIVATE/);
    } finally {
      await strict.close();
    }
  });
});

describe('caps per person', () => {
  it('refuses a source past SOURCES_PER_USER and past SOURCE_QUOTA_MB', async () => {
    const small = await startTestServer({ sources: { ...caps, perUser: 2, quotaBytes: 30 } });
    try {
      const { token: tk } = await small.register();
      const add = (name: string, text: string) =>
        small.api('POST', '/sources', { token: tk, body: fileForm(name, text) });
      expect((await add('a.txt', 'First note.')).status).toBe(201);
      const over = await add('b.txt', 'A second note that is far too long for the quota.');
      expect(over.status).toBe(413);
      expect(over.body.detail).toMatch(/SOURCE_QUOTA_MB/);
      expect((await add('c.txt', 'Second.')).status).toBe(201);
      const third = await add('d.txt', 'Third.');
      expect(third.status).toBe(409);
      expect(third.body.detail).toMatch(/SOURCES_PER_USER/);
    } finally {
      await small.close();
    }
  });
});
