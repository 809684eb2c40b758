// The editor's 'Knowledge' section (docs/sources.md): the person's sources with a tick each for the ones only this
// agent reads, and 'Add sources', read by the same sources chart as the panel's section and ticked here when read.
// The ticks are the editor chart's (saved with Update Agent as the agent's `source_ids`); the list, the file being
// read and a refusal come from the sources chart.
import { useSelector } from '@xstate/react';
import { useContext, useId, useRef } from 'react';
import { selectSources } from '../../machines/app.selectors';
import type { EditorActorRef } from '../../machines/editor.machine';
import type { SourcesActor } from '../../machines/sources.machine';
import { knowledgeBody } from '../../model/agentKnowledge';
import { SOURCE_FILE_ACCEPT, sourceFacts } from '../../model/sourcesList';
import { AppActorContext } from '../AppContext';
import './knowledge.css';

export function KnowledgeSection({ editor }: { editor: EditorActorRef }) {
  const app = useContext(AppActorContext);
  const sources = useSelector(app ?? undefined, (s) => (s ? (selectSources(s) ?? null) : null));
  const mode = useSelector(editor, (s) => s.context.mode);
  if (mode === 'create')
    return (
      <section className="agora-editor-box agora-knowledge" aria-label="Knowledge">
        <h3>Knowledge</h3>
        <p className="agora-hint">Save the agent first; then choose the sources only it reads.</p>
      </section>
    );
  return sources ? <KnowledgeBox editor={editor} sources={sources} /> : null;
}

function KnowledgeBox({ editor, sources }: { editor: EditorActorRef; sources: SourcesActor }) {
  const list = useSelector(sources, (s) => s.context.sources);
  const loading = useSelector(sources, (s) => s.matches({ list: 'loading' }));
  const listError = useSelector(sources, (s) => s.context.listError);
  const reading = useSelector(sources, (s) => (s.hasTag('adding') ? (s.context.queue[0]?.name ?? null) : null));
  const addError = useSelector(sources, (s) => s.context.addError);
  const ticked = useSelector(editor, (s) => s.context.sourceIds);
  const unsaved = useSelector(editor, (s) => 'source_ids' in knowledgeBody(s.context.agent, s.context.sourceIds));
  const locked = useSelector(editor, (s) => s.hasTag('saving'));
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();

  return (
    <section className="agora-editor-box agora-knowledge" aria-label="Knowledge">
      <h3>Knowledge</h3>
      <p className="agora-hint">
        Sources only this agent reads, besides those the discussion gives every agent. Saved with Update Agent.
      </p>
      {loading && list.length === 0 && <p className="agora-muted">Loading your sources…</p>}
      {listError && (
        <p className="agora-inline-error" role="alert">
          Your sources could not be loaded: {listError}
        </p>
      )}
      {!loading && !listError && list.length === 0 && !reading && (
        <p className="agora-muted">No sources yet. Add a PDF, Word, Markdown or text file for this agent to read.</p>
      )}
      {list.length > 0 && (
        <ul className="agora-knowledge-list">
          {list.map((s) => (
            <li key={s.id}>
              <label>
                <input
                  type="checkbox"
                  checked={ticked.includes(s.id)}
                  disabled={locked}
                  onChange={(e) => editor.send({ type: 'editor.knowledge.toggle', id: s.id, on: e.target.checked })}
                />
                <span className="agora-knowledge-name" title={s.name}>
                  {s.name}
                </span>
              </label>
              <span className="agora-knowledge-facts">{sourceFacts(s)}</span>
            </li>
          ))}
        </ul>
      )}
      {reading && (
        <p className="agora-muted" role="status">
          Reading {reading}…
        </p>
      )}
      {addError && (
        <p className="agora-inline-error" role="alert">
          <strong>{addError.name}</strong> was not added: {addError.message}
        </p>
      )}
      <div className="agora-knowledge-actions">
        <input
          ref={fileInput}
          id={fileId}
          type="file"
          multiple
          accept={SOURCE_FILE_ACCEPT}
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Add sources for this agent"
          onChange={(e) => {
            const files = e.target.files;
            if (files?.length) editor.send({ type: 'editor.knowledge.add', files: [...files] });
            e.target.value = '';
          }}
        />
        <button type="button" className="button button--small" onClick={() => fileInput.current?.click()}>
          Add sources
        </button>
        {unsaved && <span className="agora-hint">Not saved yet</span>}
      </div>
    </section>
  );
}
