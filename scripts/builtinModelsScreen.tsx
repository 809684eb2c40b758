// A screenshot of the built-in models section with real data, until the Models dialog mounts it: the real server
// (a tiny GGUF in its models directory, loaded by one turn; a download from a slow loopback server under way)
// answers the section's own HTTP calls; the section is rendered to HTML and shot in Chromium.
// `npx tsx scripts/builtinModelsScreen.tsx` → docs/screens/builtin-models-<width>.png
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { chromium } from 'playwright-core';
import { createActor, waitFor } from 'xstate';
import { builtinConfigFrom } from '../server/providers/llm/builtin/config';
import { builtinModelsLogic } from '../src/services/builtinModelsActors';
import { createHttp } from '../src/services/http';
import { BuiltinModels } from '../src/ui/models/BuiltinModels';
import { chromiumLaunchOptions } from '../tests/e2e/harness';
import { startTestServer } from '../tests/server/harness';
import { tinyGguf } from '../tests/support/tinyGguf';

const ROOT = path.resolve(import.meta.dirname, '..');
const big = Buffer.concat([tinyGguf(), Buffer.alloc(40_000_000)]);

// Sends the first 38 % at once, then trickles, so the shot catches the download under way.
const files = createServer((_req, res) => {
  res.writeHead(200, { 'content-length': big.length });
  res.write(big.subarray(0, Math.floor(big.length * 0.38)));
  const t = setInterval(() => res.write(Buffer.alloc(1000)), 1000);
  res.on('close', () => clearInterval(t));
});
await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
const fileUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}/models/Llama-3.2-1B-Instruct-Q4_K_M.gguf`;

const dataDir = await mkdtemp(path.join(tmpdir(), 'agora-screen-'));
await mkdir(path.join(dataDir, 'models'), { recursive: true });
await writeFile(path.join(dataDir, 'models', 'qwen2.5-0.5b-instruct-q4_k_m.gguf'), tinyGguf());
const s = await startTestServer({ dataDir, builtin: { ...builtinConfigFrom({}, dataDir), importDirs: ['/srv/models'], downloadAllowPrivate: true, threads: 1, idleUnloadMs: 0 } });
const { token } = await s.register();
await s.server.ctx.providers.builtin!.chat({ model: 'builtin:qwen2.5-0.5b-instruct-q4_k_m.gguf', messages: [{ role: 'user', content: 'Hi' }], maxTokens: 4 });
await s.api('POST', '/api/builtin-models/downloads', { token, body: { url: fileUrl } });
await new Promise((r) => setTimeout(r, 800));

const actor = createActor(builtinModelsLogic(createHttp({ baseUrl: s.url, getToken: () => token }))).start();
await waitFor(actor, (snap) => snap.matches('ready'));
const html = renderToStaticMarkup(<BuiltinModels actor={actor} />);
actor.stop();

const css = ['src/ui/styles.css', 'src/ui/models/models.css'].map((f) => readFileSync(path.join(ROOT, f), 'utf8')).join('\n');
const browser = await chromium.launch(chromiumLaunchOptions);
for (const width of [560, 380]) {
  const page = await browser.newPage({ viewport: { width, height: 600 }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body style="margin:0;background:var(--bg)"><div style="margin:16px;padding:20px;background:var(--surface);border-radius:var(--radius);box-shadow:var(--shadow)">${html}</div></body></html>`);
  const out = path.join(ROOT, 'docs', 'screens', `builtin-models-${width}.png`);
  await page.screenshot({ path: out, fullPage: true });
  console.log(out);
}
await browser.close();
await s.close();
files.closeAllConnections();
files.close();
process.exit(0);
