// The Sources section's 'Search by meaning with [Words only | connection · model]' line (docs/sources.md): the
// model passages are embedded with, saved through the sources chart; a model that cannot embed is refused by the
// server with a sentence, shown under the select. Without pgvector on the server it says so and offers nothing.
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { SourcesActor } from '../../../machines/sources.machine';
import { WORDS_ONLY, embeddingOptions } from '../../../model/embeddingOptions';

export function EmbeddingChoice({ sources, disabled = false }: { sources: SourcesActor; disabled?: boolean }) {
  const settings = useSelector(sources, (s) => s.context.embedding);
  const error = useSelector(sources, (s) => s.context.embeddingError);
  const saving = useSelector(sources, (s) => s.context.embeddingSaving);
  const failed = useSelector(sources, (s) => s.matches({ embedding: 'failed' }));
  const id = useId();

  if (failed)
    return <p className="sources__meaning sources__meaning--note">Search by meaning could not be read: {error}</p>;
  if (!settings) return null;
  if (!settings.available)
    return <p className="sources__meaning sources__meaning--note">Search by meaning needs pgvector on this server.</p>;
  const options = embeddingOptions(settings);
  return (
    <div className="sources__meaning">
      <label htmlFor={id}>Search by meaning with</label>
      <select
        id={id}
        value={saving ?? settings.model ?? WORDS_ONLY}
        disabled={disabled || saving !== null}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) =>
          sources.send({
            type: 'sources.embedding.choose',
            model: e.target.value === WORDS_ONLY ? null : e.target.value,
          })
        }
      >
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
      {saving !== null && (
        <span className="sources__meaning-busy" role="status">
          {saving === WORDS_ONLY ? 'Saving…' : 'Checking that it embeds…'}
        </span>
      )}
      {options.length === 1 && saving === null && (
        <p className="sources__meaning-hint">
          No embedding model among your connections: add one (nomic-embed-text on Ollama, text-embedding-3-small…) in
          Models.
        </p>
      )}
      {error && (
        <p className="sources__meaning-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
