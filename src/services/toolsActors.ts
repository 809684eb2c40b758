// The Models dialog's 'Tools' chart with its actors on the real API (docs/tools.md); apart from toolsApi.ts so the
// sign-in screen's JavaScript (api.ts) does not carry the chart.
import { sectionActors } from '../machines/kit/connectionSection';
import { toolConnectionsMachine } from '../machines/toolConnections.machine';
import type { ToolsApi } from './toolsApi';

/** The Models dialog's 'Tools' section with its actors on the real API. */
export function toolConnectionsLogic(api: ToolsApi) {
  return toolConnectionsMachine.provide({
    actors: sectionActors({
      load: api.listToolConnections,
      test: api.testToolConnection,
      save: api.saveToolConnection,
      remove: api.deleteToolConnection,
    }),
  });
}
