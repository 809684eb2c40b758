import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Download, Locator, Page } from 'playwright-core';
import { discussionExport } from '../../src/schemas/exportJson';
import { startFakeOpenAi } from '../support/fakeModelServers';
import { makeOfflineAgents } from './agents';
import { runShortBasic } from './basicRun';
import { test, uniqueEmail } from './harness';

// What the room says is true and plain (issue 47), against the real server, its offline model and a loopback
// OpenAI-compatible server the person named 'Loopback sim': the panel's model line and History name the model
// '<connection> · <model>', never its stored id, and so does the editor's overview; a demo agent's turns say 'demo model'; a canvas connection is drawn
// without an arrowhead and the canvas says what it does; an agent wears one colour in the live feed and in the
// replay. NAMES_SHOTS=<dir> writes screenshots of each of those screens there.
const PASSWORD = 'correct-horse-42';
const CONTEXT = 'Should the allotment share one rainwater tank between its plots?';
const SHOTS = process.env.NAMES_SHOTS ? path.resolve(process.env.NAMES_SHOTS) : null;

const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
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

async function shot(page: Page, name: string, target?: Locator) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await (target ?? page).screenshot({ path: path.join(SHOTS, name) });
}

/** The colour each speaker's bubble wears in a feed, by speaker name. */
const bubbleColours = (scope: Locator) =>
  scope.locator('article.message-card.turn:not(.turn--human)').evaluateAll((els) => {
    const out: Record<string, string> = {};
    for (const e of els) {
      const who = e.getAttribute('aria-label') ?? '';
      out[who] = getComputedStyle(e).getPropertyValue('--agent-color').trim();
    }
    return out;
  });

