// Agents for an end-to-end spec: made on the offline model (or another `model`) through the API the canvas uses (the canvas's own
// create flow has its spec in agents.e2e.ts), laid apart in a row; then the page reloads to show them.
import type { Page } from 'playwright-core';

export async function makeOfflineAgents(
  page: Page,
  names: [string, string][] = [
    ['Ada', 'Agronomist'],
    ['Bo', 'Economist'],
  ],
  model = 'offline',
) {
  await page.evaluate(
    async ([list, model]) => {
      const headers = {
        Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
        'Content-Type': 'application/json',
      };
      let x = 60;
      for (const [name, role] of list) {
        const res = await fetch('/agents/', {
          method: 'POST',
          headers,
          body: JSON.stringify({
            name,
            role,
            prompt: `You are ${name}, a careful ${role.toLowerCase()}.`,
            model,
          }),
        });
        const agent = (await res.json()) as { id: string };
        await fetch(`/agents/${agent.id}/position`, { method: 'PUT', headers, body: JSON.stringify({ x, y: 80 }) });
        x += 320;
      }
    },
    [names, model] as const,
  );
  await page.reload();
}
