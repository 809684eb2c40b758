import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { pdfOf } from '../support/documents';
import { makeOfflineAgents } from './agents';
import { expectDialogClean } from './axe';
import { runShortBasic } from './basicRun';
import { test, uniqueEmail } from './harness';

// Sources (docs/sources.md) against the real server and its offline model: a PDF and a Markdown file added in the
// panel's Sources section are read by the agents of the next discussion; a turn's citation chip opens the passage
// it stands on, with the quoted sentence highlighted; the dialog is axe clean and Esc closes it. Screens of the
// passage dialog at 1440×900 and 1024×700 go to docs/screens.
const PASSWORD = 'correct-horse-42';
const CONTEXT = 'Should the allotment share one rainwater tank between its plots?';
const FACT = 'A shared rainwater tank of 5,000 litres watered all twelve plots through the dry summer';
const SCREENS = path.resolve('docs/screens');

const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });

test('sources: a PDF and a Markdown file are read by the agents, and a citation chip opens its passage', async ({
  page,
  baseUrl,
}) => {
  const dir = path.join(tmpdir(), `agora-e2e-sources-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const md = path.join(dir, 'allotment-notes.md');
  writeFileSync(md, `# Water\n\n${FACT}. Members took turns checking the overflow.\n`);
  const pdf = path.join(dir, 'committee-report.pdf');
  writeFileSync(pdf, pdfOf(['Committee report on the allotment.', 'The rainwater tank cost 400 pounds to fit.']));

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('sources'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await panel(page).waitFor({ timeout: 20_000 });
  await makeOfflineAgents(page, [
    ['Ada', 'Agronomist'],
    ['Bo', 'Treasurer'],
  ]);

  // The Sources section: one line until opened; both files added at once, read one after the other.
  const section = panel(page).locator('details.sources');
  await section.locator('summary').click();
  await section.getByText('No sources yet.', { exact: false }).waitFor({ timeout: 15_000 });
  await section.locator('input[type="file"]').setInputFiles([md, pdf]);
  await section.getByText('allotment-notes.md', { exact: true }).waitFor({ timeout: 30_000 });
  await section.getByText('committee-report.pdf', { exact: true }).waitFor({ timeout: 30_000 });
  await section.getByText('PDF · 2 pages · 2 passages').waitFor();
  for (const name of ['allotment-notes.md', 'committee-report.pdf'])
    if (!(await section.getByRole('checkbox', { name }).isChecked())) throw new Error(`${name} is not ticked`);
  await section.getByText('2 of 2 read by the agents', { exact: false }).waitFor();
  await section.screenshot({ path: path.join(SCREENS, 'sources-section-1440.png') });

  // Both agents take part; a short Basic discussion.
  for (const name of ['Ada', 'Bo'])
    await page
      .getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') })
      .first()
      .click();
  await runShortBasic(page, CONTEXT);

  // The first turn quotes the notes and cites them; its chip opens the passage.
  const chip = panel(page)
    .getByRole('button', { name: /^S1 · allotment-notes\.md/ })
    .first();
  await chip.waitFor({ timeout: 10_000 });
  await chip.click();
  const passage = page.getByRole('dialog', { name: /allotment-notes\.md/ });
  await passage.waitFor();
  const marked = (await passage.locator('mark').textContent()) ?? '';
  if (!marked.includes('5,000 litres')) throw new Error(`the highlighted quote is "${marked}"`);
  await expectDialogClean(page, '.passage-dialog', 'the passage dialog');
  await passage.screenshot({ path: path.join(SCREENS, 'sources-passage-1440.png') });
  await page.screenshot({ path: path.join(SCREENS, 'sources-feed-1440.png') });
  await page.keyboard.press('Escape');
  await passage.waitFor({ state: 'detached' });
  if (!(await chip.evaluate((el) => el === document.activeElement)))
    throw new Error('the focus did not go back to the chip');

  await page.setViewportSize({ width: 1024, height: 700 });
  await chip.click();
  await passage.waitFor();
  await page.screenshot({ path: path.join(SCREENS, 'sources-passage-1024.png') });
  await page.keyboard.press('Escape');
});
