import type { Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { axeViolations, describeViolations, isSerious } from './axe';
import { test, uniqueEmail } from './harness';

// The four formats through the standard panel against the real server and its offline model (which plays every
// format: a moderator's pick, a ranking, a vote): the 'Format' setting, the person giving the floor, a council's
// stages and ranking, a debate judged by the person; each at 1440×900 and 1024×700 with axe clean, and a screenshot
// of each for the README (docs/screens/format-*.png).

const PASSWORD = 'correct-horse-42';
const CONTEXT = 'Should our family vineyard switch from furrow to drip irrigation before next season?';
const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();
const finished = (page: Page) => panel(page).getByText(/Discussion (finished|stopped)|stopped with an error/);

async function setUp(page: Page, baseUrl: string, count = 3) {
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

async function axeClean(page: Page, label: string) {
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

async function startWith(page: Page, format: string, roles: Record<string, string> = {}) {
  const newRun = panel(page).getByRole('button', { name: 'New discussion' });
  if (await newRun.isVisible()) await newRun.click();
  await panel(page).getByLabel('Format', { exact: true }).selectOption({ label: format });
  for (const [label, value] of Object.entries(roles))
    await panel(page).getByLabel(label, { exact: true }).selectOption({ label: value });
  await panel(page).getByLabel('Discussion context').fill(CONTEXT);
  await panel(page)
    .getByRole('button', { name: /^Start .*Discussion$/ })
    .click();
}

const shot = (page: Page, name: string) => page.screenshot({ path: `docs/screens/format-${name}-1440.png` });

test(
  'formats: moderated by the person, the floor given by a button; End discussion writes the summary',
  async ({ page, baseUrl }) => {
    await setUp(page, baseUrl);
    await startWith(page, 'Moderated', { Moderator: 'You' });
    const give = panel(page).getByRole('button', { name: 'Give the floor to Bo' });
    await give.waitFor({ timeout: 20_000 });
    await panel(page)
      .getByText(/Waiting for you to give the floor/)
      .waitFor();
    await give.focus();
    await page.keyboard.press('Enter');
    await panel(page).getByText('Bo has the floor: given the floor by you').waitFor({ timeout: 20_000 });
    await panel(page).locator('.message-card').first().waitFor({ timeout: 20_000 });
    await axeClean(page, 'a moderated discussion');
    await shot(page, 'moderated');
    await panel(page).getByRole('button', { name: 'End discussion' }).click();
    await finished(page).waitFor({ timeout: 30_000 });
  },
  { timeoutMs: 120_000 },
);

test(
  'formats: a council shows its three stages, the ranking and the chair’s answer',
  async ({ page, baseUrl }) => {
    await setUp(page, baseUrl);
    await startWith(page, 'Council', { Chair: 'Cy' });
    await panel(page)
      .getByText(/Stage 1: independent answers/)
      .waitFor({ timeout: 20_000 });
    await panel(page)
      .getByText(/^Ranking: 1\. Answer/)
      .waitFor({ timeout: 60_000 });
    await panel(page)
      .getByText(/Stage 3: the chair/)
      .waitFor();
    await finished(page).waitFor({ timeout: 60_000 });
    await axeClean(page, 'a council');
    await shot(page, 'council');
  },
  { timeoutMs: 150_000 },
);

test(
  'formats: a debate judged by the person — two buttons and a confidence slider, votes and the result',
  async ({ page, baseUrl }) => {
    // Two debaters, one a side: six paced turns between the two votes.
    await setUp(page, baseUrl, 2);
    await startWith(page, 'Debate', { Judge: 'You' });
    await panel(page)
      .getByText(/Waiting for your vote as judge before the debate/)
      .waitFor({ timeout: 20_000 });
    await panel(page)
      .getByLabel(/Confidence/)
      .fill('40');
    await panel(page).getByRole('button', { name: 'For', exact: true }).click();
    await panel(page)
      .getByText(/You vote For \(40 ?%\) before the debate/)
      .waitFor({ timeout: 10_000 });
    await panel(page)
      .getByText(/Waiting for your vote as judge after the debate/)
      .waitFor({ timeout: 180_000 });
    await panel(page)
      .getByLabel(/Confidence/)
      .fill('80');
    await panel(page).getByRole('button', { name: 'For', exact: true }).click();
    await panel(page)
      .getByText(/For gained 40 points/)
      .waitFor({ timeout: 10_000 });
    await finished(page).waitFor({ timeout: 60_000 });
    await axeClean(page, 'a debate');
    await shot(page, 'debate');
  },
  { timeoutMs: 300_000 },
);

test(
  'formats: an @mention chosen from the completion list gives the named agent the next turn',
  async ({ page, baseUrl }) => {
    await setUp(page, baseUrl);
    await panel(page)
      .getByText(/speak in turn/)
      .waitFor();
    await axeClean(page, 'the Format setting');
    await startWith(page, 'Moderated', { Moderator: 'You' });
    const box = panel(page).getByLabel('Your message to the agents');
    await box.waitFor({ timeout: 20_000 });
    await box.pressSequentially('What does it cost, @C');
    await panel(page)
      .getByRole('listbox', { name: 'Agents to mention' })
      .getByRole('option', { name: '@Cy' })
      .waitFor();
    await box.press('Enter');
    await box.press('Enter');
    await panel(page).getByText('Cy has the floor: mentioned by you').waitFor({ timeout: 20_000 });
    await shot(page, 'mention');
    await panel(page).getByRole('button', { name: 'End discussion' }).click();
    await finished(page).waitFor({ timeout: 30_000 });
  },
  { timeoutMs: 120_000 },
);
