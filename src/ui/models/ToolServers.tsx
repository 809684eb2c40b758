// The Models dialog's 'Tools' section (docs/tools.md): the tool servers agents may call — the server's own
// (the built-in tools, the operator's MCP servers) and the person's MCP servers — each with the tools it lists, and
// the form to add or edit one with Test (it lists the server's tools) and Save. It draws the toolConnections chart
// (a child of the models chart while the dialog is open) through the one connections section (ConnectionSection.tsx)
// and the tool server form's descriptor.
import { useSelector } from '@xstate/react';
import type { ModelsActorRef } from '../../machines/models.machine';
import type { ToolConnectionsActorRef } from '../../machines/toolConnections.machine';
import { TOOL_FORM, TRANSPORT_LABELS } from '../../model/toolForm';
import { kindLabel } from '../../schemas/connectionKinds';
import type { ToolConnection } from '../../schemas/toolConnections';
import type { ToolInfo } from '../../schemas/tools';
import { ConnectionSection, type SectionWords } from './ConnectionSection';
import { ConnectionStatePill, connectionProblem } from './ConnectionStatePill';

/** Tool names shown on a card; the rest are counted. */
const NAMES_SHOWN = 12;

const WORDS: SectionWords = {
  id: 'models-tools',
  title: 'Tools',
  note: 'what agents may call during their turn',
  plural: 'tool servers',
  add: 'Add MCP server',
  card: 'Tool server',
  empty:
    'None of your own yet. Add an MCP server (Streamable HTTP or HTTP+SSE) to let agents call its tools; the built-in tools below need nothing installed.',
  deleteQuestion: (name) => `Delete the tool server "${name}" and its stored key? Agents lose its tools.`,
};

export function ToolServers({ models }: { models: ModelsActorRef }) {
  const actor = useSelector(models, (s) => s.children.toolConnections as ToolConnectionsActorRef | undefined);
  return actor ? (
    <ConnectionSection
      actor={actor}
      prefix="tools"
      descriptor={TOOL_FORM}
      words={WORDS}
      className="tools-section"
      card={(c, actions) => <ToolServerCard c={c} actions={actions} />}
    />
  ) : null;
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

function ToolServerCard({ c, actions }: { c: ToolConnection; actions: React.ReactNode }) {
  const reason = connectionProblem(c.status);
  const builtin = c.kind === 'builtin';
  return (
    <>
      <div className="models-card__head">
        <strong className="models-card__name">{c.name}</strong>
        {!builtin && <span className="badge badge--info">{kindLabel('tools', c.kind)}</span>}
        {!builtin && <ConnectionStatePill status={c.status} />}
        {c.read_only && !builtin && <span className="badge">Server’s own</span>}
        {actions}
      </div>
      {!builtin && (
        <p className="models-card__meta">
          <span className="models-card__url">{c.base_url}</span>
          <span> · {TRANSPORT_LABELS[c.transport]}</span>
          {c.api_key_hint && <span> · key {c.api_key_hint}</span>}
        </p>
      )}
      {reason ? <p className="models-card__reason">{reason}</p> : <ToolNames tools={c.tools} />}
    </>
  );
}
