// The editor's 'Tools' section (docs/tools.md): every tool of every server the person may give this agent, grouped
// by server with its description and a switch (nothing on by default), and 'Ask me before each call'. It draws the
// editor chart's catalog and choices and sends its events; the choices are saved with Update Agent.
import { useSelector } from '@xstate/react';
import type { EditorActorRef } from '../../machines/editor.machine';
import { missingTools, toolsBody, type ToolCatalogServer } from '../../model/agentTools';
import { kindLabel } from '../../schemas/connectionKinds';
import './tools.css';

export function ToolsSection({ editor }: { editor: EditorActorRef }) {
  const mode = useSelector(editor, (s) => s.context.mode);
  const catalog = useSelector(editor, (s) => s.context.toolCatalog);
  const error = useSelector(editor, (s) => s.context.toolCatalogError);
  const loading = useSelector(editor, (s) => s.hasTag('toolsLoading'));
  const { tools, askBeforeTools } = useSelector(editor, (s) => s.context.tools);
  const unsaved = useSelector(editor, (s) => Object.keys(toolsBody(s.context.agent, s.context.tools)).length > 0);
  const locked = useSelector(editor, (s) => s.hasTag('saving'));

  if (mode === 'create') {
    return (
      <section className="agora-editor-box agora-tools" aria-label="Tools">
        <h3>Tools</h3>
        <p className="agora-hint">
          Once the agent is created, open it again to give it tools (a calculator, your sources…).
        </p>
      </section>
    );
  }
  const on = new Set(tools);
  const toggle = (id: string, value: boolean) => editor.send({ type: 'editor.tools.toggle', id, on: value });
  const gone = catalog ? missingTools(tools, catalog) : [];
  return (
    <section className="agora-editor-box agora-tools" aria-label="Tools">
      <h3>Tools</h3>
      <p className="agora-hint">
        What this agent may call during its turn. Nothing is on until you switch it on. Saved with Update Agent.
      </p>
      {loading && !catalog && <p className="agora-muted">Loading the tools…</p>}
      {error && (
        <div className="agora-inline-error" role="alert">
          <p>The tools could not be listed: {error}</p>
          <button
            type="button"
            className="button button--small"
            onClick={() => editor.send({ type: 'editor.tools.retry' })}
          >
            Retry
          </button>
        </div>
      )}
      {catalog?.map((server) => (
        <ServerTools key={server.id} server={server} on={on} locked={locked} onToggle={toggle} />
      ))}
      {gone.length > 0 && (
        <fieldset className="agora-tools-server">
          <legend>No longer offered</legend>
          <p className="agora-hint">No server lists these now; the agent cannot call them.</p>
          <ul className="agora-tools-list">
            {gone.map((id) => (
              <li key={id}>
                <ToolSwitch id={id} name={id} on locked={locked} onToggle={toggle} />
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      <label className="agora-tools-ask">
        <input
          type="checkbox"
          checked={askBeforeTools}
          disabled={locked}
          onChange={(e) => editor.send({ type: 'editor.tools.ask', on: e.target.checked })}
        />
        <span>
          Ask me before each call{' '}
          <span className="agora-hint">(the call waits for Run or Refuse in the discussion)</span>
        </span>
      </label>
      {unsaved && <p className="agora-hint agora-tools-unsaved">Not saved yet</p>}
    </section>
  );
}

function ServerTools({
  server,
  on,
  locked,
  onToggle,
}: {
  server: ToolCatalogServer;
  on: ReadonlySet<string>;
  locked: boolean;
  onToggle: (id: string, on: boolean) => void;
}) {
  const count = server.tools.filter((t) => on.has(t.id)).length;
  return (
    <fieldset className="agora-tools-server">
      <legend>
        {server.name}
        {server.kind !== 'builtin' && <span className="agora-tools-kind">{kindLabel('tools', server.kind)}</span>}
        {count > 0 && <span className="agora-tools-count">{count} on</span>}
      </legend>
      {server.error ? (
        <p className="agora-tools-error">Its tools could not be listed: {server.error}</p>
      ) : server.tools.length === 0 ? (
        <p className="agora-muted">It offers no tools.</p>
      ) : (
        <ul className="agora-tools-list">
          {server.tools.map((t) => (
            <li key={t.id}>
              <ToolSwitch
                id={t.id}
                name={t.name}
                description={t.description}
                on={on.has(t.id)}
                locked={locked}
                onToggle={onToggle}
              />
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

function ToolSwitch({
  id,
  name,
  description,
  on,
  locked,
  onToggle,
}: {
  id: string;
  name: string;
  description?: string;
  on: boolean;
  locked: boolean;
  onToggle: (id: string, on: boolean) => void;
}) {
  return (
    <label className="agora-tool">
      <input
        type="checkbox"
        role="switch"
        checked={on}
        disabled={locked}
        onChange={(e) => onToggle(id, e.target.checked)}
      />
      <span className="agora-tool__text">
        <span className="agora-tool__name">{name}</span>
        {description && <span className="agora-tool__description">{description}</span>}
      </span>
    </label>
  );
}
