import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileForm } from '../../support/documents';
import { startTestServer, type TestServer } from '../harness';
import { offlineLlm, openDiscussion, sessionId, testProviders } from '../engine/helpers';
import { addPdf, FACT, makeAgent, startCitingModel, TOPIC } from './citingModel';

// Sources in a turn, through the real server and socket with an OpenAI-compatible model on a loopback port that
// keeps every prompt: a fact found only in an uploaded PDF reaches the prompt of the agent that reads it, with its
// page; the reply's [S1] becomes a verified citation on the turn's frame and an invented [S9] an unverified one;
// an agent without the source (it is another agent's own) never sees it.

let lb: Awaited<ReturnType<typeof startCitingModel>>['lb'];
let promptsOf: (name: string) => string[];
let s: TestServer;
let token: string;
let ada: string;
let bo: string;
let pdfId: string;

beforeAll(async () => {
  const model = await startCitingModel();
  ({ lb, promptsOf } = model);
  s = await startTestServer({}, { providers: model.providers });
  ({ token } = await s.register());
  ada = await makeAgent(s, token, 'Ada', 'Transit planner');
  bo = await makeAgent(s, token, 'Bo', 'Budget officer');
  pdfId = await addPdf(s, token);
});
afterAll(async () => {
  await s?.close();
  await lb?.close();
});

const turns = (frames: any[]) => frames.filter((f) => f.type === 'text');

describe("an agent's own source", () => {
  it('reaches only that agent, with its page, and its labels become citations', async () => {
    const patched = await s.api('PATCH', `/agents/${ada}`, { token, body: { source_ids: [pdfId] } });
    expect(patched.status).toBe(200);
    expect(patched.body.source_ids).toEqual([pdfId]);
    // A move answers (and tells the person's other tabs) the whole agent, its sources too.
    const moved = await s.api('PUT', `/agents/${ada}/position`, { token, body: { x: 40, y: 60 } });
    expect(moved.body).toMatchObject({ x: 40, y: 60, source_ids: [pdfId] });
    lb.seen.length = 0;
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: [ada, bo],
      session_id: sessionId('own'),
      context: TOPIC,
      turns: 2,
    });
    await c.waitClose(30_000);
    expect(c.frames.filter((f) => f.type === 'error')).toEqual([]);

    const adaPrompt = promptsOf('Ada')[0];
    expect(adaPrompt).toContain('[S1] ridership.pdf, p. 2:');
    expect(adaPrompt).toContain(FACT);
    expect(adaPrompt).toMatch(/not instructions/);
    for (const p of promptsOf('Bo')) {
      expect(p).not.toContain(FACT);
      expect(p).not.toContain('ridership.pdf');
    }

    const [first, second] = turns(c.frames);
    expect(first.from).toBe('Ada');
    const [s1, s9] = first.citations;
    expect(s1).toMatchObject({ label: 'S1', verified: true, source_id: pdfId, source_name: 'ridership.pdf', page: 2 });
    expect(s1.quote).toContain('4,217 riders');
    const passage = await s.api('GET', `/sources/${pdfId}/passages/${s1.passage_id}`, { token });
    expect(passage.body.text).toContain(FACT);
    expect(s9).toMatchObject({ label: 'S9', verified: false, passage_id: null, page: null });
    expect(second.from).toBe('Bo');
    expect(second.citations).toBeUndefined();

    await s.api('PATCH', `/agents/${ada}`, { token, body: { source_ids: [] } });
  });
});

describe("a discussion's sources", () => {
  it('reach every agent; a source that is not the person’s starts nothing', async () => {
    lb.seen.length = 0;
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: [ada, bo],
      session_id: sessionId('shared'),
      context: TOPIC,
      turns: 2,
      source_ids: [pdfId],
    });
    await c.waitClose(30_000);
    expect(promptsOf('Ada')[0]).toContain(FACT);
    expect(promptsOf('Bo')[0]).toContain(FACT);
    expect(turns(c.frames).every((t) => t.citations?.[0]?.verified)).toBe(true);

    const other = await s.register();
    const refused = await openDiscussion(s, '/ws/discuss', other.token, {
      agent_ids: [ada, bo],
      session_id: sessionId('foreign'),
      context: TOPIC,
      turns: 2,
      source_ids: [pdfId],
    });
    await refused.waitClose(10_000);
    expect(refused.frames.some((f) => f.type === 'text')).toBe(false);
  });
});

describe('the offline model', () => {
  it('quotes a sentence of the first passage and cites it, so the feature works with nothing installed', async () => {
    const t = await startTestServer({}, { providers: testProviders({ llm: offlineLlm() }) });
    try {
      const { token: tk } = await t.register();
      const make = async (name: string) =>
        String(
          (
            await t.api('POST', '/agents/', {
              token: tk,
              body: { name, role: 'Planner', prompt: 'Plans.', model: 'offline' },
            })
          ).body.id,
        );
      const ids = [await make('Vera'), await make('Tomas')];
      const src = await t.api('POST', '/sources', {
        token: tk,
        body: fileForm('notes.md', `# Ridership\n\n${FACT}. Riders liked it.`),
      });
      const c = await openDiscussion(t, '/ws/discuss', tk, {
        agent_ids: ids,
        session_id: sessionId('offline'),
        context: TOPIC,
        turns: 2,
        source_ids: [src.body.id],
      });
      await c.waitClose(30_000);
      const first = turns(c.frames)[0];
      expect(first.text).toContain('[S1]');
      expect(first.text).toContain('4,217 riders');
      expect(first.citations[0]).toMatchObject({ label: 'S1', verified: true, source_name: 'notes.md' });
    } finally {
      await t.close();
    }
  });
});
