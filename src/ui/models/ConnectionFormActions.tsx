// The end of every connection form (model and speech alike): its error, then Test, Save and Cancel. The form
// sends its own events; this draws what both forms draw the same way.

export interface ConnectionFormActionsProps {
  error: string | null;
  testing: boolean;
  saving: boolean;
  canTest: boolean;
  canSave: boolean;
  onTest: () => void;
  onCancel: () => void;
}

export function ConnectionFormActions(p: ConnectionFormActionsProps) {
  return (
    <>
      {p.error && (
        <p className="models-form__error" role="alert">
          {p.error}
        </p>
      )}
      <div className="button-row models-form__actions">
        <button type="button" className="button" disabled={!p.canTest} onClick={p.onTest}>
          {p.testing ? 'Testing…' : 'Test'}
        </button>
        <button type="submit" className="button button--primary" disabled={!p.canSave}>
          {p.saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button button--ghost" onClick={p.onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
