import WebSocket from 'ws';
import { parseFrame } from '../../../src/schemas/frames';
import { hybridServerFrame } from '../../../src/schemas/hybridSocket';
import { standardServerFrame } from '../../../src/schemas/standardSocket';
import type { TestServer } from '../harness';
import { isEphemeral } from '../../../server/engine/frames';
import { createLlmRegistry, createOfflineProvider } from '../../../server/providers';
import type { ChatRequest, LlmProvider, ResearchService, SpeechProvider } from '../../../server/providers/types';
import type { Providers } from '../../../server/providers/providers';
import { createNoSpeech } from '../../../server/providers/speech/none';
import type { OfflineOptions } from '../../../server/providers/llm/offline';
import { createNoTranscription } from '../../../server/providers/transcription/none';
import { silentWav } from '../../support/wav';

// Shared by the engine's integration tests: agents made through the real /agents API, and a socket client that
// keeps every frame, checks each against the panel's schema, and can wait for a type or the close.

export const AGENT_SPECS = [
  {
    name: 'Ada',
    role: 'Agronomist',
    prompt: 'You study soil health and water use in vineyards.',
    model: 'offline',
    personality: 'analytical',
  },
  {
    name: 'Bo',
    role: 'Economist',
    prompt: 'You weigh costs, prices and risk for growers.',
    model: 'offline',
    personality: 'assertive',
  },
  {
    name: 'Cy',
    role: 'Grower',
    prompt: 'You run a family vineyard and care about practical steps.',
    model: 'offline',
    personality: 'patient',
  },
] as const;

export async function makeAgents(s: TestServer, token: string, n = 3): Promise<string[]> {
  const ids: string[] = [];
  for (const spec of AGENT_SPECS.slice(0, n)) {
    const r = await s.api('POST', '/agents/', { token, body: spec });
    if (r.status !== 200 && r.status !== 201)
      throw new Error(`agent create failed: ${r.status} ${JSON.stringify(r.body)}`);
    ids.push(String(r.body.id));
  }
  return ids;
}

export type Panel = 'standard' | 'hybrid';

export interface Client {
  ws: WebSocket;
  /** Every frame received, streamed deltas included. */
  frames: any[];
  /** The frames the server stores and replays: all but the ephemeral agent_message_start / agent_message_delta. */
  readonly kept: any[];
  /** Frames that failed the panel's schema (should stay empty). */
  invalid: Array<{ raw: string; error: string }>;
  closed: { code: number; reason: string } | null;
  send(frame: object): void;
  waitFor(pred: (f: any) => boolean, ms?: number): Promise<any>;
  waitType(type: string, ms?: number): Promise<any>;
  waitClose(ms?: number): Promise<{ code: number; reason: string }>;
  /**
   * Resolves once the server has taken every stored frame so far as delivered: its delivery ping covering the last
   * one arrived (ws answers it with a pong by itself), then a ping of ours came back — the server reads a socket in
   * order, so its pong handler has run by then.
   */
  delivered(ms?: number): Promise<void>;
  /** Resolves when a ping of ours comes back: the server has read and handled every frame sent before it. */
  roundTrip(): Promise<void>;
}

export function client(ws: WebSocket, panel: Panel): Client {
  const schema = panel === 'standard' ? standardServerFrame : hybridServerFrame;
  const frames: any[] = [];
  const invalid: Client['invalid'] = [];
  let closed: Client['closed'] = null;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  ws.on('message', (d) => {
    const raw = String(d);
    const res = parseFrame(schema, raw);
    if (res.kind !== 'frame')
      invalid.push({ raw, error: res.kind === 'unknown' ? `unknown type ${res.type}` : res.error });
    frames.push(JSON.parse(raw));
    wake();
  });
  ws.on('close', (code, reason) => {
    closed = { code, reason: String(reason) };
    wake();
  });
  const roundTrip = () =>
    new Promise<void>((resolve) => {
      ws.once('pong', () => resolve());
      ws.ping();
    });
  let pinged = 0;
  ws.on('ping', (payload) => {
    pinged = Math.max(pinged, Number(String(payload)) || 0);
    wake();
  });
  const until = <T>(check: () => T | undefined, ms: number) =>
    new Promise<T>((resolve, reject) => {
      const attempt = () => {
        const v = check();
        if (v !== undefined) {
          cleanup();
          resolve(v);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(`timed out; frames: ${frames.map((f) => f.type).join(',')}; closed: ${JSON.stringify(closed)}`),
        );
      }, ms);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(attempt);
      };
      waiters.add(attempt);
      attempt();
    });
  return {
    ws,
    frames,
    invalid,
    get closed() {
      return closed;
    },
    get kept() {
      return frames.filter((f) => !isEphemeral(f));
    },
    send: (frame) => ws.send(JSON.stringify(frame)),
    waitFor: (pred, ms = 15_000) => until(() => frames.find(pred), ms),
    waitType: (type, ms = 15_000) => until(() => frames.find((f) => f.type === type), ms),
    waitClose: (ms = 15_000) => until(() => closed ?? undefined, ms),
    async delivered(ms = 15_000) {
      await until(() => (pinged >= frames.filter((f) => !isEphemeral(f)).length ? true : undefined), ms);
      await roundTrip();
    },
    roundTrip,
  };
}

