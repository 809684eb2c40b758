import type { Page } from 'playwright-core';
import { expectNoSeriousViolations } from './axe';
import { test, uniqueEmail } from './harness';

// The workspace as a newcomer meets it: the favicon, axe-core on every screen (sign-in, the main screen, the
// editor, the node menu and the dialogs), ten agents created in a row that do not overlap, Auto-layout, and a
// top bar that stays on one line at 1024 px.
const PASSWORD = 'correct-horse-42';

const controls = (page: Page) => page.getByRole('region', { name: 'Canvas controls' });
const node = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name},`) });

async function register(page: Page, baseUrl: string) {
  await page.goto(baseUrl);
  await page.getByLabel('Email', { exact: true }).waitFor();
  await page.getByText(/Backend online/).waitFor();
  await expectNoSeriousViolations(page, 'the sign-in screen');
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await expectNoSeriousViolations(page, 'the create-account screen');
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('workspace'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await controls(page).waitFor();
}

async function createAgent(page: Page, name: string) {
  await page.getByRole('button', { name: '+ Add Agent' }).click();
  const drawer = page.getByRole('dialog', { name: 'Create Agent' });
  await drawer.getByLabel('Name', { exact: true }).fill(name);
  await drawer.getByLabel('Role', { exact: true }).fill('Analyst');
  await drawer.getByLabel('Prompt', { exact: true }).fill(`You are ${name}.`);
  await drawer
    .getByLabel('Model', { exact: true })
    .selectOption({ label: 'Built-in offline model (no LLM) — offline' });
  await drawer.getByRole('button', { name: 'Create Agent' }).click();
  await drawer.waitFor({ state: 'detached' });
  await node(page, name).waitFor();
}

type Box = { x: number; y: number; width: number; height: number; name: string };

/** The drawn boxes of every agent node, in page pixels. */
/** Waits until the nodes stop moving (Fit View animates): the same boxes on three frames in a row, at most 5 s. */
async function steadyBoxes(page: Page) {
  let last = '';
  let same = 0;
  for (let t = Date.now(); Date.now() - t < 5_000 && same < 3; ) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    const now = JSON.stringify(await nodeBoxes(page));
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

async function nodeBoxes(page: Page): Promise<Box[]> {
  return page.locator('.react-flow__node').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return {
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
        name: el.querySelector('.agora-node-name')?.textContent ?? '?',
      };
    }),
  );
}

function overlapping(boxes: Box[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
        pairs.push(`${a.name}/${b.name}`);
    }
  return pairs;
}

async function storedAgents(page: Page): Promise<{ name: string; x: number | null; y: number | null }[]> {
  return page.evaluate(async () => {
    const token = localStorage.getItem('token') ?? localStorage.getItem('access_token') ?? '';
    const res = await fetch('/agents/', { headers: { Authorization: `Bearer ${token}` } });
    return res.json();
  });
}

/** Waits until every agent has a saved position inside the 0..2000 board. */
async function waitForSavedPositions(page: Page, count: number) {
  for (let i = 0; i < 100; i++) {
    const all = await storedAgents(page);
    if (
      all.length === count &&
      all.every(
        (a) => typeof a.x === 'number' && typeof a.y === 'number' && a.x >= 0 && a.x <= 2000 && a.y >= 0 && a.y <= 2000,
      )
    )
      return all;
    await page.waitForTimeout(100);
  }
  throw new Error(`positions were not saved: ${JSON.stringify(await storedAgents(page))}`);
}

test('the favicon is served and linked', async ({ page, baseUrl }) => {
  const res = await page.request.get(`${baseUrl}/favicon.svg`);
  if (res.status() !== 200) throw new Error(`/favicon.svg answered ${res.status()}`);
  if (!(res.headers()['content-type'] ?? '').includes('svg'))
    throw new Error(`/favicon.svg is ${res.headers()['content-type']}`);
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(baseUrl);
  await page.getByLabel('Email', { exact: true }).waitFor();
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  if (href !== '/favicon.svg') throw new Error(`the icon link points to ${href}`);
  await page.waitForLoadState('networkidle');
  if (failed.length) throw new Error(`requests failed while loading: ${failed.join(', ')}`);
});

test(
  'ten agents in a row do not overlap; Auto-layout; axe finds nothing serious on any screen; the top bar is one line at 1024 px',
  async ({ page, baseUrl }) => {
    await register(page, baseUrl);
    await page.getByRole('heading', { name: 'Build your panel of agents' }).waitFor();
    await expectNoSeriousViolations(page, 'the empty main screen');

    const names = ['Ada', 'Bo', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo'];
    for (const name of names) await createAgent(page, name);
    await waitForSavedPositions(page, names.length);
    const drawn = await nodeBoxes(page);
    if (drawn.length !== names.length) throw new Error(`${drawn.length} nodes drawn`);
    const clash = overlapping(drawn);
    if (clash.length) throw new Error(`new agents overlap: ${clash.join(', ')}`);
    // A reload draws them where they were saved: still apart.
    await page.reload();
    await node(page, 'Jo').waitFor();
    const reloaded = overlapping(await nodeBoxes(page));
    if (reloaded.length) throw new Error(`after a reload agents overlap: ${reloaded.join(', ')}`);

    // Select two, connect a few, and run axe over the main screen, the menu and the dialogs.
    await node(page, 'Ada').click();
    await node(page, 'Bo').click();
    await page.getByRole('button', { name: 'Auto-Connect' }).click();
    await page.getByText(/^Auto-connected: \d+ connections? created$/).waitFor();
    await page.locator('.react-flow__edge').first().waitFor();
    await expectNoSeriousViolations(page, 'the main screen with agents');

    // Auto-layout moves agents and saves where they went; nothing overlaps afterwards.
    const saved = page.waitForResponse((r) => r.url().includes('/position') && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Auto-layout' }).click();
    await saved;
    await waitForSavedPositions(page, names.length);
    await page.getByRole('button', { name: 'Fit View' }).click();
    await steadyBoxes(page);
    const laidOut = overlapping(await nodeBoxes(page));
    if (laidOut.length) throw new Error(`after Auto-layout agents overlap: ${laidOut.join(', ')}`);

    await node(page, 'Cy').click({ button: 'right' });
    await page.getByRole('menu', { name: 'Actions for Cy' }).waitFor();
    await expectNoSeriousViolations(page, 'the node context menu');
    await page.getByRole('menuitem', { name: 'Delete Agent' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(/Delete agent "Cy"\?/).waitFor();
    await page.waitForFunction(() => !document.querySelector('[role="alertdialog"] button[disabled]'));
    await expectNoSeriousViolations(page, 'the delete-agent dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: '+ Add Agent' }).click();
    await page
      .getByRole('dialog', { name: 'Create Agent' })
      .getByText(/Save the agent first, then open it again/)
      .waitFor();
    await expectNoSeriousViolations(page, 'the editor in create mode');
    await page.getByRole('button', { name: 'Close editor' }).click();

    await node(page, 'Dee').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Edit Agent' }).click();
    const drawer = page.getByRole('dialog', { name: 'Edit Dee' });
    await drawer.getByRole('region', { name: 'Overview' }).waitFor();
    await drawer.getByRole('button', { name: 'Update Agent' }).click();
    await drawer.getByText('Saved', { exact: true }).waitFor();
    await expectNoSeriousViolations(page, 'the editor in edit mode');
    // The drawer sits below the top bar: every top-bar button is still the topmost element where it is drawn.
    for (const name of ['Switch to Hybrid', 'Logout']) {
      const b = page.getByRole('button', { name, exact: true });
      const box = (await b.boundingBox())!;
      const hit = await b.evaluate((el, p) => el.contains(document.elementFromPoint(p.x, p.y)), {
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
      });
      if (!hit) throw new Error(`the drawer covers the top bar's ${name}`);
    }
    await drawer.getByRole('button', { name: 'Delete Agent' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete agent' }).waitFor();
    await expectNoSeriousViolations(page, 'the editor delete dialog');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Close editor' }).click();

    // 1024 px: the top bar stays one line; its secondary actions are in the More menu.
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const bar = await page.locator('header.topbar').evaluate((el) => {
      const r = el.getBoundingClientRect();
      const kids = Array.from(el.querySelectorAll('button, .counts li, .topbar__brand')).map((k) =>
        k.getBoundingClientRect(),
      );
      return {
        height: r.height,
        top: r.top,
        bottom: r.bottom,
        right: r.right,
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
        kids: kids.map((k) => ({ top: k.top, bottom: k.bottom, right: k.right })),
      };
    });
    if (bar.height > 60) throw new Error(`the top bar is ${bar.height}px tall at 1024 px (two lines?)`);
    if (bar.scrollWidth > bar.clientWidth + 1) throw new Error('the top bar overflows at 1024 px');
    for (const k of bar.kids)
      if (k.top < bar.top || k.bottom > bar.bottom || k.right > bar.right + 1)
        throw new Error('a top-bar item is outside the bar at 1024 px');
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Test Connection' }).waitFor();
    await expectNoSeriousViolations(page, 'the top-bar menu at 1024 px');
  },
  { timeoutMs: 180_000 },
);
