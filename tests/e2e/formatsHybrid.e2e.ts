import type { Page } from 'playwright-core';
import { axeClean, CONTEXT, setUp } from './formatSteps';
import { test } from './harness';

// A format through the hybrid panel, against the real server and its offline model: the same 'Format' setting, the
// person moderating with 'Give the floor to …' buttons, an @mention chosen from the completion list, and 'End
// discussion'; then History's row and its 'Format' filter. Axe clean at 1440×900 and 1024×700, and screenshots for the
// README (docs/screens/format-hybrid-1440.png, format-history-1440.png).

const hybrid = (page: Page) => page.getByRole('complementary', { name: 'Hybrid discussion' });

test(
  'formats in the hybrid panel: moderated by the person, the floor given by a button and by an @mention',
  async ({ page, baseUrl }) => {
    await setUp(page, baseUrl);
    await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
    const p = hybrid(page);
    await p.getByLabel('Format', { exact: true }).selectOption({ label: 'Moderated' });
    await p.getByLabel('Moderator', { exact: true }).selectOption({ label: 'You' });
    await axeClean(page, 'the hybrid Format setting');
    await p.getByLabel('Discussion topic').fill(CONTEXT);
    await p.getByRole('button', { name: 'Start moderated discussion' }).click();
    await p.getByText(/Waiting for you to give the floor/).waitFor({ timeout: 20_000 });
    await p.getByText(/Settings:.*Moderated/).waitFor();
    const give = p.getByRole('button', { name: 'Give the floor to Bo' });
    await give.focus();
    await page.keyboard.press('Enter');
    await p.getByText('Bo has the floor: given the floor by you').waitFor({ timeout: 20_000 });
    await p.locator('.message-card').first().waitFor({ timeout: 30_000 });
    const box = p.getByLabel('Your message to the agents');
    await box.pressSequentially('And the pumps, @C');
    await p.getByRole('listbox', { name: 'Agents to mention' }).getByRole('option', { name: '@Cy' }).waitFor();
    await box.press('Enter');
    await box.press('Enter');
    await p.getByText('Cy has the floor: mentioned by you').waitFor({ timeout: 30_000 });
    await axeClean(page, 'a moderated hybrid discussion');
    await page.screenshot({ path: 'docs/screens/format-hybrid-1440.png' });
    await p.getByRole('button', { name: 'End discussion' }).click();
    await p.getByText(/Discussion (ended|stopped)/).waitFor({ timeout: 30_000 });

    // History shows the format on the row, and its 'Format' filter narrows the list.
    await p.getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'Past discussions' });
    const list = dialog.getByRole('list', { name: 'Past discussions' });
    await list.getByText('Moderated', { exact: true }).waitFor({ timeout: 10_000 });
    await dialog.getByLabel('Format', { exact: true }).selectOption({ label: 'Council' });
    await dialog.getByText('No past discussion in the Council format.').waitFor({ timeout: 10_000 });
    await dialog.getByLabel('Format', { exact: true }).selectOption({ label: 'Moderated' });
    await list.getByText('Moderated', { exact: true }).waitFor({ timeout: 10_000 });
    await axeClean(page, 'History filtered by format');
    await page.screenshot({ path: 'docs/screens/format-history-1440.png' });
  },
  { timeoutMs: 150_000 },
);
