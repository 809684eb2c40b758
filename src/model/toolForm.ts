// The tool server form (docs/tools.md): a blank or filled form and the bodies it becomes for Test and Save. Pure;
// the chart is src/machines/toolConnections.machine.ts.
import type {
  ToolConnection,
  ToolConnectionCreate,
  ToolConnectionTestBody,
  ToolConnectionTestResult,
  ToolConnectionUpdate,
  UserToolKind,
} from '../schemas/toolConnections';
import { type ConnectionFormDescriptor, failedOutcome, NAME_FIELD, OPTIONAL_KEY_FIELD } from './connectionForm';
import type { MCP_TRANSPORTS } from '../schemas/toolConnections';

export type McpTransport = (typeof MCP_TRANSPORTS)[number];

export interface ToolForm {
  mode: 'create' | 'edit';
  id: string | null;
  kind: UserToolKind;
  name: string;
  base_url: string;
  transport: McpTransport;
  /** Typed in this form only; an edit that leaves it empty keeps the stored key. */
  api_key: string;
  keyHint: string | null;
}
export type ToolFormField = 'name' | 'base_url' | 'api_key' | 'transport';

/** Where an MCP server usually answers over Streamable HTTP (the SDK examples' port and path). */
export const TOOL_FORM_DEFAULTS = { name: 'MCP server', base_url: 'http://127.0.0.1:3000/mcp' };

export function blankToolForm(kind: UserToolKind): ToolForm {
  return { mode: 'create', id: null, kind, ...TOOL_FORM_DEFAULTS, transport: 'auto', api_key: '', keyHint: null };
}

export function toolFormFrom(c: ToolConnection): ToolForm {
  return {
    mode: 'edit',
    id: c.id,
    kind: 'mcp',
    name: c.name,
    base_url: c.base_url,
    transport: c.transport,
    api_key: '',
    keyHint: c.api_key_hint,
  };
}

export const isToolFormUsable = (f: ToolForm | null) =>
  !!f && f.name.trim() !== '' && /^https?:\/\/\S+$/.test(f.base_url.trim());

export function toolTestBody(f: ToolForm): ToolConnectionTestBody {
  return {
    kind: f.kind,
    base_url: f.base_url.trim(),
    transport: f.transport,
    ...(f.api_key ? { api_key: f.api_key } : {}),
    ...(f.id ? { id: f.id } : {}),
  };
}

export function toolSaveBody(f: ToolForm): ToolConnectionCreate | ToolConnectionUpdate {
  const common = { name: f.name.trim(), base_url: f.base_url.trim(), transport: f.transport };
  if (f.mode === 'create') return { kind: f.kind, ...common, ...(f.api_key ? { api_key: f.api_key } : {}) };
  return { ...common, ...(f.api_key ? { api_key: f.api_key } : {}) };
}

/** How each transport reads in the form and on a card. */
export const TRANSPORT_LABELS: Record<McpTransport, string> = {
  auto: 'Automatic (Streamable HTTP, then HTTP+SSE)',
  streamable_http: 'Streamable HTTP',
  sse: 'HTTP+SSE (older servers)',
};

/** The tool server form as the one connection form draws it (connectionForm.ts). */
export const TOOL_FORM: ConnectionFormDescriptor<ToolForm, ToolConnectionTestResult> = {
  title: (mode) => (mode === 'create' ? 'Add MCP server' : 'Edit MCP server'),
  label: (f) => (f.mode === 'create' ? 'Add tool server' : `Edit ${f.name}`),
  fields: [
    NAME_FIELD,
    {
      field: 'transport',
      label: 'Transport',
      options: (Object.keys(TRANSPORT_LABELS) as McpTransport[]).map((t) => ({ value: t, label: TRANSPORT_LABELS[t] })),
    },
    { field: 'base_url', label: 'Address', wide: true, placeholder: 'https://example.com/mcp', required: true },
    { ...OPTIONAL_KEY_FIELD, wide: true },
  ],
  note: () =>
    'An MCP server reached over HTTP. Test lists the tools it offers; give them to agents in each agent’s editor. The key is stored encrypted and never shown again.',
  outcome: (t) =>
    t.ok
      ? {
          ok: true,
          title: 'Connected',
          text: t.summary,
          items: t.tools.map((x) => ({ name: x.name, description: x.description })),
        }
      : failedOutcome(t),
};

/** The form's rules, as the connections section chart takes them (machines/kit/connectionSection.ts). */
export const TOOL_FORM_RULES = {
  id: 'toolConnections',
  prefix: 'tools' as const,
  blank: blankToolForm,
  from: toolFormFrom,
  usable: isToolFormUsable,
  testBody: toolTestBody,
  saveBody: toolSaveBody,
  firstKind: 'mcp' as UserToolKind,
  /** Types only (never read): the Test answer's type. */
  testResult: undefined as ToolConnectionTestResult | undefined,
};
