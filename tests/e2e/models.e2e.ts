import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startFakeOllama, startFakeOpenAi } from '../support/fakeModelServers';
import { test, uniqueEmail } from './harness';

// Models through the UI (docs/models.md), against loopback servers speaking the real Ollama and OpenAI-compatible
// protocols (tests/support/fakeModelServers.ts): the onboarding hint opens the dialog; add an Ollama connection,
// test it, pull a model and watch its progress bar (a second tab sees it too); add a Groq-style connection, see a
// wrong key rejected, then save it with the right one; pick the models in the agent editor, grouped by connection;
// and watch a discussion speak the fake models' words. MODELS_SCREENS=1 also writes docs/screens/models-*.png.

const PASSWORD = 'correct-horse-42';
const KEY = 'gsk_e2e_Vb4Jm2Lk9Pw7Rt5Yx3N1';
const SCREENS = process.env.MODELS_SCREENS ? path.resolve('docs/screens') : null;

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Models' });
const card = (page: Page, name: string) => dialog(page).getByRole('article', { name: `Connection ${name}` });

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function shot(page: Page, name: string, target?: Locator) {
  if (!SCREENS) return;
  mkdirSync(SCREENS, { recursive: true });
  await (target ?? page).screenshot({ path: path.join(SCREENS, name) });
}

async function openModels(page: Page) {
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Models' }).click();
  await dialog(page).waitFor();
}

async function createAgent(page: Page, name: string, model: string) {
  await page.getByRole('button', { name: '+ Add Agent' }).click();
  const drawer = page.getByRole('dialog', { name: 'Create Agent' });
  await drawer.getByLabel('Name', { exact: true }).fill(name);
  await drawer.getByLabel('Role', { exact: true }).fill('Grower');
  await drawer.getByLabel('Prompt', { exact: true }).fill(`You are ${name}, a practical grower.`);
  const select = drawer.getByLabel('Model', { exact: true });
  // Preselected: the first model a connection can reach, not the offline demo.
  await until('a preselected model', async () => (await select.inputValue()).startsWith('@'));
  await select.selectOption({ label: model });
  await drawer.getByRole('button', { name: 'Create Agent' }).click();
  await drawer.waitFor({ state: 'detached' });
}

