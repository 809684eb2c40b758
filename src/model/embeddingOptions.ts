import type { EmbeddingSettings } from '../schemas/sources';

// The choices of the Sources section's 'Search by meaning with' line (docs/sources.md): the embedding models of the
// person's connections, and the one chosen even when its name is not among them (a model picked before its
// connection was renamed stays shown, not silently replaced by 'Words only').

export const WORDS_ONLY = '';

export function embeddingOptions(s: EmbeddingSettings): { id: string; label: string }[] {
  const options = [{ id: WORDS_ONLY, label: 'Words only' }, ...s.candidates];
  if (s.model && !s.candidates.some((c) => c.id === s.model)) options.push({ id: s.model, label: s.label ?? s.model });
  return options;
}
