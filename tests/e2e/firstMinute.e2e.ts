import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { axeViolations, describeViolations, isSerious } from './axe';
import { test } from './harness';
import { uniqueEmail } from './harness';

async function signUp(page: Page, baseUrl: string) {
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('firstmin'));
  await page.getByLabel('Password', { exact: true }).fill('correct-horse-42');
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await page.getByRole('region', { name: 'Canvas controls' }).waitFor({ timeout: 20_000 });
}

/** Agents on the offline model, made through the API with no position (the server places them). */
async function makeAgentsViaApi(page: Page, names: readonly string[]) {
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

// The first minute's layouts and keyboard at four window sizes: the panel's Start and its footer (Stop, PDF, JSON)
// are whole on screen without scrolling inside the panel; the dialogs are modal (Tab stays in, Esc closes the top one wherever the focus is, the focus goes back to the
// opener); the editor opens on Name; after Start the focus is in the message box; after Stop the feed keeps at
// least 60 % of the panel. Screens go to test-results/screens-first-minute; axe finds nothing serious on them.
const SIZES = [
  [1440, 900],
  [1280, 800],
  [1024, 700],
  [768, 1024],
] as const;
const SHOTS = path.resolve('test-results', 'screens-first-minute');
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
};
// A new window size can start the panel's width transition: measure and shoot the layout it ends in.
const settled = (page: Page) =>
  page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
const panel = (page: Page) => page.locator('aside.discussion-panel');

async function expectAxeClean(page: Page, label: string) {
  const serious = (await axeViolations(page)).filter(isSerious);
  if (serious.length > 0) throw new Error(`axe found serious violations on ${label}:\n${describeViolations(serious)}`);
}

/** Whole on screen: inside the window, inside every clipping ancestor as it is scrolled now, and not covered. */
async function expectWhole(what: Locator, label: string) {
  await what.waitFor({ timeout: 10_000 });
  const problem = await what.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 'not drawn';
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
      return `outside the window (${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight})`;
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (!/(auto|scroll|hidden|clip)/.test(s.overflowY + s.overflowX)) continue;
      const c = p.getBoundingClientRect();
      if (r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5)
        return `clipped by ${p.className || p.tagName} (needs scrolling inside it)`;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(el === hit || el.contains(hit)))
      return `covered by ${hit ? (hit as HTMLElement).className || hit.tagName : 'nothing'}`;
    return null;
  });
  if (problem) throw new Error(`${label}: ${problem}`);
}

const NAMES = ['Ada', 'Bo', 'Cleo', 'Dev', 'Eli', 'Fay', 'Gus', 'Hal'];

