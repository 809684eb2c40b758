// Typed calls for agents, connections and reference audio (part 1 §7), each answer checked by its schema.
// Built on one injected `send` function so the same code runs over the app's HTTP client, a test double or
// a plain fetch. A failed answer rejects with ApiFailure (status + detail); an unreachable server rejects
// with whatever `send` threw (no status), which is how the machines tell 'Failed to …' from 'Error …'.
import { z } from 'zod';
import { agent, agentList, type AgentCreate, type AgentUpdate, type Position } from '../schemas/agents';
import { audioList, audioUploadResponse, batchTranscribeResponse, transcribeResponse } from '../schemas/audio';
import { autoConnectResponse, connection, connectionList, normalizeConnection } from '../schemas/connections';
import { modelsResponse, normalizeModels } from '../schemas/system';

export interface HttpAnswer {
  status: number;
  ok: boolean;
  statusText: string;
  /** Parsed JSON when the answer had some, else the raw text (or null when empty). */
  body: unknown;
}

export type SendRequest = (method: string, path: string, payload?: { json?: unknown; form?: FormData }) => Promise<HttpAnswer>;

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | undefined,
    readonly text: string,
  ) {
    super(detail ?? `HTTP ${status}: ${text}`);
    this.name = 'ApiFailure';
  }
}

/** The answer did not match the contract: reported like a server failure without a detail. */
export class ContractFailure extends Error {
  readonly status: number;
  readonly text = 'unexpected answer';
  constructor(path: string, status: number, why: string) {
    super(`Unexpected answer from ${path}: ${why}`);
    this.status = status;
  }
}

const detailOf = (body: unknown): string | undefined => {
  if (body && typeof body === 'object' && 'detail' in body) {
    const d = (body as { detail: unknown }).detail;
    if (typeof d === 'string') return d;
    if (Array.isArray(d)) return d.map((x) => (x && typeof x === 'object' && 'msg' in x ? String(x.msg) : JSON.stringify(x))).join('; ');
  }
  return undefined;
};

export interface UploadAudioInput {
  agentId: string;
  name: string;
  file: Blob;
  fileName: string;
}

export function createAgentsApi(send: SendRequest) {
  async function call<S extends z.ZodType>(method: string, path: string, schema: S, payload?: { json?: unknown; form?: FormData }): Promise<z.infer<S>> {
    const answer = await send(method, path, payload);
    if (!answer.ok) throw new ApiFailure(answer.status, detailOf(answer.body), typeof answer.body === 'string' ? answer.body : answer.statusText);
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success) throw new ContractFailure(path, answer.status, parsed.error.message);
    return parsed.data;
  }
  const anything = z.unknown();
  const enc = encodeURIComponent;

  return {
    listModels: async () => normalizeModels(await call('GET', '/models/', modelsResponse)),
    listAgents: () => call('GET', '/agents/', agentList),
    getAgent: (id: string) => call('GET', `/agents/${enc(id)}`, agent),
    /** The position is optional: the server places an agent created without one. */
    createAgent: (body: AgentCreate & Partial<Position>) => call('POST', '/agents/', agent, { json: body }),
    updateAgent: (id: string, body: AgentUpdate) => call('PATCH', `/agents/${enc(id)}`, agent, { json: body }),
    deleteAgent: (id: string) => call('DELETE', `/agents/${enc(id)}`, anything),
    savePosition: (id: string, pos: Position) => call('PUT', `/agents/${enc(id)}/position`, anything, { json: pos }),

    listAudio: (agentId: string) => call('GET', `/agents/${enc(agentId)}/audio`, audioList),
    uploadAudio: ({ agentId, name, file, fileName }: UploadAudioInput) => {
      const form = new FormData();
      form.append('name', name);
      form.append('file', file, fileName);
      form.append('auto_transcribe', 'true');
      return call('POST', `/agents/${enc(agentId)}/audio`, audioUploadResponse, { form });
    },
    deleteAudio: (audioId: string) => call('DELETE', `/agents/audio/${enc(audioId)}`, anything),
    setDefaultAudio: (audioId: string) => call('POST', `/agents/audio/${enc(audioId)}/set-default`, anything),
    transcribeAudio: (audioId: string) => call('POST', '/agents/audio/transcribe', transcribeResponse, { json: { audio_id: audioId } }),
    batchTranscribe: (agentId: string, force = false) =>
      call('POST', '/agents/audio/batch-transcribe', batchTranscribeResponse, { json: { agent_id: agentId, force_retranscribe: force } }),

    listConnections: async () => (await call('GET', '/connections/', connectionList)).map(normalizeConnection),
    createConnection: async (from: string, to: string) =>
      normalizeConnection(await call('POST', '/connections/', connection, { json: { from_agent_id: from, to_agent_id: to } })),
    deleteConnection: (id: string) => call('DELETE', `/connections/${enc(id)}`, anything),
    autoConnect: () => call('POST', '/connections/auto-connect', autoConnectResponse),
  };
}

export type AgentsApi = ReturnType<typeof createAgentsApi>;
