import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startScriptedOllama, startScriptedOpenAi } from '../support/scriptedModels';
import { expectDialogClean } from './axe';
import { test, uniqueEmail } from './harness';

// Evaluate through the UI (README 'Does the panel help?'): two scripted models over the real Ollama and
// OpenAI-compatible protocols, a chain-of-thought against a two-agent round table on generated arithmetic; the run
// ends, and the chart's figures (its data table) are the ones the server computed. EVAL_SCREENS=1 also writes
// docs/screens/eval.png.

const PASSWORD = 'correct-horse-42';
const SCREENS = process.env.EVAL_SCREENS ? path.resolve('docs/screens') : null;

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function api(baseUrl: string, method: string, p: string, token: string | null, body?: unknown) {
  const res = await fetch(baseUrl + p, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Evaluate' });

test(
  "evaluate two methods on two fake models and read the chart's figures",
  async ({ page, baseUrl }) => {
    const ollama = await startScriptedOllama({ p: 0.8, seed: 3, models: ['fake-a:1b'] });
    const openai = await startScriptedOpenAi({ p: 0.5, seed: 3, models: ['fake-b'] });
    try {
      const email = uniqueEmail('eval');
      const reg = await api(baseUrl, 'POST', '/auth/register', null, { email, password: PASSWORD });
      if (reg.status !== 200) throw new Error(`register: ${reg.status}`);
      const token = reg.body.access_token as string;
      for (const body of [
        { kind: 'ollama', name: 'Home', base_url: ollama.url },
        { kind: 'openai', name: 'Lab', base_url: `${openai.url}/v1` },
      ]) {
        const r = await api(baseUrl, 'POST', '/model-connections', token, body);
        if (r.status !== 201) throw new Error(`connection: ${r.status} ${JSON.stringify(r.body)}`);
      }

      await page.setViewportSize({ width: 1440, height: 1000 });
      await page.goto(baseUrl);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.locator('form').getByRole('button', { name: 'Sign In', exact: true }).click();

      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Evaluate' }).click();
      const d = dialog(page);
      await d.waitFor();
      await d.getByText('None yet.').waitFor();

      // Generated arithmetic, seed 7, 12 questions; agent 1 on Ollama, agent 2 on the OpenAI-compatible server.
      await d.getByLabel('Seed').fill('7');
      await d.getByLabel('Questions').fill('12');
      const first = d.getByLabel('Agent 1 model');
      await until(
        'the models to be listed',
        async () => (await first.locator('option', { hasText: 'Home · fake-a:1b' }).count()) > 0,
      );
      await first.selectOption({ label: 'Home · fake-a:1b' });
      await d.getByRole('button', { name: 'Add agent' }).click();
      await d.getByLabel('Agent 2 model').selectOption({ label: 'Lab · fake-b' });
      // The two methods: chain-of-thought (agent 1's model alone) and a round table of both.
      for (const label of ['Chain-of-thought', 'Round table']) {
        const box = d.getByRole('checkbox', { name: new RegExp(`^${label}`) });
        if (!(await box.isChecked())) await box.check();
      }
      for (const label of ['One answer', 'Self-consistency', 'Council', 'Debate with a judge']) {
        const box = d.getByRole('checkbox', { name: new RegExp(`^${label}`) });
        if (await box.isChecked()) await box.uncheck();
      }
      await d.getByRole('button', { name: 'Start evaluation' }).click();

      // Progress per method, then Done.
      await d.getByRole('list', { name: 'Progress per method' }).waitFor();
      await until('the run to end', async () => (await d.getByTestId('eval-status').textContent()) === 'Done');

      // The chart: an image with its title, a bar per method, and the figures in its table.
      const chart = d.getByRole('img', { name: /Accuracy per method with 95 % intervals/ });
      await chart.waitFor();
      if ((await chart.locator('rect.eval-chart__bar').count()) !== 2) throw new Error('expected two bars');
      const table = d.getByRole('table', { name: 'Figures per method' });
      const figure = async (method: string, name: string) =>
        (await table.locator(`tr[data-method="${method}"] [data-figure="${name}"]`).textContent())?.trim();

      const runs = await api(baseUrl, 'GET', '/eval/runs', token);
      const run = runs.body.runs[0];
      if (run.status !== 'done') throw new Error(`the server says ${run.status}`);
      for (const r of run.results) {
        const want = `${(r.accuracy * 100).toFixed(1)} %`;
        const got = await figure(r.method, 'accuracy');
        if (got !== want) throw new Error(`${r.method}: the chart says ${got}, the server ${want}`);
        const ci = `${(r.ci_low * 100).toFixed(1)} % – ${(r.ci_high * 100).toFixed(1)} %`;
        if ((await figure(r.method, 'ci')) !== ci)
          throw new Error(`${r.method}: interval ${await figure(r.method, 'ci')} vs ${ci}`);
        if ((await figure(r.method, 'tokens')) !== r.tokens_per_question.toFixed(0))
          throw new Error(`${r.method}: tokens differ`);
        if (r.done !== 12) throw new Error(`${r.method}: ${r.done} of 12 done`);
      }
      // The scripted usage: 70 tokens a call; chain-of-thought 1 call, the round table 2 agents × 2 rounds.
      if ((await figure('chain_of_thought', 'tokens')) !== '70' || (await figure('round_table', 'tokens')) !== '280') {
        throw new Error('tokens per question are not the scripted usage');
      }
      // First vote against final answer, for the round table.
      await d
        .getByRole('table', { name: 'First vote and final answer' })
        .getByRole('rowheader', { name: 'Round table' })
        .waitFor();
      if (SCREENS) {
        mkdirSync(SCREENS, { recursive: true });
        await d.screenshot({ path: path.join(SCREENS, 'eval.png') });
      }
    } finally {
      await Promise.all([ollama.close(), openai.close()]);
    }
  },
  { timeoutMs: 120_000 },
);

test(
  'Evaluate: the demo model cannot be chosen, a one-seat panel says why Start is off; every dialog is axe clean',
  async ({ page, baseUrl }) => {
    const openai = await startScriptedOpenAi({ p: 0.5, seed: 3, models: ['fake-b'] });
    try {
      const email = uniqueEmail('eval-rules');
      const reg = await api(baseUrl, 'POST', '/auth/register', null, { email, password: PASSWORD });
      const token = reg.body.access_token as string;
      const c = await api(baseUrl, 'POST', '/model-connections', token, {
        kind: 'openai',
        name: 'Lab',
        base_url: `${openai.url}/v1`,
      });
      if (c.status !== 201) throw new Error(`connection: ${c.status}`);
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(baseUrl);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.locator('form').getByRole('button', { name: 'Sign In', exact: true }).click();

      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Evaluate' }).click();
      const d = dialog(page);
      await d.waitFor();
      const first = d.getByLabel('Agent 1 model', { exact: true });
      await until('the models to be listed', async () => (await first.locator('option').count()) > 1);
      // The demo model is listed as unable to answer, and cannot be chosen; the real one is preselected.
      const demo = first.locator('option', { hasText: 'cannot answer questions' });
      if ((await demo.count()) !== 1) throw new Error('the demo model is not marked “cannot answer questions”');
      if (!(await demo.isDisabled())) throw new Error('the demo model can be chosen');
      if (!/Lab · fake-b|fake-b/.test((await first.locator('option:checked').textContent()) ?? ''))
        throw new Error(`preselected: ${await first.locator('option:checked').textContent()}`);
      // One seat and a Round table: Start is off and says why.
      const box = d.getByRole('checkbox', { name: /^Round table/ });
      if (!(await box.isChecked())) await box.check();
      const startButton = d.getByRole('button', { name: 'Start evaluation' });
      await d.getByText(/^A panel \(Round table, Council, Debate\) needs two seats or more/).waitFor();
      if (!(await startButton.isDisabled())) throw new Error('Start is on for a one-seat round table');
      await startButton.scrollIntoViewIfNeeded();
      await page.screenshot({ path: 'test-results/screens-eval/eval-one-seat-1440.png' });
      await d.getByRole('button', { name: 'Add agent' }).click();
      await until('Start to turn on', async () => !(await startButton.isDisabled()));
      // No second banner inside the dialog, short names, nothing moderate or worse.
      if ((await d.locator('header, [role="banner"]').count()) !== 0) throw new Error('a banner inside the dialog');
      const listName = await d.getByRole('list', { name: 'Panel seats' }).getAttribute('aria-label');
      if (listName !== 'Panel seats') throw new Error(`the seats list is named ${listName}`);
      await expectDialogClean(page, '[role="dialog"][aria-labelledby="eval-title"]', 'the Evaluate dialog');
      await d.getByRole('button', { name: 'Close' }).click();

      // The other dialogs, to the same standard.
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Models' }).click();
      await page.getByRole('dialog', { name: 'Models' }).waitFor();
      await expectDialogClean(page, 'dialog[open]', 'the Models dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Models' }).waitFor({ state: 'detached' });
      await page
        .getByRole('button', { name: /Add Agent/ })
        .first()
        .click();
      await page.getByRole('dialog', { name: 'Create Agent' }).waitFor();
      await expectDialogClean(page, '.agora-editor', 'the agent editor');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Create Agent' }).waitFor({ state: 'detached' });
      const discussion = page.getByRole('complementary', { name: 'Discussion', exact: true });
      await discussion.getByRole('button', { name: 'History' }).click();
      await page.getByRole('dialog', { name: 'Past discussions' }).waitFor();
      await expectDialogClean(page, 'dialog[open]', 'History');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Past discussions' }).waitFor({ state: 'detached' });
      await discussion.getByRole('button', { name: /Settings/ }).click();
      await page.getByRole('dialog', { name: 'Advanced Settings' }).waitFor();
      await expectDialogClean(page, '#advanced-settings', 'Advanced Settings');
    } finally {
      await openai.close();
    }
  },
  { timeoutMs: 120_000 },
);
