import { readFile } from 'node:fs/promises';
import type { AgentVoice, AgentVoiceUpdate } from '../../src/schemas/speechConnections';
import { VOICE_CONSENT_LABEL } from '../../src/schemas/speechConnections';
import type { AppContext } from '../context';
import { storedPath } from '../audio/audioFiles';
import type { AudioRow } from '../audio/audioStore';
import { ownedAgent } from '../agents/agentStore';
import { HttpError } from '../http/errors';
import { ProviderError, callSignal } from '../providers/errors';
import { MIME_BY_EXTENSION } from '../providers/speech/audioTypes';
import { joinWavs, splitAtSentences } from '../providers/speech/chunks';
import { createEspeakProvider } from '../providers/speech/espeak';
import type { RecordingFile } from '../providers/speech/voiceServer';
import { abilitiesOf, findSpeechTarget, voiceClientFor, type SpeechTarget } from './service';
import { deleteVoiceRow, putVoiceRow, voiceRow, type VoiceRow } from './store';

// An agent's voice (README 'Voices'): a stock voice of a speech connection, or a clone of the agent's default
// reference recording. A clone is registered in the server's voice library (POST /v1/voices) under a name made of
// the agent and the recording, registered again under a new name when the default recording changes, and deleted
// there when the agent is; a server without a library gets the recording with every turn instead.

/** The agent's name as a voice-library slug: lower-case ASCII words joined by hyphens, whole words up to 24. */
function nameSlug(name: string) {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > 24) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, 24) || 'agent';
}

/**
 * The library name of an agent's clone, `agora-<agent name>-<short recording id>`: a person browsing the voice
 * server sees whose voice it is, and a new default recording gets a new name.
 */
export const cloneName = (agentName: string, audioId: string) =>
  `agora-${nameSlug(agentName)}-${audioId
    .replace(/[^a-zA-Z0-9]/g, '')
    .slice(0, 8)
    .toLowerCase()}`;

const defaultRecording = async (ctx: AppContext, userId: string, agentId: string) => {
  const [row] = await ctx.db.query<AudioRow>(
    'SELECT * FROM audio_items WHERE agent_id = $1 AND user_id = $2 AND is_default',
    [agentId, userId],
  );
  return row ?? null;
};

async function recordingFile(ctx: AppContext, row: AudioRow): Promise<RecordingFile> {
  const data = await readFile(storedPath(ctx.config.mediaDir, row.file_name)).catch(() => {
    throw new ProviderError(
      `The reference recording "${row.name}" is missing on this server; upload it again`,
      'voices',
      'failed',
    );
  });
  const ext = row.file_name.split('.').pop() ?? 'wav';
  return {
    data,
    fileName: `${row.name.replace(/[^\w .-]/g, '_').slice(0, 60) || 'reference'}.${ext}`,
    mimeType: row.mime_type || MIME_BY_EXTENSION[ext] || 'application/octet-stream',
  };
}

const labelOf = (t: SpeechTarget, mode: 'stock' | 'clone', voice: string | null, recordingName: string | null) =>
  mode === 'stock' ? `${t.name} · ${voice}` : `${t.name} · clone of “${recordingName ?? 'its recording'}”`;

const toWire = (row: VoiceRow, connectionName: string): AgentVoice => ({
  agent_id: row.agent_id,
  connection_id: row.connection_id,
  connection_name: connectionName,
  mode: row.mode,
  voice: row.voice,
  consent: row.consent,
  registered_name: row.registered_name,
  audio_id: row.audio_id,
  label: row.label,
});

export async function getAgentVoice(ctx: AppContext, userId: string, agentId: string): Promise<AgentVoice | null> {
  await ownedAgent(ctx.db, userId, agentId);
  const row = await voiceRow(ctx.db, userId, agentId);
  if (!row) return null;
  const t = await findSpeechTarget(ctx, userId, row.connection_id);
  return toWire(row, t?.name ?? 'a removed connection');
}

/** Removes a clone from its voice server; a server that does not answer within the voice time-out is left be. */
async function unregister(ctx: AppContext, userId: string, row: VoiceRow | null) {
  if (!row?.registered_name) return;
  const t = await findSpeechTarget(ctx, userId, row.connection_id);
  if (!t || t.kind === 'espeak') return;
  await voiceClientFor(ctx, t, ctx.config.voiceTimeoutMs).deleteVoice(row.registered_name);
}

