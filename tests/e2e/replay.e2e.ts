import type { Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { axeViolations, describeViolations, isSerious } from './axe';
import { test, uniqueEmail } from './harness';

// History → Replay end to end, against the real server and its offline model: a short Basic discussion, opened
// from History and replayed: the Timeline slider scrubbed with the keyboard and the mouse, Play at 16× to the end,
// the #t=<turn> address opening the replay at that turn after a reload; axe on the replay and on the positions.
// 'Continue from here' at turn 2 starts a new discussion that answers the earlier turns, and History links the two
// both ways. Screenshots of the replay, the position timeline and the continuation links at 1440×900 and 1024×700
// go to docs/screens/.
const PASSWORD = 'correct-horse-42';
const CONTEXT = 'Should the town make its buses fare-free for residents?';
const TURNS = 6;
/** The continuation's topic, changed in the panel before Start (it contains no part of CONTEXT, nor CONTEXT of it). */
const NEXT = 'Who pays when buses go fare-free?';

const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Past discussions' });
const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();
const timeline = (page: Page) => dialog(page).getByRole('slider', { name: 'Timeline' });
const turnShown = async (page: Page) => Number(await timeline(page).inputValue());

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function expectAxeClean(page: Page, label: string) {
  const serious = (await axeViolations(page)).filter(isSerious);
  if (serious.length > 0) throw new Error(`axe found serious violations on ${label}:\n${describeViolations(serious)}`);
}

const messages = (page: Page) =>
  dialog(page).getByRole('log', { name: 'Messages up to this moment' }).locator('.message-card').count();

async function openStored(page: Page) {
  await panel(page).getByRole('button', { name: 'History' }).click();
  const row = dialog(page).getByRole('listitem', { name: CONTEXT });
  await row.waitFor({ timeout: 10_000 });
  await row.getByRole('button', { name: `Open ${CONTEXT}` }).click();
  await dialog(page).getByText('Read-only').waitFor({ timeout: 10_000 });
}

test(
  'replay: scrub the Timeline with the keyboard and the mouse, play at 16×, open a #t= link; axe',
  async ({ page, baseUrl }) => {
    await page.goto(baseUrl);
    await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('replay'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
    await panel(page).waitFor({ timeout: 20_000 });
    await makeOfflineAgents(page);
    for (const name of ['Ada', 'Bo']) await node(page, name).click();

    await panel(page)
      .getByText(/Available endpoints: .*Basic/)
      .waitFor({ state: 'attached', timeout: 10_000 });
    await panel(page).getByRole('button', { name: 'Advanced Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Advanced Settings' });
    for (const label of [
      'Allow interrupts',
      'Use ACL (formal agent messages)',
      'Enable multi-round reasoning',
      'Hybrid mode (natural language + ACL)',
    ]) {
      await settings.getByLabel(label, { exact: true }).setChecked(false);
    }
    await settings.getByLabel('Turns').fill(String(TURNS));
    await settings.getByRole('button', { name: 'Done' }).click();
    await panel(page).getByLabel('Discussion context').fill(CONTEXT);
    await panel(page).getByRole('button', { name: 'Start round table' }).click();
    await panel(page).getByText('Discussion finished.').waitFor({ timeout: 90_000 });

    await openStored(page);
    await dialog(page).getByRole('button', { name: 'Replay' }).click();
    await timeline(page).waitFor();
    if ((await turnShown(page)) !== 0) throw new Error('the replay does not open at its first moment');
    if ((await messages(page)) !== 0) throw new Error('messages are shown before the first turn');

    // Keyboard: End, Home, one turn at a time.
    await timeline(page).focus();
    await page.keyboard.press('End');
    await waitFor('the last turn', async () => (await turnShown(page)) === TURNS, 5_000);
    await dialog(page).getByText(`Turn ${TURNS} of ${TURNS}`).waitFor({ timeout: 5_000 });
    await page.keyboard.press('Home');
    await waitFor('the first moment', async () => (await turnShown(page)) === 0, 5_000);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await waitFor('turn 2', async () => (await turnShown(page)) === 2 && (await messages(page)) === 2, 5_000).catch(
      async (e: Error) => {
        // Say what was shown instead (a CI run once failed here and did not reproduce).
        const focused = await page.evaluate(
          () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName,
        );
        throw new Error(
          `${e.message}: the Timeline shows ${await turnShown(page)}, ${await messages(page)} messages, focus on ${focused}`,
        );
      },
    );
    await waitFor('#t=2 in the address', async () => page.url().endsWith('#t=2'), 5_000);

    // Mouse: a click near the right end of the track.
    const box = (await timeline(page).boundingBox())!;
    await page.mouse.click(box.x + box.width - 3, box.y + box.height / 2);
    await waitFor('the end after a click', async () => (await turnShown(page)) === TURNS, 5_000);

    await dialog(page).getByText(`Turn ${TURNS} of ${TURNS}`).waitFor();
    await expectAxeClean(page, 'the replay');

    // Play at 16× from the start runs to the end and pauses.
    await page.keyboard.press('Home');
    await dialog(page).getByRole('button', { name: '16×' }).click();
    await dialog(page).getByRole('button', { name: 'Play', exact: true }).click();
    await dialog(page).getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await waitFor('the end of playback', async () => (await turnShown(page)) === TURNS, 10_000);
    await dialog(page).getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 5_000 });

    // A #t= link: the replay's address (/discussions/{id}/replay#t=<turn>) opens it at that turn.
    // A fresh page (a hash change alone would not reload it) at the address with #t=3.
    const moment = page.url().replace(/#t=\d+$/, '#t=3');
    if (!/\/discussions\/[^/]+\/replay#t=3$/.test(moment)) throw new Error(`not a replay's address: ${moment}`);
    await page.goto('about:blank');
    await page.goto(moment);
    await panel(page).waitFor({ timeout: 20_000 });
    await waitFor(
      'turn 3 from the address',
      async () => (await timeline(page).count()) > 0 && (await turnShown(page)) === 3,
      10_000,
    );
    await dialog(page).locator('.replay__positions summary').click();
    await expectAxeClean(page, 'the replay with its positions');

    for (const [w, h] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `docs/screens/replay-${w}.png` });
    }
    await dialog(page).getByRole('button', { name: 'Close replay' }).click();
    await dialog(page)
      .getByRole('tab', { name: /Analytics/ })
      .click();
    await dialog(page).getByRole('region', { name: 'Positions' }).waitFor();
    await expectAxeClean(page, 'the position timeline');
    for (const [w, h] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await dialog(page)
        .getByRole('region', { name: 'Positions' })
        .screenshot({ path: `docs/screens/positions-${w}.png` });
    }

    // Continue from here, at turn 2: the panel gets the agents (selected again on the canvas after the reload) and
    // the topic, which is changed before Start; the new discussion's first turn answers what Bo said at turn 2.
    await page.setViewportSize({ width: 1440, height: 900 });
    await dialog(page).getByRole('button', { name: 'Replay' }).click();
    await timeline(page).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await waitFor('turn 2', async () => (await turnShown(page)) === 2, 5_000);
    // The canvas marks each agent's option at the moment shown, in words too: none before the first turn.
    const adaNode = async () => (await page.locator('[aria-label^="Ada,"]').first().getAttribute('aria-label')) ?? '';
    await waitFor('Ada’s position on the canvas at turn 2', async () => /holds: /.test(await adaNode()), 5_000);
    await page.keyboard.press('Home');
    await waitFor(
      'no position on the canvas before the first turn',
      async () => !/holds: /.test(await adaNode()),
      5_000,
    );
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await waitFor('turn 2 again', async () => (await turnShown(page)) === 2 && /holds: /.test(await adaNode()), 5_000);
    for (const [w, h] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `docs/screens/continue-${w}.png` });
    }
    await dialog(page).getByRole('button', { name: 'Continue from here' }).click();
    await dialog(page).waitFor({ state: 'hidden', timeout: 5_000 });
    const note = panel(page).getByRole('note', { name: 'Continuation' });
    await note.getByText('from turn 2').waitFor({ timeout: 5_000 });
    const contextBox = panel(page).getByLabel('Discussion context');
    if ((await contextBox.inputValue()) !== CONTEXT) throw new Error('the panel did not take the topic');
    await expectAxeClean(page, 'the panel with a continuation');
    await contextBox.fill(NEXT);
    await panel(page).getByRole('button', { name: 'Start round table' }).click();
    await note.waitFor({ state: 'detached', timeout: 10_000 });
    await panel(page).getByText('Discussion finished.').waitFor({ timeout: 90_000 });
    const opening = await panel(page).locator('.message-card').first().innerText();
    if (!/\bBo\b/.test(opening)) throw new Error(`the first new turn does not answer Bo's turn 2: ${opening}`);
    // Live positions on the canvas beside the panel: each agent's ring and its option in words.
    await waitFor('Ada’s live position on the canvas', async () => /holds: /.test(await adaNode()), 5_000);
    for (const [w, h] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.getByRole('button', { name: 'Fit View' }).click();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: `docs/screens/canvas-positions-${w}.png` });
    }
    await page.setViewportSize({ width: 1440, height: 900 });

    // History links both ways: the new row to its source, the source to its continuation.
    await panel(page).getByRole('button', { name: 'History' }).click();
    const newRow = dialog(page).getByRole('listitem', { name: NEXT });
    await newRow.getByText(`continued from ${CONTEXT} at turn 2`).waitFor({ timeout: 10_000 });
    const sourceRow = dialog(page).getByRole('listitem', { name: CONTEXT });
    await sourceRow.getByText(`continued in ${NEXT} (from turn 2)`).waitFor();
    await expectAxeClean(page, 'History with continuation links');
    for (const [w, h] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `docs/screens/continued-${w}.png` });
    }
    await newRow.getByRole('button', { name: CONTEXT }).click();
    await dialog(page).getByRole('heading', { name: CONTEXT }).waitFor({ timeout: 10_000 });
    await dialog(page).getByRole('button', { name: NEXT }).click();
    await dialog(page).getByRole('heading', { name: NEXT }).waitFor({ timeout: 10_000 });
    await dialog(page).getByText(`continued from ${CONTEXT} at turn 2`).waitFor();
  },
  { timeoutMs: 360_000 },
);

