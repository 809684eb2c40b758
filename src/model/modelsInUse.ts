import { OFFLINE_MODEL } from '../schemas/constants';
import { parseModelId, type ModelConnection } from '../schemas/modelConnections';
import { DEMO_MODEL_NAME, modelName } from './modelName';

// What the selected agents will speak with, said before Start: 'Vera and Bo use Groq · llama-3.3-70b; Ada uses the
// demo model' (each model named by modelName, its connection as the person named it). An agent whose connection is not answering is named, so Start can ask first.

export interface ModelsInUse {
  line: string;
  /** Agents whose model's connection is not answering now. */
  unreachable: string[];
  /** Their ids (the canvas marks their cards). */
  unreachableIds: string[];
  /** Every agent speaks with the offline demo. */
  allOffline: boolean;
}

const DEMO_LINE = `the ${DEMO_MODEL_NAME}`;

const names = (xs: string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

/** The connection an agent's model comes from: the one listing it, else the one its id names ('@conn/model'). */
export function connectionOf(model: string, connections: ModelConnection[]): ModelConnection | undefined {
  const named = parseModelId(model)?.connectionId;
  return connections.find((c) => c.models.some((m) => m.id === model)) ?? connections.find((c) => c.id === named);
}

/** Whether the server this model is on does not answer now (as far as the last check knows). */
export const isUnreachable = (model: string | null | undefined, connections: ModelConnection[]) => {
  const conn = model && model !== OFFLINE_MODEL ? connectionOf(model, connections) : undefined;
  return conn !== undefined && conn.status.state !== 'reachable' && conn.status.state !== 'unknown';
};

export function modelsInUse(
  agents: Array<{ id?: string; name: string; model?: string | null }>,
  connections: ModelConnection[],
): ModelsInUse {
  const groups = new Map<string, string[]>();
  const unreachable: string[] = [];
  const unreachableIds: string[] = [];
  for (const a of agents) {
    const model = a.model || OFFLINE_MODEL;
    const label = model === OFFLINE_MODEL ? DEMO_LINE : modelName(model, connections);
    if (isUnreachable(model, connections)) {
      unreachable.push(a.name);
      if (a.id) unreachableIds.push(a.id);
    }
    groups.set(label, [...(groups.get(label) ?? []), a.name]);
  }
  const line = [...groups]
    .map(([label, who]) => `${names(who)} ${who.length === 1 ? 'uses' : 'use'} ${label}`)
    .join('; ');
  return { line, unreachable, unreachableIds, allOffline: groups.size === 1 && groups.has(DEMO_LINE) };
}

/** The question Start asks when an agent's model server is down: "Bo's model server is not answering — start anyway?" */
export const unreachableQuestion = (who: string[]) =>
  `${names(who.map((n) => `${n}'s`))} model server${who.length === 1 ? ' is' : 's are'} not answering — start anyway?`;
