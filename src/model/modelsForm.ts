// What the Models chart holds and hears, and the connection form: a blank or filled form, and the bodies it
// becomes for save and test. Pure; the chart is src/machines/models.machine.ts.
import type { LiveServerFrame } from '../schemas/liveUpdates';
import { OLLAMA_DEFAULT_URL, OPENAI_PRESETS } from '../schemas/constants';
import { kindLabel, type ConnectionFailureKind } from '../schemas/connectionKinds';
import {
  type ConnectionFormDescriptor,
  failedOutcome,
  keyPlaceholder,
  NAME_FIELD,
  OPTIONAL_KEY_FIELD,
} from './connectionForm';
import {
  modelConnectionKind,
  type ModelConnection,
  type ModelConnectionCreate,
  type ModelConnectionTestBody,
  type ModelConnectionTestResult,
  type ModelConnectionUpdate,
  type ModelConnectionKind,
  type ModelJob,
  type UserModelKind,
} from '../schemas/modelConnections';

export type FormKind = ModelConnectionKind;
export interface ConnectionForm {
  mode: 'create' | 'edit';
  id: string | null;
  kind: FormKind;
  preset: string;
  name: string;
  base_url: string;
  /** Typed in this form only; an edit that leaves it empty keeps the stored key. */
  api_key: string;
  /** The stored key's '••••1234', when editing one that has a key. */
  keyHint: string | null;
}
export type FormField = 'name' | 'base_url' | 'api_key';

export type PendingDelete =
  | { what: 'connection'; id: string; name: string }
  | { what: 'model'; connectionId: string; model: string };

export interface ModelsContext {
  connections: ModelConnection[];
  listError: string | null;
  jobs: Record<string, ModelJob>;
  form: ConnectionForm | null;
  test: ModelConnectionTestResult | null;
  formError: string | null;
  /** The last pull, delete or cancel that failed, in words. */
  actionError: string | null;
  pendingDelete: PendingDelete | null;
}

export type ModelsEvent =
  | { type: 'models.open' }
  | { type: 'models.close' }
  | { type: 'models.refresh' }
  /** Before Start: probe the connections now, so an agent whose model server is down is known. */
  | { type: 'models.status.check' }
  | { type: 'models.add'; kind?: FormKind }
  | { type: 'models.edit'; id: string }
  | { type: 'models.form.kind'; kind: FormKind }
  | { type: 'models.form.preset'; preset: string }
  | { type: 'models.form.field'; field: FormField; value: string }
  | { type: 'models.form.test' }
  | { type: 'models.form.save' }
  | { type: 'models.form.cancel' }
  | { type: 'models.connection.delete'; id: string }
  | { type: 'models.model.delete'; connectionId: string; model: string }
  | { type: 'models.delete.confirm' }
  | { type: 'models.delete.cancel' }
  | { type: 'models.pull'; connectionId: string; model: string }
  | { type: 'models.pull.cancel'; jobId: string }
  | { type: 'models.error.dismiss' }
  | { type: 'models.hint.dismiss' }
  | { type: 'live.frame'; frame: LiveServerFrame }
  | { type: 'live.resync' };

export const errorText = (e: unknown) =>
  e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong';

export const presetOf = (id: string) => OPENAI_PRESETS.find((p) => p.id === id);

export function blankForm(kind: FormKind): ConnectionForm {
  if (kind === 'openai') {
    const first = OPENAI_PRESETS[0];
    return {
      mode: 'create',
      id: null,
      kind,
      preset: first.id,
      name: first.label,
      base_url: first.baseUrl,
      api_key: '',
      keyHint: null,
    };
  }
  return {
    mode: 'create',
    id: null,
    kind,
    preset: '',
    name: kind === 'ollama' ? 'Ollama' : 'Built-in',
    base_url: kind === 'ollama' ? OLLAMA_DEFAULT_URL : '',
    api_key: '',
    keyHint: null,
  };
}

export const formFrom = (c: ModelConnection): ConnectionForm => ({
  mode: 'edit',
  id: c.id,
  kind: c.kind,
  preset: c.preset ?? 'custom',
  name: c.name,
  base_url: c.base_url,
  api_key: '',
  keyHint: c.api_key_hint,
});

