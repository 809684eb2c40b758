// Start asks first when a selected agent's model server is not answering: "Bo's model server is not answering —
// start anyway?". The question is the panel chart's (its startQuestion region): this draws it and sends the answer.
// Cancel (the default, Esc) leaves the form as it was; 'Start anyway' starts.
import { unreachableQuestion } from '../../../model/modelsInUse';
import { ConfirmDialog } from '../../common/ConfirmDialog';

export function StartQuestion({
  unreachable,
  onConfirm,
  onCancel,
}: {
  /** Who is not answering, while the chart asks; null when it does not. */
  unreachable: readonly string[] | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  if (!unreachable) return null;
  return (
    <ConfirmDialog
      message={unreachableQuestion([...unreachable])}
      confirmLabel="Start anyway"
      tone="primary"
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
