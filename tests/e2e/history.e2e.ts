import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Download, Page } from 'playwright-core';
import { discussionExport } from '../../src/schemas/exportJson';
import { HISTORY_MESSAGES } from '../../src/schemas/messages';
import { makeOfflineAgents } from './agents';
import { axeViolations, describeViolations, isSerious } from './axe';
import { runShortBasic } from './basicRun';
import { test, uniqueEmail } from './harness';

// Past discussions end to end, against the real server and its offline model: run a short standard discussion,
// open History from the panel, find it listed, open it read-only and see the same messages the panel showed,
// export its JSON, delete it (after the confirmation); axe on the History views. Then a running hybrid discussion
// outlives a page reload and is re-attached from History into the hybrid panel.
const PASSWORD = 'correct-horse-42';
const CONTEXT = 'Should the cooperative share one grape harvester between five small estates?';

const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
const hybridPanel = (page: Page) => page.getByRole('complementary', { name: 'Hybrid discussion' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Past discussions' });
const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function expectAxeClean(page: Page, label: string) {
  const serious = (await axeViolations(page)).filter(isSerious);
  if (serious.length > 0) throw new Error(`axe found serious violations on ${label}:\n${describeViolations(serious)}`);
}

async function signUpWithTwoAgents(page: Page, baseUrl: string, label: string) {
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail(label));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await panel(page).waitFor({ timeout: 20_000 });

  await makeOfflineAgents(page);
}

const cardTexts = (scope: ReturnType<Page['locator']>) =>
  scope.locator('.message-card').evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.trim()));

