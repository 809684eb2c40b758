import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Download, Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { axeViolations, describeViolations, isSerious } from './axe';
import { test, uniqueEmail } from './harness';

// The hybrid panel end to end, against the real server with the offline model and espeak-ng speech: each agent's
// clip plays in order and is acknowledged, the acknowledgments pace the turns, Interrupt Audio stops playback,
// Stop ends the run cleanly, and the PDF export reads back with pdftotext.
const PASSWORD = 'correct-horse-42';
const TOPIC = 'Our vineyard loses water to leaks. What do we fix first?';

const panel = (page: Page) => page.getByRole('complementary', { name: 'Hybrid discussion' });
const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
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

/** What crossed the hybrid socket, in order, with the time it was seen. */
function recordHybridSocket(page: Page) {
  const log: { at: number; dir: 'in' | 'out'; frame: Record<string, unknown> }[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/ws/hybrid') || ws.url().includes('test=true')) return;
    const note = (dir: 'in' | 'out') => (f: { payload: string | Buffer }) => {
      try {
        log.push({ at: Date.now(), dir, frame: JSON.parse(String(f.payload)) as Record<string, unknown> });
      } catch {
        // not JSON: not ours to judge here
      }
    };
    ws.on('framereceived', note('in'));
    ws.on('framesent', note('out'));
  });
  return log;
}

