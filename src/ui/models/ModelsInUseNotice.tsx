// Before Start: which models the selected agents will use, and whose model server is not answering. While every
// selected agent is on the offline demo the 'Get a real model' card says so instead.
import { unreachableQuestion, type ModelsInUse } from '../../model/modelsInUse';

export function ModelsInUseNotice({ use }: { use: ModelsInUse | null }) {
  if (!use || use.allOffline) return null;
  return (
    <p
      className={`models-in-use${use.unreachable.length ? ' models-in-use--warn' : ''}`}
      role="note"
      aria-label="Models in use"
    >
      {use.line}.
      {use.unreachable.length > 0 && (
        <strong> {unreachableQuestion(use.unreachable).replace(' — start anyway?', '.')}</strong>
      )}
    </p>
  );
}
