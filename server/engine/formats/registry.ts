import type { FormatDefinition } from './definition';
import type { FormatPlan } from './formatPlan';

// The formats by kind. index.ts registers the four the product has (FORMATS); a test registers a fifth the same
// way. Kept apart from index.ts so the shared steps can look a definition up without importing every format.

const formats = new Map<string, FormatDefinition<FormatPlan>>();

// biome-ignore lint/suspicious/noExplicitAny: a definition is written for its own plan; the registry forgets which.
export function registerFormat(definition: FormatDefinition<any>): void {
  formats.set(definition.kind, definition as FormatDefinition<FormatPlan>);
}

/** The definition of a plan's format (or of a kind). */
export function definitionOf(f: { kind: string } | string): FormatDefinition<FormatPlan> {
  const kind = typeof f === 'string' ? f : f.kind;
  const definition = formats.get(kind);
  if (!definition) throw new Error(`no format '${kind.slice(0, 60)}' is registered`);
  return definition;
}

/** The format decides itself when the discussion ends (no format, or one that does not: rounds and stages do). */
export const endsItself = (f: { kind: string } | null | undefined) => !!f && definitionOf(f).endsItself;
