import type { ServerResponse } from 'node:http';
import { hash32, mulberry32 } from '../../server/eval/rng';
import { startLoopback } from './loopback';

// Scripted models for evaluations: loopback OpenAI-compatible and Ollama servers that answer a question right
// with a set probability and report usage. Whether a reply is right is a pure function of (seed, model, the
// conversation, how many times that same conversation was asked before), so a run is the same whatever order the
// calls arrive in, and a test can work out what the harness must find. A wrong answer is always the right one + 1
// (or the next letter), so a vote between right and wrong is a two-way vote, as the binomial theory assumes.

export interface ScriptedOptions {
  /** Probability of a right answer (one number, or one per model). */
  p: number | Record<string, number>;
  seed: number;
  models: string[];
  /** Tokens reported per call; 'none' reports no usage at all. */
  usage?: { prompt: number; completion: number } | 'none';
  /** Probability that a first reply has no 'Answer:' line (the repair request is always answered readably). */
  unreadable?: number;
  /** Answers of non-arithmetic questions, by a piece of their text. */
  answers?: Record<string, string>;
  /** Pause before each reply (a run slow enough to stop). */
  delayMs?: number;
}

type Msg = { role: string; content: string };

const EXPR = /(\d+)\+(\d+)\*(\d+)\+(\d+)-(\d+)\*(\d+)/;

export function rightAnswer(conversation: string, answers: Record<string, string> = {}): string | null {
  const m = EXPR.exec(conversation);
  if (m) {
    const [a, b, c, d, e, f] = m.slice(1).map(Number);
    return String(a + b * c + d - e * f);
  }
  for (const [piece, answer] of Object.entries(answers)) if (conversation.includes(piece)) return answer;
  return null;
}

const wrongOf = (right: string) =>
  /^-?\d+$/.test(right) ? String(Number(right) + 1) : String.fromCharCode(((right.charCodeAt(0) - 65 + 1) % 4) + 65);

/** The draw behind one reply: uniform in [0, 1) from the seed, the model, the conversation and its repeat count. */
export const draw = (seed: number, model: string, conversation: string, occurrence: number, salt = '') =>
  mulberry32(hash32(`${seed}|${model}|${conversation}|${occurrence}|${salt}`))();

export function createScript(opts: ScriptedOptions) {
  const seen = new Map<string, number>();
  /** Every reply: to whom, to which conversation, and whether its answer was right (null: unreadable). */
  const log: Array<{ model: string; conversation: string; right: boolean | null }> = [];
  let calls = 0;
  return {
    log,
    get calls() {
      return calls;
    },
    reply(model: string, messages: Msg[]): string {
      calls++;
      const conversation = messages.map((m) => `${m.role}: ${m.content}`).join('\n');
      const occurrence = seen.get(`${model}\n${conversation}`) ?? 0;
      seen.set(`${model}\n${conversation}`, occurrence + 1);
      const right = rightAnswer(conversation, opts.answers) ?? 'A';
      const p = typeof opts.p === 'number' ? opts.p : (opts.p[model] ?? 0.5);
      const isRepair = messages.length > 2;
      if (
        !isRepair &&
        opts.unreadable &&
        draw(opts.seed, model, conversation, occurrence, 'unreadable') < opts.unreadable
      ) {
        log.push({ model, conversation, right: null });
        return 'Let me think about this one; it is not obvious.';
      }
      const isRight = draw(opts.seed, model, conversation, occurrence) < p;
      log.push({ model, conversation, right: isRight });
      const answer = isRight ? right : wrongOf(right);
      return isRepair
        ? `Answer: ${answer}`
        : `Working it out step by step, the result is ${answer}.\nAnswer: ${answer}`;
    },
  };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startScriptedOpenAi(opts: ScriptedOptions) {
  const script = createScript(opts);
  const usage = opts.usage ?? { prompt: 50, completion: 20 };
  const server = await startLoopback(async (rec, res) => {
    const path = rec.url.split('?')[0];
    if (rec.method === 'GET' && path === '/v1/models')
      return json(res, 200, { object: 'list', data: opts.models.map((id) => ({ id, object: 'model' })) });
    if (rec.method !== 'POST' || path !== '/v1/chat/completions')
      return json(res, 404, { error: { message: `Unknown path ${path}` } });
    const body = JSON.parse(rec.body.toString('utf8')) as {
      model: string;
      messages: Msg[];
      stream_options?: { include_usage?: boolean };
    };
    if (!opts.models.includes(body.model))
      return json(res, 404, { error: { message: `The model \`${body.model}\` does not exist` } });
    if (opts.delayMs) await sleep(opts.delayMs);
    const text = script.reply(body.model, body.messages);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`,
    );
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    if (usage !== 'none' && body.stream_options?.include_usage) {
      res.write(
        `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  });
  return { url: server.url, close: server.close, script };
}

export async function startScriptedOllama(opts: ScriptedOptions) {
  const script = createScript(opts);
  const usage = opts.usage ?? { prompt: 50, completion: 20 };
  const server = await startLoopback(async (rec, res) => {
    const path = rec.url.split('?')[0];
    if (rec.method === 'GET' && path === '/api/tags')
      return json(res, 200, { models: opts.models.map((m) => ({ name: m, model: m })) });
    if (rec.method !== 'POST' || path !== '/api/chat') return json(res, 404, { error: `unknown path ${path}` });
    const body = JSON.parse(rec.body.toString('utf8')) as { model: string; messages: Msg[] };
    if (!opts.models.includes(body.model))
      return json(res, 404, { error: `model "${body.model}" not found, try pulling it first` });
    if (opts.delayMs) await sleep(opts.delayMs);
    const text = script.reply(body.model, body.messages);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write(`${JSON.stringify({ model: body.model, message: { role: 'assistant', content: text }, done: false })}\n`);
    const counts = usage === 'none' ? {} : { prompt_eval_count: usage.prompt, eval_count: usage.completion };
    res.end(
      `${JSON.stringify({ model: body.model, message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', ...counts })}\n`,
    );
  });
  return { url: server.url, close: server.close, script };
}
