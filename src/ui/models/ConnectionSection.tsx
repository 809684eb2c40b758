// One section of the Models dialog over a connections section chart (machines/kit/connectionSection.ts): its
// title, an error with Retry or Dismiss, Add (or the one connection form, drawn from the surface's descriptor), the
// user's connections then the server's own as cards, and Delete's question. The 'Speech' and 'Tools' sections are
// two uses of it; each brings its words and what its card says.
import { useSelector } from '@xstate/react';
import type { AnyActorRef, AnyEventObject } from 'xstate';
import type { ConnectionFormDescriptor, DescribedForm } from '../../model/connectionForm';
import type { SectionConnection, SectionContext } from '../../machines/kit/connectionSection';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ConnectionFormView, useConnectionForm } from './ConnectionFormView';

interface SectionSnapshot<C, F, T> {
  context: SectionContext<C, F, T>;
  hasTag(tag: string): boolean;
  can(event: AnyEventObject): boolean;
}
/** A section chart's actor as its view holds it. */
export type SectionActor<C, F, T> = Pick<AnyActorRef, 'subscribe'> & {
  getSnapshot(): SectionSnapshot<C, F, T>;
  send(event: AnyEventObject): void;
};

export interface SectionWords {
  /** The heading's id, its title and its quiet note. */
  id: string;
  title: string;
  note: string;
  /** 'speech connections', 'tool servers'. */
  plural: string;
  add: string;
  /** How a card is named: 'Speech connection Kokoro'. */
  card: string;
  /** What it says while none of the user's own is listed. */
  empty: string;
  deleteQuestion: (name: string) => string;
}

export interface ConnectionSectionProps<C extends SectionConnection, F extends DescribedForm, T> {
  actor: SectionActor<C, F, T>;
  /** The chart's event prefix ('speech', 'tools'). */
  prefix: string;
  descriptor: ConnectionFormDescriptor<F, T>;
  words: SectionWords;
  className: string;
  /** A card's inside; `actions` is Edit and Delete, for a connection the user owns (else null). */
  card: (c: C, actions: React.ReactNode) => React.ReactNode;
}

export function ConnectionSection<C extends SectionConnection, F extends DescribedForm, T>(
  p: ConnectionSectionProps<C, F, T>,
) {
  const { actor, prefix, words } = p;
  const send = (what: string, more: Record<string, unknown> = {}) => actor.send({ type: `${prefix}.${what}`, ...more });
  const connections = useSelector(actor, (s) => s.context.connections);
  const loading = useSelector(actor, (s) => s.hasTag('listLoading'));
  const listError = useSelector(actor, (s) => s.context.listError);
  const actionError = useSelector(actor, (s) => s.context.actionError);
  const formOpen = useSelector(actor, (s) => s.hasTag('formOpen'));
  const pending = useSelector(actor, (s) => s.context.pendingDelete);
  const deleting = useSelector(actor, (s) => s.hasTag('deleting'));
  const mine = connections.filter((c) => !c.read_only);
  const server = connections.filter((c) => c.read_only);

  return (
    <section aria-labelledby={words.id} className={p.className}>
      <h3 id={words.id} className="models-section-title">
        {words.title} <span className="models-section-note">{words.note}</span>
      </h3>
      {(listError || actionError) && (
        <div className="models-alert" role="alert">
          <span>{listError ? `The ${words.plural} could not be loaded: ${listError}` : actionError}</span>
          <button type="button" className="link-button" onClick={() => send(listError ? 'refresh' : 'error.dismiss')}>
            {listError ? 'Retry' : 'Dismiss'}
          </button>
        </div>
      )}
      {formOpen ? (
        <SectionForm actor={actor} prefix={prefix} descriptor={p.descriptor} />
      ) : (
        <div className="models-toolbar">
          <button type="button" className="button" onClick={() => send('add')}>
            {words.add}
          </button>
        </div>
      )}
      {loading && connections.length === 0 && <p className="models-empty">Checking the {words.plural}…</p>}
      {mine.length === 0 && !loading && !listError && <p className="models-empty">{words.empty}</p>}
      {[...mine, ...server].map((c) => (
        <article key={c.id} className="models-card" aria-label={`${words.card} ${c.name}`}>
          {p.card(
            c,
            c.read_only ? null : (
              <CardActions onEdit={() => send('edit', { id: c.id })} onDelete={() => send('delete', { id: c.id })} />
            ),
          )}
        </article>
      ))}
      {pending && (
        <ConfirmDialog
          message={words.deleteQuestion(pending.name)}
          confirmLabel="Delete"
          busy={deleting}
          onConfirm={() => send('delete.confirm')}
          onCancel={() => send('delete.cancel')}
        />
      )}
    </section>
  );
}

function SectionForm<F extends DescribedForm, T>(p: {
  actor: SectionActor<SectionConnection, F, T>;
  prefix: string;
  descriptor: ConnectionFormDescriptor<F, T>;
}) {
  const { actor, prefix } = p;
  const send = (what: string, more: Record<string, unknown> = {}) => actor.send({ type: `${prefix}.${what}`, ...more });
  const { form, ...state } = useConnectionForm(actor, prefix);
  if (!form) return null;
  return (
    <ConnectionFormView
      descriptor={p.descriptor}
      form={form}
      {...state}
      onKind={(kind) => send('form.kind', { kind })}
      onField={(field, value) => send('form.field', { field, value })}
      onSave={() => send('form.save')}
      onTest={() => send('form.test')}
      onCancel={() => send('form.cancel')}
    />
  );
}

function CardActions({ onEdit, onDelete }: { onEdit: () => void; onDelete: () => void }) {
  return (
    <span className="models-card__actions">
      <button type="button" className="button button--small" onClick={onEdit}>
        Edit
      </button>
      <button type="button" className="button button--small button--danger" onClick={onDelete}>
        Delete
      </button>
    </span>
  );
}
