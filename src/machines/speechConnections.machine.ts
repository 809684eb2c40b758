// The Models dialog's 'Speech' section (README 'Voices'): the server's own speech connections (read-only) and the
// user's, what each server can do, and one form to add or edit a connection with Test and Save. The Models chart
// runs it as a child while its dialog is open. The chart is the one connections section (kit/connectionSection.ts)
// with the speech form.
import { SPEECH_FORM_RULES, type SpeechFormField, type SpeechFormKind } from '../model/speechForm';
import { connectionSectionMachine, type SectionActorRef, type SectionEvent } from './kit/connectionSection';

export type { SpeechForm, SpeechFormField } from '../model/speechForm';

export const speechConnectionsMachine = connectionSectionMachine(SPEECH_FORM_RULES);

export type SpeechConnectionsEvent = SectionEvent<'speech', SpeechFormKind, SpeechFormField>;
export type SpeechConnectionsActorRef = SectionActorRef<typeof speechConnectionsMachine, SpeechConnectionsEvent>;
