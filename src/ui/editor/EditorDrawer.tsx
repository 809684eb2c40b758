// The 450 px agent editor drawer. It draws one editor actor (spawned by the workspace) and sends it events.
import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { useDialogFocus } from '../common/focus';
import type { EditorActorRef } from '../../machines/editor.machine';
import * as sel from '../../machines/editor.selectors';
import { DRAWER_WIDTH_PX } from '../../schemas/constants';
import { AgentForm } from './AgentForm';
import { AudioSection } from './AudioSection';
import { KnowledgeSection } from './KnowledgeSection';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { DismissibleMessage } from '../common/DismissibleMessage';
import { OverviewBox } from './OverviewBox';
import { TipsBox } from './TipsBox';
import { VoiceField } from './VoiceField';
import { ToolsSection } from './ToolsSection';
import { CloseIcon, TrashIcon } from '../common/icons';
import './editor.css';

export function EditorDrawer({ editor }: { editor: EditorActorRef }) {
  const mode = useSelector(editor, sel.selectMode);
  const heading = useSelector(editor, sel.selectAgentHeading);
  const loading = useSelector(editor, sel.selectIsLoading);
  const loadError = useSelector(editor, sel.selectLoadError);
  const formError = useSelector(editor, sel.selectFormError);
  const created = useSelector(editor, sel.selectWasCreated);
  const agent = useSelector(editor, (s) => s.context.agent);
  const confirming = useSelector(editor, sel.selectIsConfirmingDelete);
  const deleting = useSelector(editor, sel.selectIsDeleting);
  const confirmation = useSelector(editor, sel.selectDeleteConfirmation);
  const saving = useSelector(editor, sel.selectIsSaving);

  const close = () => editor.send({ type: 'editor.close' });
  const root = useRef<HTMLDivElement>(null);
  // Esc closes the editor wherever the focus is (after Update Agent too), unless a modal above it takes Esc.
  useDialogFocus(root, close);
  const title = mode === 'create' ? 'Create Agent' : `Edit ${heading.name}`;

  return (
    <div
      ref={root}
      className="agora-editor"
      role="dialog"
      aria-modal="false"
      aria-label={title}
      style={{ width: DRAWER_WIDTH_PX }}
    >
      <div className="agora-editor-header">
        <div>
          <h2>{title}</h2>
          {mode === 'edit' && heading.role && <p className="agora-muted">{heading.role}</p>}
        </div>
        <button type="button" className="agora-editor-close" onClick={close} aria-label="Close editor" title="Close">
          <CloseIcon size={18} />
        </button>
      </div>

      <div className="agora-editor-body">
        {loading && (
          <p className="agora-muted" role="status">
            Loading agent…
          </p>
        )}
        {loadError && (
          <div className="agora-inline-error" role="alert">
            <p>{loadError}</p>
            <button
              type="button"
              className="button button--small"
              onClick={() => editor.send({ type: 'editor.retry' })}
            >
              Retry
            </button>
          </div>
        )}
        {formError && (
          <DismissibleMessage
            tone="error"
            onDismiss={() => editor.send({ type: 'editor.dismissError' })}
            dismissLabel="Dismiss error"
          >
            {formError}
          </DismissibleMessage>
        )}
        {saving && (
          <p className="agora-muted" role="status">
            Saving…
          </p>
        )}
        {created && (
          <p className="agora-inline-notice" role="status">
            Agent created.
          </p>
        )}

        {!loading && !loadError && <AgentForm editor={editor} />}
        {mode === 'create' && <TipsBox />}
        {mode === 'edit' && !loading && !loadError && (
          <>
            <OverviewBox agent={agent} />
            <button
              type="button"
              className="button button--danger agora-editor-delete"
              onClick={() => editor.send({ type: 'editor.delete' })}
              disabled={deleting || saving}
            >
              <TrashIcon size={15} />
              {deleting ? 'Deleting…' : 'Delete Agent'}
            </button>
          </>
        )}
        {!loading && <AudioSection editor={editor} />}
        {!loading && !loadError && <VoiceField editor={editor} />}
        {!loading && !loadError && <KnowledgeSection editor={editor} />}
        {!loading && !loadError && <ToolsSection editor={editor} />}
      </div>

      {(confirming || deleting) && (
        <ConfirmDialog
          message={confirmation}
          confirmLabel="Delete agent"
          busy={deleting}
          onConfirm={() => editor.send({ type: 'editor.delete.confirm' })}
          onCancel={() => editor.send({ type: 'editor.delete.cancel' })}
        />
      )}
    </div>
  );
}
