// One-off screenshots of History past 500: the built app on an in-process server, one user with 1,200
// stored discussions, the list scrolled past its first pages, and the topic filter. Writes PNGs to SHOTS_DIR.
//   npm run build && SHOTS_DIR=/tmp/shots npx tsx scripts/historyPagesShot.ts
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildServer } from '../server/app';
import { chromiumLaunchOptions } from '../tests/e2e/harness';

const out = process.env.SHOTS_DIR ?? tmpdir();
const dir = await mkdtemp(path.join(tmpdir(), 'agora-shots-'));
const server = await buildServer({
  port: 0,
  host: '127.0.0.1',
  databaseUrl: 'memory://',
  dataDir: dir,
  mediaDir: path.join(dir, 'media'),
  jwtSecret: 'shots-secret-0123456789abcdef',
  logLevel: 'silent',
  staticDir: path.resolve('dist'),
  ollamaHost: undefined,
});
const url = (await server.listen()).replace('0.0.0.0', '127.0.0.1');
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(url);
  await page.getByRole('button', { name: 'Create Account', exact: true }).first().click();
  await page.getByLabel('Email', { exact: true }).fill('history@example.com');
  await page.getByLabel('Password', { exact: true }).fill('correct-horse-42');
  await page.locator('form').getByRole('button', { name: 'Create Account', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'Discussion', exact: true });
  await panel.waitFor({ timeout: 20_000 });
  const [user] = await server.ctx.db.query<{ id: string }>("SELECT id FROM users WHERE email = 'history@example.com'");
  await server.ctx.db.query(
    `INSERT INTO discussions (id, user_id, session_id, endpoint, topic, config, status, created_at, ended_at)
     SELECT 'd' || lpad(g::text, 5, '0'), $1, 's' || g, CASE WHEN g % 3 = 0 THEN '/ws/hybrid' ELSE '/ws/discuss' END,
            CASE WHEN g % 10 = 0 THEN 'Vineyard irrigation plan no. ' || g ELSE 'Should the cooperative share harvester no. ' || g || '?' END,
            '{}'::jsonb, CASE WHEN g % 7 = 0 THEN 'abandoned' ELSE 'ended' END,
            now() - (1200 - g) * interval '1 hour', now() - (1200 - g) * interval '1 hour' + interval '5 minutes'
     FROM generate_series(1, 1200) g`,
    [user.id],
  );
  await panel.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: 'Past discussions' });
  const list = dialog.getByRole('list', { name: 'Past discussions' });
  await list.getByRole('listitem').nth(1).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(out, 'history-pages-top-1440.png') });
  // Scroll to the end a few times: each end loads the next page.
  for (let i = 0; i < 4; i++) {
    await list.locator('[data-virtuoso-scroller="true"]').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(600);
  }
  await page.screenshot({ path: path.join(out, 'history-pages-scrolled-1440.png') });
  await dialog.getByRole('searchbox', { name: 'Filter past discussions by topic' }).fill('vineyard');
  await page.waitForTimeout(900);
  await page.screenshot({ path: path.join(out, 'history-pages-filter-1440.png') });
  for (let i = 0; i < 4; i++) {
    await list.locator('[data-virtuoso-scroller="true"]').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(600);
  }
  await page.screenshot({ path: path.join(out, 'history-pages-filter-end-1440.png') });
  await dialog.getByRole('searchbox', { name: 'Filter past discussions by topic' }).fill('no such topic');
  await page.waitForTimeout(900);
  await page.screenshot({ path: path.join(out, 'history-pages-nomatch-1440.png') });
  await page.setViewportSize({ width: 1024, height: 700 });
  await dialog.getByRole('searchbox', { name: 'Filter past discussions by topic' }).fill('');
  await page.waitForTimeout(900);
  await page.screenshot({ path: path.join(out, 'history-pages-top-1024.png') });
} finally {
  await browser.close();
  await server.close();
}
