import {
  SERVER_SPEECH_IDS,
  type SpeechConnection,
  type SpeechConnectionKind,
  type SpeechConnectionTestResult,
} from '../../src/schemas/speechConnections';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { checkUrl } from '../models/addressRule';
import { secretBox } from '../models/service';
import { voiceLimitsOf } from '../config';
import { connectionStatus } from '../connections/status';
import { envSpeechTarget } from '../connections/envTargets';
import { serverOwnedTarget, userTarget, type ConnectionTarget } from '../connections/target';
import { ProviderError, withoutKey } from '../providers/errors';
import { maskSecrets } from '../providers/mask';
import { findEspeak } from '../providers/speech/espeak';
import { abilitySummary, type ServerAbilities, type VoiceClient } from '../providers/speech/voiceServer';
import { speechKind, type AddressedKind } from '../connections/kinds';
import { speechConnectionStore, type SpeechRow } from './store';

// A user's speech connections put together (README 'Voices'): the server's own from its environment (TTS_BASE_URL,
// and espeak-ng when installed), read-only, then the user's, each with what its server can do.

/** espeak-ng's voices worth offering: its English accents and two of its variants. */
export const ESPEAK_VOICES = ['en-us', 'en-gb', 'en-gb-scotland', 'en-029', 'en-us+f3', 'en-gb+m3'];
const ABILITIES_TTL_MS = 10_000;
/** Test and listing stay quick even when a voice server is down. */
export const SPEECH_LIST_TIMEOUT_MS = 3_000;

export interface SpeechTarget extends ConnectionTarget<SpeechConnectionKind> {
  model: string | null;
}

const cacheOf = (ctx: AppContext) => ctx.voices.abilities;
export const forgetAbilities = (ctx: AppContext, id: string) => cacheOf(ctx).delete(id);

/** The outbound address rule model connections follow, for a user's speech connection too. */
export async function refuseBlockedSpeechUrl(ctx: AppContext, url: string): Promise<string | null> {
  const verdict = await checkUrl(url, ctx.config.modelConnectionsAllowPrivate);
  return verdict.ok ? null : verdict.detail;
}

export function serverSpeechTargets(ctx: AppContext): SpeechTarget[] {
  const out: SpeechTarget[] = [];
  const tts = envSpeechTarget(ctx.config);
  if (tts) out.push(tts);
  const espeak = findEspeak(ctx.config.espeakPath);
  if (espeak) {
    const id = SERVER_SPEECH_IDS.espeak;
    const name = 'Built-in (espeak-ng)';
    out.push({ ...serverOwnedTarget({ id, kind: 'espeak', name, baseUrl: espeak }, 'espeak'), model: null });
  }
  return out;
}

export async function rowSpeechTarget(ctx: AppContext, row: SpeechRow): Promise<SpeechTarget> {
  return { ...userTarget(await secretBox(ctx), speechConnectionStore, row), model: row.model };
}

/** One of the user's speech connections (or the server's), or null when it is gone. */
export async function findSpeechTarget(ctx: AppContext, userId: string, id: string): Promise<SpeechTarget | null> {
  const server = serverSpeechTargets(ctx).find((t) => t.id === id);
  if (server) return server;
  const row = await speechConnectionStore.find(ctx.db, userId, id);
  return row ? rowSpeechTarget(ctx, row) : null;
}

/** The target's client as its kind makes it (connections/kinds.ts), with this server's caps. */
const kindClient = (ctx: AppContext, t: SpeechTarget & { kind: AddressedKind<'speech'> }, timeoutMs: number) =>
  speechKind(t.kind).client(
    { baseUrl: t.baseUrl, apiKey: t.apiKey, model: t.model },
    timeoutMs,
    voiceLimitsOf(ctx.config),
  );

/** A client for the target's server that checks the address rule before every call to a user's connection. */
export function voiceClientFor(ctx: AppContext, t: SpeechTarget, timeoutMs: number): VoiceClient {
  if (t.kind === 'espeak') throw new ProviderError('espeak-ng is not a voice server', 'voices', 'unconfigured');
  const client = kindClient(ctx, { ...t, kind: t.kind }, timeoutMs);
  const guard = async () => {
    if (t.readOnly) return;
    const blocked = await refuseBlockedSpeechUrl(ctx, t.baseUrl);
    if (blocked)
      throw new ProviderError(
        `The speech connection "${t.name}" may not be used: ${blocked}`,
        'voices',
        'unconfigured',
      );
  };
  // A voice server may quote the key it was sent; no error of any call carries it on.
  const run = async <R>(f: () => Promise<R>): Promise<R> => {
    await guard();
    return f().catch((e) => {
      throw withoutKey(e, t.apiKey);
    });
  };
  return {
    abilities: (s) => run(() => client.abilities(s)),
    speak: (...a) => run(() => client.speak(...a)),
    speakWithRecording: (...a) => run(() => client.speakWithRecording(...a)),
    addVoice: (...a) => run(() => client.addVoice(...a)),
    deleteVoice: (...a) => run(() => client.deleteVoice(...a)),
  };
}