test(
  'hybrid panel: speech plays in order and paces the turns, Interrupt Audio, Stop, PDF export, axe',
  async ({ page, baseUrl }) => {
    const wire = recordHybridSocket(page);
    await page.goto(baseUrl);
    await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('hybrid'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
    await page.getByRole('complementary', { name: 'Discussion', exact: true }).waitFor({ timeout: 20_000 });
    await makeOfflineAgents(page);
    await node(page, 'Ada').click();
    await node(page, 'Bo').click();
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    await panel(page).waitFor();
    await expectAxeClean(page, 'the idle hybrid panel');

    // Problem Solving sets 15 rounds and 2 turns per round (docs/product.md#discussions-limits); speech on, no pause
    // between turns.
    await panel(page).getByRole('button', { name: 'Problem Solving' }).click();
    await panel(page).getByRole('button', { name: 'Settings' }).click();
    const settings = panel(page).getByRole('group', { name: 'Hybrid discussion settings' });
    if ((await settings.getByLabel(/^Max rounds/).inputValue()) !== '15')
      throw new Error('Problem Solving did not set 15 rounds');
    if ((await settings.getByLabel(/^Turns per round/).inputValue()) !== '2')
      throw new Error('Problem Solving did not set 2 turns per round');
    await settings.getByLabel('Speech', { exact: true }).check();
    await settings.getByLabel('Pause between turns (ms)').fill('0');
    await expectAxeClean(page, 'the hybrid settings');
    await panel(page).getByRole('button', { name: 'Settings' }).click();
    await panel(page).getByLabel('Discussion topic').fill(TOPIC);
    await panel(page).getByRole('button', { name: 'Start round table' }).click();

    const first = (dir: 'in' | 'out', type: string, from = 0) =>
      wire.findIndex((e, i) => i >= from && e.dir === dir && e.frame.type === type);
    // Two clips play and are acknowledged, in the order they came.
    await waitFor(
      'two acknowledged clips',
      () => wire.filter((e) => e.dir === 'out' && e.frame.type === 'audio_acknowledgment').length >= 2,
      90_000,
    );
    const clips = wire.filter((e) => e.dir === 'in' && e.frame.type === 'audio_message').map((e) => e.frame.audio_id);
    const acks = wire
      .filter((e) => e.dir === 'out' && e.frame.type === 'audio_acknowledgment')
      .map((e) => e.frame.audio_id);
    if (JSON.stringify(acks) !== JSON.stringify(clips.slice(0, acks.length)))
      throw new Error(`clips ${clips.join(',')} acknowledged as ${acks.join(',')}`);
    // The server waits for the acknowledgment: the turn after a clip starts only once that clip was played.
    const clip1 = first('in', 'audio_message');
    const ack1 = wire.findIndex(
      (e) =>
        e.dir === 'out' && e.frame.type === 'audio_acknowledgment' && e.frame.audio_id === wire[clip1]!.frame.audio_id,
    );
    const nextTurn = first('in', 'agent_message_start', clip1 + 1);
    if (nextTurn >= 0 && nextTurn < ack1) throw new Error('the next turn began before the clip was acknowledged');
    await expectAxeClean(page, 'the running hybrid panel');

    // Interrupt Audio: the clip being played stops, unacknowledged.
    await waitFor(
      'a clip playing',
      async () => (await panel(page).locator('.message-card--playing').count()) > 0,
      60_000,
    );
    const acked = acks.length;
    await panel(page).getByRole('button', { name: 'Interrupt Audio' }).click();
    await waitFor(
      'no clip playing',
      async () => (await panel(page).locator('.message-card--playing').count()) === 0,
      5_000,
    );
    const ackCountAfter = wire.filter((e) => e.dir === 'out' && e.frame.type === 'audio_acknowledgment').length;
    if (ackCountAfter > acked + 1) throw new Error('an interrupted clip was acknowledged as played');

    // Stop sends stop, then the socket closes and the run ends.
    await panel(page).getByRole('button', { name: 'Stop Discussion' }).click();
    await panel(page)
      .getByText(/Discussion (ended|stopped)/)
      .waitFor({ timeout: 10_000 });
    if (first('out', 'stop') < 0) throw new Error('Stop sent no stop frame');

    const [download] = (await Promise.all([
      page.waitForEvent('download'),
      panel(page).getByRole('button', { name: 'Export PDF' }).click(),
    ])) as [Download, unknown];
    if (!/^our-vineyard-loses-water-to-leaks-\d{4}-\d{2}-\d{2}\.pdf$/.test(download.suggestedFilename()))
      throw new Error(`PDF file name ${download.suggestedFilename()}`);
    const file = path.join(tmpdir(), `agora-e2e-${Date.now()}.pdf`);
    await download.saveAs(file);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    for (const expected of ['Ada', 'Bo', 'leaks'])
      if (!text.includes(expected)) throw new Error(`the PDF text lacks "${expected}"`);
  },
  { timeoutMs: 240_000 },
);

test(
  "hybrid panel: one bubble per turn, each turn's text once in the feed and the PDF, the count in the header and the PDF, no socket paths or session ids",
  async ({ page, baseUrl }) => {
    await page.goto(baseUrl);
    await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('hybrid-turns'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
    await page.getByRole('complementary', { name: 'Discussion', exact: true }).waitFor({ timeout: 20_000 });
    await makeOfflineAgents(page);
    await node(page, 'Ada').click();
    await node(page, 'Bo').click();
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    // Structured mode: every turn also comes as an ACL message and often a request, which must not show again.
    await panel(page).getByRole('button', { name: 'Problem Solving' }).click();
    await panel(page).getByRole('button', { name: 'Settings' }).click();
    const settings = panel(page).getByRole('group', { name: 'Hybrid discussion settings' });
    await settings.getByLabel(/^Max rounds/).fill('2');
    await settings.getByLabel('Pause between turns (ms)').fill('0');
    await panel(page).getByRole('button', { name: 'Settings' }).click();
    await panel(page).getByRole('button', { name: 'Start round table' }).click();
    await panel(page)
      .getByText(/^Discussion ended/)
      .waitFor({ timeout: 120_000 });

    const main = await panel(page).innerText();
    for (const bad of ['/ws/', 'session_', 'ontology', 'query-if', 'HYBRID'])
      if (main.includes(bad)) throw new Error(`the hybrid panel shows "${bad}"`);

    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    const log = panel(page).getByRole('log', { name: 'Hybrid discussion messages' });
    const scroller = log.locator('.feed__scroller');
    const rows = new Map<number, { text: string; turn: string | null }>();
    await scroller.evaluate((el) => el.scrollTo(0, 0));
    for (let step = 0; step < 200; step++) {
      // The virtualised feed renders the rows a scroll brings in on the next frames.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      for (const r of await log.locator('[data-index]').evaluateAll((els) =>
        els.map((el) => ({
          index: Number(el.getAttribute('data-index')),
          text: (el as HTMLElement).innerText,
          turn: (el.querySelector('.turn .message-card__text') as HTMLElement | null)?.innerText ?? null,
        })),
      ))
        rows.set(r.index, { text: squash(r.text), turn: r.turn === null ? null : squash(r.turn) });
      if (await scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2)) break;
      await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight * 0.6));
    }
    const turns = [...rows.values()].flatMap((r) => (r.turn ? [r.turn] : []));
    if (turns.length < 4) throw new Error(`only ${turns.length} turns`);
    for (const t of turns) {
      const holding = [...rows.values()].filter((r) => r.text.includes(t)).length;
      if (holding !== 1) throw new Error(`the feed shows "${t.slice(0, 60)}…" in ${holding} rows`);
    }
    const counted = Number((await panel(page).getByTestId('hybrid-count-messages').textContent())!.split(' ')[0]);
    if (counted !== turns.length) throw new Error(`the header counts ${counted}, the feed has ${turns.length} turns`);

    const [download] = (await Promise.all([
      page.waitForEvent('download'),
      panel(page).getByRole('button', { name: 'Export PDF' }).click(),
    ])) as [Download, unknown];
    const file = path.join(tmpdir(), `agora-e2e-hybrid-turns-${Date.now()}.pdf`);
    await download.saveAs(file);
    const text = squash(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }));
    if (!text.includes(`Discussion (${counted} messages)`)) throw new Error(`the PDF does not say ${counted} messages`);
    for (const t of turns)
      if (text.split(t).length - 1 !== 1)
        throw new Error(`the PDF has "${t.slice(0, 60)}…" ${text.split(t).length - 1} times`);
  },
  { timeoutMs: 180_000 },
);
