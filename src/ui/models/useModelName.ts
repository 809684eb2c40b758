// Every view that names a model asks this hook: '<connection as the person named it> · <model>' from the
// connections the models actor has loaded (src/model/modelName.ts). Works outside the app too (no connections).
import { useSelector } from '@xstate/react';
import { useCallback, useContext } from 'react';
import { selectModels } from '../../machines/app.selectors';
import { modelName } from '../../model/modelName';
import type { ModelConnection } from '../../schemas/modelConnections';
import { AppActorContext } from '../AppContext';

const NONE: readonly ModelConnection[] = [];

export function useModelName(): (model: string | null | undefined, stored?: string | null) => string {
  const app = useContext(AppActorContext);
  const models = useSelector(app ?? undefined, (s) => (s ? selectModels(s) : undefined));
  const connections = useSelector(models, (s) => s?.context.connections) ?? NONE;
  return useCallback((model, stored) => modelName(model, connections, stored), [connections]);
}
