import { expect } from 'vitest';
import { fileForm } from '../../support/documents';
import type { TestServer } from '../harness';
import { passagesForTurn } from '../../../server/sources/turnPassages';

// The embedding tests' documents and steps, shared by the PGlite and PostgreSQL files: a question that shares no
// word with the passage that answers it ('vehicles pollute the city air' / 'automobile exhaust fouls the urban
// atmosphere'), one that shares a word only ('city'), and one about something else.

export const QUESTION = 'Do vehicles pollute the city air?';
export const DOCS = {
  council: 'The city council met on Tuesday to set parking fees downtown.',
  exhaust: 'Automobile exhaust fouls the urban atmosphere every rush hour.',
  bees: 'Bees pollinate the orchard in spring when blossoms open.',
};

export async function addText(s: TestServer, token: string, name: string, text: string) {
  const r = await s.api('POST', '/sources', { token, body: fileForm(name, text) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; embedding: string; searched_by: string };
}

export async function addDocs(s: TestServer, token: string) {
  const out: Record<keyof typeof DOCS, string> = { council: '', exhaust: '', bees: '' };
  for (const [k, text] of Object.entries(DOCS))
    out[k as keyof typeof DOCS] = (await addText(s, token, `${k}.md`, text)).id;
  return out;
}

/** Waits until none of the person's sources is being embedded; answers them. */
export async function settled(s: TestServer, token: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const list = (await s.api('GET', '/sources', { token })).body as Array<{
      id: string;
      name: string;
      embedding: string;
      searched_by: string;
      embedding_note: string | null;
    }>;
    if (!list.some((x) => x.embedding === 'embedding')) return list;
    if (Date.now() > until) throw new Error(`still embedding: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The texts of the passages a turn about QUESTION would be given, best first. */
export async function turnTexts(s: TestServer, userId: string, sourceIds: string[], question = QUESTION) {
  const given = await passagesForTurn(s.server.ctx.db, s.server.ctx.config.sources, userId, {
    sourceIds,
    texts: [question],
  });
  return given.map((p) => p.text);
}

export async function addConnection(s: TestServer, token: string, kind: 'ollama' | 'openai', url: string) {
  const r = await s.api('POST', '/model-connections', {
    token,
    body: { kind, name: `Loopback ${kind}`, base_url: url },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; models: Array<{ id: string; name: string }> };
}
