import type { Page } from 'playwright-core';
import { makeOfflineAgents } from './agents';
import { axeViolations, describeViolations, isSerious } from './axe';
import { test, uniqueEmail } from './harness';

// A read-only share link end to end, against the real server and its offline model: a short discussion, History →
// Share → Create a link; the link opened in a fresh browser context with no account at #t=2 shows that moment
// (the Timeline at turn 2, two messages); the page's HTML and the API's answer hold no email, prompt or key and say
// noindex; Revoke in the dialog, and the same address says 'This link is not valid'. Screenshots of the dialog and
// the public page go to docs/screens/.
const PASSWORD = 'correct-horse-42';
const CONTEXT = 'Should the library open on Sundays?';
const TURNS = 3;

const panel = (page: Page) => page.getByRole('complementary', { name: 'Discussion', exact: true });
const history = (page: Page) => page.getByRole('dialog', { name: 'Past discussions' });
const shareDialog = (page: Page) => page.getByRole('dialog', { name: 'Share read-only' });
const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function expectNothingPrivate(text: string, what: string, email: string) {
  for (const secret of [email, 'You are Ada', 'You are Bo', 'careful agronomist', '"model"', 'access_token', 'Bearer'])
    if (text.includes(secret)) throw new Error(`${what} contains ${JSON.stringify(secret)}`);
}

test(
  'share: a link opens without an account at #t=2, holds nothing private, and says not valid once revoked',
  async ({ page, context, baseUrl }) => {
    const email = uniqueEmail('share');
    await page.goto(baseUrl);
    await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
    await panel(page).waitFor({ timeout: 20_000 });
    await makeOfflineAgents(page);
    for (const name of ['Ada', 'Bo']) await node(page, name).click();
    await panel(page)
      .getByText(/Available endpoints: .*Basic/)
      .waitFor({ state: 'attached', timeout: 10_000 });
    await panel(page).getByRole('button', { name: 'Advanced Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Advanced Settings' });
    for (const label of [
      'Allow interrupts',
      'Use ACL (formal agent messages)',
      'Enable multi-round reasoning',
      'Hybrid mode (natural language + ACL)',
    ])
      await settings.getByLabel(label, { exact: true }).setChecked(false);
    await settings.getByLabel('Turns').fill(String(TURNS));
    await settings.getByRole('button', { name: 'Done' }).click();
    await panel(page).getByLabel('Discussion context').fill(CONTEXT);
    await panel(page).getByRole('button', { name: 'Start round table' }).click();
    await panel(page).getByText('Discussion finished.').waitFor({ timeout: 90_000 });
    // A finished panel offers Share too (the same dialog).
    await panel(page).getByRole('button', { name: 'Share', exact: true }).waitFor();

    // History → the discussion → Share → Create a link.
    await panel(page).getByRole('button', { name: 'History' }).click();
    const row = history(page).getByRole('listitem', { name: CONTEXT });
    await row.waitFor({ timeout: 10_000 });
    await row.getByRole('button', { name: `Open ${CONTEXT}` }).click();
    await history(page).getByText('Read-only').waitFor({ timeout: 10_000 });
    await history(page).getByRole('button', { name: 'Share', exact: true }).click();
    await shareDialog(page).getByText('No links yet').waitFor();
    await shareDialog(page).getByRole('button', { name: 'Create a link' }).click();
    const urlBox = shareDialog(page).getByLabel(/New link/);
    await urlBox.waitFor();
    const url = await urlBox.inputValue();
    if (!new RegExp(`^${baseUrl}/s/[A-Za-z0-9_-]{22}$`).test(url)) throw new Error(`unexpected link ${url}`);
    await shareDialog(page).getByRole('list', { name: 'Valid links' }).getByRole('listitem').first().waitFor();
    await page.screenshot({ path: 'docs/screens/share-dialog-1440.png' });

    // A fresh context with no account: the shared page at turn 2.
    const reader = await context.browser()!.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const pub = await reader.newPage();
      await pub.goto(`${url}#t=2`);
      const slider = pub.getByRole('slider', { name: 'Timeline' });
      await slider.waitFor({ timeout: 20_000 });
      await waitFor('turn 2 from the address', async () => Number(await slider.inputValue()) === 2);
      await pub.getByText(`Turn 2 of ${TURNS}`).waitFor();
      await waitFor(
        'two messages at turn 2',
        async () =>
          (await pub.getByRole('log', { name: 'Messages up to this moment' }).locator('.message-card').count()) === 2,
      );
      if ((await pub.getByLabel('Password', { exact: true }).count()) > 0)
        throw new Error('the shared page asks to sign in');
      await pub.getByRole('heading', { name: CONTEXT }).waitFor();
      const serious = (await axeViolations(pub)).filter(isSerious);
      if (serious.length) throw new Error(`axe on the shared page:\n${describeViolations(serious)}`);
      await pub.screenshot({ path: 'docs/screens/share-page-1440.png' });

      // Its tabs and both exports work without an account.
      await pub.getByRole('button', { name: 'Close replay' }).click();
      await pub.getByRole('tab', { name: /Analytics/ }).click();
      await pub.getByRole('tab', { name: /Analytics/, selected: true }).waitFor();
      for (const [label, ext] of [
        ['Export JSON', '.json'],
        ['Export PDF', '.pdf'],
      ] as const) {
        const [download] = await Promise.all([
          pub.waitForEvent('download', { timeout: 20_000 }),
          pub.getByRole('button', { name: label }).click(),
        ]);
        if (!download.suggestedFilename().endsWith(ext))
          throw new Error(`${label} saved ${download.suggestedFilename()}`);
      }

      // What the page and its API answer hold: nothing private, and noindex.
      const html = await (await reader.request.get(url)).text();
      if (!html.includes('<meta name="robots" content="noindex')) throw new Error('the page HTML does not say noindex');
      expectNothingPrivate(html, 'the page HTML', email);
      const token = url.split('/').pop()!;
      const answer = await reader.request.get(`${baseUrl}/shares/${token}/discussion`);
      if (!(answer.headers()['x-robots-tag'] ?? '').includes('noindex'))
        throw new Error('the API answer is not noindex');
      const json = await answer.text();
      if (!json.includes(CONTEXT)) throw new Error('the API answer lacks the discussion');
      expectNothingPrivate(json, 'the API answer', email);
      expectNothingPrivate(await pub.content(), 'the rendered page', email);

      // Revoke: the same address says the link is not valid.
      await shareDialog(page)
        .getByRole('button', { name: /^Revoke the link/ })
        .click();
      await shareDialog(page).getByText('No links yet').waitFor();
      await pub.goto('about:blank');
      await pub.goto(url);
      await pub.getByRole('heading', { name: 'This link is not valid' }).waitFor({ timeout: 20_000 });
      await pub.screenshot({ path: 'docs/screens/share-invalid-1440.png' });
    } finally {
      await reader.close();
    }
  },
  { timeoutMs: 180_000 },
);
