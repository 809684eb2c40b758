// A labelled form control. The label points at the control (htmlFor) rather than wrapping it, so the
// control's accessible name is the label's words alone (a wrapped select would add its option text).
import { useId, type ReactElement } from 'react';
import { cloneElement } from 'react';

export function Field({ label, children }: { label: string; children: ReactElement<{ id?: string }> }) {
  const id = useId();
  return (
    <div className="agora-field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}
