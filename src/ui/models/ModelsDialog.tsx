// The Models dialog (docs/models.md): the server's own connections and the user's, each with its state and
// models; Add connection, Test, Save, edit and delete; Ollama pulls with their progress. It only draws the models
// chart's snapshot and sends its events.
import { AlertLine, DialogHeader } from '../common/DialogParts';
import { useSelector } from '@xstate/react';
import type { ModelsActorRef } from '../../machines/models.machine';
import {
  selectActionError,
  selectBuiltinModels,
  selectConnections,
  selectForm,
  selectIsDeleting,
  selectIsFormOpen,
  selectIsListLoading,
  selectListError,
  selectPendingDelete,
} from '../../machines/models.selectors';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ModalDialog } from '../common/ModalDialog';
import { BuiltinModels } from './BuiltinModels';
import { GetRealModelCard } from './GetRealModelCard';
import { ConnectionCard } from './ConnectionCard';
import { ConnectionForm } from './ConnectionForm';
import { SpeechConnections } from './SpeechConnections';
import { ToolServers } from './ToolServers';
import './models.css';

export function ModelsDialog({ models }: { models: ModelsActorRef }) {
  const connections = useSelector(models, selectConnections);
  const loading = useSelector(models, selectIsListLoading);
  const listError = useSelector(models, selectListError);
  const formOpen = useSelector(models, selectIsFormOpen);
  const actionError = useSelector(models, selectActionError);
  const pending = useSelector(models, selectPendingDelete);
  const deleting = useSelector(models, selectIsDeleting);
  const builtin = useSelector(models, selectBuiltinModels);
  const form = useSelector(models, selectForm);
  // The Built-in engine's files show once: in the form while 'Built-in' is the kind being added, else in its card.
  const builtinInForm = formOpen && form?.kind === 'builtin';
  const close = () => models.send({ type: 'models.close' });
  const mine = connections.filter((c) => !c.read_only);
  const server = connections.filter((c) => c.read_only);

  return (
    <ModalDialog labelledBy="models-title" onClose={close}>
      <div className="models-backdrop" onClick={close}>
        <div className="models-dialog" onClick={(e) => e.stopPropagation()}>
          <DialogHeader
            prefix="models-dialog"
            titleId="models-title"
            title="Models"
            lead={
              <>Connect the language models your agents speak with. Keys are stored encrypted and never shown again.</>
            }
            onClose={close}
          />
          <div className="models-dialog__body">
            {actionError && (
              <AlertLine
                className="models-alert"
                action="Dismiss"
                onAction={() => models.send({ type: 'models.error.dismiss' })}
              >
                {actionError}
              </AlertLine>
            )}
            {listError && (
              <AlertLine
                className="models-alert"
                action="Retry"
                onAction={() => models.send({ type: 'models.refresh' })}
              >
                The connections could not be loaded: {listError}
              </AlertLine>
            )}
            {!formOpen && <GetRealModelCard models={models} builtin={builtin} where="dialog" />}
            {formOpen ? (
              <ConnectionForm models={models}>
                {builtinInForm && builtin && <BuiltinModels actor={builtin} />}
              </ConnectionForm>
            ) : (
              <div className="models-toolbar">
                <button
                  type="button"
                  className="button button--primary"
                  data-autofocus
                  onClick={() => models.send({ type: 'models.add' })}
                >
                  Add connection
                </button>
                <button
                  type="button"
                  className="button"
                  onClick={() => models.send({ type: 'models.refresh' })}
                  disabled={loading}
                >
                  {loading ? 'Checking…' : 'Check again'}
                </button>
              </div>
            )}
            <section aria-labelledby="models-mine">
              <h3 id="models-mine" className="models-section-title">
                Your connections
              </h3>
              {mine.length === 0 && !loading && (
                <p className="models-empty">
                  None yet. Add a local Ollama (it runs on this machine at http://127.0.0.1:11434) or a hosted,
                  OpenAI-compatible service such as OpenAI, Groq or OpenRouter with its API key. Until then, agents
                  speak with the offline demo model.
                </p>
              )}
              {mine.map((c) => (
                <ConnectionCard key={c.id} models={models} connection={c} />
              ))}
            </section>
            <section aria-labelledby="models-server">
              <h3 id="models-server" className="models-section-title">
                This server’s connections <span className="models-section-note">set by its operator, read-only</span>
              </h3>
              {server.length === 0 && !loading && (
                <p className="models-empty">
                  The server has no model connection of its own; it offers the offline demo model.
                </p>
              )}
              {server.map((c) => (
                <ConnectionCard key={c.id} models={models} connection={c}>
                  {c.kind === 'builtin' && !builtinInForm && builtin ? <BuiltinModels actor={builtin} /> : null}
                </ConnectionCard>
              ))}
              <div className="models-card models-card--offline">
                <div className="models-card__head">
                  <strong>Offline demo</strong>
                  <span className="badge">Built in</span>
                </div>
                <p className="models-card__meta">
                  Short, rule-based replies with no language model: useful to try the app, not to discuss.
                </p>
              </div>
            </section>
            <SpeechConnections models={models} />
            <ToolServers models={models} />
          </div>
          {pending && (
            <ConfirmDialog
              message={
                pending.what === 'connection'
                  ? `Delete the connection "${pending.name}" and its stored key? Agents using its models will need another model.`
                  : `Delete the model ${pending.model} from this Ollama? Its files are removed from the Ollama server.`
              }
              confirmLabel="Delete"
              busy={deleting}
              onConfirm={() => models.send({ type: 'models.delete.confirm' })}
              onCancel={() => models.send({ type: 'models.delete.cancel' })}
            />
          )}
        </div>
      </div>
    </ModalDialog>
  );
}

export default ModelsDialog;
