import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startFakeSpeech } from '../support/fakeSpeechServers';
import { wavFile } from '../support/wav';
import { makeOfflineAgents } from './agents';
import { test, uniqueEmail } from './harness';

// Voices through the UI (README 'Voices'), against a loopback server speaking the Chatterbox TTS API exactly
// (tests/support/fakeSpeechServers.ts, real WAV from espeak-ng): add the voice-cloning connection in Models → Speech,
// upload a reference recording for two agents, choose 'Clone' (refused until the consent box is ticked), then run a
// spoken hybrid discussion and check every turn was synthesised with its agent's registered voice name.
// VOICES_SCREENS=1 also writes docs/screens/voices-*.png.

const PASSWORD = 'correct-horse-42';
const SCREENS = process.env.VOICES_SCREENS ? path.resolve('docs/screens') : null;
const CONSENT = 'I have the speaker’s consent to clone this voice';
const CLONE = 'Clone from this agent’s reference recording';

const models = (page: Page) => page.getByRole('dialog', { name: 'Models' });
const node = (page: Page, name: string) =>
  page.getByRole('button', { name: new RegExp(`^${name}(?![\\p{L}])`, 'u') }).first();
const panel = (page: Page) => page.getByRole('complementary', { name: 'Hybrid discussion' });

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function shot(target: Page | Locator, name: string) {
  if (!SCREENS) return;
  mkdirSync(SCREENS, { recursive: true });
  await target.screenshot({ path: path.join(SCREENS, name) });
}

/** A second of a tone: real WAV the fake voice server takes as a recording. */
function recording(hz: number): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 8000), i * 2);
  return wavFile(data, { rate });
}

async function cloneVoiceOf(page: Page, name: string, hz: number, screenshot?: string) {
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const drawer = page.getByRole('dialog', { name: `Edit ${name}` });
  await drawer.getByLabel('Audio name', { exact: true }).fill(`${name} reading`);
  await drawer
    .getByLabel('Audio file', { exact: true })
    .setInputFiles({ name: `${name.toLowerCase()}.wav`, mimeType: 'audio/wav', buffer: recording(hz) });
  await drawer.getByRole('button', { name: 'Upload' }).click();
  await drawer.getByRole('listitem', { name: `Reference audio ${name} reading` }).waitFor();

  const voice = drawer.getByRole('region', { name: 'Voice' });
  await voice.getByLabel('Voice server').selectOption({ label: 'Chatterbox — lists 0 voices · can clone' });
  await voice.getByLabel(CLONE).check();
  // Without the consent box, nothing is registered: the field says what to tick.
  await voice.getByRole('button', { name: 'Save voice' }).click();
  await voice.getByText(`To clone a voice, tick “${CONSENT}”`).waitFor();
  await voice.getByLabel(CONSENT).check();
  await voice.getByRole('button', { name: 'Save voice' }).click();
  await voice.getByText(`Chatterbox · clone of “${name} reading”`).waitFor({ timeout: 20_000 });
  if (screenshot) await shot(voice, screenshot);
  await drawer.getByRole('button', { name: 'Close editor' }).click();
  await drawer.waitFor({ state: 'detached' });
}