/** Registers the agent's default recording as a clone; a refusal is an HttpError with the server's reason. */
async function register(ctx: AppContext, t: SpeechTarget, agentName: string, recording: AudioRow): Promise<string> {
  const name = cloneName(agentName, recording.id);
  try {
    await voiceClientFor(ctx, t, ctx.config.voiceTimeoutMs).addVoice(name, await recordingFile(ctx, recording));
  } catch (e) {
    throw new HttpError(422, `The voice server refused the recording “${recording.name}”: ${(e as Error).message}`);
  }
  return name;
}

export async function setAgentVoice(
  ctx: AppContext,
  userId: string,
  agentId: string,
  body: AgentVoiceUpdate,
): Promise<AgentVoice> {
  const agent = await ownedAgent(ctx.db, userId, agentId);
  const t = await findSpeechTarget(ctx, userId, body.connection_id);
  if (!t) throw new HttpError(404, 'No such speech connection');
  const previous = await voiceRow(ctx.db, userId, agentId);
  let row: VoiceRow;
  if (body.mode === 'stock') {
    if (!body.voice) throw new HttpError(422, 'Choose one of the connection’s voices');
    row = {
      agent_id: agentId,
      user_id: userId,
      connection_id: t.id,
      mode: 'stock',
      voice: body.voice,
      consent: false,
      registered_name: null,
      audio_id: null,
      label: labelOf(t, 'stock', body.voice, null),
    };
  } else {
    if (!body.consent) throw new HttpError(422, `To clone a voice, tick “${VOICE_CONSENT_LABEL}”`);
    const abilities = await abilitiesOf(ctx, t, true);
    if (!abilities.ok)
      throw new HttpError(422, `The speech connection "${t.name}" does not answer: ${abilities.detail}`);
    if (!abilities.can_clone)
      throw new HttpError(422, `The speech connection "${t.name}" cannot clone voices; choose a voice-cloning server`);
    const recording = await defaultRecording(ctx, userId, agentId);
    if (!recording)
      throw new HttpError(
        422,
        'Cloning needs a default reference recording: record or upload one below, then set it as default',
      );
    const sameClone =
      previous?.mode === 'clone' &&
      previous.connection_id === t.id &&
      previous.audio_id === recording.id &&
      !!previous.registered_name === abilities.voice_library;
    const registered = sameClone
      ? previous!.registered_name
      : abilities.voice_library
        ? await register(ctx, t, agent.name, recording)
        : null;
    row = {
      agent_id: agentId,
      user_id: userId,
      connection_id: t.id,
      mode: 'clone',
      voice: null,
      consent: true,
      registered_name: registered,
      audio_id: recording.id,
      label: labelOf(t, 'clone', null, recording.name),
    };
  }
  // The clone it had, made from another recording or on another server, is not left behind.
  if (previous?.registered_name && previous.registered_name !== row.registered_name)
    await unregister(ctx, userId, previous).catch(() => {});
  await putVoiceRow(ctx.db, row);
  return toWire(row, t.name);
}

/** Back to the server's default speech; a registered clone is deleted on its server. */
export async function clearAgentVoice(ctx: AppContext, userId: string, agentId: string) {
  await ownedAgent(ctx.db, userId, agentId);
  const previous = await voiceRow(ctx.db, userId, agentId);
  await unregister(ctx, userId, previous).catch(() => {});
  await deleteVoiceRow(ctx.db, userId, agentId);
}

/** Before an agent is deleted: its clone goes from the voice server (a failure there never keeps the agent). */
export async function forgetAgentVoice(ctx: AppContext, userId: string, agentId: string, log?: (e: unknown) => void) {
  const row = await voiceRow(ctx.db, userId, agentId).catch(() => null);
  await unregister(ctx, userId, row).catch((e) => log?.(e));
}

export interface SpokenAudio {
  audio: Buffer;
  mimeType: string;
  extension: string;
}