/** What the target's server can do, or exactly why it cannot be asked. */
export async function testSpeechTarget(ctx: AppContext, t: SpeechTarget): Promise<SpeechConnectionTestResult> {
  if (t.kind === 'espeak') {
    const a: ServerAbilities = { voices: ESPEAK_VOICES, lists_voices: true, can_clone: false, voice_library: false };
    return { ok: true, ...a, summary: abilitySummary(a) };
  }
  if (!t.readOnly) {
    const blocked = await refuseBlockedSpeechUrl(ctx, t.baseUrl);
    if (blocked) return { ok: false, reason: 'blocked', detail: blocked };
  }
  try {
    const a = await kindClient(ctx, { ...t, kind: t.kind }, SPEECH_LIST_TIMEOUT_MS).abilities();
    return { ok: true, ...a, summary: abilitySummary(a) };
  } catch (e) {
    const err = e as ProviderError;
    const detail = maskSecrets(err.message, [t.apiKey]);
    if (err.status === 401 || err.status === 403) return { ok: false, reason: 'key_rejected', detail };
    if (err.kind === 'timeout') return { ok: false, reason: 'timeout', detail };
    // Not a speech server, or an answer over a cap: what answered is not what the connection says it is.
    if (err.kind === 'malformed') return { ok: false, reason: 'not_compatible', detail };
    if (err.code === 'ECONNREFUSED') return { ok: false, reason: 'refused', detail };
    if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return { ok: false, reason: 'dns', detail };
    return { ok: false, reason: err.kind === 'http' ? 'http' : 'unreachable', detail };
  }
}

async function known(ctx: AppContext, t: SpeechTarget, fresh: boolean): Promise<SpeechConnectionTestResult> {
  const cache = cacheOf(ctx);
  const prev = cache.get(t.id);
  if (!fresh && prev && prev.version === t.version && Date.now() - prev.at < ABILITIES_TTL_MS) return prev.result;
  const result = await testSpeechTarget(ctx, t);
  cache.set(t.id, { version: t.version, at: Date.now(), result });
  return result;
}

/** What the server of a connection can do now (cached briefly). */
export const abilitiesOf = (ctx: AppContext, t: SpeechTarget, fresh = false) => known(ctx, t, fresh);

/** The server's own address and error text are the operator's (as for model connections); a user's are theirs. */
export function speechView(t: SpeechTarget, r: SpeechConnectionTestResult, operator = false): SpeechConnection {
  const hidden = t.readOnly && t.kind !== 'espeak' && !operator;
  const a = r.ok
    ? r
    : { voices: [], lists_voices: false, can_clone: false, voice_library: false, summary: 'not reachable' };
  return {
    id: t.id,
    kind: t.kind,
    name: t.name,
    base_url: t.kind === 'espeak' ? 'on this server' : hidden ? '' : t.baseUrl,
    model: t.model,
    api_key_hint: t.keyHint,
    read_only: t.readOnly,
    status: connectionStatus(r, hidden),
    voices: a.voices,
    lists_voices: a.lists_voices,
    can_clone: a.can_clone,
    voice_library: a.voice_library,
    summary: a.summary,
  };
}

export async function listSpeechConnections(
  ctx: AppContext,
  userId: string,
  opts: { fresh?: boolean; operator?: boolean } = {},
): Promise<SpeechConnection[]> {
  const targets = [
    ...serverSpeechTargets(ctx),
    ...(await Promise.all((await speechConnectionStore.list(ctx.db, userId)).map((r) => rowSpeechTarget(ctx, r)))),
  ];
  const results = await Promise.all(targets.map((t) => known(ctx, t, !!opts.fresh)));
  return targets.map((t, i) => speechView(t, results[i], !!opts.operator));
}

export async function speechConnectionView(ctx: AppContext, userId: string, id: string): Promise<SpeechConnection> {
  const t = await findSpeechTarget(ctx, userId, id);
  if (!t) throw new HttpError(404, 'No such speech connection');
  return speechView(t, await known(ctx, t, true));
}
