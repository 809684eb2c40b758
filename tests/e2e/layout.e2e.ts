import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { CANVAS_DETAIL_ZOOM } from '../../src/schemas/constants';
import { CARD_SIZE } from '../../src/ui/canvas/flowElements';
import { axeViolations, describeViolations, isSerious } from './axe';
import { test, uniqueEmail } from './harness';

// The main screen's layout for a reader on a small laptop: at 1024×700, right after sign-in, every agent of a
// 4-agent workspace (made through the API, so the server chose their places) is drawn whole in the part of the
// canvas that neither the discussion panel nor the canvas's own boxes cover. Screenshots go to test-results.
const PASSWORD = 'correct-horse-42';
const SHOTS = path.resolve('test-results', 'screens-layout');

export async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

export async function signUp(page: Page, baseUrl: string, tag: string) {
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail(tag));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await page.getByRole('region', { name: 'Canvas controls' }).waitFor({ timeout: 20_000 });
}

/** Agents made through the API with no position: the server gives each a free slot. */
export async function makeAgentsViaApi(page: Page, names: string[]) {
  await page.evaluate(async (list) => {
    const headers = {
      Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
      'Content-Type': 'application/json',
    };
    for (const name of list) {
      await fetch('/agents/', {
        method: 'POST',
        headers,
        body: JSON.stringify({ name, role: 'Analyst', prompt: `You are ${name}.`, model: 'offline' }),
      });
    }
  }, names);
}

/** Every agent node whole inside the canvas and clear of the panel, the overlay boxes and the minimap. */
/** Waits (up to 5 s) for a zoom's animation to end: the viewport's transform the same on three frames in a row. */
async function steadyViewport(page: Page) {
  let last = '';
  let same = 0;
  for (let t = Date.now(); Date.now() - t < 5_000 && same < 3; ) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    const now = await page.evaluate(
      () => (document.querySelector('.react-flow__viewport') as HTMLElement | null)?.style.transform ?? '',
    );
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

/** Waits (up to 5 s) for every agent to be in view after a resize: the canvas refits on its own. */
async function untilNoneHidden(page: Page) {
  for (let t = Date.now(); Date.now() - t < 5_000 && (await hiddenAgents(page)).length > 0; )
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
}

async function hiddenAgents(page: Page): Promise<string[]> {
  // A string, so the bundler's helpers (tsx names inner functions) do not leak into the page.
  return page.evaluate(`(() => {
    const rect = (el) => { if (!el) return null; const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
    const canvas = rect(document.querySelector('.shell__canvas'));
    const covers = ['.discussion-panel', '.agora-controls', '.agora-participants', '.react-flow__minimap']
      .map((s) => [s, rect(document.querySelector(s))]).filter(([, r]) => r && r.width > 0);
    const meet = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    const within = (r, area) => r.x >= area.x - 0.5 && r.y >= area.y - 0.5 && r.x + r.width <= area.x + area.width + 0.5 && r.y + r.height <= area.y + area.height + 0.5;
    return [...document.querySelectorAll('.react-flow__node')].flatMap((n) => {
      const r = rect(n);
      const name = n.querySelector('.agora-node-name')?.textContent ?? '?';
      if (!within(r, canvas)) return [name + ' outside the canvas'];
      const hit = covers.find(([, c]) => meet(r, c));
      return hit ? [name + ' under ' + hit[0]] : [];
    });
  })()`);
}

const isFar = async (page: Page) => (await page.locator('.react-flow.is-far').count()) > 0;

/** Every card is CARD_SIZE; says whether the board is at the far level of detail. */
async function expectCardSize(page: Page): Promise<boolean> {
  const far = await isFar(page);
  const sizes = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.react-flow__node')].map((n) => `${n.offsetWidth}x${n.offsetHeight}`),
  );
  const want = `${CARD_SIZE.width}x${CARD_SIZE.height}`;
  if (sizes.some((s) => s !== want))
    throw new Error(`cards drawn ${sizes.join(', ')} at the ${far ? 'far' : 'near'} level, not ${want} (CARD_SIZE)`);
  return far;
}

