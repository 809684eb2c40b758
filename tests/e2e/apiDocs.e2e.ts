import { test } from './harness';

// /docs in Chromium (README 'API'): Swagger UI from this server renders every operation of /openapi.json under the
// app's CSP (the runner fails the test on any violation), and an operation opens with its example.

test('the API reference at /docs lists every route and shows its examples', async ({ page, baseUrl }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const doc = await (await page.request.get(`${baseUrl}/openapi.json`)).json();
  const operations = Object.values(doc.paths as Record<string, Record<string, unknown>>).reduce(
    (n, ops) => n + Object.keys(ops).length,
    0,
  );

  await page.goto(`${baseUrl}/docs`);
  await page.locator('.opblock').first().waitFor();
  const shown = await page.locator('.opblock').count();
  if (shown !== operations) throw new Error(`/docs shows ${shown} operations, /openapi.json has ${operations}`);

  const create = page.locator('#operations-Agents-postAgents');
  await create.locator('.opblock-summary').click();
  await create.getByText('"Ada"').first().waitFor();
  if (errors.length) throw new Error(`script errors on /docs: ${errors.join('; ')}`);
});
