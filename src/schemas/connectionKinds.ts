import { z } from 'zod';
// First, so zod is configured (no run-time code in a browser) before these schemas are built.
import './common';

// Every outside server a user or the operator connects (docs/architecture.md 'One connections module'): one kind
// table, from which every kind type is derived, and the fields and states every kind's connection shares. The
// model and speech surfaces (modelConnections.ts, speechConnections.ts) are two uses of it; the server's half of a
// kind (how it is probed, listed and its client made) is server/connections/kinds.ts, keyed by the same ids.

/** What a kind's server offers the panel. */
export type ConnectionOffer = 'chat' | 'embeddings' | 'speech' | 'voices' | 'tools' | 'transcription';

export interface ConnectionKindRow {
  label: string;
  offers: readonly ConnectionOffer[];
  /** Whether a user may add one ('builtin' and 'espeak' are the server's own, read-only). */
  userMay: boolean;
  /** Whether its form asks for an API key (always optional: a local server needs none). */
  takesKey: boolean;
}

export const CONNECTION_KINDS = {
  model: {
    ollama: { label: 'Ollama', offers: ['chat', 'embeddings'], userMay: true, takesKey: false },
    openai: { label: 'OpenAI-compatible', offers: ['chat', 'embeddings'], userMay: true, takesKey: true },
    builtin: { label: 'Built-in (llama.cpp)', offers: ['chat'], userMay: false, takesKey: false },
  },
  speech: {
    /** OpenAI's /v1/audio/speech (OpenAI, openedai-speech, Kokoro-FastAPI; voices listed where the server can). */
    openai: { label: 'OpenAI-compatible speech', offers: ['speech'], userMay: true, takesKey: true },
    /** A voice-cloning server speaking the Chatterbox TTS API (voice library and one-off upload). */
    chatterbox: {
      label: 'Voice-cloning server (Chatterbox API)',
      offers: ['speech', 'voices'],
      userMay: true,
      takesKey: true,
    },
    espeak: { label: 'Built-in (espeak-ng)', offers: ['speech'], userMay: false, takesKey: false },
  },
  tools: {
    /** An MCP server over Streamable HTTP (or the older HTTP+SSE transport); docs/tools.md. */
    mcp: { label: 'MCP server', offers: ['tools'], userMay: true, takesKey: true },
    /** The server's own tools (calculator, search_sources, search_papers): listed, never edited. */
    builtin: { label: 'Built-in tools', offers: ['tools'], userMay: false, takesKey: false },
  },
  /** The operator's only (TRANSCRIBE_BASE_URL, or pocketsphinx when installed): how a person's recording is read. */
  transcription: {
    openai: { label: 'OpenAI-compatible transcription', offers: ['transcription'], userMay: false, takesKey: true },
    pocketsphinx: { label: 'Built-in (pocketsphinx)', offers: ['transcription'], userMay: false, takesKey: false },
  },
} as const satisfies Record<string, Record<string, ConnectionKindRow>>;

export type ConnectionSurface = keyof typeof CONNECTION_KINDS;
type Kinds<S extends ConnectionSurface> = (typeof CONNECTION_KINDS)[S];
type KindOf<S extends ConnectionSurface> = keyof Kinds<S> & string;
type UserKindOf<S extends ConnectionSurface> = {
  [K in KindOf<S>]: Kinds<S>[K] extends { userMay: true } ? K : never;
}[KindOf<S>];

const tuple = <K extends string>(keys: K[]) => keys as [K, ...K[]];
/** Every kind of a surface, as a zod enum. */
export const kindsOf = <S extends ConnectionSurface>(s: S) =>
  z.enum(tuple(Object.keys(CONNECTION_KINDS[s]) as KindOf<S>[]));
/** The kinds a user may add on a surface, as a zod enum. */
export const userKindsOf = <S extends ConnectionSurface>(s: S) =>
  z.enum(
    tuple(
      (Object.entries(CONNECTION_KINDS[s]) as Array<[UserKindOf<S>, ConnectionKindRow]>)
        .filter(([, k]) => k.userMay)
        .map(([id]) => id),
    ),
  );
export const kindLabel = <S extends ConnectionSurface>(s: S, kind: KindOf<S>): string =>
  (CONNECTION_KINDS[s][kind] as ConnectionKindRow).label;

// ── The fields every kind's connection has ──

/** Longest API key accepted (real keys are under 200 characters; JWT-style keys stay far below this). */
export const API_KEY_MAX_BYTES = 4096;
export const CONNECTION_NAME_MAX = 60;

export const httpUrl = z
  .string()
  .trim()
  .min(1, 'Base URL is required')
  .max(2000, 'Base URL is too long')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
    } catch {
      return false;
    }
  }, 'Base URL must be an http:// or https:// address');

export const apiKey = z
  .string()
  .refine(
    (v) => new TextEncoder().encode(v).length <= API_KEY_MAX_BYTES,
    `API key is longer than ${API_KEY_MAX_BYTES / 1024} KB`,
  )
  .refine((v) => !/[\r\n\0]/.test(v), 'API key must be one line');

export const connectionName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(CONNECTION_NAME_MAX, `Name is at most ${CONNECTION_NAME_MAX} characters`);

/** Test before saving, for any kind; `id` lets an edit test with the stored key when no new key was typed. */
export const connectionTestBodyOf = <K extends z.ZodTypeAny>(kind: K) =>
  z.object({ kind, base_url: httpUrl, api_key: apiKey.nullish(), id: z.string().max(100).optional() });

/** Why a connection could not be used, in a word the UI can act on, and the words it shows. */
export const connectionFailureKind = z.enum([
  'dns',
  'refused',
  'timeout',
  'key_rejected',
  'not_compatible',
  'http',
  'blocked',
  'unreachable',
]);
export type ConnectionFailureKind = z.infer<typeof connectionFailureKind>;
export const connectionState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('reachable') }),
  z.object({ state: z.literal('unreachable'), reason: connectionFailureKind, detail: z.string() }),
  z.object({ state: z.literal('key_rejected'), reason: z.literal('key_rejected'), detail: z.string() }),
  z.object({ state: z.literal('unknown') }),
]);
export type ConnectionState = z.infer<typeof connectionState>;
/** A failed Test, of any kind. */
export const connectionTestFailure = z.object({
  ok: z.literal(false),
  reason: connectionFailureKind,
  detail: z.string(),
});