/** Opens a discussion socket, sends the configuration at once (as the panels do) and returns the client. */
export async function openDiscussion(
  s: TestServer,
  path: string,
  token: string,
  config: object,
  panel: Panel = 'standard',
): Promise<Client> {
  const ws = await s.socket(path, token);
  const c = client(ws, panel);
  c.send(config);
  return c;
}

export const sessionId = (tag: string) => `session_${Date.now()}_${tag}_${Math.random().toString(36).slice(2, 8)}`;

// ── Providers for the integration suite: the real offline model, with speech and research faked or absent ──

/** The offline model, optionally wrapped (to watch requests, slow it down or make it fail). */
export function offlineLlm(
  wrap?: (
    req: ChatRequest,
    next: (r: ChatRequest) => ReturnType<LlmProvider['chat']>,
  ) => ReturnType<LlmProvider['chat']>,
  opts: OfflineOptions = {},
) {
  const offline = createOfflineProvider(opts);
  const provider: LlmProvider = wrap ? { ...offline, chat: (req) => wrap(req, (r) => offline.chat(r)) } : offline;
  return createLlmRegistry([provider]);
}

/** A speech engine that returns a tiny valid WAV (silence) for any text. */
export function fakeSpeech(): SpeechProvider {
  return {
    id: 'fake-speech',
    available: () => true,
    synthesize: async () => ({ audio: silentWav(1600), mimeType: 'audio/wav', extension: 'wav' }),
    probe: async () => ({ status: 'ok', provider: 'fake-speech' }),
  };
}

/** Research answered from a fixed set of papers in the service's real outcome shape (or unavailable). */
export function recordedResearch(available = true): ResearchService {
  return {
    enabled: true,
    async search(req) {
      if (!available)
        return {
          query: req.query,
          results: [],
          errors: [{ source: 'arxiv', message: 'arXiv at https://export.arxiv.org is not reachable (ENOTFOUND)' }],
          available: false,
          detail: 'Could not reach arXiv: no network.',
        };
      return {
        query: req.query,
        available: true,
        errors: [],
        results: [
          {
            source: 'arxiv',
            query: req.query,
            results: [
              {
                title: 'Deficit irrigation strategies in grapevines',
                authors: ['M. Costa', 'J. Silva'],
                year: 2021,
                abstract: 'We compare regulated deficit irrigation and partial root-zone drying in Vitis vinifera.',
                url: 'https://arxiv.org/abs/2101.00001',
                source: 'arxiv',
              },
              {
                title: 'Soil moisture sensing for precision viticulture',
                authors: ['A. Rossi'],
                year: 2022,
                abstract: 'Low-cost capacitive probes guide drip scheduling.',
                url: 'https://arxiv.org/abs/2202.00002',
                source: 'arxiv',
              },
            ],
          },
          {
            source: 'pubmed',
            query: req.query,
            results: [
              {
                title: 'Water use efficiency of drip-irrigated vineyards',
                authors: ['K. Lee'],
                year: 2020,
                abstract: 'Field trial over three seasons.',
                url: 'https://pubmed.ncbi.nlm.nih.gov/30000003/',
                source: 'pubmed',
              },
            ],
          },
        ],
      };
    },
  };
}

export function testProviders(over: Partial<Providers> = {}): Providers {
  return { llm: offlineLlm(), speech: createNoSpeech(), transcription: createNoTranscription(), ...over };
}

/** Resolves once the server has stored `n` human messages of the discussion (it has taken them in). */
export async function humanMessagesStored(s: TestServer, token: string, sid: string, n = 1, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await s.api('GET', `/discussion/${sid}`, { token });
    if ((r.body?.human_messages?.length ?? 0) >= n) return;
    if (Date.now() > end) throw new Error(`${n} human message(s) of ${sid} were not stored within ${ms} ms`);
  }
}
