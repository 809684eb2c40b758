// The built-in engine (server/providers/llm/builtin) against node-llama-cpp alone, on the same GGUF, thread
// count and chat wrapper: tokens/s of a streamed reply (target ≥ 0.9× of the bare library), the first token
// after a turn starts (model cold and warm), memory with one model and 4 agents answering at once, and what
// node-llama-cpp adds to node_modules. The model is a random-weight GGUF written here (wide enough that
// compute, not overhead, dominates; '</s>' suppressed so every run writes exactly N tokens), or BENCH_GGUF.
// BENCH_THREADS (default 1: the machines this runs on are shared, and llama.cpp's threads spin-wait).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper, GeneralChatWrapper } from 'node-llama-cpp';
import { createBuiltinProvider } from '../server/providers/llm/builtin';
import { writeTinyGguf } from '../tests/support/tinyGguf';
import type { Figures } from './run';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOKENS = 160;
const ROUNDS = 5;
const THREADS = Number(process.env.BENCH_THREADS ?? 1);
const messages = [
  { role: 'system' as const, content: 'You are Basil, a city planner.' },
  { role: 'user' as const, content: 'Should the city build a tram line along the river?' },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Best of the rounds: on a shared machine the slow runs measure the neighbours, not the engine. */
const best = (xs: number[]) => Math.max(...xs);
const mb = (bytes: number) => Math.round(bytes / 1e6);
const duMb = (p: string) => {
  try {
    return Math.round(Number(execFileSync('du', ['-skL', p], { encoding: 'utf8' }).split('\t')[0]) / 1024);
  } catch {
    return 0;
  }
};

export default async function run(): Promise<Figures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'agora-bench-llama-'));
  const file = process.env.BENCH_GGUF
    ? path.resolve(process.env.BENCH_GGUF)
    : writeTinyGguf(path.join(dir, 'bench.gguf'), {
        shape: { embd: 512, ff: 1536, layers: 6, heads: 8 },
        avoid: [2],
        seed: 11,
      });
  const name = path.basename(file);
  const fileMb = duMb(file);
  const rssStart = process.memoryUsage().rss;

  // node-llama-cpp alone: one context, one sequence, the same wrapper our engine resolves.
  const llama = await getLlama({ gpu: false, build: 'never', progressLogs: false, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath: file });
  const context = await model.createContext({ sequences: 1, contextSize: 1024, threads: THREADS });
  const chatWrapper = resolveChatWrapper(model) ?? new GeneralChatWrapper();
  const bare = async () => {
    const chat = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper, autoDisposeSequence: true });
    let first = 0;
    const t = performance.now();
    await chat.generateResponse(
      messages.map((m) =>
        m.role === 'system' ? { type: 'system' as const, text: m.content } : { type: 'user' as const, text: m.content },
      ),
      { maxTokens: TOKENS, temperature: 0.8, onTextChunk: () => (first ||= performance.now() - t) },
    );
    const ms = performance.now() - t;
    chat.dispose();
    return { tps: (TOKENS * 1000) / ms, first };
  };

  // Ours: the provider as the discussion engine calls it, streaming into onToken. `single` reserves one sequence,
  // as the bare run does (the like-for-like figure); `shared` reserves BUILTIN_PARALLEL's default 4, and every
  // token then attends over a KV cache four times as large, which is the price of sharing one loaded model.
  const opts = {
    modelsDir: path.dirname(file),
    threads: THREADS,
    contextSize: 1024,
    idleUnloadMs: 0,
    gpu: false as const,
  };
  const single = createBuiltinProvider({ ...opts, parallel: 1 });
  const provider = createBuiltinProvider({ ...opts, parallel: 4 });
  const turn = async (p: typeof provider) => {
    let first = 0;
    const t = performance.now();
    await p.chat({
      model: `builtin:${name}`,
      messages,
      maxTokens: TOKENS,
      temperature: 0.8,
      onToken: () => (first ||= performance.now() - t),
    });
    return { tps: (TOKENS * 1000) / (performance.now() - t), first };
  };
  const ours = () => turn(single);

  // Cold: the first turn loads the model.
  const cold = await ours();
  const bareRuns: number[] = [];
  const ourRuns: number[] = [];
  const ourFirst: number[] = [];
  const bareFirst: number[] = [];
  await bare(); // warm the bare context too
  const sharedRuns: number[] = [];
  await turn(provider);
  for (let i = 0; i < ROUNDS; i++) {
    const b = await bare();
    const o = await ours();
    sharedRuns.push((await turn(provider)).tps);
    bareRuns.push(b.tps);
    bareFirst.push(b.first);
    ourRuns.push(o.tps);
    ourFirst.push(o.first);
  }
  await context.dispose();
  await model.dispose();
  await single.unload();

  // 4 agents at once on one loaded model; RSS sampled while they answer.
  const rssOneModel = process.memoryUsage().rss;
  let peak = rssOneModel;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t4 = performance.now();
  await Promise.all(
    [1, 2, 3, 4].map((n) =>
      provider.chat({
        model: `builtin:${name}`,
        messages: [...messages, { role: 'user', content: `Agent ${n}` }],
        maxTokens: TOKENS,
        temperature: 0.8,
      }),
    ),
  );
  const fourMs = performance.now() - t4;
  clearInterval(sampler);
  await provider.unload();
  rmSync(dir, { recursive: true, force: true });

  const ratio = best(ourRuns) / best(bareRuns);
  return {
    model: process.env.BENCH_GGUF ? name : `random GGUF, ${fileMb} MB (512 wide, 6 layers)`,
    threads: THREADS,
    'tokens/s node-llama-cpp alone (best of 5)': best(bareRuns).toFixed(1),
    'tokens/s through our engine (best of 5)': best(ourRuns).toFixed(1),
    'ours / alone (target ≥ 0.9)': ratio.toFixed(3),
    tokens_per_s_ratio_to_bare: Math.round(ratio * 100) / 100,
    first_token_ratio_to_bare: Math.round((median(ourFirst) / median(bareFirst)) * 100) / 100,
    'tokens/s ours, 4 sequences reserved (best of 5)': best(sharedRuns).toFixed(1),
    'first token, model cold (ms)': Math.round(cold.first),
    'first token, warm, ours (ms, median)': Math.round(median(ourFirst)),
    'first token, warm, alone (ms, median)': Math.round(median(bareFirst)),
    '4 agents at once: total tokens/s': ((4 * TOKENS * 1000) / fourMs).toFixed(1),
    'RSS before loading (MB)': mb(rssStart),
    'RSS one model loaded (MB)': mb(rssOneModel),
    'RSS peak, one model + 4 agents (MB)': mb(peak),
    'node_modules total (MB)': duMb(path.join(ROOT, 'node_modules')),
    'node-llama-cpp + its binaries (MB)':
      duMb(path.join(ROOT, 'node_modules', 'node-llama-cpp')) +
      duMb(path.join(ROOT, 'node_modules', '@node-llama-cpp')),
  };
}
