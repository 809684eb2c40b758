import path from 'node:path';
import type { Browser } from 'playwright-core';

/**
 * /docs 1440 wide (the whole page), written to <out>/api-docs-1440.png: Swagger UI with every route listed. Fails when the page
 * reports a Content-Security-Policy violation or a script error, so the screenshot also proves the page works
 * under the app's CSP.
 */
export async function shootApiDocs(browser: Browser, base: string, out: string): Promise<string> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    // A missing resource is reported by URL below (the browser's own favicon request is not the page's).
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()} ${r.url()}`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${base}/docs`);
  await page.locator('.opblock').first().waitFor();
  await page.waitForTimeout(500);
  const file = path.join(out, 'api-docs-1440.png');
  await page.screenshot({ path: file, fullPage: true });
  const routes = await page.locator('.opblock').count();
  await context.close();
  if (problems.length) throw new Error(`/docs reported errors:\n${problems.join('\n')}`);
  if (routes < 40) throw new Error(`/docs lists only ${routes} operations`);
  return file;
}
