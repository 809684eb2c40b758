// Screenshots of both discussion panels mid-discussion and finished, at 1440×900 and 1024×700, for looking at the
// one-bubble feed and the panels' words. Against a running app: FEED_SCREENS_BASE=http://127.0.0.1:PORT
// npx tsx scripts/feed-screens.ts OUT_DIR
import { chromium, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../tests/e2e/harness';
import { makeOfflineAgents } from '../tests/e2e/agents';

const base = process.env.FEED_SCREENS_BASE!;
const out = process.argv[2] ?? 'test-results/feed-screens';
const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();

async function run(width: number, height: number) {
  const browser = await chromium.launch(chromiumLaunchOptions);
  const page = await browser.newPage({ viewport: { width, height } });
  const shot = (name: string) => page.screenshot({ path: `${out}/${name}-${width}x${height}.png` });
  await page.goto(base);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(`shots-${width}-${Date.now()}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('correct-horse-42');
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'Discussion', exact: true });
  await panel.waitFor({ timeout: 20_000 });
  await makeOfflineAgents(page, [
    ['Ada Lovelace', 'Planner'],
    ['Bo', 'Economist'],
    ['Cy', 'Teacher'],
  ]);
  for (const n of ['Ada Lovelace', 'Bo', 'Cy']) await node(page, n).click();
  await panel.getByText(/Available endpoints: .*Basic/).waitFor({ state: 'attached', timeout: 10_000 });
  await shot('standard-idle');
  await panel.getByRole('button', { name: 'Advanced Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Advanced Settings' });
  await settings.getByLabel('Use ACL (formal agent messages)', { exact: true }).setChecked(true);
  await shot('standard-settings');
  await settings.getByRole('button', { name: 'Done' }).click();
  await panel.getByLabel('Discussion context').fill('Should our town square be closed to cars on weekends?');
  await panel.getByRole('button', { name: /^Start (round table|council|debate|moderated discussion)$/ }).click();
  await panel.locator('.turn').nth(2).waitFor({ timeout: 60_000 });
  const box = panel.getByLabel('Your message to the agents');
  await box.fill('Parking fees bring in two million dollars a year.');
  await box.press('Enter');
  await page.waitForTimeout(1500);
  await shot('standard-running');
  await panel.getByText(/Discussion finished/).waitFor({ timeout: 120_000 });
  await panel.locator('.turn details').first().locator('summary').click();
  await shot('standard-finished');
  await panel.getByRole('tab', { name: /Research/ }).click();
  await shot('standard-research');
  await panel.getByRole('tab', { name: /Reasoning Tree/ }).click();
  await shot('standard-tree');
  await panel.getByRole('tab', { name: 'Discussion' }).click();

  await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
  const hybrid = page.getByRole('complementary', { name: 'Hybrid discussion' });
  await hybrid.getByRole('button', { name: 'Problem Solving' }).click();
  await shot('hybrid-idle');
  await hybrid.getByRole('button', { name: /^Start (round table|council|debate|moderated discussion)$/ }).click();
  await hybrid.locator('.turn').nth(2).waitFor({ timeout: 60_000 });
  await shot('hybrid-running');
  await hybrid.getByRole('button', { name: 'Stop Discussion' }).click();
  await page.waitForTimeout(1500);
  await shot('hybrid-finished');
  await browser.close();
}

for (const [w, h] of [
  [1440, 900],
  [1024, 700],
])
  await run(w, h);
console.log('done');
