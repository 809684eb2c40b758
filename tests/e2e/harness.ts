import type { BrowserContext, Page } from 'playwright-core';

// The smallest test API the e2e specs need: register with test(), get a fresh page per test.
// tests/e2e/run.ts collects the specs, runs them in Chromium and prints the tally.

export interface E2EContext {
  page: Page;
  context: BrowserContext;
  /** Where the app under test is served, e.g. http://127.0.0.1:40123 */
  baseUrl: string;
}

export interface E2ETest {
  name: string;
  file: string;
  fn: (ctx: E2EContext) => Promise<void>;
  timeoutMs: number;
}

export const registry: E2ETest[] = [];
let currentFile = '';

/** Set by the runner before it imports each spec, so every test knows its file. */
export function setCurrentFile(file: string) {
  currentFile = file;
}

export function test(name: string, fn: E2ETest['fn'], opts: { timeoutMs?: number } = {}) {
  registry.push({ name, file: currentFile, fn, timeoutMs: opts.timeoutMs ?? 60_000 });
}

/** A unique, valid address per call, so reruns against the same server never collide. */
export function uniqueEmail(tag = 'e2e') {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Debian's Chromium, headless and quiet: no sandbox (containers), no GPU, no background traffic. */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    // The hybrid panel plays agents' speech as it arrives, as a user who clicked once would allow.
    '--autoplay-policy=no-user-gesture-required',
  ],
};

// ── Content-Security-Policy ─────────────────────────────────────────────────
// The app is served with a CSP (server/http/security.ts). Every test fails on any violation the page reports,
// and on any page served without the policy, so the suite proves the built app works under it.

const CSP_MESSAGE = /Content[- ]Security[- ]Policy|Refused to (load|execute|apply|connect|frame|create|evaluate)/i;

/** Whether a console message is a CSP violation report. */
export const isCspViolation = (text: string) => CSP_MESSAGE.test(text);

/**
 * Watches a page for CSP trouble: console reports, `securitypolicyviolation` events (turned into console errors by an
 * init script, so none is missed), and documents served without a Content-Security-Policy header.
 * Returns a function that lists what went wrong so far.
 */
export async function watchCsp(page: Page): Promise<() => string[]> {
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `Content-Security-Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  page.on('console', (m) => {
    if (isCspViolation(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'document') return;
    const csp = r.headers()['content-security-policy'];
    if (!csp || !csp.includes("frame-ancestors 'none'")) problems.push(`no Content-Security-Policy on ${r.url()}`);
  });
  return () => [...problems];
}
