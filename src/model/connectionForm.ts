// One connection form for every kind of outside server (docs/architecture.md 'One connections module'): a surface
// describes its form as data (title, kinds, fields, note, how a Test reads) and src/ui/models/ConnectionFormView.tsx
// draws every one of them the same way. Pure; each surface's descriptor lives with its form (modelsForm.ts,
// speechForm.ts, toolForm.ts).
import { API_KEY_MAX_BYTES, type ConnectionFailureKind } from '../schemas/connectionKinds';

/** What a descriptor reads of any form. */
export interface DescribedForm {
  mode: 'create' | 'edit';
  kind: string;
  name: string;
  keyHint: string | null;
}

export interface FieldSpec<F extends DescribedForm> {
  /** The form's field it shows and sets. */
  field: string & keyof F;
  label: string | ((f: F) => string);
  /** A select's choices; absent: a text input. */
  options?: ReadonlyArray<{ value: string; label: string }>;
  secret?: boolean;
  wide?: boolean;
  placeholder?: string | ((f: F) => string);
  required?: boolean;
  maxLength?: number;
  /** Shown only for some kinds; absent: always. */
  when?: (f: F) => boolean;
}

/** A Test's answer as the form shows it: a title, words, and (tools) a list of what was found. */
export interface TestOutcomeView {
  ok: boolean;
  title: string;
  text: string;
  items?: ReadonlyArray<{ name: string; description?: string }>;
}

export interface ConnectionFormDescriptor<F extends DescribedForm, T> {
  /** The form's heading, by mode. */
  title: (mode: F['mode']) => string;
  /** The form's accessible name. */
  label: (f: F) => string;
  /** The kinds a user picks from (disabled on edit); absent: no Kind field. */
  kinds?: ReadonlyArray<{ value: string; label: string }>;
  fields: ReadonlyArray<FieldSpec<F>>;
  note?: (f: F) => string | null;
  outcome: (t: T) => TestOutcomeView;
  /** A kind with nothing to fill in (the built-in engine): what it says instead of the fields and actions. */
  nothingToAdd?: (f: F) => string | null;
}

export const NAME_FIELD = { field: 'name', label: 'Name', required: true, maxLength: 60 } as const;
export const keyPlaceholder = (f: DescribedForm, blank = '') =>
  f.keyHint ? `Stored: ${f.keyHint} (leave empty to keep it)` : blank;
/** The key field of a server that may ask for one. */
export const OPTIONAL_KEY_FIELD = {
  field: 'api_key',
  label: 'API key (if the server asks for one)',
  secret: true,
  placeholder: (f: DescribedForm) => keyPlaceholder(f),
  maxLength: API_KEY_MAX_BYTES + 1,
} as const;

/** A Test that failed, in the same words on every surface (the model form names the reason, the others 'Failed'). */
export const failedOutcome = (t: { reason: ConnectionFailureKind; detail: string }, title = 'Failed') => ({
  ok: false,
  title,
  text: t.detail,
});

export const labelOf = <F extends DescribedForm>(s: FieldSpec<F>, f: F) =>
  typeof s.label === 'function' ? s.label(f) : s.label;
export const placeholderOf = <F extends DescribedForm>(s: FieldSpec<F>, f: F) =>
  typeof s.placeholder === 'function' ? s.placeholder(f) : s.placeholder;
