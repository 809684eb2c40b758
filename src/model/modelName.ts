// How a model reads wherever a person sees it (History, the editor, the panel, the PDF): '<connection> · <model>',
// with the connection named as the person named it ('Loopback sim · walk-sim-7b'), never the stored id
// '@<uuid>/walk-sim-7b'. The offline model reads as 'demo model'. Pure.
import { OFFLINE_MODEL } from '../schemas/constants';
import { modelLabel, parseModelId, type ModelConnection } from '../schemas/modelConnections';

/** What the built-in offline model is called beside an agent's name and in every model line. */
export const DEMO_MODEL_NAME = 'demo model';

type Named = Pick<ModelConnection, 'id' | 'name' | 'models'>;

/** Whether an agent speaks with the offline demo model (an agent stored without a model does too). */
export const isDemoModel = (model: string | null | undefined): boolean => !model || model === OFFLINE_MODEL;

/**
 * The model as a person reads it. `connections` are the ones the workspace loaded; `stored` is the label the server
 * wrote when the discussion started (History), used when the connection has gone since. An id whose connection is
 * unknown reads as its model name alone, not as the connection's id.
 */
export function modelName(
  model: string | null | undefined,
  connections: readonly Named[],
  stored?: string | null,
): string {
  if (isDemoModel(model)) return DEMO_MODEL_NAME;
  const id = model as string;
  const parsed = parseModelId(id);
  const conn =
    connections.find((c) => c.models.some((m) => m.id === id)) ??
    (parsed ? connections.find((c) => c.id === parsed.connectionId) : undefined);
  const name = conn?.models.find((m) => m.id === id)?.name ?? parsed?.model ?? id;
  if (conn) return modelLabel(conn.name, name);
  return stored?.trim() || name;
}