test(
  'voices: add a voice-cloning server, clone two agents from their recordings with consent, hear each turn in its own voice',
  async ({ page, baseUrl }) => {
    const chatterbox = await startFakeSpeech({ kind: 'chatterbox' });
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(baseUrl);
      await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
      await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('voices'));
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
      await page.getByRole('complementary', { name: 'Discussion', exact: true }).waitFor({ timeout: 20_000 });
      await makeOfflineAgents(page);

      // ── Models → Speech: the voice-cloning connection, tested ──
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Models' }).click();
      await models(page).waitFor();
      await models(page).getByRole('button', { name: 'Add speech connection' }).click();
      const form = models(page).getByRole('form', { name: 'Add speech connection' });
      if ((await form.getByLabel('Kind').inputValue()) !== 'chatterbox')
        throw new Error('the speech form does not start on the cloning kind');
      await form.getByLabel('Base URL').fill(chatterbox.url);
      await form.getByRole('button', { name: 'Test' }).click();
      await form.getByText('Connected. It lists 0 voices · can clone.').waitFor();
      await form.getByRole('button', { name: 'Save' }).click();
      const card = models(page).getByRole('article', { name: 'Speech connection Chatterbox' });
      await card.getByText('Reachable').waitFor();
      await models(page).getByRole('article', { name: 'Speech connection Built-in (espeak-ng)' }).waitFor();
      await card.scrollIntoViewIfNeeded();
      await shot(models(page).getByRole('region', { name: /^Speech/ }), 'voices-models.png');
      // Esc in the delete confirmation closes the confirmation only: the Models dialog and the card stay.
      await card.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Confirm' });
      await confirm.waitFor();
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      if (!(await models(page).isVisible())) throw new Error('Esc in the delete confirmation closed the Models dialog');
      await card.waitFor();
      await models(page).getByRole('button', { name: 'Close' }).first().click();

      // ── Two agents, each cloned from its own recording ──
      await cloneVoiceOf(page, 'Ada', 330, 'voices-editor.png');
      await cloneVoiceOf(page, 'Bo', 520);
      const registered = await page.evaluate(async () => {
        const headers = { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` };
        const agents = (await (await fetch('/agents/', { headers })).json()) as Array<{
          id: string;
          name: string;
          voice?: string;
        }>;
        const out: Record<string, { name: string; voice: string | null }> = {};
        for (const a of agents) {
          const v = (await (await fetch(`/agents/${a.id}/voice`, { headers })).json()) as {
            voice: { registered_name: string | null } | null;
          };
          out[a.id] = { name: a.name, voice: v.voice?.registered_name ?? null };
        }
        return out;
      });
      const names = Object.values(registered).map((r) => r.voice);
      if (names.some((n) => !n) || new Set(names).size !== 2)
        throw new Error(`registered voices ${JSON.stringify(registered)}`);
      for (const n of names)
        if (!chatterbox.library.has(n!)) throw new Error(`${n} is not in the voice server's library`);

      // ── A spoken discussion: each turn in its agent's voice ──
      const clips: Array<{ agent_id: string }> = [];
      page.on('websocket', (ws) => {
        if (!ws.url().includes('/ws/hybrid') || ws.url().includes('test=true')) return;
        ws.on('framereceived', (f) => {
          try {
            const frame = JSON.parse(String(f.payload)) as { type: string; agent_id: string };
            if (frame.type === 'audio_message') clips.push(frame);
          } catch {
            // not JSON
          }
        });
      });
      await node(page, 'Ada').click();
      await node(page, 'Bo').click();
      await page.getByRole('button', { name: 'Switch to Hybrid' }).click();
      await panel(page).waitFor();
      await panel(page).getByRole('button', { name: 'Settings' }).click();
      const settings = panel(page).getByRole('group', { name: 'Hybrid discussion settings' });
      await settings.getByLabel('Speech', { exact: true }).check();
      await settings.getByLabel('Pause between turns (ms)').fill('0');
      await panel(page).getByRole('button', { name: 'Settings' }).click();
      await panel(page).getByLabel('Discussion topic').fill('Should the orchard keep bees next to the vineyard?');
      await panel(page).getByRole('button', { name: 'Start round table' }).click();
      await until(
        'a clip from each agent',
        () => new Set(clips.map((c) => c.agent_id)).size === 2 && clips.length >= 3,
        120_000,
      );
      await panel(page).getByRole('button', { name: 'Stop Discussion' }).click();
      await panel(page)
        .getByText(/Discussion (ended|stopped)/)
        .waitFor({ timeout: 15_000 });

      // Every clip the server made was spoken by the voice server, with the speaking agent's registered voice.
      const spoken = chatterbox.calls.filter((c) => c.path === '/v1/audio/speech');
      if (spoken.length < clips.length)
        throw new Error(`${clips.length} clips but ${spoken.length} calls to the voice server`);
      for (const [i, clip] of clips.entries()) {
        const want = registered[clip.agent_id]?.voice;
        if (spoken[i]?.voice !== want)
          throw new Error(
            `turn ${i + 1} (${registered[clip.agent_id]?.name}) was spoken with ${spoken[i]?.voice}, not ${want}`,
          );
      }
      if (
        await panel(page)
          .getByText(/speaking with espeak-ng instead/)
          .count()
      )
        throw new Error('a voice fell back to espeak-ng');
    } finally {
      await chatterbox.close();
    }
  },
  { timeoutMs: 240_000 },
);