test('layout: at 1024×700 every agent of a 4-agent workspace made through the API is fully visible after sign-in', async ({
  page,
  baseUrl,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto(baseUrl);
  await page.getByLabel('Email', { exact: true }).waitFor();
  const focused = await page.evaluate(() => document.activeElement?.getAttribute('type'));
  if (focused !== 'email') throw new Error(`the sign-in page focuses ${focused}, not the email field`);
  await signUp(page, baseUrl, 'layout');
  // After sign-in the focus is on the first action, not the page body.
  await page.waitForFunction(() => document.activeElement?.textContent?.includes('Add Agent'), undefined, {
    timeout: 5000,
  });
  await makeAgentsViaApi(page, ['Ada', 'Bo', 'Cleo', 'Dev']);
  await page.reload();
  await page.locator('.react-flow__node').nth(3).waitFor();
  // The first look happens once the nodes are measured; give it a moment to settle.
  let hidden: string[] = [];
  for (let i = 0; i < 40; i++) {
    hidden = await hiddenAgents(page);
    if (hidden.length === 0) break;
    await page.waitForTimeout(100);
  }
  if (hidden.length) {
    await shot(page, 'fail-1024');
    throw new Error(`agents not fully visible at 1024×700: ${hidden.join('; ')}`);
  }
  // No two nodes overlap, so a click on one is never taken by its neighbour: click each and see it selected.
  for (const name of ['Ada', 'Bo', 'Cleo', 'Dev']) {
    await page.getByRole('button', { name: new RegExp(`^${name},`) }).click();
    await page.getByRole('button', { name: new RegExp(`^${name},.*selected$`) }).waitFor({ timeout: 3000 });
  }
  await shot(page, 'canvas-1024x700');
  // A usual card is drawn the size the canvas hands React Flow before measuring (CARD_SIZE), so measuring the board
  // changes nothing; a board of a few agents (CANVAS_FULL_CARDS_MAX) keeps full cards at any zoom, never flat bars.
  if (await expectCardSize(page)) throw new Error('four agents fitted at 1024×700 are drawn as flat boxes');
  const zoomOut = page.getByRole('button', { name: 'Zoom Out' });
  for (let i = 0; i < 6 && (await zoomOut.isEnabled()); i++) {
    await zoomOut.click();
    await steadyViewport(page);
  }
  if (await expectCardSize(page)) throw new Error('zoomed out, four agents became flat boxes');
  await page.getByRole('button', { name: 'Fit View' }).click();
  await page.setViewportSize({ width: 1440, height: 900 });
  await untilNoneHidden(page);
  if ((await hiddenAgents(page)).length)
    throw new Error(`agents hidden at 1440×900: ${(await hiddenAgents(page)).join('; ')}`);
  await shot(page, 'canvas-1440x900');
  // Hiding the panel and showing it again at 1024×700 keeps every agent in view.
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.getByRole('button', { name: 'Hide Discussion' }).click();
  await page.getByRole('button', { name: 'Show Discussion' }).click();
  await page.locator('.discussion-panel').waitFor();
  await untilNoneHidden(page);
  if ((await hiddenAgents(page)).length)
    throw new Error(`agents hidden after the panel opened again: ${(await hiddenAgents(page)).join('; ')}`);
});

/** The canvas's zoom, read from React Flow's viewport transform. */
const canvasZoom = (page: Page) =>
  page.evaluate(() => {
    const t = (document.querySelector('.react-flow__viewport') as HTMLElement | null)?.style.transform ?? '';
    return Number(/scale\(([\d.]+)\)/.exec(t)?.[1] ?? 0);
  });

test('layout: at 1024×700 with the panel open, Auto-layout keeps 3 and 8 agents on full cards big enough to read', async ({
  page,
  baseUrl,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await signUp(page, baseUrl, 'narrow-cards');
  const names = ['Ada', 'Bo', 'Cleo', 'Dev', 'Eve', 'Finn', 'Gus', 'Hana'];
  for (const n of [3, 8]) {
    await makeAgentsViaApi(page, names.slice(n === 3 ? 0 : 3, n));
    await page.reload();
    await page
      .locator('.react-flow__node')
      .nth(n - 1)
      .waitFor();
    await page.locator('.discussion-panel').waitFor();
    await page.getByRole('button', { name: 'Auto-layout' }).click();
    await steadyViewport(page);
    await untilNoneHidden(page);
    const zoom = await canvasZoom(page);
    await shot(page, `auto-layout-${n}-agents-1024x700`);
    if (zoom < CANVAS_DETAIL_ZOOM)
      throw new Error(`${n} agents are fitted at zoom ${zoom.toFixed(2)} (want ≥ ${CANVAS_DETAIL_ZOOM} to read them)`);
    const hidden = await hiddenAgents(page);
    if (hidden.length) throw new Error(`${n} agents after Auto-layout: ${hidden.join('; ')}`);
    if (await expectCardSize(page)) throw new Error(`${n} agents are drawn as flat boxes`);
  }
});

const hybridPanel = (page: Page) => page.locator('aside.discussion-panel--hybrid');
const agentNode = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name},`) });

test(
  'layout: a running hybrid discussion gives the feed most of the panel at 1024×700, and after a reload the panel offers to re-attach it',
  async ({ page, baseUrl }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await signUp(page, baseUrl, 'reattach-offer');
    await makeAgentsViaApi(page, ['Ada', 'Bo']);
    await page.reload();
    for (const name of ['Ada', 'Bo']) await agentNode(page, name).click();
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    // Opened before the start, the settings still fold into one line once it runs.
    await hybridPanel(page).getByRole('button', { name: 'Settings' }).click();
    await hybridPanel(page).getByRole('button', { name: 'Problem Solving' }).click();
    await hybridPanel(page).getByLabel('Discussion topic').fill('Which repairs should the town fund first this year?');
    await hybridPanel(page)
      .getByRole('button', { name: /^Start/ })
      .click();
    await hybridPanel(page).locator('.hybrid-settings-summary').waitFor({ timeout: 20_000 });
    await hybridPanel(page).locator('[role="log"] article').first().waitFor({ timeout: 60_000 });
    const share = await page.evaluate(() => {
      const panelBox = document.querySelector('aside.discussion-panel--hybrid')!.getBoundingClientRect();
      const feedBox = document.querySelector('aside.discussion-panel--hybrid .tabpanel')!.getBoundingClientRect();
      return feedBox.height / panelBox.height;
    });
    await shot(page, 'hybrid-running-1024x700');
    if (share < 0.6)
      throw new Error(`the feed takes ${(share * 100).toFixed(0)} % of the hybrid panel while running (want ≥ 60 %)`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await shot(page, 'hybrid-running-1440x900');
    await page.setViewportSize({ width: 1024, height: 700 });

    // A reload drops the socket; the server keeps the discussion for its grace period, and the panel offers it
    // at once — without opening History.
    await page.reload();
    const offer = page.locator('.discussion-panel .running-offer');
    await offer.getByText('A discussion is still running').waitFor({ timeout: 20_000 });
    if (await page.getByRole('dialog', { name: 'Past discussions' }).count())
      throw new Error('History opened by itself');
    await shot(page, 'reattach-offer-1024x700');
    await page.setViewportSize({ width: 1440, height: 900 });
    await shot(page, 'reattach-offer-1440x900');
    await offer.getByRole('button', { name: 'Re-attach' }).click();
    await hybridPanel(page).waitFor({ timeout: 10_000 });
    await hybridPanel(page).locator('.hybrid-settings-summary').waitFor({ timeout: 10_000 });
    await offer.waitFor({ state: 'detached' });
    await hybridPanel(page).getByRole('button', { name: 'Stop Discussion' }).click();
  },
  { timeoutMs: 150_000 },
);

async function axeEveryTab(page: Page, scope: string, where: string) {
  const problems: string[] = [];
  const tabs = page.locator(`${scope} [role="tab"]`);
  const n = await tabs.count();
  for (let i = 0; i < n; i++) {
    const tab = tabs.nth(i);
    const name = (await tab.textContent())?.trim() ?? `tab ${i}`;
    await tab.click();
    const serious = (await axeViolations(page)).filter(isSerious);
    if (serious.length) problems.push(`${where} — ${name}:\n${describeViolations(serious)}`);
  }
  return problems;
}

test('layout: the editor offers Personality, a colour and an avatar when creating; the node shows the avatar in that colour', async ({
  page,
  baseUrl,
}) => {
  for (const [w, h] of [
    [1024, 700],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    if (w === 1024) await signUp(page, baseUrl, 'identity');
    await page.getByRole('button', { name: '+ Add Agent' }).click();
    const drawer = page.getByRole('dialog', { name: 'Create Agent' });
    // The drawer takes the focus.
    await page.waitForFunction(() => !!document.activeElement?.closest('[role="dialog"]'), undefined, {
      timeout: 3000,
    });
    const name = w === 1024 ? 'Ada Lovelace' : 'Bo';
    await drawer.getByLabel('Name', { exact: true }).fill(name);
    await drawer.getByLabel('Role', { exact: true }).fill('Analyst');
    await drawer.getByLabel('Prompt', { exact: true }).fill('You weigh the evidence.');
    await drawer
      .getByLabel('Model', { exact: true })
      .selectOption({ label: 'Built-in offline model (no LLM) — offline' });
    await drawer.getByLabel('Personality', { exact: true }).selectOption('analytical');
    await drawer.getByRole('radio', { name: 'Colour #065f46' }).click();
    if (w === 1024) await drawer.getByRole('radio', { name: 'Avatar 🦉' }).click();
    await drawer.getByRole('group', { name: 'Look' }).scrollIntoViewIfNeeded();
    await shot(page, `editor-create-${w}x${h}`);
    const serious = (await axeViolations(page)).filter(isSerious);
    if (serious.length) throw new Error(`axe on the editor:\n${describeViolations(serious)}`);
    await drawer.getByRole('button', { name: 'Create Agent' }).click();
    await drawer.waitFor({ state: 'detached' });
    const avatar = page.locator('.react-flow__node', { hasText: name }).locator('.agora-node-avatar');
    await avatar.waitFor();
    const look = await avatar.evaluate((el) => ({ text: el.textContent, bg: getComputedStyle(el).backgroundColor }));
    if (look.bg !== 'rgb(6, 95, 70)') throw new Error(`the avatar is drawn in ${look.bg}`);
    if (look.text !== (w === 1024 ? '🦉' : 'B')) throw new Error(`the avatar shows ${look.text}`);
    // After creating, the focus is back on the button that opened the drawer.
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('Add Agent'), undefined, {
      timeout: 3000,
    });
  }
  await shot(page, 'canvas-identity-1440x900');
});

test(
  'layout: axe finds nothing serious on any tab of the standard panel, the hybrid panel, or History',
  async ({ page, baseUrl }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await signUp(page, baseUrl, 'axe-tabs');
    await makeAgentsViaApi(page, ['Ada', 'Bo']);
    await page.reload();
    for (const name of ['Ada', 'Bo']) await agentNode(page, name).click();
    const standard = page.locator('aside.discussion-panel--standard');
    const problems: string[] = [];
    problems.push(...(await axeEveryTab(page, 'aside.discussion-panel--standard', 'the standard panel before a run')));

    // A short run, so every tab has something in it.
    await standard.getByRole('button', { name: 'Advanced Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Advanced Settings' });
    const s = await axeViolations(page);
    if (s.filter(isSerious).length) problems.push(`Advanced Settings:\n${describeViolations(s.filter(isSerious))}`);
    // Multi-round, so the Reasoning Tree has arguments in it.
    await settings.getByLabel('Enable multi-round reasoning', { exact: true }).setChecked(true);
    await settings.getByLabel('Turns').fill('2');
    await shot(page, 'advanced-settings-1024x700');
    // Esc closes it wherever the focus is, and the focus goes back to its button.
    await page.locator('body').click({ position: { x: 5, y: 690 } });
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached', timeout: 3000 });
    await standard.getByRole('button', { name: 'Advanced Settings' }).click();
    await page.keyboard.press('Escape');
    await settings.waitFor({ state: 'detached', timeout: 3000 });
    // The button reads 'Settings' and is named 'Advanced Settings'.
    await page.waitForFunction(
      () =>
        (document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '').includes(
          'Advanced Settings',
        ),
      undefined,
      { timeout: 3000 },
    );
    await standard.getByLabel('Discussion context').fill('Should the library open on Sundays?');
    await standard.getByRole('button', { name: /^Start/ }).click();
    await standard.getByText(/Discussion (finished|complete|ended)/).waitFor({ timeout: 120_000 });
    problems.push(...(await axeEveryTab(page, 'aside.discussion-panel--standard', 'the standard panel after a run')));
    await shot(page, 'standard-after-run-1024x700');

    // The hybrid panel, idle and with messages.
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    await hybridPanel(page).waitFor();
    let v = (await axeViolations(page)).filter(isSerious);
    if (v.length) problems.push(`the hybrid panel (idle):\n${describeViolations(v)}`);
    await hybridPanel(page).getByLabel('Discussion topic').fill('Which repairs should the town fund first?');
    await hybridPanel(page)
      .getByRole('button', { name: /^Start/ })
      .click();
    await hybridPanel(page).locator('[role="log"] article').nth(1).waitFor({ timeout: 60_000 });
    v = (await axeViolations(page)).filter(isSerious);
    if (v.length) problems.push(`the hybrid panel (running):\n${describeViolations(v)}`);
    for (const drawer of ['Research', 'Delegations']) {
      await hybridPanel(page)
        .getByRole('button', { name: new RegExp(`^${drawer}`) })
        .click();
      v = (await axeViolations(page)).filter(isSerious);
      if (v.length) problems.push(`the hybrid ${drawer} drawer:\n${describeViolations(v)}`);
      await hybridPanel(page)
        .getByRole('button', { name: new RegExp(`^${drawer}`) })
        .click();
    }
    await hybridPanel(page).getByRole('button', { name: 'Stop Discussion' }).click();

    // History: the list, and the standard run opened on every tab.
    await hybridPanel(page).getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'Past discussions' });
    const list = dialog.getByRole('list', { name: 'Past discussions' });
    await list.getByRole('listitem').nth(1).waitFor({ timeout: 10_000 });
    const all = await axeViolations(page);
    v = all.filter((x) => isSerious(x) || x.id === 'landmark-no-duplicate-banner');
    if (v.length) problems.push(`the History list:\n${describeViolations(v)}`);
    await shot(page, 'history-list-1024x700');
    await list
      .getByRole('listitem', { name: 'Should the library open on Sundays?' })
      .getByRole('button', { name: /^Open/ })
      .click();
    await dialog.getByRole('tab').first().waitFor({ timeout: 10_000 });
    problems.push(...(await axeEveryTab(page, '[role="dialog"]', 'History, opened')));
    if (problems.length) throw new Error(problems.join('\n'));
  },
  { timeoutMs: 240_000 },
);

// ── Issue 47: what the room says at 1440×900, 1024×700 and 768×1024 ─────────────────────────────────────────────
// Each size's screen goes to docs/screens as <screen>-<width>.png (the README links them).
const SIZES = [
  [1440, 900],
  [1024, 700],
  [768, 1024],
] as const;
const docShot = (page: Page, name: string, width: number) =>
  page.screenshot({ path: path.resolve('docs', 'screens', `${name}-${width}.png`) });

/** Where an element is drawn, and whether its text is cut (scrollWidth past clientWidth) or it leaves the window. */
async function drawn(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const el = document.querySelector<HTMLElement>(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const shown = r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    return {
      shown,
      box: { x: r.x, y: r.y, width: r.width, height: r.height },
      cut: el.scrollWidth > el.clientWidth + 0.5,
      outside: r.left < 0 || r.top < 0 || r.right > window.innerWidth + 0.5 || r.bottom > window.innerHeight + 0.5,
    };
  }, selector);
}

/** Whether any of the element's ancestors clips it: the element is wider than what an overflow-hidden parent shows. */
async function clippedByParent(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const el = document.querySelector<HTMLElement>(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'visible') continue;
      const q = p.getBoundingClientRect();
      if (r.left < q.left - 0.5 || r.right > q.right + 0.5) return true;
    }
    return false;
  }, selector);
}

/** The top bar says its words whole: the e-mail (where shown), the badges and the logo. */
async function topBarProblems(page: Page, w: number, where: string): Promise<string[]> {
  const problems: string[] = [];
  // The account's e-mail: said whole where it is shown (from 900 px down the ⋯ menu names the account).
  const email = await drawn(page, '.topbar__user');
  if (w > 900 && !email?.shown) problems.push(`${where}: the e-mail is not shown`);
  if (email?.shown && (email.cut || email.outside || (await clippedByParent(page, '.topbar__user'))))
    problems.push(`${where}: the e-mail is clipped`);
  // The badges ('Discussion Active', 'Hybrid Mode') whole, inside the window.
  const badges = await drawn(page, '.topbar__badges');
  if (!badges?.shown || badges.cut || badges.outside || (await clippedByParent(page, '.topbar__badges')))
    problems.push(`${where}: a status badge is clipped`);
  // The logo's full word.
  const brand = await drawn(page, '.topbar__brand');
  if (!brand?.shown || brand.cut || (await clippedByParent(page, '.topbar__brand')))
    problems.push(`${where}: the logo is cut`);
  if ((await page.locator('.topbar__brand').textContent()) !== 'Agora') problems.push(`${where}: the logo's word`);
  return problems;
}

