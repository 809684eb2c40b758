import { NEW_OPTION_ID, OPTION_LABEL_MAX } from '../../../src/schemas/constants';
import type { DiscussionRecord } from '../record';

// The constrained part of a turn's answer: the option the agent holds, named by id from the current list or
// proposed anew. The JSON Schema lists the ids as an enum, so a model that follows schemas (the built-in engine
// through its grammar, Ollama's `format`) cannot name an option that does not exist.

export const POSITION_INSTRUCTION =
  `Also give position (the answer you now hold, at most ${OPTION_LABEL_MAX} characters), option_id (its id from ` +
  `the options on the table, or "${NEW_OPTION_ID}" to propose a new one) and, if you changed your position, moved_by ` +
  '(the argument or evidence you heard that changed it).';

/** The options on the table, as the user prompt lists them; empty when there are none yet. */
export function optionsText(record: DiscussionRecord, own: string | null | undefined): string {
  const options = record.options?.options ?? [];
  if (!options.length) return '';
  const lines = options.map((o) => `- ${o.id}: ${o.label}${o.id === own ? ' (your current position)' : ''}`);
  return `Options on the table (name one by its id, or "${NEW_OPTION_ID}" for a new one):\n${lines.join('\n')}`;
}

const cache = new Map<string, Record<string, unknown>>();
const CACHE_MAX = 32;

/** `base` (the turn answer's JSON Schema) with position and option_id required and the ids as an enum. */
export function withOptionSchema(base: Record<string, unknown>, ids: readonly string[]): Record<string, unknown> {
  const key = ids.join('\u0000');
  const hit = cache.get(key);
  if (hit) return hit;
  const props = (base.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(base.required) ? (base.required as string[]) : [];
  const schema = {
    ...base,
    properties: {
      ...props,
      position: { type: 'string', minLength: 1, maxLength: OPTION_LABEL_MAX, description: 'The answer you now hold' },
      option_id: { type: 'string', enum: [...ids, NEW_OPTION_ID], description: 'Its id on the list, or new' },
    },
    required: [...required.filter((k) => k !== 'position' && k !== 'option_id'), 'position', 'option_id'],
  };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, schema);
  return schema;
}
