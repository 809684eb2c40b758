// Typed REST calls for the shell, sign-in and the workspace's first load (part 1 §7), on the one HTTP helper.
// The agent editor's calls live in agentsApi.ts (built on the same helper's `send`).
import { loginResponse, user } from '../schemas/auth';
import { agentList } from '../schemas/agents';
import { connectionList, normalizeConnection } from '../schemas/connections';
import { health, modelsResponse, monitorStats, normalizeModels } from '../schemas/system';
import type { Http } from './http';

export function createApi(http: Http) {
  return {
    login: (email: string, password: string) =>
      http.request('POST', '/auth/login', loginResponse, { json: { email, password }, public: true }),
    register: (email: string, password: string) =>
      http.request('POST', '/auth/register', loginResponse, { json: { email, password }, public: true }),
    me: () => http.request('GET', '/auth/me', user),
    health: () => http.request('GET', '/health', health, { public: true }),
    models: async () => normalizeModels(await http.request('GET', '/models/', modelsResponse, { retry: true })),
    listAgents: () => http.request('GET', '/agents/', agentList, { retry: true }),
    listConnections: async () => (await http.request('GET', '/connections/', connectionList, { retry: true })).map(normalizeConnection),
    monitorStats: () => http.request('GET', '/monitor/stats', monitorStats),

  };
}

export type Api = ReturnType<typeof createApi>;