const meet = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test(
  'layout (issue 47): a live discussion at 1440×900, 1024×700 and 768×1024 — the e-mail and Discussion Active whole, the logo whole, the Participants box clear of the zoom buttons, a usable feed',
  async ({ page, baseUrl }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await signUp(page, baseUrl, 'sizes');
    await makeAgentsViaApi(page, ['Ada', 'Bo', 'Cleo']);
    await page.reload();
    for (const name of ['Ada', 'Bo', 'Cleo']) await agentNode(page, name).click();
    const standard = page.locator('aside.discussion-panel--standard');
    // Long enough to stay live while the three sizes are looked at.
    await standard.getByRole('button', { name: 'Advanced Settings' }).click();
    await page.getByRole('dialog', { name: 'Advanced Settings' }).getByLabel('Turns').fill('40');
    await page.keyboard.press('Escape');
    // Before Start: nothing typed yet is not scolded, and Start names the format.
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await docShot(page, 'discussion-start', w);
    }
    if (await standard.locator('.start-form__problem').count())
      throw new Error(
        `before anything is typed the form says: ${await standard.locator('.start-form__problem').textContent()}`,
      );
    await page.setViewportSize({ width: 1024, height: 700 });
    await standard.getByLabel('Discussion context').fill('Should the library open on Sundays?');
    await standard.getByRole('button', { name: 'Start round table' }).click();
    await standard.locator('[role="log"] article').first().waitFor({ timeout: 60_000 });
    await page.getByText('Discussion Active', { exact: true }).waitFor();
    const problems: string[] = [];
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const where = `${w}×${h}`;
      problems.push(...(await topBarProblems(page, w, where)));
      // The Participants box and the zoom buttons do not overlap.
      const participants = await drawn(page, '.agora-participants');
      const zoom = await drawn(page, '.react-flow__controls');
      if (!participants?.shown || !zoom?.shown)
        problems.push(`${where}: the Participants box or the zoom buttons are missing`);
      else if (meet(participants.box, zoom.box))
        problems.push(`${where}: the Participants box covers the zoom buttons`);
      // The message area: a usable height, whole inside the panel's visible part.
      const feed = await drawn(page, 'aside.discussion-panel--standard .tabpanel');
      const panelBox = await drawn(page, 'aside.discussion-panel--standard');
      if (!feed || !panelBox || feed.box.height < 240)
        problems.push(`${where}: the message area is ${feed?.box.height.toFixed(0)} px tall (want ≥ 240)`);
      else if (
        feed.box.y < panelBox.box.y - 0.5 ||
        feed.box.y + feed.box.height > panelBox.box.y + panelBox.box.height + 0.5
      )
        problems.push(`${where}: the message area is scrolled out of the panel`);
      await docShot(page, 'discussion-live', w);
    }
    if (problems.length) throw new Error(problems.join('\n'));
    await standard.getByRole('button', { name: 'Stop' }).click();
  },
  { timeoutMs: 180_000 },
);

