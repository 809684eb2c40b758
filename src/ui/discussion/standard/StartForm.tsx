// The standard panel's idle form (docs/product.md#discussions-screens 'When idle'): the shared start form
// (common/StartFormShell.tsx) on the context box, with the continuation above it, the Format setting, how many turns
// will run and the not-logged-in hint. Why that kind was chosen and the endpoints line are technical: they are in
// 'About this run'.
import { StartFormShell, type StartFormShellProps } from '../common/StartFormShell';

const CONTEXT_BOX = {
  id: 'discussion-context',
  label: 'Discussion context',
  rows: 2,
  placeholder: 'What should the agents discuss? e.g. Should our town square be closed to cars on weekends?',
};

export type StartFormProps = Omit<StartFormShellProps, 'box' | 'afterStart' | 'trail'> & {
  loggedIn: boolean;
  /** How the planned count comes about, when the Format line's number needs it (turnEstimate.ts). */
  reason: string | null;
};

/** The continuation chosen in History comes as `lead` (above the context), the Format setting as `afterBox`. */
export function StartForm({ loggedIn, reason, ...shell }: StartFormProps) {
  return (
    <StartFormShell
      {...shell}
      box={CONTEXT_BOX}
      afterStart={reason && <p className="start-form__reason muted">{reason}</p>}
      trail={!loggedIn && <p className="start-form__login muted">You must be logged in to start a discussion</p>}
    />
  );
}
