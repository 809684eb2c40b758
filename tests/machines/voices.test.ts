import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { agentVoiceMachine, CONSENT_NEEDED, voiceBody } from '../../src/machines/agentVoice.machine';
import { speechConnectionsMachine } from '../../src/machines/speechConnections.machine';
import { sectionActors } from '../../src/machines/kit/connectionSection';
import type {
  AgentVoice,
  AgentVoiceUpdate,
  SpeechConnection,
  SpeechConnectionTestBody,
  SpeechConnectionTestResult,
} from '../../src/schemas/speechConnections';

// The editor's Voice field and the Models dialog's Speech section, driven by events with fake actors.

const chatterbox: SpeechConnection = {
  id: 'cb',
  kind: 'chatterbox',
  name: 'Chatterbox',
  base_url: 'http://127.0.0.1:4123',
  model: null,
  api_key_hint: null,
  read_only: false,
  status: { state: 'reachable' },
  voices: ['narrator'],
  lists_voices: true,
  can_clone: true,
  voice_library: true,
  summary: 'lists 1 voice · can clone',
};
const kokoro: SpeechConnection = {
  ...chatterbox,
  id: 'kk',
  kind: 'openai',
  name: 'Kokoro',
  voices: ['af_bella', 'af_sky'],
  can_clone: false,
  voice_library: false,
  summary: 'lists 2 voices',
};

function startVoice(
  opts: { saved?: AgentVoice | null; save?: (body: AgentVoiceUpdate | null) => Promise<AgentVoice | null> } = {},
) {
  const saves: Array<AgentVoiceUpdate | null> = [];
  const samples: Array<{ connectionId: string; voice: string }> = [];
  const actor = createActor(
    agentVoiceMachine.provide({
      actors: {
        loadVoiceChoices: fromPromise(async () => ({ connections: [chatterbox, kokoro], voice: opts.saved ?? null })),
        saveAgentVoice: fromPromise(async ({ input }) => {
          saves.push(input.body);
          if (opts.save) return opts.save(input.body);
          const b = input.body!;
          return {
            agent_id: 'a1',
            connection_id: b.connection_id,
            connection_name: 'x',
            mode: b.mode,
            voice: b.voice ?? null,
            consent: !!b.consent,
            registered_name: b.mode === 'clone' ? 'agora-a1-r1' : null,
            audio_id: null,
            label: 'x',
          };
        }),
        speakSample: fromPromise(async ({ input }) => (samples.push(input), { audio_url: '/media/tts/sample.wav' })),
      },
    }),
    { input: { agentId: 'a1' } },
  ).start();
  return { actor, saves, samples };
}

describe('agentVoice', () => {
  it('a clone is not saved without the consent box: the field says what to tick, and nothing is sent', async () => {
    const { actor, saves } = startVoice();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'voice.connection', id: 'cb' });
    actor.send({ type: 'voice.mode', mode: 'clone' });
    actor.send({ type: 'voice.save' });
    expect(actor.getSnapshot().context.error).toBe(CONSENT_NEEDED);
    expect(CONSENT_NEEDED).toContain('I have the speaker’s consent to clone this voice');
    expect(saves).toEqual([]);

    actor.send({ type: 'voice.consent', checked: true });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'voice.save' });
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }) && s.context.saved !== null);
    expect(saves).toEqual([{ connection_id: 'cb', mode: 'clone', consent: true }]);
    expect(actor.getSnapshot().context.saved?.registered_name).toBe('agora-a1-r1');
  });

  it('a refused save keeps the choice and shows the server’s reason; an unchanged voice is not sent again', async () => {
    const { actor, saves } = startVoice({
      save: async () => {
        throw new Error('The voice server refused the recording “Dee”: Audio file is too short');
      },
    });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'voice.connection', id: 'cb' });
    actor.send({ type: 'voice.mode', mode: 'clone' });
    actor.send({ type: 'voice.consent', checked: true });
    actor.send({ type: 'voice.save' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(actor.getSnapshot().context.error).toContain('Audio file is too short');
    expect(actor.getSnapshot().context.draft).toMatchObject({ connectionId: 'cb', mode: 'clone', consent: true });
    expect(saves).toHaveLength(1);
  });

  it('picks a stock voice, plays a sample, and saves only a change', async () => {
    const saved: AgentVoice = {
      agent_id: 'a1',
      connection_id: 'kk',
      connection_name: 'Kokoro',
      mode: 'stock',
      voice: 'af_bella',
      consent: false,
      registered_name: null,
      audio_id: null,
      label: 'Kokoro · af_bella',
    };
    const { actor, saves, samples } = startVoice({ saved });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'voice.save' });
    expect(saves).toEqual([]);
    actor.send({ type: 'voice.pick', voice: 'af_sky' });
    actor.send({ type: 'voice.sample' });
    await waitFor(actor, (s) => s.context.sampleUrl !== null);
    expect(samples).toEqual([{ connectionId: 'kk', voice: 'af_sky' }]);
    actor.send({ type: 'voice.save' });
    await waitFor(actor, (s) => s.context.saved?.voice === 'af_sky');
    expect(saves).toEqual([{ connection_id: 'kk', mode: 'stock', voice: 'af_sky' }]);
    expect(voiceBody({ connectionId: '', mode: 'stock', voice: '', consent: false })).toBeNull();
  });

  it('a new agent waits for its id', () => {
    const actor = createActor(agentVoiceMachine, { input: { agentId: null } }).start();
    expect(actor.getSnapshot().matches('unsaved')).toBe(true);
  });
});

describe('speechConnections', () => {
  it('adds a voice-cloning connection: Test says what it can do, Save reloads the list', async () => {
    let list: SpeechConnection[] = [];
    const bodies: unknown[] = [];
    const actor = createActor(
      speechConnectionsMachine.provide({
        actors: sectionActors<SpeechConnection, SpeechConnectionTestBody, SpeechConnectionTestResult, unknown>({
          load: async () => list,
          test: async () => ({
            ok: true as const,
            voices: ['narrator'],
            lists_voices: true,
            can_clone: true,
            voice_library: true,
            summary: 'lists 1 voice · can clone',
          }),
          save: async ({ body }) => (bodies.push(body), (list = [chatterbox]), chatterbox),
          remove: async () => null,
        }),
      }),
    ).start();
    await waitFor(actor, (s) => s.matches({ list: 'ready' }));
    actor.send({ type: 'speech.add' });
    expect(actor.getSnapshot().context.form).toMatchObject({ kind: 'chatterbox', base_url: 'http://127.0.0.1:4123' });
    actor.send({ type: 'speech.form.field', field: 'base_url', value: 'http://127.0.0.1:9999' });
    actor.send({ type: 'speech.form.test' });
    await waitFor(actor, (s) => s.context.test !== null);
    expect(actor.getSnapshot().context.test).toMatchObject({ ok: true, summary: 'lists 1 voice · can clone' });
    actor.send({ type: 'speech.form.save' });
    await waitFor(actor, (s) => s.matches({ form: 'closed' }) && s.context.connections.length === 1);
    expect(bodies).toEqual([
      { kind: 'chatterbox', name: 'Chatterbox', base_url: 'http://127.0.0.1:9999', model: null },
    ]);
  });
});
