import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { startShortBasic } from './basicRun';
import { test, uniqueEmail } from './harness';

// Costs in the standard panel (docs/protocol.md#costs), against the real server's offline model (which counts
// nothing, so every figure is an estimate and says so): the header's total, Analytics' tokens per agent, and
// 'Stop at … tokens' ending a run with a notice naming the budget. Screens go to test-results/screens-costs.

const SHOTS = path.join('test-results', 'screens-costs');
const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });

async function signUp(page: Page, baseUrl: string) {
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('costs'));
  await page.getByLabel('Password', { exact: true }).fill('correct-horse-42');
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await panel(page).waitFor({ timeout: 20_000 });
}

test('the header totals the tokens, Analytics splits them per agent, and a budget stops the run', async ({
  page,
  baseUrl,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, baseUrl);
  await makeOfflineAgents(page);
  for (const name of ['Ada', 'Bo'])
    await page
      .getByRole('button', { name: new RegExp(`^${name}`) })
      .first()
      .click();

  await startShortBasic(page, 'Should the library open on Sundays?');
  await panel(page).getByText('Discussion finished.').waitFor({ timeout: 60_000 });
  const total = panel(page).getByTestId('panel-tokens');
  await total.waitFor();
  const said = (await total.textContent()) ?? '';
  if (!/^≈ [\d,]+ tokens$/.test(said)) throw new Error(`header total: ${said}`);
  await page.screenshot({ path: path.join(SHOTS, 'header.png') });

  await panel(page)
    .getByRole('tab', { name: /Analytics/ })
    .click();
  await panel(page)
    .getByRole('img', { name: /Tokens per agent and person: .*Ada/ })
    .waitFor();
  await panel(page).screenshot({ path: path.join(SHOTS, 'analytics.png') });
  await panel(page).getByRole('tab', { name: 'Discussion' }).click();

  // A new run with a budget one turn spends: it ends after that turn, with the notice.
  await panel(page).getByRole('button', { name: 'New discussion' }).click();
  await panel(page).getByText('Token budget: none').click();
  await panel(page).getByLabel('Stop at … tokens').fill('100');
  await panel(page).getByLabel('Discussion context').fill('Should the library open late on Thursdays?');
  await panel(page).screenshot({ path: path.join(SHOTS, 'budget-field.png') });
  await panel(page).getByRole('button', { name: 'Start round table' }).click();
  await panel(page)
    .getByText(/Stopped at this discussion's budget of 100 tokens/)
    .waitFor({ timeout: 60_000 });
  await panel(page).getByText('Discussion finished.').waitFor({ timeout: 30_000 });
  await page.screenshot({ path: path.join(SHOTS, 'budget.png') });
});

test('the hybrid panel: its header totals the tokens, and a budget ends the run with a notice', async ({
  page,
  baseUrl,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, baseUrl);
  await makeOfflineAgents(page);
  for (const name of ['Ada', 'Bo'])
    await page
      .getByRole('button', { name: new RegExp(`^${name}`) })
      .first()
      .click();
  await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
  const hybrid = page.getByRole('complementary', { name: 'Hybrid discussion' });
  await hybrid.getByRole('button', { name: 'Settings' }).click();
  const settings = hybrid.getByRole('group', { name: 'Hybrid discussion settings' });
  await settings.getByLabel('Pause between turns (ms)').fill('0');
  // The budget sits under Settings in the hybrid panel, folded while none is set.
  await hybrid.getByText('Token budget: none').click();
  await hybrid.getByLabel('Stop at … tokens').fill('600');
  await hybrid.getByRole('button', { name: 'Settings' }).click();
  await hybrid.getByLabel('Discussion topic').fill('Should the library open on Sundays?');
  await hybrid.getByRole('button', { name: 'Start round table' }).click();
  await hybrid.getByText(/Stopped at this discussion's budget of 600 tokens/).waitFor({ timeout: 90_000 });
  await hybrid.getByText('Discussion ended: its token budget was reached').waitFor({ timeout: 30_000 });
  const said = (await hybrid.getByTestId('panel-tokens').textContent()) ?? '';
  if (!/^≈ [\d,]+ tokens$/.test(said)) throw new Error(`header total: ${said}`);
  await page.screenshot({ path: path.join(SHOTS, 'hybrid-budget.png') });
});