/** How the agent speaks with its voice, or null when it has none (the server's default speech then). */
export async function agentSpeech(ctx: AppContext, userId: string, agentId: string) {
  const row = await voiceRow(ctx.db, userId, agentId);
  if (!row) return null;
  return {
    label: row.label,
    cloned: row.mode === 'clone',
    synthesize: (text: string, opts: { speed?: number; signal?: AbortSignal }) =>
      speakWith(ctx, userId, row, text, opts),
  };
}

/** Speaks a sample in a stock voice of a connection (the editor's Play sample). */
export async function speakSample(
  ctx: AppContext,
  userId: string,
  connectionId: string,
  voice: string,
  text: string,
): Promise<SpokenAudio> {
  const row: VoiceRow = {
    agent_id: '',
    user_id: userId,
    connection_id: connectionId,
    mode: 'stock',
    voice,
    consent: false,
    registered_name: null,
    audio_id: null,
    label: '',
  };
  return speakWith(ctx, userId, row, text, {});
}

async function speakWith(
  ctx: AppContext,
  userId: string,
  row: VoiceRow,
  text: string,
  opts: { speed?: number; signal?: AbortSignal },
): Promise<SpokenAudio> {
  const t = await findSpeechTarget(ctx, userId, row.connection_id);
  if (!t)
    throw new ProviderError(
      'The agent’s speech connection no longer exists; choose another voice in its editor',
      'voices',
      'unconfigured',
    );
  const call = callSignal(ctx.config.voiceTimeoutMs, opts.signal);
  if (t.kind === 'espeak') {
    return createEspeakProvider({ executable: t.baseUrl, voice: row.voice ?? undefined }).synthesize({
      text,
      speed: opts.speed,
      signal: call.signal,
    });
  }
  const client = voiceClientFor(ctx, t, ctx.config.voiceTimeoutMs);
  let speakPiece: (piece: string) => Promise<SpokenAudio>;
  if (row.mode === 'stock')
    speakPiece = (piece) => client.speak(piece, row.voice!, { speed: opts.speed, signal: call.signal });
  else {
    const recording = await defaultRecording(ctx, userId, row.agent_id);
    if (!recording)
      throw new ProviderError(
        'The agent’s voice is cloned from a reference recording it no longer has; set a default recording',
        'voices',
        'failed',
      );
    let name = row.registered_name;
    if (name && recording.id !== row.audio_id) {
      // The default recording changed since the clone was made: the library gets the new one, the old goes.
      const fresh = cloneName((await ownedAgent(ctx.db, userId, row.agent_id)).name, recording.id);
      await client.addVoice(fresh, await recordingFile(ctx, recording), call.signal);
      await client.deleteVoice(name, call.signal).catch(() => {});
      const t2 = {
        ...row,
        registered_name: fresh,
        audio_id: recording.id,
        label: labelOf(t, 'clone', null, recording.name),
      };
      await putVoiceRow(ctx.db, t2);
      name = fresh;
    }
    if (name) {
      const voice = name;
      speakPiece = (piece) => client.speak(piece, voice, { signal: call.signal });
    } else {
      const file = await recordingFile(ctx, recording);
      speakPiece = (piece) => client.speakWithRecording(piece, file, { signal: call.signal });
    }
  }
  try {
    const pieces: SpokenAudio[] = [];
    for (const piece of splitAtSentences(text, ctx.config.voiceChunkChars)) pieces.push(await speakPiece(piece));
    if (!pieces.length) throw new ProviderError('There was nothing to say', 'voices', 'failed');
    if (pieces.length === 1) return pieces[0];
    const joined = pieces.every((p) => p.extension === 'wav') ? joinWavs(pieces.map((p) => p.audio)) : null;
    return joined
      ? { audio: joined, mimeType: 'audio/wav', extension: 'wav' }
      : {
          audio: Buffer.concat(pieces.map((p) => p.audio)),
          mimeType: pieces[0].mimeType,
          extension: pieces[0].extension,
        };
  } catch (e) {
    if (call.timedOut())
      throw new ProviderError(
        `The voice server did not answer within ${ctx.config.voiceTimeoutMs / 1000} s`,
        'voices',
        'timeout',
      );
    throw e;
  }
}