test(
  "names: '<connection> · <model>' in the panel and History, 'demo model' in the feed, connections without arrowheads, one colour per agent in the feed and the replay",
  async ({ page, baseUrl }) => {
    const fake = await startFakeOpenAi({ models: ['walk-sim-7b'] });
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(baseUrl);
      await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
      await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('names'));
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
      await panel(page).waitFor({ timeout: 20_000 });

      // A connection the person names 'Loopback sim'; Bo speaks with its model, Ada with the offline demo.
      const model = await page.evaluate(async (url) => {
        const headers = {
          Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
          'Content-Type': 'application/json',
        };
        const res = await fetch('/model-connections', {
          method: 'POST',
          headers,
          body: JSON.stringify({ kind: 'openai', name: 'Loopback sim', base_url: `${url}/v1` }),
        });
        const conn = (await res.json()) as { models: { id: string }[] };
        return conn.models[0].id;
      }, fake.url);
      if (!/^@.+\/walk-sim-7b$/.test(model)) throw new Error(`the model id is ${model}`);
      await makeOfflineAgents(page, [['Ada', 'Agronomist']]);
      await page.evaluate(async (m) => {
        const headers = {
          Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
          'Content-Type': 'application/json',
        };
        const res = await fetch('/agents/', {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name: 'Bo',
            role: 'Economist',
            prompt: 'You are Bo, a careful economist.',
            model: m,
            // A colour of its own (the editor always stores one): the replay must draw it, not one derived from the id.
            color: '#9f1239',
          }),
        });
        const agent = (await res.json()) as { id: string };
        await fetch(`/agents/${agent.id}/position`, {
          method: 'PUT',
          headers,
          body: JSON.stringify({ x: 380, y: 80 }),
        });
      }, model);
      await page.reload();
      for (const name of ['Ada', 'Bo']) await node(page, name).click();

      // The panel's model line names the connection as the person named it, and the demo model as such.
      const line = panel(page).getByRole('note', { name: 'Models in use' });
      await line.getByText('Loopback sim · walk-sim-7b').waitFor({ timeout: 15_000 });
      const said = (await line.textContent()) ?? '';
      if (!said.includes('the demo model') || said.includes('@') || said.includes('Local OpenAI-compatible'))
        throw new Error(`the model line reads ${said}`);

      // Connect them: a line without an arrowhead, and the canvas says what a connection does.
      await page.getByRole('button', { name: 'Auto-Connect' }).click();
      await waitFor(
        'a connection',
        async () => ((await page.getByTestId('canvas-count-connections').textContent()) ?? '0') !== '0',
        10_000,
      );
      await page.getByText('Connected agents hear each other when “Hear only connected agents” is on.').waitFor();
      const edges = await page
        .locator('.react-flow__edge path.react-flow__edge-path')
        .evaluateAll((els) => els.map((e) => ({ d: e.getAttribute('d') ?? '', marker: e.getAttribute('marker-end') })));
      if (edges.length === 0) throw new Error('no edge is drawn');
      for (const e of edges) {
        // One subpath (the arc), no second one (a chevron), no SVG marker.
        if ((e.d.match(/M/g) ?? []).length !== 1 || e.marker) throw new Error(`an edge draws ${JSON.stringify(e)}`);
      }
      if ((await page.locator('.react-flow marker, .react-flow [marker-end]').count()) > 0)
        throw new Error('the canvas has arrowhead markers');
      const label = await page.locator('.react-flow__edge').first().getAttribute('aria-label');
      if (label !== 'Connection between Ada and Bo' && label !== 'Connection between Bo and Ada')
        throw new Error(`the edge is named ${label}`);
      await shot(page, 'names-canvas-panel.png');

      // The editor's overview names Bo's model the same way.
      await page.getByRole('button', { name: 'Edit Bo' }).click();
      const overview = page.getByRole('dialog', { name: 'Edit Bo' }).getByRole('region', { name: 'Overview' });
      await overview.getByText('Loopback sim · walk-sim-7b', { exact: true }).waitFor();
      await shot(page, 'names-editor.png', page.getByRole('dialog', { name: 'Edit Bo' }));
      await shot(page, 'names-editor-overview.png', overview);
      await page.getByRole('button', { name: 'Close editor' }).click();

      // A short Basic discussion.
      await runShortBasic(page, CONTEXT);

      // 'demo model' beside Ada's name in the feed, not beside Bo's.
      const ada = panel(page).getByRole('article', { name: 'Ada', exact: true }).first();
      await ada.getByText('demo model', { exact: true }).waitFor();
      if (
        (await panel(page).getByRole('article', { name: 'Bo', exact: true }).first().getByText('demo model').count()) >
        0
      )
        throw new Error("Bo's turn says 'demo model'");
      // Read once both finished turns are drawn (a bubble still streaming may not carry its colour yet).
      let live = await bubbleColours(panel(page));
      for (let tries = 0; tries < 20 && (!live.Ada || !live.Bo || live.Ada === live.Bo); tries++) {
        await page.waitForTimeout(250);
        live = await bubbleColours(panel(page));
      }
      if (!live.Ada || !live.Bo || live.Ada === live.Bo)
        throw new Error(`the live colours are ${JSON.stringify(live)}`);
      await shot(page, 'names-feed.png', panel(page));

      // The export is named by its topic and date, and names each model and colour as the feed does.
      const [download] = (await Promise.all([
        page.waitForEvent('download'),
        panel(page).getByRole('button', { name: 'JSON', exact: true }).click(),
      ])) as [Download, unknown];
      if (!/^should-the-allotment-share-one-rainwater-\d{4}-\d{2}-\d{2}\.json$/.test(download.suggestedFilename()))
        throw new Error(`the export is named ${download.suggestedFilename()}`);
      const file = path.join(tmpdir(), `agora-e2e-names-${Date.now()}.json`);
      await download.saveAs(file);
      const exp = discussionExport.parse(JSON.parse(readFileSync(file, 'utf8')));
      const people = Object.fromEntries((exp.participants ?? []).map((p) => [p.name, p]));
      if (people.Bo?.model !== 'Loopback sim · walk-sim-7b' || people.Ada?.model !== 'demo model')
        throw new Error(`the export names the models ${JSON.stringify(exp.participants)}`);
      if (people.Ada.color !== live.Ada || people.Bo.color !== live.Bo)
        throw new Error(`the export's colours ${JSON.stringify(exp.participants)}, the feed's ${JSON.stringify(live)}`);

      // History names the model by its connection.
      await panel(page).getByRole('button', { name: 'History' }).click();
      const row = dialog(page).getByRole('list', { name: 'Past discussions' }).getByRole('listitem', { name: CONTEXT });
      await row.waitFor({ timeout: 10_000 });
      await row.getByText(/Loopback sim · walk-sim-7b/).waitFor();
      const facts = (await row.textContent()) ?? '';
      if (facts.includes('@') || !facts.includes('demo model')) throw new Error(`the History row reads ${facts}`);
      await shot(page, 'names-history.png', dialog(page));

      // The replay draws each agent in the colour the live feed gave it.
      await row.getByRole('button', { name: `Open ${CONTEXT}` }).click();
      await dialog(page).getByRole('button', { name: 'Replay' }).click();
      const timeline = dialog(page).getByRole('slider', { name: 'Timeline' });
      await timeline.focus();
      await page.keyboard.press('End');
      const replayLog = dialog(page).getByRole('log', { name: 'Messages up to this moment' });
      await waitFor('the replayed turns', async () => (await replayLog.locator('article.message-card').count()) >= 2);
      const replayed = await bubbleColours(replayLog);
      if (replayed.Ada !== live.Ada || replayed.Bo !== live.Bo)
        throw new Error(`replay colours ${JSON.stringify(replayed)}, live ${JSON.stringify(live)}`);
      await shot(page, 'names-replay.png', dialog(page));
    } finally {
      await fake.close();
    }
  },
  { timeoutMs: 150_000 },
);
