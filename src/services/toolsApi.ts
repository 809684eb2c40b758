// The REST calls of tool servers and the tool catalog (docs/tools.md), on the one HTTP helper; each answer checked
// by its schema (src/schemas/toolConnections.ts).
import type { ToolConnectionCreate, ToolConnectionTestBody, ToolConnectionUpdate } from '../schemas/toolConnections';
import type { Http } from './http';
import { lazyAsk } from './lazyAsk';

export function createToolsApi({ request }: Pick<Http, 'request'>) {
  const enc = encodeURIComponent;
  const ask = lazyAsk(request);
  return {
    /** Every tool the user can give an agent, by server (GET /tools). */
    loadToolCatalog: async () => (await ask('GET', '/tools', 'toolCatalog', { retry: true })).servers,
    listToolConnections: async () =>
      (await ask('GET', '/tool-connections', 'toolConnectionList', { retry: true })).connections,
    testToolConnection: (body: ToolConnectionTestBody) =>
      ask('POST', '/tool-connections/test', 'toolConnectionTestResult', { json: body }),
    saveToolConnection: ({ id, body }: { id: string | null; body: ToolConnectionCreate | ToolConnectionUpdate }) =>
      id
        ? ask('PATCH', `/tool-connections/${enc(id)}`, 'toolConnection', { json: body })
        : ask('POST', '/tool-connections', 'toolConnection', { json: body }),
    deleteToolConnection: ({ id }: { id: string }) => ask('DELETE', `/tool-connections/${enc(id)}`, 'anything'),
  };
}
export type ToolsApi = ReturnType<typeof createToolsApi>;
