import { OFFLINE_MODEL } from '../schemas/constants';
import type { ModelConnection } from '../schemas/modelConnections';
import { connectionTag } from './connectionTag';

// What the selected agents will speak with, said before Start: 'Vera and Bo use Groq · llama-3.3-70b; Ada uses the
// offline demo'. An agent whose connection is not answering is named, so Start can ask first.

export interface ModelsInUse {
  line: string;
  /** Agents whose model's connection is not answering now. */
  unreachable: string[];
  /** Every agent speaks with the offline demo. */
  allOffline: boolean;
}

const names = (xs: string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

export function modelsInUse(
  agents: Array<{ name: string; model?: string | null }>,
  connections: ModelConnection[],
): ModelsInUse {
  const groups = new Map<string, string[]>();
  const unreachable: string[] = [];
  for (const a of agents) {
    const model = a.model || OFFLINE_MODEL;
    const conn = connections.find((c) => c.models.some((m) => m.id === model));
    const label =
      model === OFFLINE_MODEL
        ? 'the offline demo'
        : conn
          ? `${connectionTag(conn)} · ${conn.models.find((m) => m.id === model)!.name}`
          : model;
    if (conn && conn.status.state !== 'reachable') unreachable.push(a.name);
    groups.set(label, [...(groups.get(label) ?? []), a.name]);
  }
  const line = [...groups]
    .map(([label, who]) => `${names(who)} ${who.length === 1 ? 'uses' : 'use'} ${label}`)
    .join('; ');
  return { line, unreachable, allOffline: groups.size === 1 && groups.has('the offline demo') };
}

/** The question Start asks when an agent's model server is down: "Bo's model server is not answering — start anyway?" */
export const unreachableQuestion = (who: string[]) =>
  `${names(who.map((n) => `${n}'s`))} model server${who.length === 1 ? ' is' : 's are'} not answering — start anyway?`;
