import type { FastifyReply, FastifyRequest } from 'fastify';
import { PANEL_MODEL_PREFIX, type ChatCompletionRequest } from '../../../src/schemas/openaiCompat';
import type { AppContext } from '../../context';
import { HttpError } from '../../http/errors';
import { hasScope, missingScope } from '../apiTokenGuard';
import { askPanel, type AskPanel } from '../askPanel';
import { PANEL_NOT_FOUND } from '../panelStore';
import type { PanelAnswer, PanelTurn } from '../panelAnswer';
import { OpenAiRefusal, openAiError } from './errors';

const MODEL_NOT_FOUND = 'model_not_found';

// POST /v1/chat/completions with `model: "panel:<name>"` (docs/integrations.md): the last user message is the
// question, the messages before it its context; the answer is the panel's final answer, whole or as OpenAI's chunks
// (`stream: true`), with `usage` from the discussion's own token count. The turns can come as a collapsed
// reasoning part (`reasoning_content`, which Open WebUI and LibreChat fold away) when `include_turns` is set.

type Message = ChatCompletionRequest['messages'][number];

/** A message's text: the string, or its text parts joined (images and other parts are not read). */
const textOf = (m: Message) =>
  typeof m.content === 'string'
    ? m.content
    : Array.isArray(m.content)
      ? m.content.flatMap((p) => (p.type === 'text' && typeof p.text === 'string' ? [p.text] : [])).join('\n')
      : '';

/** The question (the last user message) and what came before it; 400 when there is no user message. */
export function questionOf(messages: readonly Message[]) {
  const at = messages.findLastIndex((m) => m.role === 'user' && textOf(m).trim());
  if (at < 0) throw new HttpError(400, 'messages hold no user message: the last user message is the question');
  return {
    question: textOf(messages[at]).trim(),
    earlier: messages.slice(0, at).flatMap((m) => (textOf(m).trim() ? [{ role: m.role, content: textOf(m) }] : [])),
  };
}

export const panelNameOf = (model: string) => {
  if (!model.startsWith(PANEL_MODEL_PREFIX) || model.length === PANEL_MODEL_PREFIX.length)
    throw new OpenAiRefusal(
      404,
      `The model '${model}' does not exist: ask a saved panel as 'panel:<name>' (GET /v1/models)`,
      MODEL_NOT_FOUND,
    );
  return model.slice(PANEL_MODEL_PREFIX.length);
};

const turnText = (t: PanelTurn, n: number) => `**${n}. ${t.agent_name}**: ${t.content}\n\n`;

const usageOf = (a: PanelAnswer) => ({
  prompt_tokens: a.usage.prompt_tokens,
  completion_tokens: a.usage.completion_tokens,
  total_tokens: a.usage.total_tokens,
});

const agoraPart = (a: PanelAnswer) => ({
  discussion_id: a.discussion_id,
  address: a.address,
  consensus: a.consensus,
  positions: a.positions,
  usage_estimated: a.usage.estimated,
});

/** Aborts when the caller goes away before the answer is sent, so its discussion stops rather than runs on. */
function cancelOnClose(reply: FastifyReply) {
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  return abort;
}

export function chatCompletions(ctx: AppContext) {
  return async (req: FastifyRequest<{ Body: ChatCompletionRequest }>, reply: FastifyReply) => {
    const body = req.body;
    if (!hasScope(req, 'run')) throw new HttpError(403, missingScope('run'));
    const panel = panelNameOf(body.model);
    const { question, earlier } = questionOf(body.messages);
    const abort = cancelOnClose(reply);
    const ask: AskPanel = {
      userId: req.userId,
      panel,
      question,
      earlier,
      origin: 'api',
      log: req.log,
      signal: abort.signal,
      ...(body.max_turns ? { maxTurns: body.max_turns } : {}),
    };
    const created = Math.floor(Date.now() / 1000);
    if (!body.stream) {
      const turns: string[] = [];
      const answer = await askPanel(ctx, { ...ask, onTurn: (t, n) => turns.push(turnText(t, n)) }).catch(
        asModelError(body.model),
      );
      return {
        id: `chatcmpl-${answer.discussion_id}`,
        object: 'chat.completion' as const,
        created,
        model: body.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant' as const,
              content: answer.answer,
              ...(body.include_turns ? { reasoning_content: turns.join('') } : {}),
            },
            finish_reason: answer.end_reason === 'cancelled' ? 'length' : 'stop',
          },
        ],
        usage: usageOf(answer),
        agora: agoraPart(answer),
      };
    }
    return streamed(ctx, ask, body, created, reply);
  };
}

/** A panel that is not there is OpenAI's unknown model. */
const asModelError =
  (model: string) =>
  (err: unknown): never => {
    if (err instanceof HttpError && err.status === 404 && err.message === PANEL_NOT_FOUND)
      throw new OpenAiRefusal(
        404,
        `The model '${model}' does not exist or you do not have access to it`,
        MODEL_NOT_FOUND,
      );
    throw err;
  };

/**
 * OpenAI's chunk format: a first chunk with the role, the turns (as reasoning, when asked; else a comment line that
 * keeps proxies from timing out), the answer, the finishing chunk, then `usage` (with stream_options.include_usage)
 * and `[DONE]`. A failure once the stream is open is an `error` event in OpenAI's shape.
 */
async function streamed(
  ctx: AppContext,
  ask: AskPanel,
  body: ChatCompletionRequest,
  created: number,
  reply: FastifyReply,
) {
  let id = 'chatcmpl-pending';
  const raw = reply.raw;
  const write = (data: unknown) => raw.writableEnded || raw.write(`data: ${JSON.stringify(data)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    write({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  // The stream opens once the discussion exists: a refusal before it (no such panel, the running limit) is an
  // ordinary HTTP error in OpenAI's shape.
  let open = false;
  try {
    const answer = await askPanel(ctx, {
      ...ask,
      onStarted: (discussionId) => {
        id = `chatcmpl-${discussionId}`;
        reply.hijack();
        open = true;
        raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        chunk({ role: 'assistant', content: '' });
      },
      onTurn: (t, n) =>
        body.include_turns
          ? chunk({ reasoning_content: turnText(t, n) })
          : raw.writableEnded || raw.write(': turn\n\n'),
    });
    chunk({ content: answer.answer });
    chunk({}, answer.end_reason === 'cancelled' ? 'length' : 'stop');
    if (body.stream_options?.include_usage)
      write({
        id,
        object: 'chat.completion.chunk',
        created,
        model: body.model,
        choices: [],
        usage: usageOf(answer),
        agora: agoraPart(answer),
      });
  } catch (err) {
    if (!open) return asModelError(body.model)(err);
    const status = err instanceof HttpError ? err.status : 500;
    if (status >= 500) ask.log.error({ err }, 'asking a panel failed');
    write(openAiError(status, status >= 500 ? 'The server failed to answer' : (err as Error).message));
  }
  if (!raw.writableEnded) raw.end('data: [DONE]\n\n');
}
