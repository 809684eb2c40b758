import { FORMAT_MODEL, startFakeFormatModel } from '../support/fakeFormatModel';
import { axeClean, CONTEXT, panel, setUp } from './formatSteps';
import { test } from './harness';

// Moderating in the standard panel against the real server (the agents' model a loopback server the test holds
// mid-turn): 'Give the floor' pressed while an agent speaks is queued visibly ('Cy speaks next', with Cancel), and
// Cy really speaks next. And the top bar's ⋯ menu by keyboard alone (WAI-ARIA menu button pattern).

test(
  'moderating: the floor given while Bo speaks is queued visibly, can be cancelled, and the queued agent speaks next',
  async ({ page, baseUrl }) => {
    let release: () => void = () => {};
    let holding: Promise<void> | null = null;
    const server = await startFakeFormatModel({
      say: (prompt) => (/You are Bo/.test(prompt) ? 'Over to @Ada on cost.' : 'Drip saves water on sandy soil.'),
      before: () => holding ?? undefined,
    });
    try {
      await setUp(page, baseUrl, 3, { url: server.url, name: FORMAT_MODEL });
      await panel(page).getByLabel('Format', { exact: true }).selectOption({ label: 'Moderated' });
      await panel(page).getByLabel('Moderator', { exact: true }).selectOption({ label: 'You' });
      await panel(page).getByLabel('Discussion context').fill(CONTEXT);
      await panel(page).getByRole('button', { name: 'Start moderated discussion' }).click();
      await panel(page)
        .getByText(/Waiting for you to give the floor/)
        .waitFor({ timeout: 20_000 });

      holding = new Promise<void>((r) => (release = r));
      await panel(page).getByRole('button', { name: 'Give the floor to Bo' }).click();
      await panel(page).getByText('Bo has the floor: given the floor by you').waitFor({ timeout: 20_000 });
      // While Bo speaks: Ada is queued, then taken back; then Cy is queued.
      await panel(page).getByRole('button', { name: 'Give the floor to Ada' }).click();
      const queued = panel(page).getByRole('status').filter({ hasText: 'speaks next' });
      await queued.filter({ hasText: 'Ada speaks next' }).waitFor({ timeout: 10_000 });
      await panel(page).getByRole('button', { name: 'Cancel: Ada does not speak next' }).click();
      await queued.waitFor({ state: 'detached', timeout: 10_000 });
      await panel(page).getByRole('button', { name: 'Give the floor to Cy' }).click();
      await queued.filter({ hasText: 'Cy speaks next' }).waitFor({ timeout: 10_000 });
      await axeClean(page, 'a queued floor');
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.screenshot({ path: 'test-results/screens-moderating/floor-queued-1440.png' });

      holding = null;
      release();
      // Bo's @Ada does not take the floor the person gave: Cy speaks next, and the queue is gone.
      await panel(page).getByText('Cy has the floor: given the floor by you').waitFor({ timeout: 20_000 });
      await queued.waitFor({ state: 'detached', timeout: 10_000 });
      const floors = await panel(page)
        .getByText(/has the floor:/)
        .allTextContents();
      if (floors.some((f) => f.startsWith('Ada')))
        throw new Error(`Ada took the floor the person gave Cy: ${floors.join(' | ')}`);
      await panel(page).getByRole('button', { name: 'End discussion' }).click();
    } finally {
      release();
      await server.close();
    }
  },
  { timeoutMs: 120_000 },
);

test(
  'the ⋯ menu by keyboard: arrows, Home and End move, Esc closes it onto its button, Enter activates',
  async ({ page, baseUrl }) => {
    await setUp(page, baseUrl, 2);
    const button = page.getByRole('button', { name: 'More actions' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    const expectFocus = async (want: string | RegExp, why: string) => {
      const got = await focused();
      if (typeof want === 'string' ? got !== want : !want.test(got))
        throw new Error(`${why}: the focus is on "${got}", not ${want}`);
    };
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu', { name: 'More actions' }).waitFor();
    await expectFocus('Models', 'Enter opens the menu at its first item');
    await page.keyboard.press('ArrowDown');
    await expectFocus('Evaluate', 'ArrowDown');
    await page.keyboard.press('End');
    const last = await focused();
    await page.keyboard.press('ArrowDown');
    await expectFocus('Models', 'ArrowDown wraps from the last item');
    await page.keyboard.press('ArrowUp');
    await expectFocus(last, 'ArrowUp wraps from the first item');
    await page.keyboard.press('Home');
    await expectFocus('Models', 'Home');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    if ((await button.getAttribute('aria-expanded')) !== 'false') throw new Error('Esc left the menu expanded');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'More actions');
    // ArrowUp on the button opens it at the last item; Enter activates an item.
    await page.keyboard.press('ArrowUp');
    await expectFocus(last, 'ArrowUp on the button');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: /Evaluat/ }).waitFor();
  },
  { timeoutMs: 90_000 },
);
