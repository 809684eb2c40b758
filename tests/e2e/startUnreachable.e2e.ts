import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startFakeOpenAi } from '../support/fakeModelServers';
import { test, uniqueEmail } from './harness';

// Before Start, a model server that stopped answering: two agents on a loopback OpenAI-compatible server that is
// then stopped, one on the offline demo. Selecting them checks their connections now; the panel's notice and
// their canvas cards say the server is not answering, and Start asks first ("Bo's and Vera's model servers are
// not answering — start anyway?"): Cancel starts nothing, 'Start anyway' starts.
const SHOTS = path.resolve('test-results', 'screens-start-unreachable');
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
};
const panel = (page: Page) => page.locator('aside.discussion-panel');

test(
  'an agent whose model server is down is marked before Start, and Start asks first',
  async ({ page, baseUrl }) => {
    const fake = await startFakeOpenAi({ models: ['qwen3-0.6b'] });
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(baseUrl);
      await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
      await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('unreach'));
      await page.getByLabel('Password', { exact: true }).fill('correct-horse-42');
      await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
      await page.getByRole('region', { name: 'Canvas controls' }).waitFor({ timeout: 20_000 });

      // A connection that answers when added, and agents on it (through the API, as the editor would save them).
      await page.evaluate(async (base) => {
        const headers = {
          Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
          'Content-Type': 'application/json',
        };
        const res = await fetch('/model-connections', {
          method: 'POST',
          headers,
          body: JSON.stringify({ kind: 'openai', preset: 'openai', name: 'Loopback', base_url: `${base}/v1` }),
        });
        const conn = (await res.json()) as { id: string; status: { state: string } };
        if (conn.status.state !== 'reachable') throw new Error(`the fake server did not answer: ${res.status}`);
        for (const [name, model] of [
          ['Bo', `@${conn.id}/qwen3-0.6b`],
          ['Vera', `@${conn.id}/qwen3-0.6b`],
          ['Ada', 'offline'],
        ]) {
          await fetch('/agents/', {
            method: 'POST',
            headers,
            body: JSON.stringify({ name, role: 'Analyst', prompt: `You are ${name}.`, model }),
          });
        }
      }, fake.url);
      await page.reload();
      await page.getByRole('button', { name: /^Ada,/ }).waitFor({ timeout: 20_000 });
      // The server stops answering after the list read it as reachable.
      await fake.close();

      for (const n of ['Bo', 'Vera', 'Ada']) await page.getByRole('button', { name: new RegExp(`^${n},`) }).click();
      const note = panel(page).getByRole('note', { name: 'Models in use' });
      await note.getByText("Bo's and Vera's model servers are not answering.").waitFor({ timeout: 15_000 });
      // The cards say it too, in their status line.
      for (const n of ['Bo', 'Vera'])
        await page.getByRole('button', { name: new RegExp(`^${n}, Analyst, Model down`) }).waitFor();
      await page.getByRole('button', { name: /^Ada, Analyst, Idle/ }).waitFor();
      // And the panel's participants.
      const strip = panel(page).getByRole('list', { name: 'Participants' });
      for (const n of ['Bo', 'Vera'])
        await strip
          .getByRole('listitem')
          .filter({ hasText: new RegExp(`${n}\\s*Model down`) })
          .waitFor();

      for (const [w, h] of [
        [1440, 900],
        [1024, 700],
        [768, 1024],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await shot(page, `marked-${w}x${h}`);
      }
      // The technical facts stay in 'About this run'.
      await page.setViewportSize({ width: 1024, height: 700 });
      await panel(page).getByText('About this run').click();
      await panel(page)
        .locator('.about-run__facts')
        .getByText(/Available endpoints: .*Basic/)
        .waitFor();
      await shot(page, 'about-1024x700');
      await panel(page).getByText('About this run').click();
      await page.setViewportSize({ width: 1440, height: 900 });
      await panel(page)
        .getByRole('textbox', { name: /topic|context/i })
        .first()
        .fill('Should our city make public transport free?');
      const start = panel(page)
        .getByRole('button', { name: /^Start/ })
        .first();
      await start.click();
      const question = page.getByRole('alertdialog');
      await question.getByText("Bo's and Vera's model servers are not answering — start anyway?").waitFor();
      await shot(page, 'question-1440x900');
      // Cancel (where the focus starts) starts nothing.
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      if (await panel(page).getByRole('button', { name: 'Stop', exact: true }).isEnabled())
        throw new Error('Cancel started the discussion');
      await start.click();
      await question.getByRole('button', { name: 'Start anyway' }).click();
      await question.waitFor({ state: 'detached' });
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('aside.discussion-panel .panel-footer button')].some(
            (b) => b.textContent?.trim() === 'Stop' && !(b as HTMLButtonElement).disabled,
          ),
        undefined,
        { timeout: 10_000 },
      );
      await panel(page).getByRole('button', { name: 'Stop', exact: true }).click();

      // The hybrid panel marks them the same way, and its Start stays in view at 1024×700.
      await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
      const hybrid = page.locator('aside.discussion-panel--hybrid');
      const hybridStrip = hybrid.getByRole('list', { name: 'Participants' });
      for (const n of ['Bo', 'Vera'])
        await hybridStrip
          .getByRole('listitem')
          .filter({ hasText: new RegExp(`${n}\\s*Model down`) })
          .waitFor({ timeout: 15_000 });
      for (const [w, h] of [
        [1440, 900],
        [1024, 700],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await hybrid.getByRole('button', { name: /^Start/ }).scrollIntoViewIfNeeded();
        await shot(page, `hybrid-marked-${w}x${h}`);
      }
    } finally {
      await fake.close().catch(() => undefined);
    }
  },
  { timeoutMs: 120_000 },
);
