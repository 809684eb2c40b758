// The e2e runner: `tsx tests/e2e/run.ts [filter…]` with E2E_BASE_URL pointing at a running app
// (scripts/e2e.mjs starts one). Each test gets a fresh browser context; a failure leaves a screenshot.
import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions, registry, setCurrentFile, watchCsp, type E2ETest } from './harness';
import { withTimeout } from '../support/withTimeout';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const SHOTS = path.join(ROOT, 'test-results', 'e2e');
const baseUrl = process.env.E2E_BASE_URL;
const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? specFiles(path.join(dir, e.name)) : e.name.endsWith('.e2e.ts') ? [path.join(dir, e.name)] : [],
    )
    .sort();
}

async function runOne(browser: Awaited<ReturnType<typeof chromium.launch>>, t: E2ETest) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.setDefaultNavigationTimeout(20_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
  });
  const cspProblems = await watchCsp(page);
  try {
    await withTimeout(t.fn({ page, context, baseUrl: baseUrl! }), t.timeoutMs, 'test');
    // Let late reports (a lazily loaded chunk, a font) arrive before judging.
    await page.waitForTimeout(200);
    const csp = cspProblems();
    if (csp.length) throw new Error(`Content-Security-Policy problems:\n${csp.join('\n')}`);
    return { ok: true as const };
  } catch (error) {
    mkdirSync(SHOTS, { recursive: true });
    const slug = `${path.basename(t.file, '.e2e.ts')}-${t.name}`.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 100);
    const shot = path.join(SHOTS, `${slug}.png`);
    const saved = await page.screenshot({ path: shot, fullPage: true }).then(
      () => true,
      () => false,
    );
    return { ok: false as const, error, shot: saved ? path.relative(ROOT, shot) : undefined, pageErrors };
  } finally {
    await context.close().catch(() => {});
  }
}

async function main() {
  if (!baseUrl) {
    console.error('E2E_BASE_URL is not set; run the suite with `npm run test:e2e`, which starts the app.');
    process.exit(2);
  }
  const filters = process.argv.slice(2);
  // A filter matches the spec's path under tests/e2e ('/name.e2e' still works): never the checkout's own path, which
  // may hold any word (a worktree named after a spec matched every file).
  const underE2e = (f: string) => `/${path.relative(HERE, f)}`;
  const files = specFiles(HERE).filter((f) => filters.length === 0 || filters.some((q) => underE2e(f).includes(q)));
  for (const file of files) {
    setCurrentFile(path.relative(HERE, file));
    await import(pathToFileURL(file).href);
  }
  if (registry.length === 0) {
    console.error('No e2e tests found.');
    process.exit(2);
  }

  const browser = await chromium.launch(chromiumLaunchOptions);
  const started = Date.now();
  let passed = 0;
  let failed = 0;
  let lastFile = '';
  try {
    for (const t of registry) {
      if (t.file !== lastFile) console.log(`\n${paint(1, t.file)}`);
      lastFile = t.file;
      const t0 = Date.now();
      const result = await runOne(browser, t);
      const took = paint(90, `(${seconds(Date.now() - t0)})`);
      if (result.ok) {
        passed++;
        console.log(`  ${paint(32, '✓')} ${t.name} ${took}`);
      } else {
        failed++;
        console.log(`  ${paint(31, '✗')} ${t.name} ${took}`);
        const err = result.error as Error;
        const text = (err?.stack ?? String(err)).split('\n').slice(0, 12).join('\n');
        console.log(text.replace(/^/gm, '      '));
        if (result.shot) console.log(`      screenshot: ${result.shot}`);
        for (const e of result.pageErrors.slice(0, 5)) console.log(`      page: ${e}`);
      }
    }
  } finally {
    await browser.close();
  }
  const tally = `${passed} passed, ${failed} failed`;
  console.log(`\n${failed > 0 ? paint(31, tally) : paint(32, tally)} (${seconds(Date.now() - started)})`);
  process.exit(failed > 0 ? 1 : 0);
}

await main();
