import type { Browser, Page } from 'playwright-core';
import { CONTEXT, panel, seeInFeed, setUp } from './formatSteps';
import { test, uniqueEmail } from './harness';

// Rooms (README 'Sharing and rooms') with three browser contexts, three registered users, against the real server and
// the offline model: the owner starts a debate judged by a person and invites; Bea joins as a participant, sets her
// display name in the profile dialog, sends a message the owner's feed shows under that name, is given the judge's
// seat and votes; Cy joins as a watcher, sees the turns live and has no message box; the owner removes Cy, who is
// told so. Screens of the Invite dialog, 'Here now' and the profile dialog go to test-results/screens-rooms/.

const PASSWORD = 'correct-horse-42';
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens-rooms/${name}.png` });

async function register(browser: Browser, baseUrl: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(baseUrl);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('rooms'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await panel(page).waitFor({ timeout: 20_000 });
  return page;
}

/** The owner makes an invite link for `role` in the Invite dialog; the link. */
async function invite(owner: Page, role: 'Participant' | 'Watcher', screen?: string): Promise<string> {
  await panel(owner).getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = owner.getByRole('dialog', { name: 'Invite to this discussion' });
  await dialog.getByRole('radio', { name: new RegExp(`^${role}`) }).check();
  if (screen) await shot(owner, screen);
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const link = await dialog.getByLabel('Invite link').inputValue({ timeout: 10_000 });
  if (!/\/join\/[A-Za-z0-9_-]+$/.test(link)) throw new Error(`not an invite link: ${link}`);
  if (screen) await shot(owner, `${screen}-link`);
  await dialog.getByRole('button', { name: 'Done' }).click();
  return link;
}

async function setName(page: Page, name: string, screen?: string) {
  await page.getByRole('button', { name: /^Your display name:/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Your profile' });
  await dialog.getByLabel('Display name').fill(name);
  if (screen) await shot(page, screen);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: `Your display name: ${name}. Change it` }).waitFor({ timeout: 10_000 });
}

test(
  'rooms: invite a participant who talks and judges and a watcher who only sees, then remove the watcher',
  async ({ page: owner, context, baseUrl }) => {
    const browser = context.browser();
    if (!browser) throw new Error('no browser');
    await owner.setViewportSize({ width: 1440, height: 900 });
    await setUp(owner, baseUrl, 2, 'offline');
    await setName(owner, 'Ada');
    await panel(owner).getByLabel('Format', { exact: true }).selectOption({ label: 'Debate' });
    await panel(owner).getByLabel('Judge', { exact: true }).selectOption({ label: 'You' });
    await panel(owner).getByLabel('Discussion context').fill(CONTEXT);
    await panel(owner).getByRole('button', { name: 'Start debate' }).click();
    // The debate waits for its judge's first vote: the room gathers meanwhile.
    await panel(owner)
      .getByText(/Waiting for your vote as judge before the debate/)
      .waitFor({ timeout: 30_000 });

    const participantLink = await invite(owner, 'Participant', 'invite-dialog');
    const bea = await register(browser, baseUrl);
    await setName(bea, 'Bea', 'profile-dialog');
    await bea.goto(participantLink);
    await panel(bea).getByText('Here now').waitFor({ timeout: 30_000 });
    await panel(owner).getByRole('listitem').filter({ hasText: 'Bea' }).waitFor({ timeout: 20_000 });

    // Bea talks: the owner's feed shows it under her name.
    const box = panel(bea).getByLabel('Your message to the agents');
    await box.fill('Bea here: what does drip cost per hectare?');
    await box.press('Enter');
    await seeInFeed(panel(owner), /Bea here: what does drip cost per hectare\?/, 20_000);
    const card = panel(owner).locator('.turn--person').filter({ hasText: 'Bea here' });
    await card.getByText('Bea', { exact: true }).waitFor({ timeout: 10_000 });

    const watcherLink = await invite(owner, 'Watcher');
    const cy = await register(browser, baseUrl);
    await setName(cy, 'Cy');
    await cy.goto(watcherLink);
    await panel(cy)
      .getByText(/You are watching/)
      .waitFor({ timeout: 30_000 });
    if ((await panel(cy).getByLabel('Your message to the agents').count()) !== 0)
      throw new Error('a watcher has a message box');
    // The debate's wait is the judge's: the watcher is told whom it waits for, never asked to vote.
    await panel(cy).getByText("Waiting for the judge's vote.").waitFor({ timeout: 20_000 });
    if (
      (await panel(cy)
        .getByText(/Waiting for your vote/)
        .count()) !== 0
    )
      throw new Error("a watcher is asked for the judge's vote");

    // The owner gives Bea the judge's seat; Bea votes, and the debate goes on.
    await panel(owner).getByRole('button', { name: "Give the judge's seat to Bea" }).click();
    await panel(bea).getByText('Your vote as judge').waitFor({ timeout: 20_000 });
    await shot(owner, 'here-now');
    await panel(bea).getByRole('button', { name: 'For', exact: true }).click();
    // The vote is Bea's, and every screen names her.
    await seeInFeed(panel(owner), /Bea votes For .*before the debate/, 20_000);
    // Cy sees the agents' turns live (a turn has its agent's avatar; notices and people's messages have none).
    await panel(cy).locator('.turn__avatar').first().waitFor({ timeout: 90_000 });
    if (
      (await panel(cy)
        .getByText(/Select two or more agents/)
        .count()) !== 0
    )
      throw new Error("a member is told to select agents for someone else's discussion");
    await shot(cy, 'watcher');

    await panel(owner).getByRole('button', { name: 'Remove Cy' }).click();
    await panel(cy).getByText('You were removed from this discussion').waitFor({ timeout: 20_000 });
    await panel(owner).getByRole('listitem').filter({ hasText: 'Cy' }).waitFor({ state: 'detached', timeout: 20_000 });
    await shot(cy, 'removed');
  },
  { timeoutMs: 240_000 },
);
