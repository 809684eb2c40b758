// The editor's 'Voice' field (README 'Voices'): which voice the agent speaks with — the server's default speech, a
// stock voice of a speech connection (with a Play sample), or a clone of the agent's default reference recording
// (only with 'I have the speaker's consent to clone this voice' ticked). The editor spawns one per open drawer and
// sends it 'voice.save' when the agent is saved; the field's own Save does the same. A refusal (no consent, a
// recording the voice server will not take) stays on the field in the server's words; the choice is kept.
//   unsaved — a new agent has no id yet
//   loading → ready (idle | saving | sampling) | failed
import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { AgentVoice, AgentVoiceUpdate, SpeechConnection } from '../schemas/speechConnections';
import { VOICE_CONSENT_LABEL } from '../schemas/constants';
import { pickableVoices } from '../model/agentVoice';
import { notProvided } from './kit/actorKit';
import { errorText } from '../model/modelsForm';
import type { AgentVoiceEvent, VoiceDraft } from '../model/agentVoice';

export type { AgentVoiceEvent, VoiceDraft } from '../model/agentVoice';

export interface AgentVoiceContext {
  agentId: string | null;
  connections: SpeechConnection[];
  saved: AgentVoice | null;
  draft: VoiceDraft;
  error: string | null;
  sampleUrl: string | null;
}

export const CONSENT_NEEDED = `To clone a voice, tick “${VOICE_CONSENT_LABEL}”`;

export const draftOf = (saved: AgentVoice | null): VoiceDraft =>
  saved
    ? { connectionId: saved.connection_id, mode: saved.mode, voice: saved.voice ?? '', consent: saved.consent }
    : { connectionId: '', mode: 'stock', voice: '', consent: false };

const sameDraft = (a: VoiceDraft, b: VoiceDraft) =>
  a.connectionId === b.connectionId &&
  a.mode === b.mode &&
  (a.mode === 'clone' ? a.consent === b.consent : a.voice === b.voice);

/** What a save sends: null goes back to the server's default speech. */
export function voiceBody(d: VoiceDraft): AgentVoiceUpdate | null {
  if (!d.connectionId) return null;
  return d.mode === 'clone'
    ? { connection_id: d.connectionId, mode: 'clone', consent: d.consent }
    : { connection_id: d.connectionId, mode: 'stock', voice: d.voice };
}

export const agentVoiceMachine = setup({
  types: {
    context: {} as AgentVoiceContext,
    events: {} as AgentVoiceEvent,
    input: {} as { agentId: string | null },
  },
  actors: {
    loadVoiceChoices: fromPromise<{ connections: SpeechConnection[]; voice: AgentVoice | null }, { agentId: string }>(
      notProvided('agentVoice', 'loadVoiceChoices'),
    ),
    saveAgentVoice: fromPromise<AgentVoice | null, { agentId: string; body: AgentVoiceUpdate | null }>(
      notProvided('agentVoice', 'saveAgentVoice'),
    ),
    speakSample: fromPromise<{ audio_url: string }, { connectionId: string; voice: string }>(
      notProvided('agentVoice', 'speakSample'),
    ),
  },
  guards: {
    hasAgent: ({ context }) => context.agentId !== null,
    lacksConsent: ({ context }) =>
      !!context.draft.connectionId && context.draft.mode === 'clone' && !context.draft.consent,
    lacksStockVoice: ({ context }) =>
      !!context.draft.connectionId && context.draft.mode === 'stock' && !context.draft.voice,
    isChanged: ({ context }) => !sameDraft(context.draft, draftOf(context.saved)),
    canSample: ({ context }) => !!context.draft.connectionId && context.draft.mode === 'stock' && !!context.draft.voice,
  },
}).createMachine({
  id: 'agentVoice',
  context: ({ input }) => ({
    agentId: input.agentId,
    connections: [],
    saved: null,
    draft: draftOf(null),
    error: null,
    sampleUrl: null,
  }),
  initial: 'checking',
  on: { 'voice.dismiss': { actions: assign({ error: null }) } },
  states: {
    checking: { always: [{ guard: 'hasAgent', target: 'loading' }, { target: 'unsaved' }] },
    unsaved: {
      on: { 'voice.agentSaved': { target: 'loading', actions: assign({ agentId: ({ event }) => event.agentId }) } },
    },
    loading: {
      tags: 'loading',
      invoke: {
        src: 'loadVoiceChoices',
        input: ({ context }) => ({ agentId: context.agentId! }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            connections: event.output.connections,
            saved: event.output.voice,
            draft: draftOf(event.output.voice),
            error: null,
          })),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    failed: { on: { 'voice.retry': 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'voice.connection': {
              actions: assign(({ context, event }) => {
                const c = context.connections.find((x) => x.id === event.id);
                return {
                  draft: {
                    connectionId: event.id,
                    mode: 'stock' as const,
                    voice: c ? (pickableVoices(c)[0] ?? '') : '',
                    consent: false,
                  },
                  error: null,
                  sampleUrl: null,
                };
              }),
            },
            'voice.mode': {
              actions: assign({ draft: ({ context, event }) => ({ ...context.draft, mode: event.mode }), error: null }),
            },
            'voice.pick': {
              actions: assign({
                draft: ({ context, event }) => ({ ...context.draft, voice: event.voice }),
                sampleUrl: null,
              }),
            },
            'voice.consent': {
              actions: assign({
                draft: ({ context, event }) => ({ ...context.draft, consent: event.checked }),
                error: null,
              }),
            },
            'voice.sample': { guard: 'canSample', target: 'sampling' },
            'voice.save': [
              { guard: 'lacksConsent', actions: assign({ error: CONSENT_NEEDED }) },
              { guard: 'lacksStockVoice', actions: assign({ error: 'Choose one of the connection’s voices' }) },
              { guard: 'isChanged', target: 'saving' },
            ],
          },
        },
        saving: {
          tags: 'saving',
          invoke: {
            src: 'saveAgentVoice',
            input: ({ context }) => ({ agentId: context.agentId!, body: voiceBody(context.draft) }),
            onDone: {
              target: 'idle',
              actions: assign(({ event }) => ({ saved: event.output, draft: draftOf(event.output), error: null })),
            },
            // The choice stays as it was made: the reason is shown beside it.
            onError: { target: 'idle', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
        },
        sampling: {
          tags: 'sampling',
          invoke: {
            src: 'speakSample',
            input: ({ context }) => ({ connectionId: context.draft.connectionId, voice: context.draft.voice }),
            onDone: {
              target: 'idle',
              actions: assign({ sampleUrl: ({ event }) => event.output.audio_url, error: null }),
            },
            onError: { target: 'idle', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
        },
      },
    },
  },
});

export type AgentVoiceActorRef = ActorRefFrom<typeof agentVoiceMachine>;
export type AgentVoiceSnapshot = SnapshotFrom<typeof agentVoiceMachine>;
