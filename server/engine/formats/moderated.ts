import type { ChatMessage } from '../../providers/types';
import { maxTurns } from '../plan';
import type { TurnContext } from '../turnAnswer';
import { pickSchema, readPick } from './answers';
import type { FormatDefinition } from './definition';
import { nextInOrder } from './floor';
import { heardInFormat } from './hearing';
import { ctxBase, persona, repairNote, request } from './prompts';

// Moderated: a moderator gives the floor after every turn — the person (nobody speaks until they choose) or an
// agent, who picks the next speaker with a reason, asks the person a question, or closes the discussion. The
// moderator does not speak in turn; the discussion ends at the plan's turn limit at the latest.

export interface ModeratedPlan {
  kind: 'moderated';
  /** 'human' or an agent id. */
  moderator: string;
}

declare module './formatPlan' {
  interface FormatPlans {
    moderated: ModeratedPlan;
  }
}

export const moderated: FormatDefinition<ModeratedPlan> = {
  kind: 'moderated',
  plan: (format) => ({ kind: 'moderated', moderator: format.moderator ?? 'human' }),
  problem: () => null,
  endsItself: true,
  speakers: (plan, agents) => agents.filter((a) => a.id !== plan.moderator),
  script: () => [],
  order(c, plan) {
    if (c.format!.spoken >= maxTurns(c.plan)) return { kind: 'end' };
    if (plan.moderator === 'human' || !plan.moderator) return { kind: 'wait', waiting: 'floor' };
    return {
      kind: 'turn',
      slot: { agentId: plan.moderator, task: 'pick', stage: null },
      by: 'order',
      reason: 'the moderator chooses',
      fromScript: false,
    };
  },
  givenFloorKeepsStage: false,
  mentionsHandOver: true,
  stages: {},
  hearing: 'canvas',
  answersAtOnce: false,
  personJudges: () => false,
  personGivesFloor: (plan) => plan.moderator === 'human' || !plan.moderator,

  prompt(c, s, _cur, agent) {
    const { plan } = c;
    const speakers = moderated.speakers(plan.format as ModeratedPlan, plan.agents);
    const choices = [...speakers.map((a) => a.name), 'ask', 'close'];
    const heard = heardInFormat(plan, c.record, s, agent.id);
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content: `${persona(agent)}\nYou moderate a discussion among ${speakers.map((a) => `${a.name} (${a.role})`).join(', ')}. After each turn you choose who speaks next, or 'ask' to put a question to the person watching, or 'close' when the discussion has done its work. Answer with one JSON object: next_speaker (one of ${choices.join(', ')}) and content (one line: why; for 'ask', the question).`,
      },
      {
        role: 'user',
        content: `Topic: ${plan.topic}\n\n${heard.length ? `The discussion so far:\n${heard.map((t) => `${t.human ? 'Human participant' : t.speaker}: ${t.content}`).join('\n')}` : 'Nobody has spoken yet.'}\n\nWho speaks next?`,
      },
      ...repairNote(s),
    ];
    const context: TurnContext = {
      ...ctxBase(plan, agent, c.turn),
      others: speakers.map((a) => ({ id: a.id, name: a.name, role: a.role })),
      history: heard.map((t) => ({
        speaker: t.human ? 'Human' : t.speaker,
        content: t.content,
        stance: t.stance,
        confidence: t.confidence,
        human: t.human,
      })),
      task: 'moderate',
      choices,
    };
    return request(plan, agent, messages, context, pickSchema(choices), 200);
  },

  /** The moderator's pick: a speaker, 'ask' the person, or 'close'; unreadable twice, the next in order speaks. */
  recordChoice(c, _cur, { raw, retry, done, problem }) {
    const f = c.plan.format as ModeratedPlan;
    const speakers = moderated.speakers(f, c.plan.agents);
    const read = readPick(raw, [...speakers.map((a) => a.name), 'ask', 'close']);
    if (!read.ok) {
      const again = retry(read.why);
      if (again) return again;
      const next = nextInOrder(f, c.plan.agents, c.lastSpeakerId);
      return done(
        { pending: { agentId: next.id, by: 'order', reason: 'next in order' } },
        problem(read.why, `the floor goes to ${next.name}, next in order`),
      );
    }
    const { choice, reason } = read.value;
    if (choice === 'close')
      return done(
        { ending: true },
        { type: 'format_note', kind: 'close', text: `Moderator closes the discussion: ${reason}` },
      );
    if (choice === 'ask')
      return done({ waiting: 'answer' }, { type: 'format_note', kind: 'ask', text: `Moderator asks you: ${reason}` });
    const picked = speakers.find((a) => a.name === choice)!;
    return done({ pending: { agentId: picked.id, by: 'moderator', reason } });
  },
};
