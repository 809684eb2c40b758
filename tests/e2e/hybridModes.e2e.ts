import type { Page } from 'playwright-core';
import { axeClean, CONTEXT, setUp } from './formatSteps';
import { test } from './harness';

// The hybrid panel's modes look like what they are (against the real server and its offline model): in
// Structured each turn reads as a message card (the performative as a word, sender → receivers, what it says),
// never raw markup. Screenshot to test-results/screens-hybrid/.

const hybrid = (page: Page) => page.getByRole('complementary', { name: 'Hybrid discussion' });

test(
  'hybrid Structured mode: each turn is a readable message card',
  async ({ page, baseUrl }) => {
    await setUp(page, baseUrl);
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    const p = hybrid(page);
    await p.getByRole('button', { name: /Settings/ }).click();
    await p.getByLabel('Mode', { exact: true }).selectOption('structured');
    await p.getByLabel('Discussion topic').fill(CONTEXT);
    await p.getByRole('button', { name: 'Start round table' }).click();
    const card = p.locator('.acl-card').first();
    await card.waitFor({ timeout: 40_000 });
    const verb = (await card.locator('.acl-card__verb').textContent()) ?? '';
    if (!/^[A-Z][a-z]+( [a-z]+)*$/.test(verb)) throw new Error(`the card's verb reads "${verb}"`);
    const text = (await p.locator('.acl-card').allTextContents()).join('\n');
    if (/[{}]|:sender|:content|\(propose|\(inform|reject-proposal|query-if/.test(text))
      throw new Error(`a card shows raw markup: ${text.slice(0, 300)}`);
    await p.locator('.acl-card').nth(1).waitFor({ timeout: 40_000 });
    await axeClean(page, 'the Structured mode feed');
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: 'test-results/screens-hybrid/structured-1440.png' });
    await p.getByRole('button', { name: /^Stop/ }).click();
  },
  { timeoutMs: 120_000 },
);
