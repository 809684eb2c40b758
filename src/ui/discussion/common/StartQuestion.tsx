// Start asks first when a selected agent's model server is not answering: "Bo's model server is not answering —
// start anyway?". Cancel (the default, Esc) leaves the form as it was; 'Start anyway' starts.
import { useState, type ReactNode } from 'react';
import { unreachableQuestion } from '../../../model/modelsInUse';
import { ConfirmDialog } from '../../common/ConfirmDialog';

/** The Start to call from the form, and the question to draw while it is asked. */
export function useStartQuestion(unreachable: readonly string[], start: () => void): [() => void, ReactNode] {
  const [asking, setAsking] = useState<readonly string[] | null>(null);
  const ask = () => (unreachable.length > 0 ? setAsking(unreachable) : start());
  const dialog = asking && (
    <ConfirmDialog
      message={unreachableQuestion([...asking])}
      confirmLabel="Start anyway"
      tone="primary"
      onConfirm={() => {
        setAsking(null);
        start();
      }}
      onCancel={() => setAsking(null)}
    />
  );
  return [ask, dialog];
}
