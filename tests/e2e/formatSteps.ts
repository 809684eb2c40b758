import type { Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { axeViolations, describeViolations, isSerious } from './axe';
import { uniqueEmail } from './harness';

// What the formats e2e files share: a new account with three offline agents selected, and axe at the two sizes.

const PASSWORD = 'correct-horse-42';
export const CONTEXT = 'Should our family vineyard switch from furrow to drip irrigation before next season?';
export const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
export const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();
export const finished = (page: Page) => panel(page).getByText(/Discussion (finished|stopped)|stopped with an error/);

export async function setUp(page: Page, baseUrl: string, count = 3) {
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
  await makeOfflineAgents(page, names);
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
