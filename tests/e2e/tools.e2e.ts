import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { expectDialogClean } from './axe';
import { test, uniqueEmail } from './harness';
import { startShortBasic } from './basicRun';

// Tools (docs/tools.md) against the real server and its offline model: the Models dialog lists the built-in tools;
// Ada is given the built-in calculator with 'Ask me before each call' in her editor; in a discussion whose context
// holds a sum, the demo model calls the calculator once in her turn, the call waits for the person, Run lets it
// through and its row under her turn shows the result; in a second discussion Refuse stops it and the row says so.
// The call rows and the editor's Tools section are axe clean. Screens go to docs/screens.
// Waits for the server side of issue 42 (tools-server branch): GET /tools, the demo model's calculator call, the
// tool_call / tool_result frames and tool_approval.
const PASSWORD = 'correct-horse-42';
const CONTEXT = 'The trial runs 12 * 7 days: is that long enough to judge the new rota?';
const SCREENS = path.resolve('docs/screens');

const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
const node = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name},`) });

test('tools: the calculator waits for Run or Refuse, and its call row shows the result', async ({ page, baseUrl }) => {
  mkdirSync(SCREENS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('tools'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await panel(page).waitFor({ timeout: 20_000 });
  await makeOfflineAgents(page, [
    ['Ada', 'Analyst'],
    ['Bo', 'Planner'],
  ]);

  // The Models dialog lists the built-in tools.
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Models' }).click();
  const models = page.getByRole('dialog', { name: 'Models' });
  const builtin = models.getByRole('article', { name: 'Tool server Built-in tools' });
  await builtin.getByText('calculator').waitFor({ timeout: 15_000 });
  await builtin.scrollIntoViewIfNeeded();
  await models.locator('.tools-section').screenshot({ path: path.join(SCREENS, 'tools-models-1440.png') });
  await page.keyboard.press('Escape');

  // Ada gets the calculator, asking first.
  await node(page, 'Ada').click({ button: 'right' });
  await page.getByRole('menuitem', { name: /Edit Agent/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Edit Ada' });
  const tools = drawer.getByRole('region', { name: 'Tools' });
  await tools.getByRole('switch', { name: /calculator/ }).check({ timeout: 15_000 });
  await tools.getByRole('checkbox', { name: /Ask me before each call/ }).check();
  await expectDialogClean(page, '[aria-label="Tools"]', "the editor's Tools section");
  await tools.screenshot({ path: path.join(SCREENS, 'tools-editor-1440.png') });
  await drawer.getByRole('button', { name: 'Update Agent' }).click();
  await drawer.getByText('Saved', { exact: true }).waitFor();
  await drawer.getByRole('button', { name: 'Close editor' }).click();

  for (const name of ['Ada', 'Bo'])
    await page
      .getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') })
      .first()
      .click();

  // Run: the call waits in its row, the chip says what Ada is doing; Run lets it through.
  await startShortBasic(page, CONTEXT);
  const rows = panel(page).getByRole('list', { name: 'Tool calls' }).first();
  await rows.getByText('waiting for you', { exact: true }).waitFor({ timeout: 30_000 });
  await panel(page).getByText('using calculator…').waitFor();
  await expectDialogClean(page, '.tool-calls', 'a waiting tool call row');
  await panel(page).screenshot({ path: path.join(SCREENS, 'tools-waiting-1440.png') });
  await rows.getByRole('button', { name: 'Run' }).click();
  await rows.getByText('done', { exact: true }).waitFor({ timeout: 30_000 });
  const toggle = rows.getByRole('button', { name: /calculator\(/ });
  if (!((await toggle.textContent()) ?? '').includes('→ 84'))
    throw new Error(`the row says "${await toggle.textContent()}"`);
  await toggle.focus();
  await page.keyboard.press('Enter');
  await rows.getByText('"expression"', { exact: false }).waitFor();
  await expectDialogClean(page, '.tool-calls', 'an opened tool call row');
  await panel(page).getByText('Discussion finished.').waitFor({ timeout: 60_000 });
  await panel(page).screenshot({ path: path.join(SCREENS, 'tools-row-1440.png') });

  // Refuse: the server never runs it and the row says so.
  await panel(page).getByRole('button', { name: 'New discussion' }).click();
  await startShortBasic(page, CONTEXT);
  const again = panel(page).getByRole('list', { name: 'Tool calls' }).first();
  await again.getByText('waiting for you', { exact: true }).waitFor({ timeout: 30_000 });
  await again.getByRole('button', { name: 'Refuse' }).click();
  await again.getByText('refused', { exact: true }).waitFor({ timeout: 10_000 });
  await panel(page).getByText('Discussion finished.').waitFor({ timeout: 60_000 });
});
