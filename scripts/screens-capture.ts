// Drives the app at SCREENS_BASE_URL (scripts/screens.mjs starts it) in Chromium and writes every screen at
// 1440×900 and 1024×700 to docs/screens/<screen>-<width>.png. `--axe` prints axe-core's findings per screen.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { axeViolations, describeViolations } from '../tests/e2e/axe';
import { chromiumLaunchOptions } from '../tests/e2e/harness';
import { shootApiDocs } from './lib/apiDocsScreen';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs', 'screens');
const base = process.env.SCREENS_BASE_URL;
const withAxe = process.argv.includes('--axe');
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];
const EMAIL = 'ada.lovelace@example.com';
const PASSWORD = 'analytical-engine';
const AGENTS: [string, string][] = [
  ['Ada', 'Analyst'],
  ['Bo', 'Critic'],
  ['Cy', 'Moderator'],
  ['Dee', 'Researcher'],
  ['Eli', 'Optimist'],
  ['Fay', 'Skeptic'],
];

async function shoot(page: Page, screen: string) {
  const file = path.join(OUT, `${screen}-${page.viewportSize()!.width}.png`);
  await page.waitForTimeout(250); // let transitions and the minimap settle
  await page.screenshot({ path: file });
  console.log(`  ${path.relative(ROOT, file)}`);
  if (withAxe) {
    const v = await axeViolations(page);
    if (v.length) console.log(describeViolations(v));
  }
}

