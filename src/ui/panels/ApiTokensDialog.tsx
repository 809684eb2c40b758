// The 'API tokens' dialog: tokens other tools send to use your panels. Create one (name, scopes, optional expiry);
// its secret is shown once with Copy; the list says each token's hint, scopes and dates; Revoke asks first. It only
// draws the apiTokens chart's snapshot and sends its events.
import { AlertLine, DialogHeader } from '../common/DialogParts';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ApiTokensActorRef } from '../../machines/apiTokens.machine';
import * as sel from '../../machines/apiTokens.selectors';
import { API_TOKEN_NAME_MAX, API_TOKEN_SCOPES, type ApiToken, type ApiTokenScope } from '../../schemas/apiTokens';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ModalDialog } from '../common/ModalDialog';
import './panels.css';

const SCOPE_WORDS: Record<ApiTokenScope, string> = {
  read: 'read — list panels, read discussions',
  run: 'run — ask a panel',
};
const dateLabel = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleDateString() : none);

function CreatedToken({ actor }: { actor: ApiTokensActorRef }) {
  const created = useSelector(actor, sel.selectCreatedToken);
  const copy = useSelector(actor, sel.selectCopyState);
  if (!created) return null;
  return (
    <section className="tokens-created" aria-label="New token">
      <h3>Your new token “{created.name}”</h3>
      <p>Copy it now: it is shown only this once, and Agora keeps only a fingerprint of it.</p>
      <div className="tokens-created__secret">
        <code data-testid="new-token">{created.token}</code>
        <button
          type="button"
          className="button button--small button--primary"
          disabled={copy === 'copying'}
          onClick={() => actor.send({ type: 'apiTokens.copy' })}
        >
          {copy === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p role="status" className={copy === 'failed' ? 'panels-error' : 'muted'}>
        {copy === 'failed'
          ? 'The browser did not allow copying: select the token and copy it by hand.'
          : copy === 'copied'
            ? 'Copied to the clipboard.'
            : ''}
      </p>
      <div className="panels-dialog__actions">
        <button
          type="button"
          className="button button--small"
          onClick={() => actor.send({ type: 'apiTokens.created.dismiss' })}
        >
          I have saved it
        </button>
      </div>
    </section>
  );
}

function CreateForm({ actor }: { actor: ApiTokensActorRef }) {
  const form = useSelector(actor, sel.selectTokenForm);
  const error = useSelector(actor, sel.selectTokenFormError);
  const creating = useSelector(actor, sel.selectIsCreatingToken);
  const id = useId();
  const toggle = (scope: ApiTokenScope, on: boolean) =>
    actor.send({
      type: 'apiTokens.form.change',
      patch: { scopes: on ? [...new Set([...form.scopes, scope])] : form.scopes.filter((s) => s !== scope) },
    });
  return (
    <form
      className="tokens-form"
      aria-label="Create a token"
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'apiTokens.create' });
      }}
    >
      <div className="tokens-form__row">
        <div className="field tokens-form__name">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={form.name}
            maxLength={API_TOKEN_NAME_MAX}
            placeholder="Claude Desktop on my laptop"
            autoComplete="off"
            data-autofocus
            onChange={(e) => actor.send({ type: 'apiTokens.form.change', patch: { name: e.target.value } })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-expires`}>Expires on (optional)</label>
          <input
            id={`${id}-expires`}
            type="date"
            value={form.expires}
            onChange={(e) => actor.send({ type: 'apiTokens.form.change', patch: { expires: e.target.value } })}
          />
        </div>
      </div>
      <fieldset>
        <legend>Scopes</legend>
        {API_TOKEN_SCOPES.map((scope) => (
          <label key={scope}>
            <input
              type="checkbox"
              checked={form.scopes.includes(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
            />
            {SCOPE_WORDS[scope]}
          </label>
        ))}
      </fieldset>
      {error && (
        <p className="panels-error" role="alert">
          {error}
        </p>
      )}
      <div className="panels-dialog__actions">
        <button type="submit" className="button button--primary" disabled={creating}>
          {creating ? 'Creating…' : 'Create token'}
        </button>
      </div>
    </form>
  );
}

function TokenRow({ actor, token }: { actor: ApiTokensActorRef; token: ApiToken }) {
  return (
    <tr>
      <td>{token.name}</td>
      <td>
        <code>{token.hint}</code>
      </td>
      <td>{token.scopes.join(', ')}</td>
      <td>{dateLabel(token.created_at, '')}</td>
      <td>{dateLabel(token.last_used_at, 'never')}</td>
      <td>{dateLabel(token.expires_at, 'never')}</td>
      <td>
        <button
          type="button"
          className="button button--small button--danger"
          onClick={() => actor.send({ type: 'apiTokens.revoke.request', id: token.id })}
          aria-label={`Revoke ${token.name}`}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

export function ApiTokensDialog({ actor }: { actor: ApiTokensActorRef }) {
  const tokens = useSelector(actor, sel.selectApiTokens);
  const loading = useSelector(actor, sel.selectIsApiTokensLoading);
  const loadError = useSelector(actor, sel.selectApiTokensLoadError);
  const actionError = useSelector(actor, sel.selectApiTokensActionError);
  const toRevoke = useSelector(actor, sel.selectTokenToRevoke);
  const revoking = useSelector(actor, sel.selectIsRevoking);
  const id = useId();
  const close = () => actor.send({ type: 'apiTokens.close' });
  return (
    <ModalDialog labelledBy={`${id}-title`} onClose={close}>
      <div className="panels-backdrop" onClick={close}>
        <div className="panels-dialog" onClick={(e) => e.stopPropagation()}>
          <DialogHeader
            prefix="panels-dialog"
            titleId={`${id}-title`}
            title="API tokens"
            lead={
              <>
                Use a panel from other tools: an MCP client (Claude Desktop, Cursor, Claude Code) or an
                OpenAI-compatible client (Open WebUI, a script) sends one of these tokens as{' '}
                <code className="panels-code">Authorization: Bearer agora_…</code>; how to set each up is in
                docs/integrations.md.
              </>
            }
            onClose={close}
          />
          <div className="panels-dialog__body">
            {actionError && (
              <AlertLine
                className="panels-alert"
                action="Dismiss"
                onAction={() => actor.send({ type: 'apiTokens.error.dismiss' })}
              >
                {actionError}
              </AlertLine>
            )}
            <CreatedToken actor={actor} />
            <CreateForm actor={actor} />
            <h3 className="panels-section-title">Your tokens</h3>
            {loadError && (
              <AlertLine
                className="panels-alert"
                action="Retry"
                onAction={() => actor.send({ type: 'apiTokens.retry' })}
              >
                The tokens could not be loaded: {loadError}
              </AlertLine>
            )}
            {loading && <p className="panels-note">Loading your tokens…</p>}
            {!loading && !loadError && tokens.length === 0 && (
              <p className="panels-empty">
                No tokens yet. A token lets another tool list your panels (read) and ask them (run) as you; revoke it
                here when that tool no longer needs it.
              </p>
            )}
            {tokens.length > 0 && (
              // On a narrow screen the table scrolls sideways inside the dialog rather than widening it.
              <div className="tokens-table-wrap">
                <table className="tokens-table" aria-label="Your tokens">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Token</th>
                      <th scope="col">Scopes</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Expires</th>
                      <th scope="col">
                        <span className="tokens-table__hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {tokens.map((t) => (
                      <TokenRow key={t.id} actor={actor} token={t} />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        </div>
      </div>
      {toRevoke && (
        <ConfirmDialog
          message={`Revoke the token “${toRevoke.name}” (${toRevoke.hint})? Every tool using it is refused from now on.`}
          confirmLabel={revoking ? 'Revoking…' : 'Revoke token'}
          busy={revoking}
          onConfirm={() => actor.send({ type: 'apiTokens.revoke.confirm' })}
          onCancel={() => actor.send({ type: 'apiTokens.revoke.cancel' })}
        />
      )}
    </ModalDialog>
  );
}

export default ApiTokensDialog;