test(
  'layout (issue 47): after a hybrid Stop the feed keeps most of the panel at 1024×700, and the header says Finished',
  async ({ page, baseUrl }) => {
    await page.setViewportSize({ width: 1024, height: 700 });
    await signUp(page, baseUrl, 'hybrid-stop');
    await makeAgentsViaApi(page, ['Ada', 'Bo']);
    await page.reload();
    for (const name of ['Ada', 'Bo']) await agentNode(page, name).click();
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    const hybrid = hybridPanel(page);
    await hybrid.getByLabel('Discussion topic').fill('Which repairs should the town fund first this year?');
    await hybrid.getByRole('button', { name: 'Start round table' }).click();
    await hybrid.locator('[role="log"] article').first().waitFor({ timeout: 60_000 });
    await hybrid.getByRole('button', { name: 'Stop Discussion' }).click();
    await hybrid.getByRole('button', { name: 'New discussion' }).waitFor({ timeout: 20_000 });
    await hybrid.locator('.panel-header__facts').getByText('Finished', { exact: true }).waitFor();
    const problems: string[] = [];
    for (const [w, h] of SIZES) {
      await page.setViewportSize({ width: w, height: h });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      problems.push(...(await topBarProblems(page, w, `${w}×${h}`)));
      await docShot(page, 'hybrid-stopped', w);
    }
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const share = await page.evaluate(() => {
      const panelBox = document.querySelector('aside.discussion-panel--hybrid')!.getBoundingClientRect();
      const feedBox = document.querySelector('aside.discussion-panel--hybrid .tabpanel')!.getBoundingClientRect();
      return feedBox.height / panelBox.height;
    });
    if (problems.length) throw new Error(problems.join('\n'));
    if (share < 0.6)
      throw new Error(`after Stop the feed keeps ${(share * 100).toFixed(0)} % of the hybrid panel (want ≥ 60 %)`);
  },
  { timeoutMs: 150_000 },
);

