// The Models dialog's 'Speech' section (README 'Voices'): the speech servers agents speak through, each with what it
// can do ('lists 12 voices · can clone'), and the form to add one with Test and Save. It draws the
// speechConnections chart (a child of the models chart while the dialog is open) through the one connections
// section (ConnectionSection.tsx) and the speech form's descriptor.
import { useSelector } from '@xstate/react';
import type { ModelsActorRef } from '../../machines/models.machine';
import type { SpeechConnectionsActorRef } from '../../machines/speechConnections.machine';
import { SPEECH_FORM } from '../../model/speechForm';
import { SPEECH_KIND_LABELS, type SpeechConnection } from '../../schemas/speechConnections';
import { ConnectionSection, type SectionWords } from './ConnectionSection';
import { ConnectionStatePill, connectionProblem } from './ConnectionStatePill';

const WORDS: SectionWords = {
  id: 'models-speech',
  title: 'Speech',
  note: 'the voices agents speak with',
  plural: 'speech connections',
  add: 'Add speech connection',
  card: 'Speech connection',
  empty:
    'None of your own yet. Add a voice-cloning server (Chatterbox TTS API) to let each agent speak in a voice cloned from its reference recording, or an OpenAI-compatible speech server (Kokoro-FastAPI, openedai-speech, OpenAI) for its stock voices.',
  deleteQuestion: (name) =>
    `Delete the speech connection "${name}" and its stored key? Agents speaking through it go back to the server’s default speech, and voices cloned there are deleted from it.`,
};

export function SpeechConnections({ models }: { models: ModelsActorRef }) {
  const actor = useSelector(models, (s) => s.children.speechConnections as SpeechConnectionsActorRef | undefined);
  return actor ? (
    <ConnectionSection
      actor={actor}
      prefix="speech"
      descriptor={SPEECH_FORM}
      words={WORDS}
      className="speech-section"
      card={(c, actions) => <SpeechCard c={c} actions={actions} />}
    />
  ) : null;
}

function SpeechCard({ c, actions }: { c: SpeechConnection; actions: React.ReactNode }) {
  const reason = connectionProblem(c.status);
  return (
    <>
      <div className="models-card__head">
        <strong className="models-card__name">{c.name}</strong>
        <span className="badge badge--info">{SPEECH_KIND_LABELS[c.kind]}</span>
        <ConnectionStatePill status={c.status} />
        {actions}
      </div>
      <p className="models-card__meta">
        <span className="models-card__url">{c.base_url}</span>
        {c.model && <span> · model {c.model}</span>}
        {c.api_key_hint && <span> · key {c.api_key_hint}</span>}
      </p>
      {reason ? <p className="models-card__reason">{reason}</p> : <p className="models-card__meta">It {c.summary}.</p>}
      {c.voices.length > 0 && (
        <p className="models-card__meta speech-voices" title={c.voices.join(', ')}>
          Voices: {c.voices.slice(0, 12).join(', ')}
          {c.voices.length > 12 ? ', …' : ''}
        </p>
      )}
    </>
  );
}
