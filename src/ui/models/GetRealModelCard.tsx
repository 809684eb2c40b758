// 'Get a real model': while only the offline demo answers, the ways to a real one, in order — the built-in model
// that suits this server's memory, a local Ollama (with the `ollama pull` to run), or a hosted model's API key.
// In the Models dialog (with the built-in actor) the first way is a Download button; a failed download says so beside
// it and its reason once, in the download's row;
// in the panel each way opens the dialog at the right place.
import { useSelector } from '@xstate/react';
import type { BuiltinModelsActorRef } from '../../machines/builtinModels.machine';
import * as bsel from '../../machines/builtinModels.selectors';
import type { ModelsActorRef } from '../../machines/models.machine';
import { selectOnlyOffline, selectShowConnectHint } from '../../machines/models.selectors';
import type { RecommendedModel } from '../../schemas/builtinModels';
import type { ModelConnectionKind } from '../../schemas/modelConnections';
import { formatBytes } from './BuiltinModels';
import './models.css';

export const FIT_WORDS: Record<NonNullable<RecommendedModel['fit']>, string> = {
  fits: 'Fits',
  may_be_slow: 'May be slow',
  too_big: 'Too big',
};
const OLLAMA_PULL = 'ollama pull qwen3:1.7b';

export function GetRealModelCard({
  models,
  builtin,
  where,
}: {
  models: ModelsActorRef | undefined;
  builtin?: BuiltinModelsActorRef;
  where: 'panel' | 'dialog';
}) {
  const show = useSelector(models, (s) =>
    s ? (where === 'panel' ? selectShowConnectHint(s) : selectOnlyOffline(s)) : false,
  );
  const hasBuiltin = useSelector(models, (s) => !!s?.context.connections.some((c) => c.kind === 'builtin'));
  if (!models || !show) return null;
  const open = (kind: ModelConnectionKind | null) => {
    models.send({ type: 'models.open' });
    if (kind) models.send({ type: 'models.add', kind });
  };
  const ways = (
    <ol className="real-model__ways">
      {hasBuiltin && (
        <li>
          {builtin ? (
            <SuggestedBuiltin actor={builtin} />
          ) : (
            <>
              <span>Download a built-in model that fits this server’s memory.</span>
              <button type="button" className="button button--small button--primary" onClick={() => open(null)}>
                Choose a built-in model
              </button>
            </>
          )}
        </li>
      )}
      <li>
        <span>
          Connect an Ollama: install it, run <code>{OLLAMA_PULL}</code>, then add its address.
        </span>
        <button type="button" className="button button--small" onClick={() => open('ollama')}>
          Connect Ollama
        </button>
      </li>
      <li>
        <span>Use a hosted model (Groq, OpenAI, OpenRouter…) with its API key.</span>
        <button type="button" className="button button--small" onClick={() => open('openai')}>
          Add an API key
        </button>
      </li>
    </ol>
  );
  if (where === 'panel') {
    // In the panel it folds to one line, so the start form keeps its place; the dialog shows it open.
    return (
      <section className="real-model real-model--panel" role="note" aria-label="Model status">
        <details className="real-model__fold">
          <summary>
            <strong>Get a real model</strong>: only the offline demo is answering (rule-based replies).
          </summary>
          {ways}
        </details>
        <p className="real-model__later">
          <button type="button" className="link-button" onClick={() => open(null)}>
            Connect a model
          </button>
          {' · '}
          <button type="button" className="link-button" onClick={() => models.send({ type: 'models.hint.dismiss' })}>
            Not now
          </button>
        </p>
      </section>
    );
  }
  return (
    <section className="real-model real-model--dialog" role="note" aria-label="Model status">
      <h3 className="real-model__title">Get a real model</h3>
      <p className="real-model__lead muted">
        No model but the offline demo is answering; it writes rule-based replies. Any of these gives the agents a
        language model:
      </p>
      {ways}
    </section>
  );
}

export function SuggestedBuiltin({ actor }: { actor: BuiltinModelsActorRef }) {
  const m = useSelector(actor, bsel.selectSuggested);
  const busy = useSelector(actor, bsel.selectBusy);
  const dir = useSelector(actor, bsel.selectDir);
  const error = useSelector(actor, (s) => (m ? bsel.selectDownloadError(s, m.file) : null));
  if (!m)
    return (
      <span>
        No built-in model fits this server’s free memory;{' '}
        {/* The folder is the operator's (the list names it to them only); anyone else asks them. */}
        {dir ? `put a .gguf file in ${dir}, then Refresh.` : 'ask the server’s operator to add a model file.'}
      </span>
    );
  return (
    <>
      <span>
        Download <strong>{m.label}</strong>, recommended for this server: {formatBytes(m.bytes)}, needs about{' '}
        {formatBytes(m.ram_bytes)} of memory
        {m.fit ? ` (${FIT_WORDS[m.fit]})` : ''}, {m.licence}.
      </span>
      {m.status === 'installed' ? (
        <span className="muted">Downloaded: choose it in an agent’s Model.</span>
      ) : (
        <button
          type="button"
          className="button button--small button--primary"
          disabled={busy || m.status === 'downloading'}
          aria-label={`Download ${m.label}`}
          onClick={() => actor.send({ type: 'download.start', request: { url: m.url, file: m.file } })}
        >
          {m.status === 'downloading' ? 'Downloading…' : 'Download'}
        </button>
      )}
      {/* The reason is said once, in the download's own row under Downloads (BuiltinModels.tsx). */}
      {error && (
        <p className="field__error real-model__error" role="alert">
          The download failed: its reason is under Built-in engine, Downloads.
        </p>
      )}
      <span className="field__hint">
        No internet on the server? Put a .gguf file in {dir}, then{' '}
        <button type="button" className="link-button" onClick={() => actor.send({ type: 'models.reload' })}>
          Refresh
        </button>
        .
      </span>
    </>
  );
}
