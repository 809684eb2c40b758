// Every typed REST call the SPA makes (part 1 §7), on the one HTTP helper (http.ts): sign-in, the shell,
// agents, positions, reference audio, connections and the monitor. Each answer is checked by its schema; a
// failure rejects with http.ts's HttpError (status + detail + text), ContractError, or NetworkError (no status),
// and src/model/failures.ts is the one reader of that shape. Idempotent list reads retry on a 5xx; nothing else does.
import { z } from 'zod';
import { loginResponse, user } from '../schemas/auth';
import { agent, agentList, type AgentCreateRequest, type AgentUpdate, type Position } from '../schemas/agents';
import { audioList, audioUploadResponse, batchTranscribeResponse, transcribeResponse } from '../schemas/audio';
import { autoConnectResponse, connection, connectionList, normalizeConnection } from '../schemas/connections';
import { health, modelsResponse, monitorStats, normalizeModels } from '../schemas/system';
import type { Http } from './http';

export interface UploadAudioInput {
  agentId: string;
  name: string;
  file: Blob;
  fileName: string;
}

export function createApi(http: Http) {
  const anything = z.unknown();
  const enc = encodeURIComponent;
  const { request } = http;

  return {
    // ── Sign-in and the shell ──
    login: (email: string, password: string) => request('POST', '/auth/login', loginResponse, { json: { email, password }, public: true }),
    register: (email: string, password: string) => request('POST', '/auth/register', loginResponse, { json: { email, password }, public: true }),
    me: () => request('GET', '/auth/me', user),
    health: () => request('GET', '/health', health, { public: true }),
    monitorStats: () => request('GET', '/monitor/stats', monitorStats),
    listModels: async () => normalizeModels(await request('GET', '/models/', modelsResponse, { retry: true })),

    // ── Agents ──
    listAgents: () => request('GET', '/agents/', agentList, { retry: true }),
    getAgent: (id: string) => request('GET', `/agents/${enc(id)}`, agent),
    /** The position is optional: the server places an agent created without one. */
    createAgent: (body: AgentCreateRequest) => request('POST', '/agents/', agent, { json: body }),
    updateAgent: (id: string, body: AgentUpdate) => request('PATCH', `/agents/${enc(id)}`, agent, { json: body }),
    deleteAgent: (id: string) => request('DELETE', `/agents/${enc(id)}`, anything),
    savePosition: (id: string, pos: Position) => request('PUT', `/agents/${enc(id)}/position`, anything, { json: pos }),

    // ── Reference audio ──
    listAudio: (agentId: string) => request('GET', `/agents/${enc(agentId)}/audio`, audioList),
    uploadAudio: ({ agentId, name, file, fileName }: UploadAudioInput) => {
      const form = new FormData();
      form.append('name', name);
      form.append('file', file, fileName);
      form.append('auto_transcribe', 'true');
      return request('POST', `/agents/${enc(agentId)}/audio`, audioUploadResponse, { form });
    },
    deleteAudio: (audioId: string) => request('DELETE', `/agents/audio/${enc(audioId)}`, anything),
    setDefaultAudio: (audioId: string) => request('POST', `/agents/audio/${enc(audioId)}/set-default`, anything),
    transcribeAudio: (audioId: string) => request('POST', '/agents/audio/transcribe', transcribeResponse, { json: { audio_id: audioId } }),
    batchTranscribe: (agentId: string, force = false) =>
      request('POST', '/agents/audio/batch-transcribe', batchTranscribeResponse, { json: { agent_id: agentId, force_retranscribe: force } }),

    // ── Connections ──
    listConnections: async () => (await request('GET', '/connections/', connectionList, { retry: true })).map(normalizeConnection),
    createConnection: async (from: string, to: string) =>
      normalizeConnection(await request('POST', '/connections/', connection, { json: { from_agent_id: from, to_agent_id: to } })),
    deleteConnection: (id: string) => request('DELETE', `/connections/${enc(id)}`, anything),
    autoConnect: () => request('POST', '/connections/auto-connect', autoConnectResponse),
  };
}

export type Api = ReturnType<typeof createApi>;
