// The panel's 'Sources' section (docs/sources.md): the person's documents, which of them the next discussion reads
// (ticked), 'Add sources' (a file input, and files dropped anywhere on the section), 'Add a web page', the file
// being read with its upload's progress, a failure said with the file's name, and Remove. Draws the sources
// chart's snapshot and sends its events; nothing else. During a run it shows once there are sources (a slimmer
// line), and says that what is added or ticked then is read by the running discussion from its next turn (the
// sources chart tells the running panel).
import { useSelector } from '@xstate/react';
import { useId, useRef, useState, type DragEvent, type FormEvent } from 'react';
import type { SourcesActor } from '../../../machines/sources.machine';
import { EmbeddingChoice } from './EmbeddingChoice';
import { SOURCE_FILE_ACCEPT, sourceFacts, sourceSearched } from '../../../model/sourcesList';

export function SourcesSection({
  sources,
  disabled = false,
  running = false,
}: {
  sources: SourcesActor;
  disabled?: boolean;
  running?: boolean;
}) {
  const list = useSelector(sources, (s) => s.context.sources);
  const attached = useSelector(sources, (s) => s.context.attached);
  const listState = useSelector(sources, (s) =>
    s.matches({ list: 'loading' }) ? 'loading' : s.matches({ list: 'failed' }) ? 'failed' : 'ready',
  );
  const listError = useSelector(sources, (s) => s.context.listError);
  const adding = useSelector(sources, (s) => (s.hasTag('adding') ? (s.context.queue[0]?.name ?? null) : null));
  const waiting = useSelector(sources, (s) => Math.max(0, s.context.queue.length - 1));
  const progress = useSelector(sources, (s) => s.context.progress);
  const addError = useSelector(sources, (s) => s.context.addError);
  const removing = useSelector(sources, (s) => s.hasTag('removing'));
  const [url, setUrl] = useState('');
  const [dragging, setDragging] = useState(false);
  // Folded to one line until opened (or while a file is dropped on it), so the feed keeps its room.
  const [open, setOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = useId();

  const addFiles = (files: FileList | null) => {
    if (files?.length) sources.send({ type: 'sources.add.files', files: [...files] });
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    addFiles(e.dataTransfer.files);
  };
  // During a run the feed needs the room (the layout budget at 1024×700 and 768×1024): the section shows only once
  // there are sources to tick, as a slimmer line; the first source is added before the run.
  if (running && listState === 'ready' && list.length === 0 && !adding) return null;

  const addUrl = (e: FormEvent) => {
    e.preventDefault();
    if (!url.trim()) return;
    sources.send({ type: 'sources.add.url', url });
    setUrl('');
  };

  return (
    <details
      className={`sources${running ? ' sources--running' : ''}${dragging ? ' sources--dragging' : ''}`}
      open={open}
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
        setOpen(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <summary className="sources__title">
        Sources
        <span className="sources__count">
          {list.length === 0
            ? ' · none yet'
            : running
              ? ` · ${attached.length} of ${list.length} ticked`
              : ` · ${attached.length} of ${list.length} read by the agents`}
        </span>
      </summary>
      {running ? (
        <p className="sources__hint sources__hint--running">
          What you add or tick now is read by the running discussion from its next turn.
        </p>
      ) : (
        <p className="sources__hint">
          Agents read the sources you tick and cite the passages they rely on. Drop files here, or add them below.
        </p>
      )}

      <EmbeddingChoice sources={sources} disabled={disabled} />

      <div className="sources__add">
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={SOURCE_FILE_ACCEPT}
          className="visually-hidden"
          id={`${ids}-file`}
          onChange={(e) => {
            addFiles(e.target.files);
            e.target.value = '';
          }}
          disabled={disabled}
        />
        <button
          type="button"
          className="button button--small"
          onClick={() => fileInput.current?.click()}
          disabled={disabled}
        >
          Add sources
        </button>
        <form className="sources__url" onSubmit={addUrl}>
          <label htmlFor={`${ids}-url`} className="visually-hidden">
            A web page's address
          </label>
          <input
            id={`${ids}-url`}
            type="url"
            inputMode="url"
            placeholder="https://… a web page"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            disabled={disabled}
          />
          <button type="submit" className="button button--small" disabled={disabled || !url.trim()}>
            Add a web page
          </button>
        </form>
      </div>

      {adding && (
        <div className="sources__progress" role="status">
          <span>
            {progress === null ? 'Reading' : 'Uploading'} {adding}
            {waiting > 0 ? ` (${waiting} more waiting)` : ''}…
          </span>
          {progress === null ? (
            <progress aria-label={`Reading ${adding}`} />
          ) : (
            <progress aria-label={`Uploading ${adding}`} value={progress} max={1} />
          )}
        </div>
      )}
      {addError && (
        <div className="sources__error" role="alert">
          <span>
            <strong>{addError.name}</strong> was not added: {addError.message}
          </span>
          <button
            type="button"
            className="button button--small"
            onClick={() => sources.send({ type: 'sources.add.dismiss' })}
          >
            Dismiss
          </button>
        </div>
      )}

      {listState === 'loading' && list.length === 0 && <p className="sources__empty">Loading your sources…</p>}
      {listState === 'failed' && (
        <p className="sources__error" role="alert">
          Your sources could not be loaded: {listError}{' '}
          <button
            type="button"
            className="button button--small"
            onClick={() => sources.send({ type: 'sources.refresh' })}
          >
            Try again
          </button>
        </p>
      )}
      {listState === 'ready' && list.length === 0 && !adding && (
        <p className="sources__empty">
          No sources yet. Add a PDF, Word, Markdown or text file, or a web page, and the agents will quote it.
        </p>
      )}
      {list.length > 0 && (
        <ul className="sources__list">
          {list.map((s) => (
            <li key={s.id} className="sources__item">
              <label className="sources__pick">
                <input
                  type="checkbox"
                  checked={attached.includes(s.id)}
                  onChange={(e) => sources.send({ type: 'sources.attach', id: s.id, on: e.target.checked })}
                  disabled={disabled}
                />
                <span className="sources__name" title={s.name}>
                  {s.name}
                </span>
              </label>
              <span className="sources__facts" title={s.embedding_note ?? undefined}>
                {sourceFacts(s)}
                {sourceSearched(s) && <span className="sources__searched">{sourceSearched(s)}</span>}
              </span>
              <button
                type="button"
                className="button button--small button--quiet"
                aria-label={`Remove ${s.name}`}
                onClick={() => sources.send({ type: 'sources.remove', id: s.id })}
                disabled={removing}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
