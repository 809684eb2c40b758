import type { Locator, Page } from 'playwright-core';
import { wavFile } from '../support/wav';
import { test, uniqueEmail } from './harness';

// Agents end to end: the canvas, the editor and reference voices against the real server, in Chromium.
const PASSWORD = 'correct-horse-42';

async function registerAndOpenShell(page: Page, baseUrl: string, email: string) {
  await page.goto(baseUrl);
  await page.getByLabel('Email', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  await controls(page).waitFor();
}

const controls = (page: Page) => page.getByRole('region', { name: 'Canvas controls' });
/** An agent node: its accessible name starts with the agent's name. */
const node = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name},`) });
const wrapperOf = (page: Page, name: string) => page.locator('.react-flow__node').filter({ has: node(page, name) });
const count = async (page: Page, which: 'agents' | 'connections' | 'selected') =>
  Number(await controls(page).getByTestId(`canvas-count-${which}`).textContent());

async function waitForCount(
  page: Page,
  which: 'agents' | 'connections' | 'selected',
  expected: (n: number) => boolean,
  what: string,
) {
  for (let i = 0; i < 100; i++) {
    if (expected(await count(page, which))) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`${which} count never became ${what} (it is ${await count(page, which)})`);
}

async function createAgent(page: Page, name: string, role: string) {
  await page.getByRole('button', { name: '+ Add Agent' }).click();
  const drawer = page.getByRole('dialog', { name: 'Create Agent' });
  const submit = drawer.getByRole('button', { name: 'Create Agent' });
  await drawer.getByLabel('Name', { exact: true }).fill(`  ${name} `);
  await drawer.getByLabel('Role', { exact: true }).fill(role);
  await drawer.getByLabel('Prompt', { exact: true }).fill(`You are ${name}, a careful ${role.toLowerCase()}.`);
  // A model is preselected for a new agent; cleared, the form cannot be submitted.
  await drawer.getByLabel('Model', { exact: true }).selectOption('');
  if (await submit.isEnabled()) throw new Error('submit was enabled before a model was chosen');
  // The offline model is always offered, so the test needs no LLM.
  await drawer
    .getByLabel('Model', { exact: true })
    .selectOption({ label: 'Built-in offline model (no LLM) — offline' });
  await submit.click();
  await drawer.waitFor({ state: 'detached' });
  await node(page, name).waitFor();
}

const centre = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('element has no box');
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
};

/** Fails clearly when something (an overlay, the drawer) covers the point a drag would start from. */
async function expectTopmost(point: { x: number; y: number }, target: Locator) {
  const hit = await target.evaluate((el, p) => {
    const top = document.elementFromPoint(p.x, p.y);
    return !!top && (el === top || el.contains(top));
  }, point);
  if (!hit) throw new Error(`something covers (${Math.round(point.x)}, ${Math.round(point.y)})`);
}

async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 8 });
  await page.mouse.move(to.x, to.y, { steps: 8 });
  await page.mouse.up();
}

async function authed<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = localStorage.getItem('token') ?? localStorage.getItem('access_token') ?? '';
      const res = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    },
    { method, path, body },
  );
}

/** The stored agents, read with the page's own token (what a reload will draw). */
async function storedAgents(page: Page): Promise<{ id: string; name: string; x: number; y: number }[]> {
  return page.evaluate(async () => {
    const token = localStorage.getItem('token') ?? localStorage.getItem('access_token') ?? '';
    const res = await fetch('/agents/', { headers: { Authorization: `Bearer ${token}` } });
    return res.json();
  });
}

/** A tiny valid PCM WAV: 0.2 s of a 440 Hz tone, 8 kHz mono 16-bit. */
function wav(seconds = 0.2, rate = 8000): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  return wavFile(data, { rate });
}

async function uploadWav(drawer: Locator, name: string) {
  await drawer.getByLabel('Audio name', { exact: true }).fill(name);
  await drawer
    .getByLabel('Audio file', { exact: true })
    .setInputFiles({ name: `${name.toLowerCase()}.wav`, mimeType: 'audio/wav', buffer: wav() });
  await drawer.getByRole('button', { name: 'Upload' }).click();
  await drawer.getByRole('listitem', { name: `Reference audio ${name}` }).waitFor();
}

test(
  'agents: create, drag and reload, connect by dragging, auto-connect, select, edit with reference voices, delete; a second page follows live',
  async ({ page, context, baseUrl }) => {
    await registerAndOpenShell(page, baseUrl, uniqueEmail('agents'));
    // With the panel open, the panel says how many agents to select (once); the canvas says nothing more.
    await page.getByText('Select two or more agents on the canvas to take part.').waitFor();
    if (await page.getByText('Select 2+ agents to enable discussions').count())
      throw new Error('the canvas and the panel both say to select two agents');

    await createAgent(page, 'Ada', 'Analyst');
    await createAgent(page, 'Bo', 'Critic');
    const stored = await storedAgents(page);
    const ada = stored.find((a) => a.name === 'Ada');
    if (!ada) throw new Error(`the name was not sent trimmed: ${JSON.stringify(stored.map((a) => a.name))}`);

    // A second page of the same user (same storage, so already signed in) sees the third agent arrive live.
    const second = await context.newPage();
    await second.goto(baseUrl);
    await node(second, 'Bo').waitFor();
    // A background tab gets no animation frames, which dragging needs: the first page comes back to the front.
    await page.bringToFront();
    await createAgent(page, 'Cy', 'Moderator');
    await node(second, 'Cy').waitFor({ timeout: 10_000 });
    await waitForCount(page, 'agents', (n) => n === 3, '3');

    // New agents land at random places; lay them out apart (as a user would) so each one can be grabbed.
    const layout: Record<string, [number, number]> = { Ada: [40, 40], Bo: [40, 380], Cy: [420, 380] };
    for (const a of await storedAgents(page))
      await authed(page, 'PUT', `/agents/${a.id}/position`, { x: layout[a.name][0], y: layout[a.name][1] });
    await page.reload();
    await node(page, 'Ada').waitFor();

    // Drag Ada; the position is saved and a reload draws her there.
    const before = storedAgents(page).then((all) => all.find((a) => a.name === 'Ada')!);
    const start = await centre(node(page, 'Ada'));
    await expectTopmost(start, node(page, 'Ada'));
    await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/agents/${ada.id}/position`) && r.request().method() === 'PUT'),
      drag(page, start, { x: start.x + 200, y: start.y + 60 }),
    ]);
    const moved = (await storedAgents(page)).find((a) => a.name === 'Ada')!;
    const old = await before;
    if (moved.x === old.x && moved.y === old.y) throw new Error('the drag did not change the stored position');
    if (await count(page, 'selected')) throw new Error('a drag must not toggle the selection');
    await page.reload();
    await node(page, 'Ada').waitFor();
    const transform = await wrapperOf(page, 'Ada').evaluate((el) => (el as HTMLElement).style.transform);
    const drawn = /translate\(([-\d.]+)px,\s*([-\d.]+)px\)/.exec(transform);
    if (!drawn || Number(drawn[1]) !== moved.x || Number(drawn[2]) !== moved.y)
      throw new Error(`after reload Ada is drawn at ${transform}, stored ${moved.x},${moved.y}`);

    // Connect Bo → Cy by dragging from Bo's source handle to Cy's target handle.
    await waitForCount(page, 'connections', (n) => n === 0, '0');
    const sourceHandle = wrapperOf(page, 'Bo').locator('.react-flow__handle.source');
    const source = await centre(sourceHandle);
    const target = await centre(wrapperOf(page, 'Cy').locator('.react-flow__handle.target'));
    await expectTopmost(source, sourceHandle);
    await drag(page, source, target);
    await waitForCount(page, 'connections', (n) => n === 1, '1');
    await page.locator('.react-flow__edge').first().waitFor();

    // Auto-connect: its message, which hides itself after 3 s.
    await page.getByRole('button', { name: 'Auto-Connect' }).click();
    const banner = page.getByText(/^Auto-connected: \d+ connections? created$/);
    await banner.waitFor();
    await waitForCount(page, 'connections', (n) => n >= 2, 'at least 2');
    await banner.waitFor({ state: 'detached', timeout: 6_000 });

    // Select two agents.
    await node(page, 'Ada').click();
    await node(page, 'Bo').click();
    await waitForCount(page, 'selected', (n) => n === 2, '2');
    const participants = page.getByRole('region', { name: 'Participants' });
    await participants.getByText('Ada').waitFor();
    await participants.getByText('Bo').waitFor();

    // Open the editor from the node's menu and work with reference voices.
    await node(page, 'Cy').click({ button: 'right' });
    await page.getByRole('menuitem', { name: /Edit Agent/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Edit Cy' });
    await drawer.getByRole('region', { name: 'Overview' }).waitFor();
    await uploadWav(drawer, 'Calm');
    await uploadWav(drawer, 'Warm');
    const warm = drawer.getByRole('listitem', { name: 'Reference audio Warm' });
    await drawer.getByRole('button', { name: 'Set Warm as default' }).click();
    await warm.getByText('Default', { exact: true }).first().waitFor();
    await drawer.getByRole('button', { name: 'Delete Warm' }).click();
    await page.getByRole('alertdialog').getByText('Delete audio "Warm"?').waitFor();
    await page.getByRole('button', { name: 'Delete audio' }).click();
    await warm.waitFor({ state: 'detached' });
    await drawer.getByRole('button', { name: 'Close editor' }).click();
    await drawer.waitFor({ state: 'detached' });

    // Delete an agent: the confirmation names it and its one remaining audio file.
    await node(page, 'Cy').click({ button: 'right' });
    await page.getByRole('menuitem', { name: /Delete Agent/ }).click();
    await page.getByRole('alertdialog').getByText('Delete agent "Cy"? 1 audio file will also be deleted.').waitFor();
    await page.getByRole('button', { name: 'Delete agent' }).click();
    await node(page, 'Cy').waitFor({ state: 'detached' });
    await waitForCount(page, 'agents', (n) => n === 2, '2');
    await node(second, 'Cy').waitFor({ state: 'detached', timeout: 10_000 });
  },
  { timeoutMs: 120_000 },
);
