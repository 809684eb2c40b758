import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { postgresUnavailableReason, startPostgres } from '../server/postgresCluster';
import { startServerProcess } from '../server/serverProcess';
import { test, uniqueEmail } from './harness';

// Two pages of one user on two server processes sharing one PostgreSQL (README 'Running more than one
// process'): an agent created on the page served by A appears on the page served by B, live. The spec starts its
// own PostgreSQL and two processes serving the built app; the runner's server is not used.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PASSWORD = 'correct-horse-42';

const controls = (page: Page) => page.getByRole('region', { name: 'Canvas controls' });
const node = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name},`) });

test(
  'a change on one process appears on the page of another',
  async ({ page, context }) => {
    const why = postgresUnavailableReason();
    if (why) {
      console.log(`    (skipped: ${why})`);
      return;
    }
    const cluster = await startPostgres();
    const dir = await mkdtemp(path.join(tmpdir(), 'agora-e2e-cluster-'));
    const env = { DATABASE_URL: cluster.url, MEDIA_DIR: path.join(dir, 'media'), STATIC_DIR: path.join(ROOT, 'dist') };
    const a = await startServerProcess({ ...env, DATA_DIR: path.join(dir, 'a') });
    const b = await startServerProcess({ ...env, DATA_DIR: path.join(dir, 'b') }).catch(async (e) => {
      await a.kill();
      throw e;
    });
    try {
      const email = uniqueEmail('cluster');
      await page.goto(a.url);
      await page.getByLabel('Email', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
      await controls(page).waitFor();

      const other = await context.newPage();
      await other.goto(b.url);
      await other.getByLabel('Email', { exact: true }).fill(email);
      await other.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await other.locator('form').getByRole('button', { name: 'Sign In', exact: true }).click();
      await controls(other).waitFor();
      // B's live-update socket is open before the change (the status bar says so).
      await other.getByLabel('Live updates: Ready').waitFor();

      await page.getByRole('button', { name: '+ Add Agent' }).click();
      const drawer = page.getByRole('dialog', { name: 'Create Agent' });
      await drawer.getByLabel('Name', { exact: true }).fill('Ada');
      await drawer.getByLabel('Role', { exact: true }).fill('Analyst');
      await drawer.getByLabel('Prompt', { exact: true }).fill('You are Ada.');
      await drawer
        .getByLabel('Model', { exact: true })
        .selectOption({ label: 'Built-in offline model (no LLM) — offline' });
      await drawer.getByRole('button', { name: 'Create Agent' }).click();
      await node(page, 'Ada').waitFor();
      // No reload on B: the agent arrives through A → PostgreSQL → B → B's socket.
      await node(other, 'Ada').waitFor({ timeout: 5_000 });
      await other.close();
    } finally {
      await a.kill();
      await b.kill();
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    }
  },
  { timeoutMs: 120_000 },
);
