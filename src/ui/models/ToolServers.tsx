// The Models dialog's 'Tools' section (docs/tools.md): the tool servers agents may call — the server's own
// (the built-in tools, the operator's MCP servers) and the person's MCP servers — each with the tools it lists, and
// the form to add or edit one with Test (it lists the server's tools) and Save. It draws the toolConnections chart
// (a child of the models chart while the dialog is open) and sends it events.
import { useSelector } from '@xstate/react';
import type { ModelsActorRef } from '../../machines/models.machine';
import type { ToolConnectionsActorRef, ToolFormField } from '../../machines/toolConnections.machine';
import { API_KEY_MAX_BYTES, kindLabel } from '../../schemas/connectionKinds';
import type { ToolConnection, ToolConnectionTestResult } from '../../schemas/toolConnections';
import type { ToolInfo } from '../../schemas/tools';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ConnectionFormActions } from './ConnectionFormActions';
import { ConnectionStatePill, connectionProblem } from './ConnectionStatePill';

/** Tool names shown on a card; the rest are counted. */
const NAMES_SHOWN = 12;

const TRANSPORT_LABELS = {
  auto: 'Automatic (Streamable HTTP, then HTTP+SSE)',
  streamable_http: 'Streamable HTTP',
  sse: 'HTTP+SSE (older servers)',
} as const;

export function ToolServers({ models }: { models: ModelsActorRef }) {
  const actor = useSelector(models, (s) => s.children.toolConnections as ToolConnectionsActorRef | undefined);
  return actor ? <ToolsSection actor={actor} /> : null;
}

function ToolNames({ tools }: { tools: readonly ToolInfo[] }) {
  if (tools.length === 0) return <p className="models-card__meta">It lists no tools.</p>;
  const shown = tools.slice(0, NAMES_SHOWN);
  return (
    <p className="models-card__meta tool-names">
      {tools.length === 1 ? '1 tool: ' : `${tools.length} tools: `}
      {shown.map((t, i) => (
        <span key={t.name}>
          {i > 0 && ', '}
          <code title={t.description || undefined}>{t.name}</code>
        </span>
      ))}
      {tools.length > NAMES_SHOWN ? `, and ${tools.length - NAMES_SHOWN} more` : ''}
    </p>
  );
}

function ToolServerCard({ actor, c }: { actor: ToolConnectionsActorRef; c: ToolConnection }) {
  const reason = connectionProblem(c.status);
  return (
    <article className="models-card" aria-label={`Tool server ${c.name}`}>
      <div className="models-card__head">
        <strong className="models-card__name">{c.name}</strong>
        {c.kind !== 'builtin' && <span className="badge badge--info">{kindLabel('tools', c.kind)}</span>}
        {c.kind !== 'builtin' && <ConnectionStatePill status={c.status} />}
        {c.read_only && c.kind !== 'builtin' && <span className="badge">Server’s own</span>}
        {!c.read_only && (
          <span className="models-card__actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => actor.send({ type: 'tools.edit', id: c.id })}
            >
              Edit
            </button>
            <button
              type="button"
              className="button button--small button--danger"
              onClick={() => actor.send({ type: 'tools.delete', id: c.id })}
            >
              Delete
            </button>
          </span>
        )}
      </div>
      {c.kind !== 'builtin' && (
        <p className="models-card__meta">
          <span className="models-card__url">{c.base_url}</span>
          <span> · {TRANSPORT_LABELS[c.transport]}</span>
          {c.api_key_hint && <span> · key {c.api_key_hint}</span>}
        </p>
      )}
      {reason ? <p className="models-card__reason">{reason}</p> : <ToolNames tools={c.tools} />}
    </article>
  );
}

