import { createActor, fromPromise } from 'xstate';
import { hybridConfig } from '../../../src/schemas/hybridSocket';
import { basicConfig, enhancedConfig, multiRoundConfig } from '../../../src/schemas/standardSocket';
import { discussionMachine } from '../../../server/engine/discussion.machine';
import { buildPlan } from '../../../server/engine/buildPlan';
import type { AgentRef, Plan } from '../../../server/engine/plan';
import type { TurnRequest } from '../../../server/engine/prompt';
import type { SpeakInput, SpeakOutput } from '../../../server/engine/context';
import { streamingThink } from '../../../server/engine/thinking';
import type { TurnAnswer } from '../../../server/engine/turnAnswer';

// Drives the pure machine with scripted actors: no server, no sockets, real (short) timers.

export const AGENTS: AgentRef[] = ['Ada', 'Bo', 'Cy'].map((name, i) => ({
  id: `a${i + 1}`,
  name,
  role: `Role ${i + 1}`,
  prompt: 'p',
  personality: null,
  model: 'scripted',
}));
export const TIMING = { turnTimeoutMs: 5_000, ackTimeoutMs: 5_000, maxConsecutiveFailures: 3 };
const ids = (n: number) => AGENTS.slice(0, n).map((a) => a.id);

export const plans = {
  basic: (over: object = {}, n = 3, timing = TIMING) =>
    buildPlan(
      {
        endpoint: 'basic',
        config: basicConfig.parse({ agent_ids: ids(n), session_id: 's', context: 'Topic', ...over }),
      },
      AGENTS.slice(0, n),
      timing,
    ),
  enhanced: (over: object = {}, n = 3, timing = TIMING) =>
    buildPlan(
      {
        endpoint: 'enhanced',
        config: enhancedConfig.parse({ agent_ids: ids(n), session_id: 's', context: 'Topic', ...over }),
      },
      AGENTS.slice(0, n),
      timing,
    ),
  multi: (over: object = {}, n = 3, timing = TIMING) =>
    buildPlan(
      {
        endpoint: 'multi_round',
        config: multiRoundConfig.parse({ agent_ids: ids(n), session_id: 's', context: 'Topic', ...over }),
      },
      AGENTS.slice(0, n),
      timing,
    ),
  hybrid: (over: object = {}, n = 3, timing = TIMING) =>
    buildPlan(
      {
        endpoint: 'hybrid',
        panel: 'hybrid',
        config: hybridConfig.parse({
          agent_ids: ids(n),
          session_id: 's',
          topic: 'Topic',
          pause_between_turns: 0,
          ...over,
        }),
      },
      AGENTS.slice(0, n),
      timing,
    ),
};

export const answer = (over: Partial<TurnAnswer> = {}): TurnAnswer => ({
  content: 'A point.',
  stance: 'support',
  confidence: 0.9,
  argument_type: 'support',
  reasoning: ['because'],
  evidence: ['Paper A'],
  addressed_to: null,
  performative: 'inform',
  delegate_to: null,
  delegation_task: null,
  next_speaker: null,
  ...over,
});

/** A scripted model: answers a turn; `write` streams raw pieces of its reply first, as a provider would. */
export type Script = (
  req: TurnRequest,
  signal: AbortSignal,
  write: (raw: string) => void,
) => Promise<TurnAnswer> | TurnAnswer;

export function run(
  plan: Plan,
  script: Script,
  opts: {
    speak?: (i: SpeakInput, signal: AbortSignal) => Promise<SpeakOutput>;
    speechAvailable?: boolean;
    summary?: string;
    coalesceMs?: number;
  } = {},
) {
  const frames: any[] = [];
  const requests: TurnRequest[] = [];
  const machine = discussionMachine.provide({
    actors: {
      think: streamingThink(
        async (input, { signal, write }) => {
          requests.push(input.request);
          const a = await script(input.request, signal, write);
          return { answer: a, modelMs: 5, answeredAt: performance.now() };
        },
        () => opts.coalesceMs ?? 0,
      ),
      speak: fromPromise<SpeakOutput, SpeakInput>(async ({ input, signal }) =>
        opts.speak ? opts.speak(input, signal) : { audioUrl: `/media/tts/${input.audioId}.wav`, ttsMs: 3 },
      ),
      // The summary streams like a turn: written in two pieces, then answered.
      summarize: streamingThink(
        async (_input, { write }) => {
          const text = opts.summary ?? 'Summary of the discussion.';
          const cut = Math.ceil(text.length / 2);
          write(text.slice(0, cut));
          await Promise.resolve();
          write(text.slice(cut));
          return { answer: answer({ content: text, stance: 'neutral' }), modelMs: 3, answeredAt: performance.now() };
        },
        () => opts.coalesceMs ?? 0,
      ),
    },
  });
  const actor = createActor(machine, {
    input: { plan, speechAvailable: opts.speechAvailable ?? false, researchAvailable: false },
  });
  actor.on('frame', (e) => frames.push(e.frame));
  const done = new Promise<void>((resolve) => actor.subscribe({ complete: () => resolve() }));
  actor.start();
  return { actor, frames, requests, done, types: () => frames.map((f) => f.type) };
}

/** Who is speaking in a request (the offline context carries it). */
export const speakerIn = (req: TurnRequest) => req.context!.agent.name;
export const until = async (pred: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};