test(
  'connect Ollama and an OpenAI-compatible service, pull a model with progress, pick models, hear them speak',
  async ({ page, context, baseUrl }) => {
    const ollama = await startFakeOllama({
      models: ['llama3.2:1b'],
      pullable: { 'qwen2.5:0.5b': [2_400_000, 6_000] },
      pullStepBytes: 40_000,
      pullStepMs: 150,
    });
    const openai = await startFakeOpenAi({ apiKey: KEY, models: ['fake-gpt-mini', 'meta-llama/fake-70b'] });
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(baseUrl);
      await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
      await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('models'));
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();

      // Only the offline model: the canvas says so quietly, with the way out.
      const hint = page.getByRole('note', { name: 'Model status' }).first();
      await hint.waitFor({ timeout: 20_000 });
      await shot(page, 'models-onboarding.png');
      await hint.getByRole('button', { name: 'Connect a model' }).click();
      await dialog(page).waitFor();
      await dialog(page).getByText('None yet.').waitFor();

      // ── Ollama ──
      await dialog(page).getByRole('button', { name: 'Add connection' }).click();
      const form = dialog(page).getByRole('form', { name: 'Add connection' });
      await form.getByLabel('Name').fill('Home Ollama');
      await form.getByLabel('Base URL').fill(ollama.url);
      await form.getByRole('button', { name: 'Test' }).click();
      await form.getByText('Connected. 1 model: llama3.2:1b').waitFor();
      await form.getByRole('button', { name: 'Save' }).click();
      await card(page, 'Home Ollama').getByText('Reachable').waitFor();

      // Pull, with Ollama's own progress as a bar with bytes and percent.
      await card(page, 'Home Ollama').getByLabel('Pull a model').fill('qwen2.5:0.5b');
      await card(page, 'Home Ollama').getByRole('button', { name: 'Pull', exact: true }).click();
      const bar = card(page, 'Home Ollama').getByRole('progressbar', { name: 'Pulling qwen2.5:0.5b' });
      await bar.waitFor();
      await until('the bar to move', async () => Number(await bar.getAttribute('aria-valuenow')) >= 20);
      await card(page, 'Home Ollama')
        .getByText(/MB of 2\.4 MB · \d+%/)
        .waitFor();
      await shot(page, 'models-pull.png', dialog(page));

      // A second tab sees the same pull (a server job: it reads the job on open, then its frames on the live-updates
      // socket); on a slow machine the pull may have finished by then, and the tab still finds it, as 'Pulled'.
      const other = await context.newPage();
      await other.goto(baseUrl);
      await openModels(other);
      const otherBar = card(other, 'Home Ollama').getByRole('progressbar', { name: 'Pulling qwen2.5:0.5b' });
      const otherDone = card(other, 'Home Ollama').getByText('Pulled');
      await until(
        'the second tab to see the pull',
        async () => (await otherBar.isVisible()) || (await otherDone.isVisible()),
        30_000,
      );
      await otherDone.waitFor({ timeout: 30_000 });
      await other.close();

      await card(page, 'Home Ollama').getByText('Pulled').waitFor({ timeout: 30_000 });
      await card(page, 'Home Ollama')
        .getByRole('list', { name: 'Models of Home Ollama' })
        .getByText('qwen2.5:0.5b')
        .waitFor();

      // Delete one model.
      await card(page, 'Home Ollama').getByRole('button', { name: 'Delete qwen2.5:0.5b' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await until(
        'the model to go',
        async () =>
          (await card(page, 'Home Ollama')
            .getByRole('list', { name: 'Models of Home Ollama' })
            .getByText('qwen2.5:0.5b')
            .count()) === 0,
      );
      if (ollama.models.has('qwen2.5:0.5b')) throw new Error('the model was not deleted on the Ollama server');

      // ── OpenAI-compatible, Groq preset ──
      await dialog(page).getByRole('button', { name: 'Add connection' }).click();
      await form.getByLabel('Kind').selectOption({ label: 'OpenAI-compatible' });
      await form.getByLabel('Service').selectOption({ label: 'Groq' });
      if ((await form.getByLabel('Base URL').inputValue()) !== 'https://api.groq.com/openai/v1')
        throw new Error('the Groq preset did not fill the Base URL');
      await form.getByLabel('Base URL').fill(`${openai.url}/v1`);
      await form.getByLabel('API key').fill('gsk_wrong_key_0000');
      await form.getByRole('button', { name: 'Test' }).click();
      await form.getByText('Key rejected.').waitFor();
      await shot(page, 'models-add.png', dialog(page));
      await form.getByLabel('API key').fill(KEY);
      await form.getByRole('button', { name: 'Test' }).click();
      await form.getByText('Connected. 2 models: fake-gpt-mini, meta-llama/fake-70b').waitFor();
      await form.getByRole('button', { name: 'Save' }).click();
      await card(page, 'Groq')
        .getByText(`key ••••${KEY.slice(-4)}`)
        .waitFor();
      if ((await dialog(page).textContent())?.includes(KEY)) throw new Error('the dialog shows the API key');
      await shot(page, 'models-dialog.png', dialog(page));

      // The hint is gone now that a real model answers.
      await dialog(page).getByRole('button', { name: 'Close' }).click();
      await until('the hint to go', async () => (await page.getByRole('note', { name: 'Model status' }).count()) === 0);

      // ── Pick models in the editor (grouped by connection) and hear them ──
      await createAgent(page, 'Ada', 'Groq · fake-gpt-mini');
      await createAgent(page, 'Bo', 'Home Ollama · llama3.2:1b');
      const groups = await page.evaluate(async () => {
        const res = await fetch('/agents/', {
          headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
        });
        return ((await res.json()) as Array<{ name: string; model: string }>)
          .map((a) => `${a.name}=${a.model.replace(/^@[^/]+\//, '@…/')}`)
          .sort();
      });
      if (groups.join() !== 'Ada=@…/fake-gpt-mini,Bo=@…/llama3.2:1b') throw new Error(`agents stored ${groups.join()}`);

      const panel = page.getByRole('complementary', { name: 'Discussion', exact: true });
      for (const name of ['Ada', 'Bo'])
        await page
          .getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') })
          .first()
          .click();
      await panel.getByLabel('Discussion context').fill('Should the orchard keep bees next to the vineyard?');
      await panel.getByRole('button', { name: 'Start round table' }).click();
      await panel
        .getByText('fake-gpt-mini fake model says the orchard needs more bees')
        .first()
        .waitFor({ timeout: 40_000 });
      await panel
        .getByText('llama3.2:1b fake Ollama model says the vineyard wants shade')
        .first()
        .waitFor({ timeout: 40_000 });
      if (!openai.seen.some((s) => s.url === '/v1/chat/completions' && s.headers.authorization === `Bearer ${KEY}`))
        throw new Error('the OpenAI-compatible server never heard the key');
    } finally {
      await Promise.all([ollama.close(), openai.close()]);
    }
  },
  { timeoutMs: 150_000 },
);