test(
  'first minute: layouts at four sizes, full cards, modal dialogs, focus after Start, the feed after Stop',
  async ({ page, baseUrl }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signUp(page, baseUrl);
    await makeAgentsViaApi(page, NAMES);
    await page.reload();
    await page.locator('.react-flow__node').nth(7).waitFor({ timeout: 20_000 });

    for (const [width, height] of SIZES) {
      const size = `${width}x${height}`;
      await page.setViewportSize({ width, height });
      await settled(page);
      await panel(page).waitFor();
      await expectWhole(
        panel(page)
          .getByRole('button', { name: /^Start/ })
          .first(),
        `Start at ${size}`,
      );
      for (const name of ['Stop', 'PDF', 'JSON'])
        await expectWhole(panel(page).getByRole('button', { name, exact: true }), `${name} at ${size}`);
      await shot(page, `main-${size}`);
      await expectAxeClean(page, `the main screen at ${size}`);
      // Eight agents beside the open panel keep their full cards: avatar, role and status drawn, not bare bars.
      const bare = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.react-flow__node')]
          .filter((n) =>
            ['.agora-node-avatar', '.agora-node-role', '.agora-node-status'].some((part) => {
              const el = n.querySelector<HTMLElement>(part);
              return !el || el.offsetWidth === 0 || el.offsetHeight === 0 || !el.textContent?.trim();
            }),
          )
          .map((n) => n.querySelector('.agora-node-name')?.textContent ?? n.id),
      );
      if (bare.length) throw new Error(`at ${size} these agents are drawn without avatar, role or status: ${bare}`);
    }

    await page.setViewportSize({ width: 1024, height: 700 });

    // Models: a modal dialog. Tab never leaves it, Esc closes it from anywhere, the focus goes back to its opener.
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Models' }).click();
    const dialog = page.getByRole('dialog', { name: 'Models' });
    await dialog.waitFor();
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      // Past the dialog's last control the browser's own UI takes the focus (the body here), never the page beneath.
      const inside = await dialog.evaluate(
        (d) => d.contains(document.activeElement) || document.activeElement === document.body,
      );
      if (!inside)
        throw new Error(
          `Tab ${i + 1} left the Models dialog for ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))}`,
        );
    }
    await page.getByRole('button', { name: 'Add connection' }).click();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Back to what opened it (the menu is gone with its item, so its button).
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'More actions');

    // The editor opens on Name.
    await page
      .getByRole('button', { name: /Add Agent/ })
      .first()
      .click();
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.placeholder === 'e.g. Ada');
    await shot(page, 'editor-1024x700');
    await expectAxeClean(page, 'the editor at 1024x700');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Create Agent' }).waitFor({ state: 'detached' });

    // Two agents selected, Start: the focus is in the message box.
    await page.getByRole('button', { name: 'Auto-layout' }).click();
    for (const n of ['Ada', 'Bo']) await page.getByRole('button', { name: new RegExp(`^${n},`) }).click();
    await panel(page)
      .getByRole('textbox', { name: /topic|context/i })
      .first()
      .fill('Should our city make public transport free?');
    await panel(page)
      .getByRole('button', { name: /^Start/ })
      .first()
      .click();
    await page.waitForFunction(() => document.activeElement?.id === 'human-message', undefined, { timeout: 10_000 });
    await expectWhole(panel(page).getByRole('button', { name: 'Stop', exact: true }), 'Stop while running at 1024x700');
    await panel(page).locator('article').nth(1).waitFor({ timeout: 30_000 });
    await panel(page).getByRole('button', { name: 'Stop', exact: true }).click();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('aside.discussion-panel .panel-footer button')].some(
          (b) => b.textContent?.trim() === 'Stop' && (b as HTMLButtonElement).disabled,
        ),
      undefined,
      { timeout: 10_000 },
    );
    for (const [width, height] of SIZES) {
      const size = `${width}x${height}`;
      await page.setViewportSize({ width, height });
      await settled(page);
      const share = await panel(page).evaluate((p) => {
        // The feed with its tab bar (the tabs name what it shows), against the whole panel.
        const feed = p.querySelector('[role="log"]')?.closest('.tabpanel');
        const tabs = p.querySelector('[role="tablist"]');
        if (!feed || !tabs) return 0;
        return (
          (feed.getBoundingClientRect().bottom - tabs.getBoundingClientRect().top) / p.getBoundingClientRect().height
        );
      });
      await shot(page, `stopped-${size}`);
      if (share < 0.6)
        throw new Error(`after Stop the feed has ${Math.round(share * 100)} % of the panel at ${size}, not 60 %`);
      for (const name of ['Stop', 'PDF', 'JSON'])
        await expectWhole(panel(page).getByRole('button', { name, exact: true }), `${name} after Stop at ${size}`);
      await expectAxeClean(page, `the stopped discussion at ${size}`);
    }

    // History: rows with participants; a modal dialog too.
    await page.setViewportSize({ width: 1440, height: 900 });
    const history = panel(page).getByRole('button', { name: 'History' });
    await history.click();
    const past = page.getByRole('dialog', { name: 'Past discussions' });
    await past.getByRole('img', { name: 'With Ada and Bo' }).first().waitFor({ timeout: 10_000 });
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await settled(page);
      await shot(page, `history-${width}x${height}`);
      await expectAxeClean(page, `History at ${width}x${height}`);
    }
    await page.locator('body').evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Escape');
    await past.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'History');

    // The hybrid panel at 1024×700: its Start is whole on screen, not in a nested scroll area behind a notice.
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    for (const [width, height] of SIZES) {
      const size = `${width}x${height}`;
      await page.setViewportSize({ width, height });
      await settled(page);
      await expectWhole(
        panel(page)
          .getByRole('button', { name: /^Start/ })
          .first(),
        `hybrid Start at ${size}`,
      );
      await shot(page, `hybrid-${size}`);
      await expectAxeClean(page, `the hybrid panel at ${size}`);
    }
  },
  { timeoutMs: 240_000 },
);
