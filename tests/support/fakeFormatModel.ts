import { startLoopback } from './loopback';

// An OpenAI-compatible model server on a loopback port that plays every format: a speaking turn (the turn JSON),
// a moderator's pick (the first name it may not have heard from), a ranking (the answers in reverse order), a judge's
// vote. It reads which constrained answer is asked from the JSON schema the engine sends, as a real server would get
// it, and answers streamed or not. The formats' server test and their end-to-end test share it.

export const FORMAT_MODEL = 'fake-format-model';

interface ChatBody {
  messages: Array<{ role: string; content: string }>;
  stream?: boolean;
  response_format?: { json_schema?: { schema?: Record<string, any> } };
}

/** The answer's text (a JSON object) for one chat request; `say` gives a speaking turn its words. */
export function formatReply(body: ChatBody, say: (prompt: string) => string): string {
  const schema = body.response_format?.json_schema?.schema;
  const props = schema?.properties ?? {};
  const user = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  if (props.next_speaker?.enum)
    return JSON.stringify({ next_speaker: props.next_speaker.enum[1], content: 'They have not spoken yet.' });
  if (props.ranking)
    return JSON.stringify({
      ranking: [...props.ranking.items.properties.answer.enum]
        .reverse()
        .map((a: string) => ({ answer: a, reason: 'clear' })),
      content: 'ranked',
    });
  if (props.side)
    return JSON.stringify({
      side: /debate has not started/.test(user) ? 'against' : 'for',
      confidence: 0.7,
      content: 'weighed',
    });
  return JSON.stringify({
    content: say(body.messages.map((m) => m.content).join('\n')),
    stance: 'support',
    confidence: 0.8,
    argument_type: 'proposal',
  });
}

/** Words a speaking agent says: its own name (from its system prompt) and a point on the question. */
export const namedPoint = (prompt: string) => {
  const name = /You are ([\p{Lu}][\p{L}]+)/u.exec(prompt)?.[1] ?? 'I';
  return `${name} here: drip irrigation saves water on sandy soil, and the pipes pay for themselves in three seasons.`;
};

/**
 * The server: `GET /v1/models` lists FORMAT_MODEL, `POST /v1/chat/completions` answers with formatReply. `before`
 * runs first for each chat request (a test can hold it there); `seen` keeps each request's messages and schema.
 */
export async function startFakeFormatModel(
  opts: { say?: (prompt: string) => string; before?: (body: ChatBody) => Promise<void> | void } = {},
) {
  const seen: Array<{ messages: ChatBody['messages']; schema: Record<string, any> | undefined }> = [];
  const lb = await startLoopback(async (req, res) => {
    if (req.url.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ object: 'list', data: [{ id: FORMAT_MODEL, object: 'model', owned_by: 'fake' }] }),
      );
    }
    const body = req.json() as ChatBody;
    seen.push({ messages: body.messages, schema: body.response_format?.json_schema?.schema });
    await opts.before?.(body);
    const content = formatReply(body, opts.say ?? namedPoint);
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }),
      );
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  return { url: lb.url, seen, close: () => lb.close() };
}
