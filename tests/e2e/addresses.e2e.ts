import type { Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { runShortBasic } from './basicRun';
import { test, uniqueEmail } from './harness';

// Every view has an address (issue 43): a discussion run on the offline model, then canvas → History → the
// discussion → its replay at a turn → History filtered; Back ×4 to the canvas, Forward, and a reload on each
// address restores its view. An unknown id and an address of no view show the in-app 'not found', whose button
// goes back to the canvas (screenshot: docs/screens/not-found-1024.png).
const PASSWORD = 'correct-horse-42';
const CONTEXT = 'Should libraries lend tools as well as books?';

const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Past discussions' });
const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();
const timeline = (page: Page) => dialog(page).getByRole('slider', { name: 'Timeline' });
const notFound = (page: Page) => page.getByRole('heading', { name: 'Not found' });

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The address without its origin. */
const here = (page: Page) => {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}${u.hash}`;
};
const atAddress = (page: Page, address: string) =>
  waitFor(`the address ${address} (at ${here(page)})`, async () => here(page) === address);

/** What each address shows, checked by what a reader sees. */
const views = {
  canvas: async (page: Page) => {
    await panel(page).waitFor({ timeout: 20_000 });
    await waitFor('no History dialog', async () => (await dialog(page).count()) === 0);
  },
  history: async (page: Page, format: string) => {
    await dialog(page).getByRole('list', { name: 'Past discussions' }).waitFor({ timeout: 20_000 });
    await waitFor(
      `the format filter '${format}'`,
      async () => (await dialog(page).getByLabel('Format').inputValue()) === format,
    );
  },
  discussion: async (page: Page) => {
    await dialog(page).getByText('Read-only').waitFor({ timeout: 20_000 });
    await dialog(page).getByRole('button', { name: 'Replay', exact: true }).waitFor();
  },
  replay: async (page: Page, turn: number) => {
    await timeline(page).waitFor({ timeout: 20_000 });
    await waitFor(`turn ${turn}`, async () => Number(await timeline(page).inputValue()) === turn);
  },
};

test(
  'addresses: canvas → History → discussion → replay → History filtered; Back, Forward and reload restore each view',
  async ({ page, baseUrl }) => {
    await page.goto(baseUrl);
    await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('addresses'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
    await panel(page).waitFor({ timeout: 20_000 });
    await makeOfflineAgents(page);
    for (const name of ['Ada', 'Bo']) await node(page, name).click();
    await runShortBasic(page, CONTEXT);
    await atAddress(page, '/');

    // Forward through the views: each one is its own address.
    await panel(page).getByRole('button', { name: 'History' }).click();
    await atAddress(page, '/history');
    const row = dialog(page).getByRole('listitem', { name: CONTEXT });
    await row.waitFor({ timeout: 10_000 });
    await row.getByRole('button', { name: `Open ${CONTEXT}` }).click();
    await views.discussion(page);
    await waitFor('a discussion address', async () => /^\/discussions\/[^/]+$/.test(here(page)));
    const discussion = here(page);
    await dialog(page).getByRole('button', { name: 'Replay', exact: true }).click();
    await atAddress(page, `${discussion}/replay#t=0`);
    await timeline(page).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    // Moving along the timeline replaces the address, it adds no Back step per turn.
    await atAddress(page, `${discussion}/replay#t=2`);
    await dialog(page).getByRole('button', { name: '← All discussions' }).click();
    await atAddress(page, '/history');
    await dialog(page).getByLabel('Format').selectOption('round_table');
    await atAddress(page, '/history?format=round_table');
    await views.history(page, 'round_table');

    // Back through them, to the canvas.
    const back = [
      [`${discussion}/replay#t=2`, () => views.replay(page, 2)],
      [discussion, () => views.discussion(page)],
      ['/history', () => views.history(page, '')],
      ['/', () => views.canvas(page)],
    ] as const;
    for (const [address, shows] of back) {
      await page.goBack();
      await atAddress(page, address);
      await shows();
    }
    // Forward again.
    await page.goForward();
    await atAddress(page, '/history');
    await views.history(page, '');
    await page.goForward();
    await atAddress(page, discussion);
    await views.discussion(page);

    // A reload on each address (the first address after sign-in) restores its view and keeps the address.
    const reloads = [
      [discussion, () => views.discussion(page)],
      [`${discussion}/replay#t=2`, () => views.replay(page, 2)],
      ['/history?format=round_table', () => views.history(page, 'round_table')],
      ['/', () => views.canvas(page)],
    ] as const;
    for (const [address, shows] of reloads) {
      // A fresh page (a hash change alone would not load it again).
      await page.goto('about:blank');
      await page.goto(baseUrl + address);
      await shows();
      await atAddress(page, address);
    }

    // An id that is not this user's, and an address of no view: 'not found', with a way back to the canvas.
    await page.goto(`${baseUrl}/discussions/no-such-discussion`);
    await notFound(page).waitFor({ timeout: 20_000 });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: 'docs/screens/not-found-1024.png' });
    await page.getByRole('button', { name: 'Back to the canvas' }).click();
    await atAddress(page, '/');
    await views.canvas(page);
    await page.goto(`${baseUrl}/no/such/page`);
    await notFound(page).waitFor({ timeout: 20_000 });
    await page.getByText('/no/such/page').waitFor();
    // Back leaves the page for the canvas it came from.
    await page.goBack();
    await atAddress(page, '/');
    await views.canvas(page);
  },
  { timeoutMs: 240_000 },
);