test(
  'history: a finished discussion is listed, opens read-only with the same messages, exports JSON, and is deleted after confirming; axe',
  async ({ page, baseUrl }) => {
    await signUpWithTwoAgents(page, baseUrl, 'history');
    for (const name of ['Ada', 'Bo']) await node(page, name).click();

    // A short Basic discussion (2 turns), run to its end.
    await runShortBasic(page, CONTEXT);
    const shown = await cardTexts(panel(page));
    if (shown.length < 2) throw new Error(`the panel showed ${shown.length} messages`);

    // History lists it, newest first.
    await panel(page).getByRole('button', { name: 'History' }).click();
    const list = dialog(page).getByRole('list', { name: 'Past discussions' });
    await list.waitFor({ timeout: 10_000 });
    const row = list.getByRole('listitem', { name: CONTEXT });
    await row.waitFor();
    await row.getByText('Completed').waitFor();
    // Tagged by its format, never by the socket it ran on ('Basic').
    const rowText = (await row.textContent()) ?? '';
    if (!rowText.includes('Round table') || rowText.includes('Basic')) throw new Error(`the row reads ${rowText}`);
    await expectAxeClean(page, 'the History list');

    // Open read-only: the same messages as the panel showed.
    await row.getByRole('button', { name: `Open ${CONTEXT}` }).click();
    await dialog(page).getByText('Read-only').waitFor({ timeout: 10_000 });
    const log = dialog(page).getByRole('log', { name: 'Stored messages' });
    await waitFor(
      'the stored messages',
      async () => (await log.locator('.message-card').count()) === shown.length,
      10_000,
    );
    const replayed = await cardTexts(log);
    const differs = replayed.findIndex((r, i) => r !== shown[i]);
    if (differs >= 0 || replayed.length !== shown.length)
      throw new Error(
        `message ${differs + 1} differs: History shows\n${replayed[differs]}\nthe panel showed\n${shown[differs]}`,
      );
    if ((await dialog(page).getByRole('textbox').count()) > 0) throw new Error('the read-only view has a text box');
    await expectAxeClean(page, 'an opened discussion');
    for (const tab of ['Reasoning Tree', 'Research', 'Analytics']) {
      await dialog(page)
        .getByRole('tab', { name: new RegExp(tab) })
        .click();
      await expectAxeClean(page, `the History ${tab} tab`);
    }
    await dialog(page).getByRole('tab', { name: 'Discussion' }).click();

    // Its JSON export.
    const [download] = (await Promise.all([
      page.waitForEvent('download'),
      dialog(page).getByRole('button', { name: 'Export JSON' }).click(),
    ])) as [Download, unknown];
    if (!/^should-the-cooperative-share-one-grape-\d{4}-\d{2}-\d{2}\.json$/.test(download.suggestedFilename()))
      throw new Error(`JSON file name ${download.suggestedFilename()}`);
    const file = path.join(tmpdir(), `agora-e2e-history-${Date.now()}.json`);
    await download.saveAs(file);
    const exp = discussionExport.parse(JSON.parse(readFileSync(file, 'utf8')));
    if (exp.context !== CONTEXT) throw new Error(`the export's context is ${exp.context}`);
    if (exp.messages.length !== shown.length)
      throw new Error(`the export has ${exp.messages.length} messages, the panel showed ${shown.length}`);

    // Delete, after the confirmation.
    await dialog(page).getByRole('button', { name: '← All discussions' }).click();
    await list.getByRole('button', { name: `Delete ${CONTEXT}` }).click();
    const confirm = page.getByRole('alertdialog');
    // It names the discussion: its topic, its date and who took part.
    await confirm
      .getByText(
        new RegExp(
          `^Delete the discussion “${CONTEXT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}” of .+ with .+\\? Its messages cannot be recovered\\.$`,
        ),
      )
      .waitFor();
    await expectAxeClean(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Delete discussion' }).click();
    await dialog(page).getByText(HISTORY_MESSAGES.empty).waitFor({ timeout: 10_000 });
    const left = await page.evaluate(async () => {
      const res = await fetch('/discussion/history', {
        headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
      });
      return ((await res.json()) as unknown[]).length;
    });
    if (left !== 0) throw new Error(`the server still lists ${left} discussions`);
  },
  { timeoutMs: 180_000 },
);

test(
  'history: a running hybrid discussion outlives a page reload and is re-attached from History into the hybrid panel',
  async ({ page, baseUrl }) => {
    const topic = 'Our vineyard loses a fifth of its water to leaks; what do we fix first?';
    await signUpWithTwoAgents(page, baseUrl, 'reattach');
    for (const name of ['Ada', 'Bo']) await node(page, name).click();
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    // Problem Solving: 15 rounds of 2 turns, long enough to be running across the reload.
    await hybridPanel(page).getByRole('button', { name: 'Problem Solving' }).click();
    await hybridPanel(page).getByLabel('Discussion topic').fill(topic);
    await hybridPanel(page).getByRole('button', { name: 'Start round table' }).click();
    await waitFor('two messages', async () => (await hybridPanel(page).locator('.message-card').count()) >= 2, 60_000);

    // A reload drops the socket (not a 1000 close): the server keeps the discussion running for its grace period.
    await page.reload();
    await panel(page).waitFor({ timeout: 20_000 });
    await panel(page).getByRole('button', { name: 'History' }).click();
    const row = dialog(page).getByRole('list', { name: 'Past discussions' }).getByRole('listitem', { name: topic });
    await row.getByText('Running').waitFor({ timeout: 10_000 });
    await row.getByRole('button', { name: `Open ${topic}` }).click();
    await dialog(page).getByText('This discussion is still running.').waitFor({ timeout: 10_000 });
    await expectAxeClean(page, 'a running discussion in History');
    await dialog(page).getByRole('button', { name: 'Re-attach in the panel' }).click();

    // The hybrid panel shows it: what was stored at once, then live turns (a turn streams in only over a live
    // socket; History closes the ones it finds open). That nothing shows twice at any cut: reattachFeed.test.ts.
    await hybridPanel(page).waitFor({ timeout: 10_000 });
    await waitFor(
      'the stored messages in the panel',
      async () => (await hybridPanel(page).locator('.message-card').count()) >= 2,
      10_000,
    );
    await hybridPanel(page).locator('.message-card--streaming').first().waitFor({ timeout: 60_000 });
    await waitFor(
      'that turn to end',
      async () => (await hybridPanel(page).locator('.message-card--streaming').count()) === 0,
      60_000,
    );
    await hybridPanel(page).getByText(`Topic: ${topic}`).waitFor();
    await hybridPanel(page)
      .getByText(/^Round \d+\/15$/)
      .waitFor();
    await hybridPanel(page).getByRole('button', { name: 'Stop Discussion' }).click();
    await hybridPanel(page)
      .getByText(/Discussion (ended|stopped)/)
      .waitFor({ timeout: 10_000 });
  },
  { timeoutMs: 180_000 },
);
