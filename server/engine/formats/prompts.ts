import type { ChatMessage } from '../../providers/types';
import { speakerOf, stageOf, type EngineContext, type ThinkInput } from '../context';
import type { AgentRef, Plan } from '../plan';
import { turnRequest, type TurnRequest } from '../prompt';
import { turnsSaid } from '../record';
import type { TurnContext } from '../turnAnswer';
import type { Current } from './definition';
import { definitionOf } from './registry';
import type { FormatState } from './state';

// The words a model reads for a format's task. A speaking turn is written here, with what its format adds (a
// debater argues its side); a format's own tasks (a council's answers and ranking, a moderator's pick, a judge's
// vote) are written by its definition from the parts below. Who hears what is decided in hearing.ts.

export const ctxBase = (plan: Plan, agent: AgentRef, turn: number): Omit<TurnContext, 'history'> => ({
  agent: { id: agent.id, name: agent.name, role: agent.role, prompt: agent.prompt, personality: agent.personality },
  others: plan.agents.filter((a) => a.id !== agent.id).map((a) => ({ id: a.id, name: a.name, role: a.role })),
  topic: plan.topic,
  turn,
  maxWords: plan.maxWords,
});

export const request = (
  plan: Plan,
  agent: AgentRef,
  messages: ChatMessage[],
  context: TurnContext,
  jsonSchema: Record<string, unknown>,
  maxTokens?: number,
): TurnRequest => ({
  model: agent.model,
  messages,
  maxTokens: maxTokens ?? plan.model.maxTokens,
  temperature: plan.model.temperature,
  jsonSchema,
  context,
});

/** Said again when a constrained answer could not be read (once). */
export const repairNote = (s: FormatState) =>
  s.repair
    ? [
        { role: 'assistant' as const, content: s.repair.bad },
        {
          role: 'user' as const,
          content: `That answer could not be used: ${s.repair.why}. Answer again with exactly the JSON object asked for.`,
        },
      ]
    : [];

export const persona = (agent: AgentRef) =>
  [
    `You are ${agent.name}, ${agent.role}.`,
    agent.prompt,
    agent.personality ? `Your temperament: ${agent.personality}.` : '',
  ]
    .filter(Boolean)
    .join('\n');

/** Every agent's name replaced, so a ranking prompt names nobody even when an answer quoted a name. */
export function withoutNames(text: string, agents: readonly AgentRef[]): string {
  let out = text;
  for (const a of [...agents].sort((x, y) => y.name.length - x.name.length)) {
    out = out.replace(
      new RegExp(`@?"?\\b${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b"?`, 'gi'),
      'another panellist',
    );
  }
  return out;
}

export function formatThinkInput(c: EngineContext): ThinkInput {
  const s = c.format!;
  const cur = s.current!;
  const agent = speakerOf(c);
  return { request: formatRequest(c, s, cur, agent), stage: cur.task === 'synthesis' ? 'synthesis' : stageOf(c) };
}

function formatRequest(c: EngineContext, s: FormatState, cur: Current, agent: AgentRef): TurnRequest {
  const { plan } = c;
  const f = plan.format!;
  const def = definitionOf(f);
  if (cur.task !== 'speak') {
    if (!def.prompt) throw new Error(`the ${def.kind} format has no words for a '${cur.task}'`);
    return def.prompt(c, s, cur, agent);
  }
  const slot = { turn: c.turn, round: c.round, stage: stageOf(c), delegation: c.answering, mode: c.mode };
  // The hearing rule replaces the canvas one where the format says so (a debater hears the whole debate).
  const hearingPlan = def.hearing === 'everyone' ? { ...plan, hearing: null } : plan;
  const req = turnRequest(hearingPlan, c.record, agent, slot);
  const side = def.sideOf?.(f, agent.id) ?? null;
  const extraSystem = def.speakNote?.(f, agent.id, cur.stage) ?? '';
  const first = cur.message ? `A person asked you directly; answer this first:\n"${cur.message}"\n\n` : '';
  const messages = req.messages.map((m, i) =>
    i === 0
      ? { ...m, content: m.content + extraSystem }
      : m.role === 'user' && i === req.messages.length - 1
        ? { ...m, content: first + m.content }
        : m,
  );
  const context = req.context
    ? {
        ...req.context,
        ...(side ? { side } : {}),
        ...(cur.message
          ? {
              history: [
                ...req.context.history.filter((h) => h.content !== cur.message),
                { speaker: 'Human', content: cur.message, human: true },
              ],
            }
          : {}),
      }
    : undefined;
  return { ...req, messages, context };
}

export const turnsSoFar = turnsSaid;