const node = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name},`) });

async function createAgent(page: Page, name: string, role: string) {
  await page.getByRole('button', { name: '+ Add Agent' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create Agent' });
  await drawer.getByLabel('Name', { exact: true }).fill(name);
  await drawer.getByLabel('Role', { exact: true }).fill(role);
  await drawer
    .getByLabel('Prompt', { exact: true })
    .fill(`You are ${name}, a thoughtful ${role.toLowerCase()}. Argue from evidence.`);
  await drawer
    .getByLabel('Model', { exact: true })
    .selectOption({ label: 'Built-in offline model (no LLM) — offline' });
  await drawer.getByRole('button', { name: 'Create Agent' }).click();
  await drawer.waitFor({ state: 'detached' });
  await node(page, name).waitFor();
}

async function api<T>(page: Page, method: string, url: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const token = localStorage.getItem('token') ?? localStorage.getItem('access_token') ?? '';
      const res = await fetch(url, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    },
    { method, url, body },
  );
}

async function mainScreens(
  browser: Browser,
  storageState: Awaited<ReturnType<import('playwright-core').BrowserContext['storageState']>>,
  vp: { width: number; height: number },
) {
  const context = await browser.newContext({ viewport: vp, storageState });
  const page = await context.newPage();
  await page.goto(base!);
  await node(page, 'Ada').waitFor();
  await page.getByRole('button', { name: 'Fit View' }).click();
  await node(page, 'Ada').click();
  await node(page, 'Cy').click();
  await shoot(page, 'main');

  await node(page, 'Bo').click({ button: 'right' });
  await page.getByRole('menu').waitFor();
  await shoot(page, 'context-menu');
  await page.getByRole('menuitem', { name: /Delete Agent/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete agent' }).waitFor();
  await page.waitForFunction(() => !document.querySelector('.agora-confirm button.danger[disabled]'));
  await shoot(page, 'delete-dialog');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: '+ Add Agent' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create Agent' });
  await create.getByLabel('Name', { exact: true }).fill('Gus');
  await create.getByLabel('Role', { exact: true }).fill('Historian');
  await shoot(page, 'editor-create');
  await create.getByRole('button', { name: 'Close editor' }).click();

  await node(page, 'Cy').click({ button: 'right' });
  await page.getByRole('menuitem', { name: /Edit Agent/ }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Cy' });
  await edit.getByRole('region', { name: 'Overview' }).waitFor();
  await edit.getByLabel('Personality', { exact: true }).selectOption('analytical');
  await edit.getByRole('button', { name: 'Update Agent' }).click();
  await edit
    .getByText('Saved', { exact: true })
    .waitFor()
    .catch(() => undefined);
  await shoot(page, 'editor-edit');
  await context.close();
}

/** The discussion panels after a finished run (the offline model is instant here), and their settings. */
async function discussionScreens(
  browser: Browser,
  storageState: Awaited<ReturnType<import('playwright-core').BrowserContext['storageState']>>,
  vp: { width: number; height: number },
) {
  const context = await browser.newContext({ viewport: vp, storageState });
  const page = await context.newPage();
  await page.goto(base!);
  await node(page, 'Ada').waitFor();
  await page.getByRole('button', { name: 'Fit View' }).click();
  await node(page, 'Ada').click();
  await node(page, 'Bo').click();
  const panel = page.getByRole('complementary', { name: 'Discussion', exact: true });
  await panel.getByLabel('Discussion context').fill('Should our town square be closed to cars on weekends?');
  await panel.getByRole('button', { name: 'Start round table' }).click();
  await panel.getByText(/Discussion finished/).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(300);
  await shoot(page, 'discussion');
  await panel.getByRole('tab', { name: 'Analytics' }).click();
  await shoot(page, 'discussion-analytics');
  await panel.getByRole('button', { name: 'Advanced Settings' }).click();
  await shoot(page, 'discussion-settings');
  await page.getByRole('dialog', { name: 'Advanced Settings' }).getByRole('button', { name: 'Done' }).click();

  await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
  const hybrid = page.getByRole('complementary', { name: 'Hybrid discussion' });
  await hybrid.getByRole('button', { name: 'Problem Solving' }).click();
  await hybrid.getByRole('button', { name: 'Settings' }).click();
  await hybrid.getByLabel('Pause between turns (ms)').fill('0');
  await hybrid.getByLabel(/^Max rounds/).fill('2');
  await shoot(page, 'hybrid-settings');
  await hybrid.getByRole('button', { name: 'Settings' }).click();
  await hybrid.getByRole('button', { name: 'Start round table' }).click();
  await hybrid.getByText(/Discussion ended|Discussion stopped/).waitFor({ timeout: 60_000 });
  await page.waitForTimeout(300);
  await shoot(page, 'hybrid');

  // History: both runs listed, the hybrid one opened read-only.
  await hybrid.getByRole('button', { name: 'History' }).click();
  const history = page.getByRole('dialog', { name: 'Past discussions' });
  await history.getByRole('list', { name: 'Past discussions' }).getByRole('listitem').nth(1).waitFor();
  await shoot(page, 'history');
  await history
    .getByRole('button', { name: /^Open / })
    .first()
    .click();
  await history.getByText('Read-only').waitFor();
  await page.waitForTimeout(300);
  await shoot(page, 'history-opened');
  await context.close();
}

async function main() {
  if (!base) throw new Error('SCREENS_BASE_URL is not set; run `npm run screens`');
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    // Sign-in, and the empty workspace of a new account, at both sizes.
    let storageState;
    for (const vp of VIEWPORTS) {
      const context = await browser.newContext({ viewport: vp });
      const page = await context.newPage();
      await page.goto(base);
      await page.getByLabel('Email', { exact: true }).waitFor();
      await page.getByText(/Backend online/).waitFor();
      await shoot(page, 'login');
      if (!storageState) {
        await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
        await page.getByLabel('Email', { exact: true }).fill(EMAIL);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
        await page.getByRole('region', { name: 'Canvas controls' }).waitFor();
        storageState = await context.storageState();
      }
      await context.close();
    }
    for (const vp of VIEWPORTS) {
      const context = await browser.newContext({ viewport: vp, storageState });
      const page = await context.newPage();
      await page.goto(base);
      await page.getByRole('region', { name: 'Canvas controls' }).waitFor();
      await page.waitForTimeout(300);
      await shoot(page, 'main-empty');
      await context.close();
    }

    // Six agents, created one after another through the editor, then a few connections.
    const context = await browser.newContext({ viewport: VIEWPORTS[0], storageState });
    const page = await context.newPage();
    await page.goto(base);
    await page.getByRole('region', { name: 'Canvas controls' }).waitFor();
    for (const [name, role] of AGENTS) await createAgent(page, name, role);
    const agents = await api<{ id: string; name: string }[]>(page, 'GET', '/agents/');
    const id = (n: string) => agents.find((a) => a.name === n)!.id;
    for (const [a, b] of [
      ['Ada', 'Bo'],
      ['Ada', 'Cy'],
      ['Bo', 'Dee'],
      ['Cy', 'Eli'],
      ['Eli', 'Fay'],
    ]) {
      await api(page, 'POST', '/connections/', { from_agent_id: id(a), to_agent_id: id(b) });
    }
    const auto = page.getByRole('button', { name: 'Auto-layout' });
    if (await auto.count()) await auto.click();
    await page.waitForTimeout(1500);
    const state = await context.storageState();
    await context.close();
    for (const vp of VIEWPORTS) await mainScreens(browser, state, vp);
    for (const vp of VIEWPORTS) await discussionScreens(browser, state, vp);
    // The API reference (README 'API'), the whole page at 1440 wide.
    console.log(`  ${path.relative(ROOT, await shootApiDocs(browser, base, OUT))}`);
  } finally {
    await browser.close();
  }
}

await main();