const hybridPanel = (page: Page) => page.getByRole('complementary', { name: 'Hybrid discussion' });
const HYBRID_TOPIC = 'Should the valley share one water reservoir?';
const HYBRID_NEXT = 'Who maintains a shared reservoir?';

test(
  'replay: Continue from here on a hybrid discussion opens the hybrid panel with its topic and settings; History links the two',
  async ({ page, baseUrl }) => {
    await page.goto(baseUrl);
    await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('replay-hybrid'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
    await panel(page).waitFor({ timeout: 20_000 });
    await makeOfflineAgents(page);
    for (const name of ['Ada', 'Bo']) await node(page, name).click();
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    await hybridPanel(page).getByRole('button', { name: 'Settings' }).click();
    const settings = hybridPanel(page).getByRole('group', { name: 'Hybrid discussion settings' });
    await settings.getByLabel(/^Max rounds/).fill('2');
    await settings.getByLabel('Pause between turns (ms)').fill('0');
    await hybridPanel(page).getByRole('button', { name: 'Settings' }).click();
    await hybridPanel(page).getByLabel('Discussion topic').fill(HYBRID_TOPIC);
    await hybridPanel(page).getByRole('button', { name: 'Start round table' }).click();
    await hybridPanel(page)
      .getByText(/^Discussion ended/)
      .waitFor({ timeout: 120_000 });

    // The panel's own setting changes after the run (the continuation brings the run's back), and the standard
    // panel is shown, so that the continuation has to bring the hybrid panel back.
    await hybridPanel(page).getByRole('button', { name: 'New discussion' }).click();
    await hybridPanel(page).getByRole('button', { name: 'Settings' }).click();
    await settings.getByLabel(/^Max rounds/).fill('5');
    await hybridPanel(page).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Switch to Standard' }).click();
    await panel(page).getByRole('button', { name: 'History' }).click();
    const row = dialog(page).getByRole('listitem', { name: HYBRID_TOPIC });
    await row.getByRole('button', { name: `Open ${HYBRID_TOPIC}` }).click();
    await dialog(page).getByText('Read-only').waitFor({ timeout: 10_000 });
    await dialog(page).getByRole('button', { name: 'Replay' }).click();
    await timeline(page).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await waitFor('turn 2', async () => (await turnShown(page)) === 2, 5_000);
    await dialog(page).getByRole('button', { name: 'Continue from here' }).click();
    await dialog(page).waitFor({ state: 'hidden', timeout: 5_000 });

    // The hybrid panel, not the standard one, with the topic (editable) and the run's settings (2 rounds).
    const note = hybridPanel(page).getByRole('note', { name: 'Continuation' });
    await note.getByText('from turn 2').waitFor({ timeout: 5_000 });
    const topicBox = hybridPanel(page).getByLabel('Discussion topic');
    if ((await topicBox.inputValue()) !== HYBRID_TOPIC) throw new Error('the hybrid panel did not take the topic');
    await hybridPanel(page).getByRole('button', { name: 'Settings' }).click();
    const rounds = await settings.getByLabel(/^Max rounds/).inputValue();
    if (rounds !== '2') throw new Error(`the hybrid panel did not take the run's settings (max rounds ${rounds})`);
    await hybridPanel(page).getByRole('button', { name: 'Settings' }).click();
    await expectAxeClean(page, 'the hybrid panel with a continuation');
    for (const [w, h] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `test-results/e2e/continue-hybrid-${w}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await topicBox.fill(HYBRID_NEXT);
    await hybridPanel(page).getByRole('button', { name: 'Start round table' }).click();
    await note.waitFor({ state: 'detached', timeout: 10_000 });
    await hybridPanel(page)
      .getByText(/^Discussion ended/)
      .waitFor({ timeout: 120_000 });

    await hybridPanel(page).getByRole('button', { name: 'History' }).click();
    const newRow = dialog(page).getByRole('listitem', { name: HYBRID_NEXT });
    await newRow.getByText(`continued from ${HYBRID_TOPIC} at turn 2`).waitFor({ timeout: 10_000 });
    await dialog(page)
      .getByRole('listitem', { name: HYBRID_TOPIC })
      .getByText(`continued in ${HYBRID_NEXT} (from turn 2)`)
      .waitFor();
  },
  { timeoutMs: 360_000 },
);
