import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Download, Page } from 'playwright-core';
import { discussionExport } from '../../src/schemas/exportJson';
import { makeOfflineAgents } from './agents';
import { axeViolations, describeViolations, isSerious } from './axe';
import { test, uniqueEmail } from './harness';
import { startTcpProxy } from './tcpProxy';

// The standard discussion panel end to end, against the real server and its offline model (which streams at the
// pace scripts/e2e.mjs sets): start on each endpoint, watch messages stream in with the speaker on the canvas, join
// in, switch tabs, stop, export both ways; cut the connection mid-discussion and see it resume with nothing lost or
// doubled; lose the server for good and see the reconnects run out.
const PASSWORD = 'correct-horse-42';
const CONTEXT = 'Should our family vineyard switch from furrow to drip irrigation before next season?';

async function signUp(page: Page, baseUrl: string) {
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('discussion'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await panel(page).waitFor({ timeout: 20_000 });
}

/** Two agents on the offline model (agents.ts), then both selected on the canvas. */
async function makeAgents(
  page: Page,
  names: [string, string][] = [
    ['Ada', 'Agronomist'],
    ['Bo', 'Economist'],
  ],
) {
  await makeOfflineAgents(page, names);
  for (const [name] of names) await node(page, name).click();
}

const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
// Not \b: a word boundary in a JS regex knows only ASCII letters, and one agent is called 'Анна'.
const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();
const cards = (page: Page) => panel(page).locator('.message-card');
const banner = (page: Page) => panel(page).getByRole('alert');

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function setSettings(page: Page, checks: Record<string, boolean>, numbers: Record<string, number> = {}) {
  await panel(page).getByRole('button', { name: 'Advanced Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Advanced Settings' });
  for (const [label, on] of Object.entries(checks)) await dialog.getByLabel(label, { exact: true }).setChecked(on);
  for (const [label, value] of Object.entries(numbers)) await dialog.getByLabel(label).fill(String(value));
  await dialog.getByRole('button', { name: 'Done' }).click();
}

/** Starts whatever the settings choose; with `label`, first checks the Start button names it. */
async function start(page: Page, label?: string) {
  const newRun = panel(page).getByRole('button', { name: 'New discussion' });
  if (await newRun.isVisible()) await newRun.click();
  await panel(page).getByLabel('Discussion context').fill(CONTEXT);
  const button = panel(page).getByRole('button', { name: /^Start (round table|council|debate|moderated discussion)$/ });
  if (label && (await button.textContent()) !== label)
    throw new Error(`the Start button reads "${await button.textContent()}", expected "${label}"`);
  await button.click();
}

const finished = (page: Page) => panel(page).getByText(/Discussion (finished|stopped)|stopped with an error/);

async function exportFile(page: Page, button: 'PDF' | 'JSON'): Promise<{ name: string; file: string }> {
  const [download] = (await Promise.all([
    page.waitForEvent('download'),
    panel(page).getByRole('button', { name: button, exact: true }).click(),
  ])) as [Download, unknown];
  const file = path.join(tmpdir(), `agora-e2e-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return { name: download.suggestedFilename(), file };
}

async function expectAxeClean(page: Page, label: string) {
  const serious = (await axeViolations(page)).filter(isSerious);
  if (serious.length > 0) throw new Error(`axe found serious violations on ${label}:\n${describeViolations(serious)}`);
}

// The panel's title names what will run, for each endpoint the settings choose; Start names the format (round table).
const ENDPOINTS: { name: string; start: string; title: string; settings: Record<string, boolean> }[] = [
  {
    name: 'Basic',
    start: 'Start round table',
    title: 'Discussion',
    settings: {
      'Allow interrupts': false,
      'Use ACL (formal agent messages)': false,
      'Enable multi-round reasoning': false,
      'Hybrid mode (natural language + ACL)': false,
    },
  },
  {
    name: 'Enhanced',
    start: 'Start round table',
    title: 'Discussion',
    settings: { 'Allow interrupts': true },
  },
  {
    name: 'Multi-Round Reasoning',
    start: 'Start round table',
    title: 'Multi-Round Discussion',
    settings: { 'Enable multi-round reasoning': true },
  },
  {
    name: 'Hybrid NLP/ACL',
    start: 'Start round table',
    title: 'Hybrid Discussion',
    settings: {
      'Enable multi-round reasoning': false,
      'Allow interrupts': false,
      'Hybrid mode (natural language + ACL)': true,
    },
  },
];
const title = (page: Page) => panel(page).getByRole('heading', { level: 2 });
const topicTitle = `${CONTEXT.slice(0, 69).trimEnd()}…`;

test(
  'standard panel: each of the four endpoints starts, streams messages and stops',
  async ({ page, baseUrl }) => {
    await signUp(page, baseUrl);
    await makeAgents(page);
    await panel(page)
      .getByText(/Available endpoints: .*Basic/)
      .waitFor({ state: 'attached', timeout: 10_000 });
    for (const endpoint of ENDPOINTS) {
      // The title says what will run until a discussion starts; then it is the topic.
      const newRun = panel(page).getByRole('button', { name: 'New discussion' });
      if (await newRun.isVisible()) await newRun.click();
      await setSettings(page, endpoint.settings);
      // Before a run the title names what will run; a finished run's topic may still stand until the next Start.
      if (![endpoint.title, topicTitle].includes((await title(page).textContent()) ?? ''))
        throw new Error(`${endpoint.name}: the title reads "${await title(page).textContent()}"`);
      await start(page, endpoint.start);
      // The run's kind is in 'About this run', not in the main view.
      await panel(page).getByText('About this run').click();
      await panel(page).locator('.about-run__facts', { hasText: endpoint.name }).waitFor();
      await panel(page).getByText('About this run').click();
      if ((await title(page).textContent()) !== topicTitle)
        throw new Error(`${endpoint.name}: the running title reads "${await title(page).textContent()}"`);
      await waitFor(`two messages on ${endpoint.name}`, async () => (await cards(page).count()) >= 2);
      await panel(page).getByRole('button', { name: 'Stop' }).click();
      await finished(page).waitFor({ timeout: 10_000 });
      if (await banner(page).isVisible()) throw new Error(`${endpoint.name}: ${await banner(page).textContent()}`);
    }
  },
  { timeoutMs: 180_000 },
);

test(
  'standard panel: streamed text, the speaker on the canvas, a human message, tabs, stop, JSON and PDF export, axe',
  async ({ page, baseUrl }) => {
    await signUp(page, baseUrl);
    await makeAgents(page, [
      ['Анна', 'Agronomist'],
      ['Bo', 'Economist'],
    ]);
    await expectAxeClean(page, 'the idle panel');
    await panel(page).getByRole('button', { name: 'Advanced Settings' }).click();
    await expectAxeClean(page, 'Advanced Settings');
    await page.getByRole('dialog', { name: 'Advanced Settings' }).getByRole('button', { name: 'Done' }).click();
    // Enough turns that the discussion is still running while the test joins in.
    await setSettings(page, {}, { Turns: 20 });

    await start(page);
    // A turn being written shows its text growing behind a caret; the writer is the active speaker.
    await panel(page).locator('.typing-caret').first().waitFor({ timeout: 20_000 });
    await waitFor(
      'an active speaker on the canvas',
      async () =>
        (await page
          .locator('.react-flow__node')
          .getByText(/speaking/i)
          .count()) > 0,
      20_000,
    );
    await panel(page).getByText('Active speaker').waitFor();

    const box = panel(page).getByLabel('Your message to the agents');
    await box.fill('What about frost in April?');
    await box.press('Shift+Enter');
    await box.pressSequentially('Drip lines can freeze.');
    await box.press('Enter');
    const mine = panel(page).locator('.message-card--human');
    await mine.waitFor();
    if (!(await mine.textContent())?.includes('What about frost in April?\nDrip lines can freeze.'))
      throw new Error(`the human card reads ${await mine.textContent()}`);
    // The offline model takes the human up: a later agent turn (one asked after the message arrived) refers to it.
    await waitFor(
      'an agent turn after the human message that refers to it',
      () =>
        page.evaluate(() => {
          const human = document.querySelector('.message-card--human');
          if (!human) return false;
          return [...document.querySelectorAll('.turn:not(.turn--human) .message-card__text')].some(
            (el) =>
              human.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING &&
              /frost|drip lines|april/i.test((el as HTMLElement).innerText),
          );
        }),
      60_000,
    );
    await expectAxeClean(page, 'the running discussion');

    for (const tab of ['Reasoning Tree', 'Research', 'Analytics']) {
      await panel(page)
        .getByRole('tab', { name: new RegExp(tab) })
        .click();
      await expectAxeClean(page, `the ${tab} tab`);
    }
    await panel(page)
      .getByRole('img', { name: /Messages by type/ })
      .waitFor();
    await panel(page).getByRole('tab', { name: 'Discussion' }).click();

    // Both agents have spoken (the PDF is checked for both names) before Stop.
    await panel(page).locator('.message-card__who', { hasText: /^Bo$/ }).first().waitFor({ timeout: 30_000 });
    await panel(page).getByRole('button', { name: 'Stop' }).click();
    await finished(page).waitFor({ timeout: 10_000 });
    await waitFor(
      'nobody speaking after Stop',
      async () =>
        (await page
          .locator('.react-flow__node')
          .getByText(/speaking/i)
          .count()) === 0,
      5_000,
    );

    const json = await exportFile(page, 'JSON');
    if (!/^should-our-family-vineyard-switch-from-\d{4}-\d{2}-\d{2}\.json$/.test(json.name))
      throw new Error(`JSON file name ${json.name}`);
    const exp = discussionExport.parse(JSON.parse(readFileSync(json.file, 'utf8')));
    if (exp.context !== CONTEXT) throw new Error('the export lost the context');
    if (!exp.messages.some((m) => m.kind === 'human' && m.content.includes('frost')))
      throw new Error('the export lost the human message');
    if (new Set(exp.messages.map((m) => m.id)).size !== exp.messages.length)
      throw new Error('the export has a message twice');

    const pdf = await exportFile(page, 'PDF');
    if (!/^should-our-family-vineyard-switch-from-\d{4}-\d{2}-\d{2}\.pdf$/.test(pdf.name))
      throw new Error(`PDF file name ${pdf.name}`);
    const text = execFileSync('pdftotext', ['-layout', pdf.file, '-'], { encoding: 'utf8' });
    for (const expected of ['Анна', 'Bo', 'frost in April', 'furrow to drip']) {
      if (!text.includes(expected)) throw new Error(`the PDF text lacks "${expected}"`);
    }
  },
  { timeoutMs: 180_000 },
);

test(
  'standard panel: a dropped connection reconnects with the same session and nothing is lost or doubled; a server gone for good runs the attempts out',
  async ({ page, baseUrl }) => {
    const proxy = await startTcpProxy(new URL(baseUrl));
    try {
      await signUp(page, proxy.url);
      await makeAgents(page);
      await setSettings(page, ENDPOINTS[0]!.settings);
      await start(page);
      await waitFor('two messages', async () => (await cards(page).count()) >= 2);
      proxy.dropAll();
      await banner(page).getByText('Connection lost (attempt 1/3). Reconnecting...').waitFor({ timeout: 10_000 });
      await finished(page).waitFor({ timeout: 90_000 });
      const json = await exportFile(page, 'JSON');
      const exp = discussionExport.parse(JSON.parse(readFileSync(json.file, 'utf8')));
      const turns = exp.messages.filter((m) => m.kind === 'text');
      if (turns.length !== 6)
        throw new Error(`expected the 6 turns once each, got ${turns.length}: ${turns.map((t) => t.id).join(', ')}`);
      if (new Set(exp.messages.map((m) => m.id)).size !== exp.messages.length)
        throw new Error('a message shows twice after the reconnect');

      await panel(page).getByRole('button', { name: 'New discussion' }).click();
      await start(page);
      await waitFor('a message', async () => (await cards(page).count()) >= 1);
      proxy.refuse();
      await banner(page)
        .getByText('Connection lost to Basic. Please check server availability.')
        .waitFor({ timeout: 40_000 });
    } finally {
      await proxy.close();
    }
  },
  { timeoutMs: 180_000 },
);

/** Whitespace squashed: pdftotext wraps lines, the feed's innerText keeps the text's own breaks. */
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

test(
  'one turn, one bubble: each agent turn once in the feed and the PDF; one count in panel, History, PDF and JSON; plain words',
  async ({ page, baseUrl }) => {
    await signUp(page, baseUrl);
    await makeAgents(page);
    await panel(page)
      .getByText(/Available endpoints: .*Multi-Round/)
      .waitFor({ state: 'attached', timeout: 10_000 });
    // The title and Start button follow the endpoint the settings choose, with one line saying why.
    await setSettings(page, { 'Enable multi-round reasoning': true });
    if ((await title(page).textContent()) !== 'Multi-Round Discussion')
      throw new Error(`title ${await title(page).textContent()}`);
    await panel(page).getByRole('button', { name: 'Start round table' }).waitFor();
    // Why this kind runs is said under 'About this run' (in the page while that is closed).
    await panel(page)
      .getByText(/^Multi-round reasoning is on/)
      .waitFor({ state: 'attached' });
    // Enhanced with formal (ACL) messages: every turn also sends an ACL message, which must not show twice.
    await setSettings(
      page,
      { 'Enable multi-round reasoning': false, 'Use ACL (formal agent messages)': true, 'Allow interrupts': true },
      { Turns: 6 },
    );
    await start(page, 'Start round table');
    const box = panel(page).getByLabel('Your message to the agents');
    await box.fill('Parking fees bring in two million a year.');
    await box.press('Enter');
    await panel(page).locator('.message-card--human').waitFor();
    await finished(page).waitFor({ timeout: 90_000 });

    // No socket paths or session ids in the main view (the About popover keeps them, closed).
    const mainText = await panel(page).innerText();
    for (const bad of ['/ws/', 'session_', 'ENHANCED', 'query-if', 'ontology'])
      if (mainText.includes(bad)) throw new Error(`the main view shows "${bad}"`);

    // One bubble per turn, each turn's text once in the feed. The feed is virtualized: scroll it from the top and
    // read every row once (by its index).
    const log = panel(page).getByRole('log', { name: 'Discussion messages' });
    const rows = new Map<number, { text: string; turn: string | null }>();
    const scroller = log.locator('.feed__scroller');
    await scroller.evaluate((el) => el.scrollTo(0, 0));
    for (let step = 0; step < 200; step++) {
      // The virtualised feed renders the rows a scroll brings in on the next frames.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const seen = await log.locator('[data-index]').evaluateAll((els) =>
        els.map((el) => ({
          index: Number(el.getAttribute('data-index')),
          text: (el as HTMLElement).innerText,
          turn:
            (el.querySelector('.turn:not(.turn--human) .message-card__text') as HTMLElement | null)?.innerText ?? null,
        })),
      );
      for (const r of seen) rows.set(r.index, { text: squash(r.text), turn: r.turn === null ? null : squash(r.turn) });
      const atEnd = await scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
      if (atEnd) break;
      await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight * 0.6));
    }
    const turns = [...rows.values()].flatMap((r) => (r.turn ? [r.turn] : []));
    if (turns.length < 4) throw new Error(`only ${turns.length} agent turns shown`);
    for (const t of turns) {
      const holding = [...rows.values()].filter((r) => r.text.includes(t)).length;
      if (holding !== 1) throw new Error(`the feed shows "${t.slice(0, 60)}…" in ${holding} rows`);
    }
    if ((await log.locator('.turn details').count()) === 0) throw new Error('no turn has its collapsed details');

    // The one count: panel footer, JSON, PDF, History list and the opened History view.
    const counted = Number((await panel(page).getByTestId('count-messages').textContent())!.split(' ')[0]);
    if (counted !== turns.length + 1)
      throw new Error(`the footer counts ${counted}, the feed has ${turns.length} turns and 1 human message`);
    const json = discussionExport.parse(JSON.parse(readFileSync((await exportFile(page, 'JSON')).file, 'utf8')));
    if (json.message_count !== counted) throw new Error(`the JSON counts ${json.message_count}, the panel ${counted}`);
    const pdfText = squash(
      execFileSync('pdftotext', [(await exportFile(page, 'PDF')).file, '-'], { encoding: 'utf8' }),
    );
    if (!pdfText.includes(`Discussion (${counted} messages)`))
      throw new Error(`the PDF does not say ${counted} messages`);
    for (const t of turns)
      if (occurrences(pdfText, t) !== 1)
        throw new Error(`the PDF has "${t.slice(0, 60)}…" ${occurrences(pdfText, t)} times`);

    await panel(page).getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: /History|Past discussions/ });
    const row = dialog.getByRole('listitem', { name: CONTEXT });
    await row.waitFor({ timeout: 10_000 });
    if (!(await row.textContent())?.includes(`${counted} messages`))
      throw new Error(`the History list reads ${await row.textContent()}`);
    await row.getByRole('button', { name: `Open ${CONTEXT}` }).click();
    await dialog.getByText(`${counted} messages`, { exact: true }).waitFor({ timeout: 10_000 });
  },
  { timeoutMs: 180_000 },
);
