// The saved panels' and API tokens' REST calls (docs/integrations.md), on the one HTTP helper, each answer checked by
// its schema; and the three dialogs' charts provided with them (and the clipboard, for a new token's Copy).
import { fromPromise } from 'xstate';
import { apiTokensMachine } from '../machines/apiTokens.machine';
import { panelSaveMachine } from '../machines/panelSave.machine';
import { panelsMachine } from '../machines/panels.machine';
import type { ApiTokenCreate } from '../schemas/apiTokens';
import type { PanelCreate, PanelUpdate } from '../schemas/panels';
import type { Http } from './http';
import { lazyAsk } from './lazyAsk';

export function createPanelsApi({ request }: Http) {
  const enc = encodeURIComponent;
  const ask = lazyAsk(request);
  return {
    listPanels: () => ask('GET', '/panels', 'panelList', { retry: true }),
    createPanel: (body: PanelCreate) => ask('POST', '/panels', 'panel', { json: body }),
    updatePanel: (id: string, body: PanelUpdate) => ask('PATCH', `/panels/${enc(id)}`, 'panel', { json: body }),
    deletePanel: (id: string) => ask('DELETE', `/panels/${enc(id)}`, 'anything'),
    listTokens: () => ask('GET', '/api-tokens', 'apiTokenList', { retry: true }),
    createToken: (body: ApiTokenCreate) => ask('POST', '/api-tokens', 'apiTokenCreated', { json: body }),
    revokeToken: (id: string) => ask('DELETE', `/api-tokens/${enc(id)}`, 'anything'),
  };
}

export function createPanelsLogic(deps: { http: Http; writeClipboard?: (text: string) => Promise<void> }) {
  const api = createPanelsApi(deps.http);
  const writeClipboard = deps.writeClipboard ?? ((text: string) => navigator.clipboard.writeText(text));
  return {
    panelSave: panelSaveMachine.provide({
      actors: { savePanel: fromPromise(({ input }) => api.createPanel(input)) },
    }),
    panels: panelsMachine.provide({
      actors: {
        loadPanels: fromPromise(() => api.listPanels()),
        renamePanel: fromPromise(({ input }) => api.updatePanel(input.id, { name: input.name })),
        deletePanel: fromPromise(({ input }) => api.deletePanel(input.id)),
      },
    }),
    apiTokens: apiTokensMachine.provide({
      actors: {
        loadTokens: fromPromise(() => api.listTokens()),
        createToken: fromPromise(({ input }) => api.createToken(input)),
        revokeToken: fromPromise(({ input }) => api.revokeToken(input.id)),
        copyText: fromPromise(({ input }) => writeClipboard(input.text)),
      },
    }),
  };
}
