// Every typed REST call the SPA makes (docs/product.md#workspace-calls), on the one HTTP helper (http.ts): sign-in, the
// shell, agents, positions, reference audio, connections and the monitor. Each answer is checked by its schema; a
// failure rejects with http.ts's HttpError (status + detail + text), ContractError, or NetworkError (no status), and
// src/model/failures.ts is the one reader of that shape. Idempotent list reads retry on a 5xx; nothing else does.
import type { AgentCreateRequest, AgentUpdate, Position } from '../schemas/agents';
import type { Http } from './http';
import { lazyAsk, loadWire } from './lazyAsk';
import { createSpeechApi } from './speechApi';
import { createToolsApi } from './toolsApi';

export interface UploadAudioInput {
  agentId: string;
  name: string;
  file: Blob;
  fileName: string;
}

export function createApi(http: Http) {
  const enc = encodeURIComponent;
  const { request } = http;
  const ask = lazyAsk(request);

  return {
    // ── Sign-in and the shell ──
    login: (email: string, password: string) =>
      ask('POST', '/auth/login', 'loginResponse', { json: { email, password }, public: true }),
    register: (email: string, password: string) =>
      ask('POST', '/auth/register', 'loginResponse', { json: { email, password }, public: true }),
    me: () => ask('GET', '/auth/me', 'user'),
    health: () => ask('GET', '/health', 'health', { public: true }),
    monitorStats: () => ask('GET', '/monitor/stats', 'monitorStats'),
    listModels: async () =>
      (await loadWire()).normalizeModels(await ask('GET', '/models/', 'modelsResponse', { retry: true })),

    // ── Agents ──
    listAgents: () => ask('GET', '/agents/', 'agentList', { retry: true }),
    getAgent: (id: string) => ask('GET', `/agents/${enc(id)}`, 'agent'),
    /** The position is optional: the server places an agent created without one. */
    createAgent: (body: AgentCreateRequest) => ask('POST', '/agents/', 'agent', { json: body }),
    updateAgent: (id: string, body: AgentUpdate) => ask('PATCH', `/agents/${enc(id)}`, 'agent', { json: body }),
    deleteAgent: (id: string) => ask('DELETE', `/agents/${enc(id)}`, 'anything'),
    savePosition: (id: string, pos: Position) => ask('PUT', `/agents/${enc(id)}/position`, 'anything', { json: pos }),

    // ── Reference audio ──
    listAudio: (agentId: string) => ask('GET', `/agents/${enc(agentId)}/audio`, 'audioList'),
    uploadAudio: ({ agentId, name, file, fileName }: UploadAudioInput) => {
      const form = new FormData();
      form.append('name', name);
      form.append('file', file, fileName);
      form.append('auto_transcribe', 'true');
      return ask('POST', `/agents/${enc(agentId)}/audio`, 'audioUploadResponse', { form });
    },
    deleteAudio: (audioId: string) => ask('DELETE', `/agents/audio/${enc(audioId)}`, 'anything'),
    setDefaultAudio: (audioId: string) => ask('POST', `/agents/audio/${enc(audioId)}/set-default`, 'anything'),
    transcribeAudio: (audioId: string) =>
      ask('POST', '/agents/audio/transcribe', 'transcribeResponse', { json: { audio_id: audioId } }),
    batchTranscribe: (agentId: string, force = false) =>
      ask('POST', '/agents/audio/batch-transcribe', 'batchTranscribeResponse', {
        json: { agent_id: agentId, force_retranscribe: force },
      }),

    // ── Connections ──
    listConnections: async () =>
      (await ask('GET', '/connections/', 'connectionList', { retry: true })).map(
        (await loadWire()).normalizeConnection,
      ),
    createConnection: async (from: string, to: string) =>
      (await loadWire()).normalizeConnection(
        await ask('POST', '/connections/', 'connection', { json: { from_agent_id: from, to_agent_id: to } }),
      ),
    deleteConnection: (id: string) => ask('DELETE', `/connections/${enc(id)}`, 'anything'),
    autoConnect: () => ask('POST', '/connections/auto-connect', 'autoConnectResponse'),

    // ── Speech connections and agent voices (speechApi.ts) ──
    ...createSpeechApi(http),

    // ── Tool servers and the tool catalog (toolsApi.ts) ──
    ...createToolsApi(http),
  };
}

export type Api = ReturnType<typeof createApi>;
