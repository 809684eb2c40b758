import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../server/providers/types';
import { startTestServer, type TestServer } from '../harness';
import { offlineLlm, openDiscussion, sessionId, testProviders } from '../engine/helpers';
import { addPdf, FACT, TOPIC } from './citingModel';

// A source added to a running discussion (a `sources_add` frame): the offline model's first turn is held until
// the frame is answered, so that turn was asked without the PDF and the later turns with it — their prompts hold
// the PDF's fact and their text quotes and cites it. A source that is not the person's is refused in words and
// the discussion reads nothing new.

let s: TestServer;
let token: string;
let pdfId: string;
let agentIds: string[];
const asked: ChatRequest[] = [];
let release: () => void = () => {};
let held: Promise<void> = Promise.resolve();
const hold = () => {
  held = new Promise((r) => {
    release = r;
  });
};

beforeAll(async () => {
  const llm = offlineLlm(async (req, next) => {
    asked.push(req);
    await held;
    return next(req);
  });
  s = await startTestServer({}, { providers: testProviders({ llm }) });
  ({ token } = await s.register());
  const make = async (name: string) =>
    String(
      (await s.api('POST', '/agents/', { token, body: { name, role: 'Planner', prompt: 'Plans.', model: 'offline' } }))
        .body.id,
    );
  agentIds = [await make('Vera'), await make('Tomas')];
  pdfId = await addPdf(s, token);
});
afterAll(async () => {
  release();
  await s?.close();
});

const promptOf = (r: ChatRequest) => r.messages.map((m) => m.content).join('\n');
const turns = (frames: any[]) => frames.filter((f) => f.type === 'text');

describe('sources_add during a run', () => {
  it('gives the later turns the PDF: their prompts hold it and their text cites it', async () => {
    asked.length = 0;
    hold();
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sessionId('live'),
      context: TOPIC,
      turns: 3,
    });
    await c.waitFor(() => asked.length > 0);
    c.send({ type: 'sources_add', source_ids: [pdfId, pdfId] });
    const note = await c.waitType('format_note');
    expect(note).toMatchObject({ kind: 'sources', text: 'ridership.pdf added: the next turns read it.' });
    release();
    await c.waitClose(30_000);
    expect(c.invalid).toEqual([]);
    expect(c.frames.filter((f) => f.type === 'error')).toEqual([]);

    expect(promptOf(asked[0]!)).not.toContain(FACT);
    const later = asked.slice(1).map(promptOf);
    expect(later.length).toBeGreaterThanOrEqual(2);
    for (const p of later) expect(p).toContain(FACT);

    const [first, ...rest] = turns(c.frames);
    expect(first.citations).toBeUndefined();
    expect(rest.length).toBe(2);
    for (const t of rest) {
      expect(t.text).toContain('4,217 riders');
      expect(t.citations[0]).toMatchObject({
        label: 'S1',
        verified: true,
        source_id: pdfId,
        source_name: 'ridership.pdf',
      });
    }
  });

  it("refuses a source that is not the person's, in words, and changes nothing", async () => {
    asked.length = 0;
    hold();
    const other = await s.register();
    const theirs = await addPdf(s, other.token);
    const c = await openDiscussion(s, '/ws/discuss', token, {
      agent_ids: agentIds,
      session_id: sessionId('foreign'),
      context: TOPIC,
      turns: 2,
    });
    await c.waitFor(() => asked.length > 0);
    c.send({ type: 'sources_add', source_ids: [pdfId, theirs] });
    const refused = await c.waitType('error');
    expect(refused).toMatchObject({ fatal: false });
    expect(refused.message).toMatch(/not found; none was added/);
    release();
    await c.waitClose(30_000);
    expect(c.frames.some((f) => f.type === 'format_note')).toBe(false);
    for (const p of asked.map(promptOf)) expect(p).not.toContain(FACT);
    expect(turns(c.frames).every((t) => t.citations === undefined)).toBe(true);
  });
});
