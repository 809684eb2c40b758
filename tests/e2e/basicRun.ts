// A short Basic discussion (2 turns) of the selected agents, run to its end: the set-up several specs share
// (interrupts, ACL, multi-round reasoning and hybrid mode off in Advanced Settings, then Start round table).
import type { Page } from 'playwright-core';

/** Sets the short Basic discussion up and presses Start (it runs on). */
export async function startShortBasic(page: Page, context: string) {
  const panel = page.getByRole('complementary', { name: 'Discussion', exact: true });
  await panel.getByText(/Available endpoints: .*Basic/).waitFor({ state: 'attached', timeout: 10_000 });
  await panel.getByRole('button', { name: 'Advanced Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Advanced Settings' });
  for (const label of [
    'Allow interrupts',
    'Use ACL (formal agent messages)',
    'Enable multi-round reasoning',
    'Hybrid mode (natural language + ACL)',
  ])
    await settings.getByLabel(label, { exact: true }).setChecked(false);
  await settings.getByLabel('Turns').fill('2');
  await settings.getByRole('button', { name: 'Done' }).click();
  await panel.getByLabel('Discussion context').fill(context);
  // Start names the format: the round table here.
  await panel.getByRole('button', { name: 'Start round table' }).click();
}

/** The short Basic discussion, run to its end. */
export async function runShortBasic(page: Page, context: string) {
  await startShortBasic(page, context);
  await page
    .getByRole('complementary', { name: 'Discussion', exact: true })
    .getByText('Discussion finished.')
    .waitFor({ timeout: 60_000 });
}
