// Add or edit a model connection: the one connection form (ConnectionFormView.tsx) drawn from the model form's
// descriptor (Kind with the OpenAI-compatible presets, Name, Base URL, API key); Test lists the models found or says
// what failed; Save. Every keystroke is an event; the Models chart keeps the fields.
import type { FormField, FormKind, ModelsActorRef } from '../../machines/models.machine';
import { MODEL_FORM } from '../../model/modelsForm';
import { ConnectionFormView, useConnectionForm } from './ConnectionFormView';

/** `children`: what the 'Built-in' kind shows after the form (the engine's files section). */
export function ConnectionForm({ models, children }: { models: ModelsActorRef; children?: React.ReactNode }) {
  const { form, ...state } = useConnectionForm(models, 'models');
  if (!form) return null;
  return (
    <ConnectionFormView
      descriptor={MODEL_FORM}
      form={form}
      {...state}
      onKind={(kind) => models.send({ type: 'models.form.kind', kind: kind as FormKind })}
      // The preset is more than a field: it brings its address and name.
      onField={(field, value) =>
        models.send(
          field === 'preset'
            ? { type: 'models.form.preset', preset: value }
            : { type: 'models.form.field', field: field as FormField, value },
        )
      }
      onSave={() => models.send({ type: 'models.form.save' })}
      onTest={() => models.send({ type: 'models.form.test' })}
      onCancel={() => models.send({ type: 'models.form.cancel' })}
    >
      {children}
    </ConnectionFormView>
  );
}
