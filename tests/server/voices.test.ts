import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentVoiceAnswer, speechConnection, speechConnectionList } from '../../src/schemas/speechConnections';
import { joinWavs, splitAtSentences } from '../../server/providers/speech/chunks';
import { cloneName } from '../../server/voices/agentVoice';
import { shareAudio } from '../../server/engine/turnFrames';
import type { EngineContext } from '../../server/engine/context';
import { espeakWav, startFakeSpeech, type FakeSpeech } from '../support/fakeSpeechServers';
import { createAgent, makeWav, upload } from './audioFixtures';
import { startTestServer, type TestServer } from './harness';

// Voices (README 'Voices'): speech connections against loopback servers speaking the Chatterbox TTS API, Kokoro's
// voice list and OpenAI's speech exactly; an agent's stock or cloned voice, registered in the server's library,
// replaced when its recording changes, deleted with the agent; the turn falls back to espeak-ng when it fails.

const KEY = 'sk-speech-Zq8uVb4Jm2Lk9Pw7Rt5Y';
/** A recording the fake takes (real WAV, a second of silence). */
const RECORDING = makeWav(16_000);

describe('speech connections and agent voices', () => {
  let t: TestServer;
  let chatterbox: FakeSpeech;
  let kokoro: FakeSpeech;
  let openai: FakeSpeech;
  beforeAll(async () => {
    [t, chatterbox, kokoro, openai] = await Promise.all([
      startTestServer({ voiceTimeoutMs: 2_000, voiceChunkChars: 120 }),
      startFakeSpeech({ kind: 'chatterbox', voices: ['narrator'] }),
      startFakeSpeech({ kind: 'kokoro' }),
      startFakeSpeech({ kind: 'openai', apiKey: KEY }),
    ]);
  });
  afterAll(() => Promise.all([t.close(), chatterbox.close(), kokoro.close(), openai.close()]));

  const add = (token: string, body: object) => t.api('POST', '/speech-connections', { token, body });
  const setVoice = (token: string, agentId: string, body: object) =>
    t.api('PUT', `/agents/${agentId}/voice`, { token, body });
  const withRecording = async (token: string, name: string, bytes = RECORDING) => {
    const agent = await createAgent(t, token, name);
    const up = await upload(t, token, agent.id, bytes, 'reference.wav', { name: `${name} reading` });
    expect(up.status).toBe(201);
    return agent;
  };

  it('lists the server’s espeak-ng read-only, adds three kinds, Test says what each can do, never shows the key', async () => {
    const { token } = await t.register();
    const first = speechConnectionList.parse((await t.api('GET', '/speech-connections', { token })).body).connections;
    expect(first.map((c) => [c.kind, c.read_only])).toEqual([['espeak', true]]);

    const test = (body: object) => t.api('POST', '/speech-connections/test', { token, body }).then((r) => r.body);
    expect(await test({ kind: 'openai', base_url: kokoro.url })).toMatchObject({
      ok: true,
      lists_voices: true,
      can_clone: false,
      summary: 'lists 12 voices',
    });
    expect(await test({ kind: 'chatterbox', base_url: chatterbox.url })).toMatchObject({
      ok: true,
      voices: ['narrator'],
      summary: 'lists 1 voice · can clone',
    });
    expect(await test({ kind: 'openai', base_url: openai.url, api_key: 'wrong' })).toMatchObject({
      ok: false,
      reason: 'key_rejected',
    });
    expect(await test({ kind: 'openai', base_url: openai.url, api_key: KEY })).toMatchObject({
      ok: true,
      lists_voices: false,
      summary: 'does not list its voices',
    });

    const c = await add(token, {
      kind: 'openai',
      name: 'OpenAI speech',
      base_url: openai.url,
      api_key: KEY,
      model: 'tts-1',
    });
    expect(c.status).toBe(201);
    expect(speechConnection.parse(c.body)).toMatchObject({
      api_key_hint: `••••${KEY.slice(-4)}`,
      status: { state: 'reachable' },
    });
    expect((await add(token, { kind: 'openai', name: 'openai SPEECH', base_url: kokoro.url })).status).toBe(409);
    const list = await t.api('GET', '/speech-connections', { token });
    expect(JSON.stringify(list.body)).not.toContain(KEY);
    expect((await t.api('PATCH', '/speech-connections/server-espeak', { token, body: { name: 'x' } })).status).toBe(
      403,
    );
  });

  it('a stock voice speaks every turn of the agent, and Play sample answers real audio', async () => {
    const { token } = await t.register();
    const kc = (await add(token, { kind: 'openai', name: 'Kokoro', base_url: kokoro.url, model: 'kokoro' })).body;
    const agent = await createAgent(t, token, 'Bea');
    const r = await setVoice(token, agent.id, { connection_id: kc.id, mode: 'stock', voice: 'af_bella' });
    expect(agentVoiceAnswer.parse(r.body).voice).toMatchObject({
      mode: 'stock',
      voice: 'af_bella',
      label: 'Kokoro · af_bella',
    });
    expect((await t.api('GET', `/agents/${agent.id}`, { token })).body.voice).toBe('Kokoro · af_bella');

    const spoken = await t.api('POST', '/api/tts/speak', { token, body: { text: 'Soil first.', agent_id: agent.id } });
    expect(spoken.status).toBe(200);
    expect(kokoro.calls.at(-1)).toMatchObject({ voice: 'af_bella', input: 'Soil first.' });
    const sample = await t.api('POST', `/speech-connections/${kc.id}/sample`, { token, body: { voice: 'af_sky' } });
    expect(sample.status).toBe(200);
    const audio = Buffer.from(await (await fetch(t.url + sample.body.audio_url)).arrayBuffer());
    expect(audio.toString('ascii', 0, 4)).toBe('RIFF');
  });

  it('cloning needs the consent box and a default recording; the clone is registered, used, replaced and deleted', async () => {
    const { token } = await t.register();
    const cc = (await add(token, { kind: 'chatterbox', name: 'Chatterbox', base_url: chatterbox.url })).body;
    const bare = await createAgent(t, token, 'Cy');
    const noRecording = await setVoice(token, bare.id, { connection_id: cc.id, mode: 'clone', consent: true });
    expect(noRecording.status).toBe(422);
    expect(noRecording.body.detail).toMatch(/default reference recording/);

    const agent = await withRecording(token, 'Dee');
    const noConsent = await setVoice(token, agent.id, { connection_id: cc.id, mode: 'clone', consent: false });
    expect(noConsent.status).toBe(422);
    expect(noConsent.body.detail).toContain('I have the speaker’s consent to clone this voice');
    expect(chatterbox.added).toHaveLength(0);

    const ok = await setVoice(token, agent.id, { connection_id: cc.id, mode: 'clone', consent: true });
    expect(ok.status).toBe(200);
    const name = ok.body.voice.registered_name as string;
    // Named after its agent on the voice server, with a short id of the recording.
    expect(name).toMatch(/^agora-dee-[a-z0-9]{8}$/);
    expect(chatterbox.library.get(name)).toBe(RECORDING.length);
    expect(ok.body.voice.label).toBe('Chatterbox · clone of “Dee reading”');

    await t.api('POST', '/api/tts/speak', { token, body: { text: 'Water at dawn.', agent_id: agent.id } });
    expect(chatterbox.calls.at(-1)).toMatchObject({ path: '/v1/audio/speech', voice: name, input: 'Water at dawn.' });

    // A new default recording: the next turn registers it under a new name and the old clone goes.
    const second = await upload(t, token, agent.id, makeWav(20_000), 'second.wav', { name: 'Dee again' });
    await t.api('POST', `/agents/audio/${second.body.id ?? second.body.audio?.id}/set-default`, { token });
    await t.api('POST', '/api/tts/speak', { token, body: { text: 'Mulch the beds.', agent_id: agent.id } });
    const renamed = chatterbox.calls.at(-1)!.voice!;
    expect(renamed).not.toBe(name);
    expect(renamed).toMatch(/^agora-dee-[a-z0-9]{8}$/);
    expect(chatterbox.deleted).toContain(name);
    expect(chatterbox.library.has(renamed)).toBe(true);

    // Deleting the agent deletes its clone on the voice server.
    expect((await t.api('DELETE', `/agents/${agent.id}`, { token })).status).toBe(200);
    expect(chatterbox.deleted).toContain(renamed);
    expect(chatterbox.library.has(renamed)).toBe(false);
  });

  it('a recording the server refuses is reported with the server’s reason', async () => {
    const { token } = await t.register();
    const cc = (await add(token, { kind: 'chatterbox', name: 'Chatterbox', base_url: chatterbox.url })).body;
    const agent = await withRecording(token, 'Eve', makeWav(100));
    const r = await setVoice(token, agent.id, { connection_id: cc.id, mode: 'clone', consent: true });
    expect(r.status).toBe(422);
    expect(r.body.detail).toContain('Audio file is too short');
    expect(r.body.detail).toContain('Eve reading');
  });

  it('a server with no voice library gets the recording with every turn (the one-off upload)', async () => {
    const old = await startFakeSpeech({ kind: 'chatterbox', noLibrary: true });
    try {
      const { token } = await t.register();
      const cc = (await add(token, { kind: 'chatterbox', name: 'Old Chatterbox', base_url: old.url })).body;
      expect(cc).toMatchObject({
        can_clone: true,
        voice_library: false,
        summary: 'does not list its voices · can clone (one upload per turn)',
      });
      const agent = await withRecording(token, 'Fay');
      const r = await setVoice(token, agent.id, { connection_id: cc.id, mode: 'clone', consent: true });
      expect(r.body.voice).toMatchObject({ registered_name: null, mode: 'clone' });
      await t.api('POST', '/api/tts/speak', { token, body: { text: 'Rotate the crops.', agent_id: agent.id } });
      expect(old.calls.at(-1)).toMatchObject({
        path: '/v1/audio/speech/upload',
        input: 'Rotate the crops.',
        uploadedBytes: RECORDING.length,
      });
    } finally {
      await old.close();
    }
  });

  it('speech over the server’s limit is split at sentence ends and joined into one WAV', async () => {
    const { token } = await t.register();
    const kc = (await add(token, { kind: 'openai', name: 'Kokoro', base_url: kokoro.url })).body;
    const agent = await createAgent(t, token, 'Gus');
    await setVoice(token, agent.id, { connection_id: kc.id, mode: 'stock', voice: 'am_adam' });
    const before = kokoro.calls.length;
    const text =
      'Compost feeds the soil for years. Cover crops hold it in winter. Tilling too often breaks its structure apart. Rotation keeps pests guessing.';
    const r = await t.api('POST', '/api/tts/speak', { token, body: { text, agent_id: agent.id } });
    expect(r.status).toBe(200);
    const pieces = kokoro.calls.slice(before).map((c) => c.input);
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(120);
    for (const p of pieces) expect(p).toMatch(/[.!?]$/);
    expect(pieces.join(' ')).toBe(text);
  });

  it('a slow voice server does not hold the turn past the voice time-out: espeak-ng speaks and says why', async () => {
    const slow = await startFakeSpeech({ kind: 'openai', speechDelayMs: 30_000 });
    try {
      const { token } = await t.register();
      const sc = (await add(token, { kind: 'openai', name: 'Slow', base_url: slow.url })).body;
      const agent = await createAgent(t, token, 'Hal');
      await setVoice(token, agent.id, { connection_id: sc.id, mode: 'stock', voice: 'nova' });
      const started = Date.now();
      const r = await t.api('POST', '/api/tts/speak', { token, body: { text: 'Patience.', agent_id: agent.id } });
      expect(r.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(slow.calls).toHaveLength(0);
    } finally {
      await slow.close();
    }
  });
});

describe('speaking pieces', () => {
  it('splits at sentence ends, and a sentence longer than the cap at a space', () => {
    expect(splitAtSentences('One. Two! Three?', 9)).toEqual(['One. Two!', 'Three?']);
    const long = `${'word '.repeat(30)}end.`;
    for (const p of splitAtSentences(long, 40)) expect(p.length).toBeLessThanOrEqual(40);
    expect(splitAtSentences(long, 40).join(' ')).toBe(long.trim());
  });

  it('joins espeak-ng WAVs into one playable WAV', async () => {
    const [a, b] = await Promise.all([espeakWav('one', 'x'), espeakWav('two', 'x')]);
    const joined = joinWavs([a, b])!;
    expect(joined.toString('ascii', 0, 4)).toBe('RIFF');
    expect(joined.readUInt32LE(4)).toBe(joined.length - 8);
  });

  it('a failing voice is said once per agent, not every turn', () => {
    const agent = { id: 'a1', name: 'Ada' };
    let c = {
      plan: { sessionId: 's', agents: [agent] },
      speakerId: 'a1',
      audioSeq: 1,
      lastMessageId: null,
      record: { figures: { audio: 0, ttsMs: 0 } },
    } as unknown as EngineContext;
    const out = {
      audioUrl: '/media/tts/x.wav',
      ttsMs: 5,
      voiceError: 'The voice Kokoro · af_bella failed (down); speaking with espeak-ng instead.',
    };
    const first = shareAudio(c, out);
    c = { ...c, ...first.patch } as EngineContext;
    const second = shareAudio(c, out);
    const errors = [...first.frames, ...second.frames].filter((f) => f.frame.type === 'tts_error');
    expect(errors).toHaveLength(1);
    expect(errors[0].frame).toMatchObject({ agent_name: 'Ada', error: out.voiceError });
    expect(second.frames.some((f) => f.frame.type === 'audio_message')).toBe(true);
  });
});

describe('cloneName', () => {
  it('names a clone after its agent, in the characters a voice library keeps', () => {
    expect(cloneName('Zoë Ünal 🌱', '41772ef8-c66a-4b1e-9d2f-0a1b2c3d4e5f')).toBe('agora-zoe-unal-41772ef8');
    expect(cloneName('🌱', 'AB-12')).toBe('agora-agent-ab12');
    expect(cloneName('A very long agent name that goes on and on', 'x1')).toBe('agora-a-very-long-agent-name-x1');
  });
});
