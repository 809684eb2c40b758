import type { Locator, Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { axeViolations, describeViolations, isSerious } from './axe';
import { uniqueEmail } from './harness';

// What the formats e2e files share: a new account with three agents selected (on the offline model, or on a model
// server's model through a connection the account makes), and axe at the two sizes.

const PASSWORD = 'correct-horse-42';
export const CONTEXT = 'Should our family vineyard switch from furrow to drip irrigation before next season?';
export const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
export const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();
export const finished = (page: Page) => panel(page).getByText(/Discussion (finished|stopped)|stopped with an error/);

/** Adds an OpenAI-compatible connection to `baseUrl` through the API the Models dialog uses; its id. */
export async function connectModelServer(page: Page, baseUrl: string): Promise<string> {
  return page.evaluate(async (url) => {
    const res = await fetch('/model-connections', {
      method: 'POST',
      headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'openai', name: 'Format test server', base_url: url }),
    });
    if (res.status !== 201) throw new Error(`the connection was refused: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  }, baseUrl);
}

/** A new account with `count` agents selected; `model` is 'offline' or a model server's URL and model name. */
export async function setUp(
  page: Page,
  baseUrl: string,
  count = 3,
  model: 'offline' | { url: string; name: string } = 'offline',
) {
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('formats'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await panel(page).waitFor({ timeout: 20_000 });
  const names = (
    [
      ['Ada', 'Agronomist'],
      ['Bo', 'Economist'],
      ['Cy', 'Grower'],
    ] as [string, string][]
  ).slice(0, count);
  const modelId = model === 'offline' ? 'offline' : `@${await connectModelServer(page, model.url)}/${model.name}`;
  await makeOfflineAgents(page, names, modelId);
  for (const [name] of names) await node(page, name).click();
}

export async function axeClean(page: Page, label: string) {
  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ]) {
    await page.setViewportSize({ width, height });
    const serious = (await axeViolations(page)).filter(isSerious);
    if (serious.length) throw new Error(`axe on ${label} at ${width}: ${describeViolations(serious)}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/**
 * Waits until `text` is in the feed, wherever it is: the feed draws only the rows near its view, and a fast model can
 * finish the run (the view pinned to the newest row) before an early row was ever looked for. From the top down.
 */
export async function seeInFeed(feedOwner: Locator, text: RegExp, timeout = 20_000): Promise<void> {
  const row = feedOwner.getByText(text);
  const scroller = feedOwner.locator('.feed__scroller');
  const until = Date.now() + timeout;
  await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
  while (Date.now() < until) {
    if (await row.first().isVisible()) return;
    const atEnd = await scroller.evaluate((el) => {
      const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      el.scrollBy({ top: el.clientHeight * 0.8 });
      return end;
    });
    if (atEnd) await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await feedOwner.page().evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  }
  throw new Error(`the feed never showed ${text}`);
}
