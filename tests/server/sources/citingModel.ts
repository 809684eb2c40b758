import { createLlmRegistry } from '../../../server/providers';
import { createOpenAiProvider } from '../../../server/providers/llm/openai';
import { fileForm, pdfOf } from '../../support/documents';
import { startFakeOpenAi } from '../../support/fakeModelServers';
import type { TestServer } from '../harness';
import { testProviders } from '../engine/helpers';

// The sources tests' model and documents: an OpenAI-compatible model on a loopback port that keeps every prompt
// and cites the first label it was given ([S1]) and one it was not ([S9]); a PDF whose second page holds a fact
// found nowhere else.

export const MODEL = 'fake-gpt-mini';
export const FACT = 'Route 12 carried 4,217 riders a day during the free fare weeks';
export const TOPIC = 'Should route 12 keep free fares for riders?';

export async function startCitingModel() {
  const lb = await startFakeOpenAi({
    models: [MODEL],
    answer: (messages) => {
      const cites = messages.some((m) => m.content.includes('[S1]'));
      return {
        content: cites
          ? 'The pilot filled the buses [S1]; the bridge survey says otherwise [S9].'
          : 'We should look at the numbers before deciding.',
        stance: 'support',
        confidence: 0.8,
        argument_type: 'proposal',
        reasoning: ['It follows.'],
      };
    },
  });
  const providers = testProviders({ llm: createLlmRegistry([createOpenAiProvider({ baseUrl: lb.url })]) });
  /** The prompts an agent was sent, each as one text. */
  const promptsOf = (name: string) =>
    lb.seen
      .filter((r) => r.url.startsWith('/v1/chat/completions'))
      .map((r) => (r.body.messages as Array<{ role: string; content: string }>).map((m) => m.content).join('\n'))
      .filter((p) => p.includes(`You are ${name},`));
  return { lb, providers, promptsOf };
}

export const ridershipPdf = () =>
  pdfOf([
    'Annual report of the city transit board. Buses ran on time most days.',
    `${FACT}. Crowding was worst at rush hour on weekdays.`,
  ]);

export async function makeAgent(s: TestServer, token: string, name: string, role: string): Promise<string> {
  const r = await s.api('POST', '/agents/', {
    token,
    body: { name, role, prompt: 'You weigh the figures.', model: MODEL },
  });
  return String(r.body.id);
}

export async function addPdf(s: TestServer, token: string): Promise<string> {
  const r = await s.api('POST', '/sources', { token, body: fileForm('ridership.pdf', ridershipPdf()) });
  if (r.status !== 201) throw new Error(`adding the PDF failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}
