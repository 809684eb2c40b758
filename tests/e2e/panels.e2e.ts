import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { expectDialogClean } from './axe';
import { test, uniqueEmail } from './harness';

// Saved panels and API tokens through the UI, against the real server (docs/integrations.md): two agents selected
// on the canvas are saved as a panel, found in Panels, renamed and started (the canvas selects them again); an API
// token is created, shown once, and revoked (the server lists none after). axe on every dialog. PANELS_SCREENS=1
// also writes docs/screens/panels-*.png.

const PASSWORD = 'correct-horse-42';
const SCREENS = process.env.PANELS_SCREENS ? path.resolve('docs/screens') : null;

const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();

async function shot(page: Page | Locator, name: string) {
  if (!SCREENS) return;
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, name) });
}

/** A look at a narrow screen, for the person checking the layout (test-results, never the README). */
async function narrowLook(page: Page, name: string) {
  if (!SCREENS) return;
  const size = page.viewportSize();
  await page.setViewportSize({ width: 768, height: 900 });
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: path.join('test-results', name) });
  if (size) await page.setViewportSize(size);
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function fromMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** What the server says, with the page's own session token. */
const serverList = (page: Page, p: string) =>
  page.evaluate(async (p) => {
    const res = await fetch(p, { headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` } });
    return (await res.json()) as { name: string; agent_ids: string[] }[];
  }, p);

test(
  'save two agents as a panel, find it in Panels, rename it and start it; create an API token, see it once, revoke it; axe',
  async ({ page, baseUrl, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(baseUrl);
    await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('panels'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
    await page.getByRole('complementary', { name: 'Discussion', exact: true }).waitFor({ timeout: 20_000 });
    await makeOfflineAgents(page, [
      ['Ada', 'Agronomist'],
      ['Bo', 'Economist'],
      ['Cy', 'Engineer'],
    ]);

    // Panels before any is saved: it says what a panel is and how to save one.
    await fromMenu(page, 'Panels');
    const panels = page.getByRole('dialog', { name: 'Panels' });
    await panels.getByText(/No panels yet\. A panel is a named group of your agents/).waitFor();
    await expectDialogClean(page, 'dialog[open]', 'the Panels dialog (empty)');
    await shot(page, 'panels-empty.png');
    await panels.getByRole('button', { name: 'Close' }).click();

    // Save as panel: offered once two agents are selected.
    await node(page, 'Ada').click();
    await node(page, 'Bo').click();
    await page.getByRole('button', { name: 'Save as panel…' }).click();
    const save = page.getByRole('dialog', { name: 'Save as panel' });
    await save.waitFor();
    if (!(await save.textContent())?.includes('Ada and Bo')) throw new Error('the dialog does not name Ada and Bo');
    await save.getByLabel('Name').fill('Grape council');
    await expectDialogClean(page, 'dialog[open]', 'the Save as panel dialog');
    await shot(page, 'panels-save.png');
    await save.getByRole('button', { name: 'Save panel' }).click();
    await page.getByText(/Saved the panel “Grape council”/).waitFor();
    const saved = await serverList(page, '/panels');
    if (saved.length !== 1 || saved[0].name !== 'Grape council' || saved[0].agent_ids.length !== 2)
      throw new Error(`the server holds ${JSON.stringify(saved)}`);

    // A second save under the same name: the server's 409 words, under the field.
    await page.getByRole('button', { name: 'Save as panel…' }).click();
    await save.getByLabel('Name').fill('grape COUNCIL');
    await save.getByRole('button', { name: 'Save panel' }).click();
    await save
      .getByRole('alert')
      .filter({ hasText: /already have a panel named/ })
      .waitFor();
    await save.getByRole('button', { name: 'Cancel' }).click();

    // Panels: listed with its agents; renamed in place; started, which selects its agents again.
    await page.getByRole('button', { name: /Clear Selection/ }).click();
    await until('the selection to clear', async () => (await page.getByTestId('count-selected').textContent()) === '0');
    await fromMenu(page, 'Panels');
    const card = panels.getByRole('listitem', { name: 'Grape council' });
    await card.waitFor();
    if (!(await card.textContent())?.includes('2 agents: Ada and Bo'))
      throw new Error('the card does not name its agents');
    await expectDialogClean(page, 'dialog[open]', 'the Panels dialog');
    await shot(page, 'panels-list.png');
    await narrowLook(page, 'panels-list-768.png');
    await card.getByRole('button', { name: 'Rename Grape council' }).click();
    const field = panels.getByLabel('New name for Grape council');
    await field.fill('Harvest council');
    await field.press('Enter');
    await panels.getByRole('listitem', { name: 'Harvest council' }).waitFor();
    if ((await serverList(page, '/panels'))[0].name !== 'Harvest council') throw new Error('the rename was not saved');
    await panels.getByRole('button', { name: 'Start discussion with Harvest council' }).click();
    await panels.waitFor({ state: 'detached' });
    await until(
      'the panel’s agents to be selected',
      async () => (await page.getByTestId('count-selected').textContent()) === '2',
    );
    await page.getByText(/“Harvest council” is selected/).waitFor();

    // API tokens: created, shown once with Copy, listed by its hint only, revoked after the question.
    await fromMenu(page, 'API tokens');
    const tokens = page.getByRole('dialog', { name: 'API tokens' });
    await tokens.getByText(/No tokens yet/).waitFor();
    await expectDialogClean(page, 'dialog[open]', 'the API tokens dialog (empty)');
    await tokens.getByLabel('Name').fill('Laptop');
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const secret = (await tokens.getByTestId('new-token').textContent()) ?? '';
    if (!secret.startsWith('agora_')) throw new Error(`the token shown is ${secret}`);
    await tokens.getByText(/shown only this once/).waitFor();
    await tokens.getByRole('button', { name: 'Copy' }).click();
    await tokens.getByRole('button', { name: 'Copied' }).waitFor();
    const table = tokens.getByRole('table', { name: 'Your tokens' });
    await table.getByText('Laptop').waitFor();
    if ((await table.textContent())?.includes(secret)) throw new Error('the list shows the secret');
    await expectDialogClean(page, 'dialog[open]', 'the API tokens dialog');
    await shot(page, 'panels-tokens.png');
    await narrowLook(page, 'panels-tokens-768.png');
    // The token works for other tools: /v1/models lists the panel.
    const models = await page.evaluate(async (t) => {
      const res = await fetch('/v1/models', { headers: { Authorization: `Bearer ${t}` } });
      return { status: res.status, body: (await res.json()) as { data?: { id: string }[] } };
    }, secret);
    if (models.status !== 200 || !models.body.data?.some((m) => m.id === 'panel:Harvest council'))
      throw new Error(`/v1/models answered ${JSON.stringify(models)}`);
    await tokens.getByRole('button', { name: 'Revoke Laptop' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Revoke token' }).click();
    await tokens.getByText(/No tokens yet/).waitFor();
    if ((await serverList(page, '/api-tokens')).length !== 0) throw new Error('the server still lists the token');
    const refused = await page.evaluate(
      async (t) => (await fetch('/v1/models', { headers: { Authorization: `Bearer ${t}` } })).status,
      secret,
    );
    if (refused !== 401) throw new Error(`a revoked token got ${refused}`);
    // Shown once: closed and opened again, the secret is gone.
    await tokens.getByRole('button', { name: 'Close' }).click();
    await fromMenu(page, 'API tokens');
    await tokens.getByText(/No tokens yet/).waitFor();
    if ((await tokens.getByTestId('new-token').count()) !== 0) throw new Error('the secret was shown again');
  },
  { timeoutMs: 120_000 },
);

test("History marks discussions asked from other tools 'via MCP' / 'via API' (rows as the server sends them)", async ({
  page,
  baseUrl,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  // The rows' `origin` is the server's to fill; here the page is answered with rows that carry it.
  const row = (id: string, topic: string, origin: string) => ({
    id,
    session_id: `s_${id}`,
    endpoint: '/ws/discuss',
    topic,
    status: 'ended',
    frame_count: 4,
    message_count: 2,
    created_at: '2026-11-28T10:00:00.000Z',
    format: 'council',
    origin,
  });
  await page.route('**/discussion/history/page**', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({
        items: [
          row('d1', 'Should the harvester be shared?', 'mcp'),
          row('d2', 'Which grape for the north slope?', 'api'),
          row('d3', 'When to pick the Riesling?', 'app'),
        ],
        next_cursor: null,
      }),
    }),
  );
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('origin'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await page.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('dialog', { name: 'Past discussions' });
  const items = history.getByRole('list', { name: 'Past discussions' }).getByRole('listitem');
  await items.first().waitFor();
  const marks = await items.evaluateAll((els) =>
    els.map((e) => e.querySelector('.history-row__origin')?.textContent ?? null),
  );
  if (JSON.stringify(marks) !== JSON.stringify(['via MCP', 'via API', null]))
    throw new Error(`origin marks: ${JSON.stringify(marks)}`);
  await expectDialogClean(page, 'dialog[open]', 'History with origin marks');
  await shot(page, 'history-origin.png');
});
