import { createLlmRegistry } from '../../../server/providers';
import { createOpenAiProvider } from '../../../server/providers/llm/openai';
import type { ServerConfig } from '../../../server/config';
import { startFakeOpenAi } from '../../support/fakeModelServers';
import { testProviders } from '../engine/helpers';
import { startTestServer, type TestServer } from '../harness';

// The facade tests' world: the real server on a loopback OpenAI-compatible model that reports its token counts,
// two people, each with a saved panel of two agents, and API tokens made with the session token.

export const MODEL = 'fake-gpt-mini';
export const CALL_USAGE = { prompt_tokens: 100, completion_tokens: 20 };

export interface Person {
  token: string;
  userId: string;
  panelId: string;
  /** Makes an API token with these scopes. */
  apiToken(scopes: Array<'read' | 'run'>): Promise<{ id: string; token: string }>;
}

export async function startPanelWorld(overrides: Partial<ServerConfig> = {}) {
  const lb = await startFakeOpenAi({
    models: [MODEL],
    usage: CALL_USAGE,
    say: (u) => `Open on Sundays from noon: ${u.length} characters heard.`,
  });
  const providers = testProviders({ llm: createLlmRegistry([createOpenAiProvider({ baseUrl: lb.url })]) });
  const t: TestServer = await startTestServer(overrides, { providers });
  const person = async (names: string[], panel: string): Promise<Person> => {
    const { token, userId } = await t.register();
    const ids: string[] = [];
    for (const name of names)
      ids.push(
        (await t.api('POST', '/agents/', { token, body: { name, role: 'Analyst', prompt: 'Weigh it.', model: MODEL } }))
          .body.id,
      );
    const made = await t.api('POST', '/panels', {
      token,
      body: { name: panel, agent_ids: ids, settings: { max_rounds: 1 } },
    });
    if (made.status !== 201) throw new Error(`panel: ${made.status} ${JSON.stringify(made.body)}`);
    return {
      token,
      userId,
      panelId: made.body.id,
      async apiToken(scopes) {
        const r = await t.api('POST', '/api-tokens', { token, body: { name: scopes.join('+'), scopes } });
        return { id: r.body.id, token: r.body.token };
      },
    };
  };
  const chatCalls = () => lb.seen.filter((r) => r.url.startsWith('/v1/chat/completions')).length;
  return {
    t,
    lb,
    chatCalls,
    ada: await person(['Ada', 'Bo'], 'Library'),
    bob: await person(['Cy', 'Di'], 'Secret plans'),
    close: async () => {
      await t.close();
      await lb.close();
    },
  };
}
