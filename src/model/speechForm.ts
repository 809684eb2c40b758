// The speech connection form (README 'Voices'): a blank or filled form and the bodies it becomes for Test and Save.
// Pure; the chart is src/machines/speechConnections.machine.ts.
import {
  SPEECH_KIND_LABELS,
  type SpeechConnection,
  type SpeechConnectionCreate,
  type SpeechConnectionTestBody,
  type SpeechConnectionTestResult,
  type SpeechConnectionUpdate,
  type UserSpeechKind,
} from '../schemas/speechConnections';
import { type ConnectionFormDescriptor, failedOutcome, NAME_FIELD, OPTIONAL_KEY_FIELD } from './connectionForm';

export type SpeechFormKind = UserSpeechKind;
export interface SpeechForm {
  mode: 'create' | 'edit';
  id: string | null;
  kind: SpeechFormKind;
  name: string;
  base_url: string;
  model: string;
  /** Typed in this form only; an edit that leaves it empty keeps the stored key. */
  api_key: string;
  keyHint: string | null;
}
export type SpeechFormField = 'name' | 'base_url' | 'model' | 'api_key';

/** Where each kind usually runs: the Chatterbox TTS API's port 4123, Kokoro-FastAPI's 8880. */
export const SPEECH_DEFAULTS: Record<SpeechFormKind, { name: string; base_url: string; model: string }> = {
  chatterbox: { name: 'Chatterbox', base_url: 'http://127.0.0.1:4123', model: '' },
  openai: { name: 'Kokoro', base_url: 'http://127.0.0.1:8880', model: 'kokoro' },
};

export function blankSpeechForm(kind: SpeechFormKind): SpeechForm {
  return { mode: 'create', id: null, kind, ...SPEECH_DEFAULTS[kind], api_key: '', keyHint: null };
}

export function speechFormFrom(c: SpeechConnection): SpeechForm {
  return {
    mode: 'edit',
    id: c.id,
    kind: c.kind === 'chatterbox' ? 'chatterbox' : 'openai',
    name: c.name,
    base_url: c.base_url,
    model: c.model ?? '',
    api_key: '',
    keyHint: c.api_key_hint,
  };
}

export const isSpeechFormUsable = (f: SpeechForm | null) =>
  !!f && f.name.trim() !== '' && /^https?:\/\/\S+$/.test(f.base_url.trim());

export function speechTestBody(f: SpeechForm): SpeechConnectionTestBody {
  return {
    kind: f.kind,
    base_url: f.base_url.trim(),
    ...(f.api_key ? { api_key: f.api_key } : {}),
    ...(f.id ? { id: f.id } : {}),
  };
}

export function speechSaveBody(f: SpeechForm): SpeechConnectionCreate | SpeechConnectionUpdate {
  const common = { name: f.name.trim(), base_url: f.base_url.trim(), model: f.model.trim() || null };
  if (f.mode === 'create') return { kind: f.kind, ...common, ...(f.api_key ? { api_key: f.api_key } : {}) };
  return { ...common, ...(f.api_key ? { api_key: f.api_key } : {}) };
}

/** The speech form as the one connection form draws it (connectionForm.ts). */
export const SPEECH_FORM: ConnectionFormDescriptor<SpeechForm, SpeechConnectionTestResult> = {
  title: (mode) => (mode === 'create' ? 'Add speech connection' : 'Edit speech connection'),
  label: (f) => (f.mode === 'create' ? 'Add speech connection' : `Edit ${f.name}`),
  kinds: (['chatterbox', 'openai'] as const).map((k) => ({ value: k, label: SPEECH_KIND_LABELS[k] })),
  fields: [
    NAME_FIELD,
    { field: 'base_url', label: 'Base URL', wide: true, required: true },
    { field: 'model', label: 'Model (tts-1, kokoro…)', placeholder: 'tts-1', when: (f) => f.kind === 'openai' },
    OPTIONAL_KEY_FIELD,
  ],
  note: (f) =>
    f.kind === 'chatterbox'
      ? 'The Chatterbox TTS API clones a voice from a few seconds of a recording (README “Voices”: it runs next to Agora on port 4123).'
      : 'OpenAI, openedai-speech or Kokoro-FastAPI: agents pick one of the server’s voices.',
  outcome: (t) => (t.ok ? { ok: true, title: 'Connected', text: `It ${t.summary}.` } : failedOutcome(t)),
};

/** The form's rules, as the connections section chart takes them (machines/kit/connectionSection.ts). */
export const SPEECH_FORM_RULES = {
  id: 'speechConnections',
  prefix: 'speech' as const,
  blank: blankSpeechForm,
  from: speechFormFrom,
  usable: isSpeechFormUsable,
  testBody: speechTestBody,
  saveBody: speechSaveBody,
  firstKind: 'chatterbox' as SpeechFormKind,
  /** Types only (never read): the Test answer's type. */
  testResult: undefined as SpeechConnectionTestResult | undefined,
};
