// The passage a citation stands on: its document, page and heading, and its text with the quoted sentence
// highlighted. Opened by a citation chip; Esc or Close closes it and the focus goes back to the chip.
import { useSelector } from '@xstate/react';
import type { SourcesActor } from '../../../machines/sources.machine';
import { highlight } from '../../../model/sourcesList';
import { ModalDialog } from '../../common/ModalDialog';

export function PassageDialog({ sources }: { sources: SourcesActor }) {
  const open = useSelector(sources, (s) => s.context.passage);
  const loading = useSelector(sources, (s) => s.matches({ passage: 'loading' }));
  if (!open) return null;
  const close = () => sources.send({ type: 'sources.passage.close' });
  const p = open.passage;
  const [before, quote, after] = p ? highlight(p.text, open.quote) : ['', '', ''];
  return (
    <ModalDialog labelledBy="passage-title" onClose={close}>
      <div className="passage-backdrop" onClick={close}>
        <div className="passage-dialog" onClick={(e) => e.stopPropagation()}>
          <div className="passage-dialog__head">
            <h2 id="passage-title">
              {open.sourceName}
              {p?.page ? <span className="passage-dialog__page">, p. {p.page}</span> : null}
            </h2>
            <button type="button" className="button button--small" data-autofocus onClick={close}>
              Close
            </button>
          </div>
          {loading && <p role="status">Opening the passage…</p>}
          {open.error && (
            <p className="sources__error" role="alert">
              The passage could not be opened: {open.error}
            </p>
          )}
          {p && (
            <>
              {p.heading && <h3 className="passage-dialog__heading">{p.heading}</h3>}
              <p className="passage-dialog__text">
                {before}
                {quote && <mark>{quote}</mark>}
                {after}
              </p>
            </>
          )}
        </div>
      </div>
    </ModalDialog>
  );
}
