import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_USAGE, startPanelWorld } from './panelFixture';

// POST /v1/chat/completions asked with the official `openai` client (docs/integrations.md): a saved panel is the
// model 'panel:<name>'; its answer is the discussion's final answer, whole or as chunks ending with usage counted
// from the model server's own figures; bad input is refused in OpenAI's error shape.

let w: Awaited<ReturnType<typeof startPanelWorld>>;
let client: OpenAI;
let readOnly: OpenAI;

const clientFor = (apiKey: string) => new OpenAI({ baseURL: `${w.t.url}/v1`, apiKey, maxRetries: 0 });

beforeAll(async () => {
  w = await startPanelWorld();
  client = clientFor((await w.ada.apiToken(['read', 'run'])).token);
  readOnly = clientFor((await w.ada.apiToken(['read'])).token);
});
afterAll(() => w?.close());

const history = async () =>
  (await w.t.api('GET', '/discussion/history', { token: w.ada.token })).body as Array<{
    id: string;
    origin?: string;
    topic: string;
  }>;

describe('/v1/chat/completions', () => {
  it('lists the panel as a model and answers with the discussion’s final answer and its real usage', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['panel:Library']);

    const before = w.chatCalls();
    const res = await client.chat.completions.create({
      model: 'panel:Library',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'We run a small library.' },
        { role: 'assistant', content: 'Noted.' },
        { role: 'user', content: 'Should we open on Sundays?' },
      ],
    });
    const calls = w.chatCalls() - before;
    expect(calls).toBeGreaterThanOrEqual(2);
    const agora = (res as unknown as { agora: { discussion_id: string; address: string; usage_estimated: boolean } })
      .agora;
    expect(res.usage).toEqual({
      prompt_tokens: calls * CALL_USAGE.prompt_tokens,
      completion_tokens: calls * CALL_USAGE.completion_tokens,
      total_tokens: calls * (CALL_USAGE.prompt_tokens + CALL_USAGE.completion_tokens),
    });
    expect(agora.usage_estimated).toBe(false);
    expect(agora.address).toBe(`/discussions/${agora.discussion_id}`);
    // The answer is the stored discussion's own conclusion.
    const stored = await w.t.api('GET', `/discussion/${agora.discussion_id}`, { token: w.ada.token });
    const frames = stored.body.frames.map((f: { data?: unknown }) => f.data ?? f) as Array<Record<string, any>>;
    const summary = frames.findLast((f) => f.type === 'discussion_summary');
    const reached = frames.findLast((f) => f.type === 'consensus_reached');
    expect(res.choices[0].message.content).toBe(summary?.summary?.text ?? reached?.consensus?.solution);
    expect(res.choices[0].message.content).toContain('Open on Sundays');
    // The earlier messages were heard as context.
    const prompts = w.lb.seen
      .filter((s) => s.url.startsWith('/v1/chat/completions'))
      .slice(-calls)
      .map((s) => JSON.stringify(s.body.messages));
    expect(prompts.every((p) => p.includes('We run a small library.'))).toBe(true);
    expect((await history()).find((r) => r.id === agora.discussion_id)).toMatchObject({
      origin: 'api',
      topic: 'Should we open on Sundays?',
    });
  });

  it('streams OpenAI chunks, the turns as reasoning when asked, and ends with a usage chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'panel:library',
      messages: [{ role: 'user', content: 'Should we open on Sundays?' }],
      stream: true,
      stream_options: { include_usage: true },
      // @ts-expect-error Agora's own field
      include_turns: true,
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const reasoning = chunks
      .map((c) => (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '')
      .join('');
    expect(reasoning).toContain('**1. Ada**');
    expect(reasoning).toContain('**2. Bo**');
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(content).toContain('Open on Sundays');
    expect(chunks.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(true);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.total_tokens).toBeGreaterThan(0);
    expect(last.usage?.total_tokens).toBe((last.usage?.prompt_tokens ?? 0) + (last.usage?.completion_tokens ?? 0));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it('streams no reasoning by default', async () => {
    const stream = await client.chat.completions.create({
      model: 'panel:Library',
      messages: [{ role: 'user', content: 'Sundays?' }],
      stream: true,
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.some((c) => 'reasoning_content' in (c.choices[0]?.delta ?? {}))).toBe(false);
    expect(chunks.some((c) => c.usage)).toBe(false);
  });

  it('refuses bad input in OpenAI’s error shape', async () => {
    const refused = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => null,
        (e) => e,
      );
      expect(err).toBeInstanceOf(OpenAI.APIError);
      return err as InstanceType<typeof OpenAI.APIError>;
    };
    const unknown = await refused(
      client.chat.completions.create({ model: 'panel:Nope', messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.code).toBe('model_not_found');
    expect(unknown.type).toBe('not_found_error');
    const plain = await refused(
      client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }),
    );
    expect(plain.status).toBe(404);
    const noUser = await refused(
      client.chat.completions.create({ model: 'panel:Library', messages: [{ role: 'system', content: 'Hi' }] }),
    );
    expect(noUser.status).toBe(400);
    expect(noUser.message).toContain('no user message');
    const long = await refused(
      client.chat.completions.create({
        model: 'panel:Library',
        messages: [{ role: 'user', content: 'x'.repeat(20_001) }],
      }),
    );
    expect(long.status).toBe(400);
    expect(long.type).toBe('invalid_request_error');
    const tooMuch = await refused(
      client.chat.completions.create({
        model: 'panel:Library',
        messages: [
          { role: 'user', content: 'y'.repeat(15_000) },
          { role: 'user', content: 'x'.repeat(15_000) },
        ],
      }),
    );
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.message).toContain('at most 20000');
    const badJson = await fetch(`${w.t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: '{"model": "panel:Library", "messages": [',
    });
    expect(badJson.status).toBe(400);
    expect((await badJson.json()).error).toMatchObject({ type: 'invalid_request_error' });
  });

  it('refuses a token without the run scope, and no discussion starts', async () => {
    const before = (await history()).length;
    const err = await readOnly.chat.completions
      .create({ model: 'panel:Library', messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => null,
        (e) => e,
      );
    expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(err.message).toContain("'run' scope");
    expect((await history()).length).toBe(before);
  });
});