/** React Flow's viewport transform: [x, y, zoom]. */
const viewportOf = (page: Page) =>
  page.evaluate(() => {
    const t = (document.querySelector('.react-flow__viewport') as HTMLElement | null)?.style.transform ?? '';
    const m = /translate\(([-\d.]+)px, ([-\d.]+)px\) scale\(([\d.]+)\)/.exec(t);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
  });

/** Where the minimap draws the first card, from the top-left corner of the view's outline, in pixels. */
async function cardFromOutline(page: Page) {
  const card = await page.locator('.react-flow__minimap-node').first().boundingBox();
  const outline = await page.locator('.agora-minimap-view').boundingBox();
  if (!card || !outline) throw new Error('no card or no outline on the minimap');
  return { x: card.x - outline.x, y: card.y - outline.y };
}

test('layout: the minimap draws every agent, shades all but the view, pans the board by a drag and zooms it by the wheel', async ({
  page,
  baseUrl,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page, baseUrl, 'minimap');
  await makeAgentsViaApi(page, ['Ada', 'Bo', 'Cleo', 'Dev']);
  await page.reload();
  await page.locator('.react-flow__node').nth(3).waitFor();
  const minimap = page.getByRole('img', { name: 'Canvas overview' });
  await minimap.waitFor();
  if ((await page.locator('.react-flow__minimap-node').count()) !== 4)
    throw new Error('the minimap does not draw 4 agents');
  await steadyViewport(page);
  const outline = page.locator('.agora-minimap-view');
  const before = await outline.boundingBox();
  const box = await minimap.boundingBox();
  if (!before || !box || before.width < 10 || before.width > box.width)
    throw new Error(`the view's outline is ${JSON.stringify(before)} in a minimap of ${JSON.stringify(box)}`);
  await shot(page, 'minimap-1440x900');

  const cardAt = await cardFromOutline(page);
  // A drag on the minimap moves the board the other way (the view goes where the pointer goes).
  const v0 = await viewportOf(page);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2 + 10, { steps: 5 });
  await page.mouse.up();
  await steadyViewport(page);
  const v1 = await viewportOf(page);
  if (!v0 || !v1 || !(v1[0] < v0[0]) || !(v1[1] < v0[1]) || v1[2] !== v0[2])
    throw new Error(`a drag on the minimap moved the board from ${v0} to ${v1}`);
  // The view went right and down over the board: on the minimap, the cards sit further left and up of the view's
  // outline than before (the frame itself may follow the view, when the view holds every agent).
  const after = await cardFromOutline(page);
  if (!(after.x < cardAt.x && after.y < cardAt.y))
    throw new Error(
      `the outline did not follow the view: a card at ${JSON.stringify(cardAt)}, then ${JSON.stringify(after)}`,
    );

  // The wheel on it zooms the board out, and the outline grows with the view.
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 300);
  await steadyViewport(page);
  const v2 = await viewportOf(page);
  if (!v2 || !(v2[2] < v1[2])) throw new Error(`the wheel on the minimap left the zoom at ${v2?.[2]} (was ${v1[2]})`);
  await page.waitForTimeout(400); // the frame refits once the zoom rests
  const zoomed = await outline.boundingBox();
  if (!zoomed || !(zoomed.width > 0)) throw new Error('the outline vanished after a zoom');
  await shot(page, 'minimap-zoomed-1440x900');
});
