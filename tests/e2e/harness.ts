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
  ],
};
