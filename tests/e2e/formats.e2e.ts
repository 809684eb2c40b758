import type { Page } from 'playwright-core';
import { FORMAT_MODEL, startFakeFormatModel } from '../support/fakeFormatModel';
import { axeClean, CONTEXT, finished, panel, seeInFeed, setUp } from './formatSteps';
import { test } from './harness';

// The four formats through the standard panel against the real server, the agents' model an OpenAI-compatible server
// on a loopback port (tests/support/fakeFormatModel.ts: a speaking turn, a moderator's pick, a ranking, a vote, each
// asked for by its JSON schema as a real server is): the 'Format' setting, the person giving the floor, a council's
// stages and ranking, a debate judged by the person; each at 1440×900 and 1024×700 with axe clean. The README's
// format screenshots show the offline demo model (`npm run screens`); these go to test-results/.

/** Runs `body` with a fresh loopback model server that plays every format, and closes it after. */
async function withFormatModel<T>(body: (model: { url: string; name: string }) => Promise<T>): Promise<T> {
  const server = await startFakeFormatModel();
  try {
    return await body({ url: server.url, name: FORMAT_MODEL });
  } finally {
    await server.close();
  }
}

async function startWith(page: Page, format: string, roles: Record<string, string> = {}) {
  const newRun = panel(page).getByRole('button', { name: 'New discussion' });
  if (await newRun.isVisible()) await newRun.click();
  await panel(page).getByLabel('Format', { exact: true }).selectOption({ label: format });
  for (const [label, value] of Object.entries(roles))
    await panel(page).getByLabel(label, { exact: true }).selectOption({ label: value });
  await panel(page).getByLabel('Discussion context').fill(CONTEXT);
  await panel(page)
    .getByRole('button', { name: /^Start (round table|council|debate|moderated discussion)$/ })
    .click();
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/screens-formats/format-${name}-1440.png` });

test(
  'formats: moderated by the person, the floor given by a button; End discussion writes the summary',
  async ({ page, baseUrl }) =>
    withFormatModel(async (model) => {
      await setUp(page, baseUrl, 3, model);
      await startWith(page, 'Moderated', { Moderator: 'You' });
      const give = panel(page).getByRole('button', { name: 'Give the floor to Bo' });
      await give.waitFor({ timeout: 20_000 });
      await panel(page)
        .getByText(/Waiting for you to give the floor/)
        .waitFor();
      await give.focus();
      await page.keyboard.press('Enter');
      await panel(page).getByText('Bo has the floor: given the floor by you').waitFor({ timeout: 20_000 });
      await panel(page).locator('.message-card').first().waitFor({ timeout: 20_000 });
      await axeClean(page, 'a moderated discussion');
      await shot(page, 'moderated');
      await panel(page).getByRole('button', { name: 'End discussion' }).click();
      await finished(page).waitFor({ timeout: 30_000 });
    }),
  { timeoutMs: 120_000 },
);

test(
  'formats: a council shows its three stages, the ranking and the chair’s answer',
  async ({ page, baseUrl }) =>
    withFormatModel(async (model) => {
      await setUp(page, baseUrl, 3, model);
      await startWith(page, 'Council', { Chair: 'Cy' });
      await finished(page).waitFor({ timeout: 60_000 });
      // The fake model is fast: the run can end with the feed pinned to its last rows before Stage 1 was looked for.
      await seeInFeed(panel(page), /Stage 1: independent answers/);
      await seeInFeed(panel(page), /^Ranking: 1\. Answer/);
      await seeInFeed(panel(page), /Stage 3: the chair/);
      await panel(page)
        .locator('.feed__scroller')
        .evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await axeClean(page, 'a council');
      await shot(page, 'council');
    }),
  { timeoutMs: 150_000 },
);

test(
  'formats: a debate judged by the person — two buttons and a confidence slider, votes and the result',
  async ({ page, baseUrl }) =>
    withFormatModel(async (model) => {
      // Two debaters, one a side: six turns between the two votes.
      await setUp(page, baseUrl, 2, model);
      await startWith(page, 'Debate', { Judge: 'You' });
      await panel(page)
        .getByText(/Waiting for your vote as judge before the debate/)
        .waitFor({ timeout: 20_000 });
      await panel(page)
        .getByLabel(/Confidence/)
        .fill('40');
      await panel(page).getByRole('button', { name: 'For', exact: true }).click();
      await seeInFeed(panel(page), /You vote For \(40 ?%\) before the debate/, 10_000);
      // Looked for through the whole feed: the look for the first vote above scrolled it away from its newest row.
      await seeInFeed(panel(page), /Waiting for your vote as judge after the debate/, 180_000);
      await panel(page)
        .getByLabel(/Confidence/)
        .fill('80');
      await panel(page).getByRole('button', { name: 'For', exact: true }).click();
      await seeInFeed(panel(page), /For gained 40 points/, 20_000);
      await finished(page).waitFor({ timeout: 60_000 });
      await axeClean(page, 'a debate');
      await shot(page, 'debate');
    }),
  { timeoutMs: 300_000 },
);

test(
  'formats: an @mention chosen from the completion list gives the named agent the next turn',
  async ({ page, baseUrl }) =>
    withFormatModel(async (model) => {
      await setUp(page, baseUrl, 3, model);
      await panel(page)
        .getByText(/speak in turn/)
        .waitFor();
      await axeClean(page, 'the Format setting');
      await startWith(page, 'Moderated', { Moderator: 'You' });
      const box = panel(page).getByLabel('Your message to the agents');
      await box.waitFor({ timeout: 20_000 });
      await box.pressSequentially('What does it cost, @C');
      await panel(page)
        .getByRole('listbox', { name: 'Agents to mention' })
        .getByRole('option', { name: '@Cy' })
        .waitFor();
      await box.press('Enter');
      await box.press('Enter');
      await panel(page).getByText('Cy has the floor: mentioned by you').waitFor({ timeout: 20_000 });
      await shot(page, 'mention');
      await panel(page).getByRole('button', { name: 'End discussion' }).click();
      await finished(page).waitFor({ timeout: 30_000 });
    }),
  { timeoutMs: 120_000 },
);
