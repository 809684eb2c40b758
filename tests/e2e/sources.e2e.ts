import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { pdfOf } from '../support/documents';
import { makeOfflineAgents } from './agents';
import { expectDialogClean, expectNoSeriousViolations } from './axe';
import { runShortBasic } from './basicRun';
import { test, uniqueEmail } from './harness';

// Sources (docs/sources.md) against the real server and its offline model: a PDF and a Markdown file added in the
// panel's Sources section are read by the agents of the next discussion; a turn's citation chip opens the passage
// it stands on, with the quoted sentence highlighted; the dialog is axe clean and Esc closes it. The Research tab
// lists the sources cited and by whom (a passage opens from there too); an agent's own sources are ticked in the
// editor's Knowledge section and saved as its source_ids. Screens at 1440×900 and 1024×700 go to docs/screens.
const PASSWORD = 'correct-horse-42';
const CONTEXT = 'Should the allotment share one rainwater tank between its plots?';
const FACT = 'A shared rainwater tank of 5,000 litres watered all twelve plots through the dry summer';
const SCREENS = path.resolve('docs/screens');

const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
const node = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name},`) });

/** The Research tab: the sources cited, by whom; a passage opens from there. */
async function research(page: Page, width: number) {
  await panel(page)
    .getByRole('tab', { name: /^Research/ })
    .click();
  const cited = panel(page).getByRole('region', { name: 'Sources cited' });
  await cited.getByText('allotment-notes.md', { exact: true }).waitFor();
  await cited
    .getByText(/cited (twice|\d+ times|once)/)
    .first()
    .waitFor();
  await cited.getByText('Ada', { exact: false }).first().waitFor();
  await page.screenshot({ path: path.join(SCREENS, `sources-research-${width}.png`) });
  await cited
    .getByRole('button', { name: /^Open allotment-notes\.md/ })
    .first()
    .click();
  const passage = page.getByRole('dialog', { name: /allotment-notes\.md/ });
  await passage.waitFor();
  await page.keyboard.press('Escape');
  await passage.waitFor({ state: 'detached' });
}

/** The editor's Knowledge section: tick a source for one agent only and save it with the agent. */
async function knowledge(page: Page, width: number, tick: boolean) {
  await node(page, 'Bo').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Edit Agent' }).click();
  const drawer = page.getByRole('dialog', { name: 'Edit Bo' });
  const section = drawer.getByRole('region', { name: 'Knowledge' });
  await section.getByText('committee-report.pdf', { exact: true }).waitFor({ timeout: 15_000 });
  const box = section.getByRole('checkbox', { name: 'committee-report.pdf' });
  if (tick) {
    await box.check();
    await section.getByText('Not saved yet').waitFor();
    await drawer.getByRole('button', { name: 'Update Agent' }).click();
    await drawer.getByText('Saved', { exact: true }).waitFor();
    await section.getByText('Not saved yet').waitFor({ state: 'detached' });
  } else if (!(await box.isChecked())) throw new Error('the saved Knowledge tick did not come back');
  await section.scrollIntoViewIfNeeded();
  await expectNoSeriousViolations(page, 'the editor with its Knowledge section');
  await page.screenshot({ path: path.join(SCREENS, `sources-knowledge-${width}.png`) });
  await page.getByRole('button', { name: 'Close editor' }).click();
  await drawer.waitFor({ state: 'detached' });
}

test(
  'sources: a PDF and a Markdown file are read by the agents, and a citation chip opens its passage',
  async ({ page, baseUrl }) => {
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

    await research(page, 1440);
    await knowledge(page, 1440, true);
    // The agent answers with its own sources: the server keeps them, so only Bo reads the report from now on.
    const own = await page.evaluate(async () => {
      const headers = { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` };
      const agents = (await (await fetch('/agents/', { headers })).json()) as { name: string; source_ids?: string[] }[];
      const sources = (await (await fetch('/sources', { headers })).json()) as { id: string; name: string }[];
      const report = sources.find((x) => x.name === 'committee-report.pdf')?.id;
      return agents.map((a) => [a.name, (a.source_ids ?? []).includes(report ?? '-')]);
    });
    if (
      JSON.stringify(own.sort()) !==
      JSON.stringify([
        ['Ada', false],
        ['Bo', true],
      ])
    )
      throw new Error(`agents' own sources: ${JSON.stringify(own)}`);

    await page.setViewportSize({ width: 1024, height: 700 });
    await panel(page)
      .getByRole('tab', { name: /^Discussion/ })
      .click();
    await chip.click();
    await passage.waitFor();
    await page.screenshot({ path: path.join(SCREENS, 'sources-passage-1024.png') });
    await page.keyboard.press('Escape');
    await research(page, 1024);
    await knowledge(page, 1024, false);

    // During a run the Sources section stays, and says that what is added then is read from the next turn: the
    // PDF unticked before Start and ticked during the run is sent to it, and the feed says so.
    await panel(page).getByRole('button', { name: 'New discussion' }).click();
    await panel(page).getByLabel('Discussion context').fill(CONTEXT);
    const during = panel(page).locator('details.sources');
    if (!(await during.evaluate((d) => (d as HTMLDetailsElement).open))) await during.locator('summary').click();
    await during.getByRole('checkbox', { name: 'committee-report.pdf' }).uncheck();
    await panel(page).getByRole('button', { name: 'Start round table' }).click();
    await during.getByText(/of \d+ ticked/).waitFor({ timeout: 5_000 });
    await during.getByText('read by the running discussion from its next turn', { exact: false }).waitFor();
    await during.getByRole('checkbox', { name: 'committee-report.pdf' }).check();
    await panel(page)
      .getByRole('tab', { name: /^Discussion/ })
      .click();
    await panel(page).getByText('committee-report.pdf added: the next turns read it.').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(SCREENS, 'sources-during-run-1024.png') });
    await panel(page).getByText('Discussion finished.').waitFor({ timeout: 60_000 });
  },
  { timeoutMs: 150_000 },
);