/** The body of Save: a create carries every field; an edit sends the key only when one was typed. */
export function saveBody(f: ConnectionForm): ModelConnectionCreate | ModelConnectionUpdate {
  const common = {
    name: f.name.trim(),
    base_url: f.base_url.trim(),
    ...(f.kind === 'openai' ? { preset: f.preset || null } : {}),
  };
  if (f.mode === 'edit') return { ...common, ...(f.api_key ? { api_key: f.api_key } : {}) };
  return {
    kind: f.kind as UserModelKind,
    ...common,
    ...(f.kind === 'openai' && f.api_key ? { api_key: f.api_key } : {}),
  };
}

export const testBody = (f: ConnectionForm): ModelConnectionTestBody => ({
  kind: f.kind as UserModelKind,
  base_url: f.base_url.trim(),
  ...(f.api_key ? { api_key: f.api_key } : {}),
  ...(f.id ? { id: f.id } : {}),
});

/** A form the server can act on: a kind the user adds here, a name and a base URL. */
export const isFormUsable = (f: ConnectionForm | null) =>
  !!f && f.kind !== 'builtin' && f.name.trim() !== '' && f.base_url.trim() !== '';

/** A preset picked: its address, and its label as the name unless the user typed one (not the previous preset's). */
export function withPreset(f: ConnectionForm, preset: string): ConnectionForm {
  const p = presetOf(preset);
  const prev = presetOf(f.preset);
  const name = !f.name || f.name === prev?.label ? (p?.label ?? f.name) : f.name;
  return { ...f, preset, base_url: p && p.baseUrl ? p.baseUrl : f.base_url, name };
}

/** An editable (not read-only) connection of the list, or undefined. */
export const editableConnection = (connections: ModelConnection[], id: string) =>
  connections.find((c) => c.id === id && !c.read_only);

export const NO_FORM = { form: null, test: null, formError: null } as const;

// ── The form as the one connection form draws it (connectionForm.ts) ──

const FAILURE_TITLES: Record<ConnectionFailureKind, string> = {
  dns: 'Name not found',
  refused: 'Connection refused',
  timeout: 'No answer in time',
  key_rejected: 'Key rejected',
  not_compatible: 'Not the expected kind of server',
  http: 'The server answered with an error',
  blocked: 'Address not allowed',
  unreachable: 'Unreachable',
};

const isOpenAi = (f: ConnectionForm) => f.kind === 'openai';
const countedModels = (models: string[]) =>
  models.length === 0
    ? 'It lists no models yet.'
    : `${models.length} model${models.length === 1 ? '' : 's'}: ${models.slice(0, 8).join(', ')}${models.length > 8 ? ', …' : ''}`;

export const MODEL_FORM: ConnectionFormDescriptor<ConnectionForm, ModelConnectionTestResult> = {
  title: (mode) => (mode === 'create' ? 'Add connection' : 'Edit connection'),
  label: (f) => (f.mode === 'create' ? 'Add connection' : `Edit ${f.name}`),
  kinds: modelConnectionKind.options.map((k) => ({ value: k, label: kindLabel('model', k) })),
  fields: [
    {
      field: 'preset',
      label: 'Service',
      options: OPENAI_PRESETS.map((p) => ({ value: p.id, label: p.label })),
      when: isOpenAi,
    },
    NAME_FIELD,
    {
      field: 'base_url',
      label: 'Base URL',
      wide: true,
      placeholder: 'http://127.0.0.1:11434',
      required: true,
    },
    {
      ...OPTIONAL_KEY_FIELD,
      label: (f) => {
        const preset = presetOf(f.preset);
        return `API key${preset && !preset.needsKey ? ' (if the server asks for one)' : ''}`;
      },
      placeholder: (f) => keyPlaceholder(f, 'sk-…'),
      when: isOpenAi,
    },
  ],
  nothingToAdd: (f) =>
    f.kind === 'builtin'
      ? 'The built-in engine runs GGUF models inside this server with llama.cpp. There is nothing to add: it is always listed as “Built-in” under “This server’s connections”, and every GGUF file below is one of its models.'
      : null,
  outcome: (t) =>
    t.ok ? { ok: true, title: 'Connected', text: countedModels(t.models) } : failedOutcome(t, FAILURE_TITLES[t.reason]),
};