function TestOutcome({ test }: { test: ToolConnectionTestResult }) {
  return (
    <div className={test.ok ? 'models-test models-test--ok' : 'models-test models-test--fail'} role="status">
      {test.ok ? (
        <>
          <strong>Connected.</strong> {test.summary}
          {test.tools.length > 0 && (
            <ul className="tool-test-list">
              {test.tools.map((t) => (
                <li key={t.name}>
                  <code>{t.name}</code>
                  {t.description && <span> — {t.description}</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <>
          <strong>Failed.</strong> {test.detail}
        </>
      )}
    </div>
  );
}

function ToolServerForm({ actor }: { actor: ToolConnectionsActorRef }) {
  const form = useSelector(actor, (s) => s.context.form);
  const test = useSelector(actor, (s) => s.context.test);
  const error = useSelector(actor, (s) => s.context.formError);
  const testing = useSelector(actor, (s) => s.hasTag('testing'));
  const saving = useSelector(actor, (s) => s.hasTag('saving'));
  const canTest = useSelector(actor, (s) => s.can({ type: 'tools.form.test' }));
  if (!form) return null;
  const busy = testing || saving;
  const set = (field: ToolFormField) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    actor.send({ type: 'tools.form.field', field, value: e.target.value });
  return (
    <form
      className="models-form"
      aria-label={form.mode === 'create' ? 'Add tool server' : `Edit ${form.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'tools.form.save' });
      }}
    >
      <h4 className="models-form__title">{form.mode === 'create' ? 'Add MCP server' : 'Edit MCP server'}</h4>
      <div className="models-form__grid">
        <label className="models-field">
          <span>Name</span>
          <input value={form.name} onChange={set('name')} disabled={busy} maxLength={60} required />
        </label>
        <label className="models-field">
          <span>Transport</span>
          <select value={form.transport} onChange={set('transport')} disabled={busy}>
            {(Object.keys(TRANSPORT_LABELS) as (keyof typeof TRANSPORT_LABELS)[]).map((t) => (
              <option key={t} value={t}>
                {TRANSPORT_LABELS[t]}
              </option>
            ))}
          </select>
        </label>
        <label className="models-field models-field--wide">
          <span>Address</span>
          <input
            value={form.base_url}
            onChange={set('base_url')}
            disabled={busy}
            spellCheck={false}
            placeholder="https://example.com/mcp"
            required
          />
        </label>
        <label className="models-field models-field--wide">
          <span>API key (if the server asks for one)</span>
          <input
            type="password"
            value={form.api_key}
            onChange={set('api_key')}
            disabled={busy}
            autoComplete="off"
            placeholder={form.keyHint ? `Stored: ${form.keyHint} (leave empty to keep it)` : ''}
            maxLength={API_KEY_MAX_BYTES + 1}
          />
        </label>
      </div>
      <p className="models-form__note">
        An MCP server reached over HTTP. Test lists the tools it offers; give them to agents in each agent’s editor. The
        key is stored encrypted and never shown again.
      </p>
      {test && <TestOutcome test={test} />}
      <ConnectionFormActions
        error={error}
        testing={testing}
        saving={saving}
        canTest={canTest}
        canSave={canTest}
        onTest={() => actor.send({ type: 'tools.form.test' })}
        onCancel={() => actor.send({ type: 'tools.form.cancel' })}
      />
    </form>
  );
}

function ToolsSection({ actor }: { actor: ToolConnectionsActorRef }) {
  const connections = useSelector(actor, (s) => s.context.connections);
  const loading = useSelector(actor, (s) => s.hasTag('listLoading'));
  const listError = useSelector(actor, (s) => s.context.listError);
  const actionError = useSelector(actor, (s) => s.context.actionError);
  const formOpen = useSelector(actor, (s) => s.hasTag('formOpen'));
  const pending = useSelector(actor, (s) => s.context.pendingDelete);
  const deleting = useSelector(actor, (s) => s.hasTag('deleting'));
  const mine = connections.filter((c) => !c.read_only);
  const server = connections.filter((c) => c.read_only);

  return (
    <section aria-labelledby="models-tools" className="tools-section">
      <h3 id="models-tools" className="models-section-title">
        Tools <span className="models-section-note">what agents may call during their turn</span>
      </h3>
      {(listError || actionError) && (
        <div className="models-alert" role="alert">
          <span>{listError ? `The tool servers could not be loaded: ${listError}` : actionError}</span>
          <button
            type="button"
            className="link-button"
            onClick={() => actor.send(listError ? { type: 'tools.refresh' } : { type: 'tools.error.dismiss' })}
          >
            {listError ? 'Retry' : 'Dismiss'}
          </button>
        </div>
      )}
      {formOpen ? (
        <ToolServerForm actor={actor} />
      ) : (
        <div className="models-toolbar">
          <button type="button" className="button" onClick={() => actor.send({ type: 'tools.add' })}>
            Add MCP server
          </button>
        </div>
      )}
      {loading && connections.length === 0 && <p className="models-empty">Checking the tool servers…</p>}
      {mine.length === 0 && !loading && !listError && (
        <p className="models-empty">
          None of your own yet. Add an MCP server (Streamable HTTP or HTTP+SSE) to let agents call its tools; the
          built-in tools below need nothing installed.
        </p>
      )}
      {[...mine, ...server].map((c) => (
        <ToolServerCard key={c.id} actor={actor} c={c} />
      ))}
      {pending && (
        <ConfirmDialog
          message={`Delete the tool server "${pending.name}" and its stored key? Agents lose its tools.`}
          confirmLabel="Delete"
          busy={deleting}
          onConfirm={() => actor.send({ type: 'tools.delete.confirm' })}
          onCancel={() => actor.send({ type: 'tools.delete.cancel' })}
        />
      )}
    </section>
  );
}
