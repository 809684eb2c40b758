import type { EvalMethod, EvalRunSettings, EvalTaskItem } from '../../src/schemas/eval';
import type { ChatMessage } from '../providers/types';
import {
  ANSWER_LINE,
  answerJsonSchema,
  isCorrect,
  questionText,
  readAnswer,
  reasoningOf,
  repairMessages,
} from './answer';
import { majority } from './stats';

// The methods' prompt pipelines, written here rather than borrowed from the discussion engine so an evaluation
// measures one fixed protocol. Each method answers one question and says what it spent; panels also give their
// agents' answers round by round, from which the first vote and the agents' moves are read.

export interface CallOutcome {
  text: string;
  tokens: number;
  estimated: boolean;
}

/** One chat call to a model; `grammar` asks for the JSON answer (only the built-in engine gets one). */
export interface ModelCaller {
  call(
    model: string,
    messages: ChatMessage[],
    opts: { jsonSchema?: Record<string, unknown>; tools?: boolean },
  ): Promise<CallOutcome>;
  /** Whether the model answers through a grammar (the built-in engine): then no repair request is needed. */
  usesGrammar(model: string): boolean;
}

export interface QuestionOutcome {
  answer: string | null;
  correct: boolean;
  tokens: number;
  estimated: number;
  unreadable: number;
  /** Panels: the majority of the agents' first answers; null for single-model methods. */
  firstCorrect: boolean | null;
  rightToWrong: number;
  wrongToRight: number;
}

interface Spend {
  tokens: number;
  estimated: number;
  unreadable: number;
  /** Every call of this question may use the calculator (the method's 'with tools' variant). */
  tools?: boolean;
}

interface AgentAnswer {
  answer: string | null;
  reasoning: string;
}

const SYSTEM = 'You answer questions carefully and concisely.';

/** One agent's answer: the call, read through the grammar or the 'Answer:' line, with one repair request. */
async function ask(
  caller: ModelCaller,
  spend: Spend,
  model: string,
  item: EvalTaskItem,
  prompt: string,
  reasoning: boolean,
): Promise<AgentAnswer> {
  const grammar = caller.usesGrammar(model);
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: grammar ? prompt : `${prompt}\n\n${ANSWER_LINE(item)}` },
  ];
  const tools = spend.tools ? { tools: true } : {};
  const first = await caller.call(model, messages, {
    ...(grammar ? { jsonSchema: answerJsonSchema(reasoning) } : {}),
    ...tools,
  });
  spend.tokens += first.tokens;
  spend.estimated += first.estimated ? 1 : 0;
  let answer = readAnswer(first.text, item, grammar);
  if (answer === null && !grammar) {
    const again = await caller.call(model, repairMessages(item, messages, first.text), tools);
    spend.tokens += again.tokens;
    spend.estimated += again.estimated ? 1 : 0;
    answer = readAnswer(again.text, item, false);
  }
  if (answer === null) spend.unreadable += 1;
  return { answer, reasoning: reasoningOf(first.text, grammar) };
}

const direct = (item: EvalTaskItem) => `${questionText(item)}\n\nGive only the final answer, without explanation.`;
const stepByStep = (item: EvalTaskItem) =>
  `${questionText(item)}\n\nThink it through step by step, briefly, then give your answer.`;
const paragraphs = (...parts: string[]) => parts.join('\n\n');
const agentLead = (i: number, n: number) => (n > 1 ? `You are agent ${i + 1} of ${n}.\n` : '');

function others(answers: AgentAnswer[], except: number, label: (j: number) => string) {
  return answers
    .map((a, j) => (j === except ? null : `${label(j)}:\n${a.reasoning || '(no readable reply)'}`))
    .filter((s): s is string => s !== null)
    .join('\n\n');
}

function moves(rounds: AgentAnswer[][], item: EvalTaskItem) {
  let rightToWrong = 0;
  let wrongToRight = 0;
  for (let r = 1; r < rounds.length; r++) {
    for (let i = 0; i < rounds[r].length; i++) {
      const before = isCorrect(rounds[r - 1][i]?.answer ?? null, item);
      const after = isCorrect(rounds[r][i].answer, item);
      if (before && !after) rightToWrong++;
      if (!before && after) wrongToRight++;
    }
  }
  return { rightToWrong, wrongToRight };
}

export interface MethodInput {
  caller: ModelCaller;
  settings: Pick<EvalRunSettings, 'models' | 'rounds'> & { single: string; judge: string };
  /** Self-consistency's number of samples. */
  k: number;
  /** Every model call may use the calculator. */
  tools?: boolean;
}

export async function answerQuestion(
  method: EvalMethod,
  item: EvalTaskItem,
  input: MethodInput,
): Promise<QuestionOutcome> {
  const { caller, settings } = input;
  const spend: Spend = { tokens: 0, estimated: 0, unreadable: 0, ...(input.tools ? { tools: true } : {}) };
  const single = (answer: string | null): QuestionOutcome => ({
    answer,
    correct: isCorrect(answer, item),
    tokens: spend.tokens,
    estimated: spend.estimated,
    unreadable: spend.unreadable,
    firstCorrect: null,
    rightToWrong: 0,
    wrongToRight: 0,
  });
  const panel = (answer: string | null, rounds: AgentAnswer[][]): QuestionOutcome => ({
    answer,
    correct: isCorrect(answer, item),
    tokens: spend.tokens,
    estimated: spend.estimated,
    unreadable: spend.unreadable,
    firstCorrect: isCorrect(majority(rounds[0].map((a) => a.answer)), item),
    ...moves(rounds, item),
  });
  const agents = settings.models;
  const n = agents.length;

  switch (method) {
    case 'one_answer':
      return single((await ask(caller, spend, settings.single, item, direct(item), false)).answer);
    case 'chain_of_thought':
      return single((await ask(caller, spend, settings.single, item, stepByStep(item), true)).answer);
    case 'self_consistency': {
      const samples = await Promise.all(
        Array.from({ length: input.k }, () => ask(caller, spend, settings.single, item, stepByStep(item), true)),
      );
      return single(majority(samples.map((s) => s.answer)));
    }
    case 'round_table': {
      // Du et al.: each agent answers, then reads the others' answers and answers again, R rounds; then a vote.
      const rounds: AgentAnswer[][] = [
        await Promise.all(
          agents.map((m, i) => ask(caller, spend, m, item, `${agentLead(i, n)}${stepByStep(item)}`, true)),
        ),
      ];
      for (let r = 1; r < settings.rounds; r++) {
        const prev = rounds[r - 1];
        rounds.push(
          await Promise.all(
            agents.map((m, i) =>
              ask(
                caller,
                spend,
                m,
                item,
                paragraphs(
                  `${agentLead(i, n)}${questionText(item)}`,
                  `Your previous answer:\n${prev[i].reasoning}`,
                  `The other agents answered:\n${others(prev, i, (j) => `Agent ${j + 1}`)}`,
                  'Using their answers as additional information, give your updated answer, step by step and briefly.',
                ),
                true,
              ),
            ),
          ),
        );
      }
      return panel(majority(rounds.at(-1)!.map((a) => a.answer)), rounds);
    }
    case 'council': {
      // Answers, anonymous peer review for R−1 rounds, then the chair writes the council's answer.
      const rounds: AgentAnswer[][] = [
        await Promise.all(
          agents.map((m, i) => ask(caller, spend, m, item, `${agentLead(i, n)}${stepByStep(item)}`, true)),
        ),
      ];
      const anon = (j: number) => `Response ${String.fromCharCode(65 + j)}`;
      for (let r = 1; r < settings.rounds; r++) {
        const prev = rounds[r - 1];
        rounds.push(
          await Promise.all(
            agents.map((m, i) =>
              ask(
                caller,
                spend,
                m,
                item,
                paragraphs(
                  `${agentLead(i, n)}${questionText(item)}`,
                  `Your response:\n${prev[i].reasoning}`,
                  `The council's other responses, anonymous:\n${others(prev, i, anon)}`,
                  'Review them: which reasoning holds? Then give your own answer.',
                ),
                true,
              ),
            ),
          ),
        );
      }
      const last = rounds.at(-1)!;
      const all = last.map((a, j) => `${anon(j)}:\n${a.reasoning || '(no readable reply)'}`).join('\n\n');
      const chair = await ask(
        caller,
        spend,
        settings.judge,
        item,
        paragraphs(
          `You chair a council.\n${questionText(item)}`,
          `The council's responses:\n${all}`,
          "Weigh them and give the council's final answer.",
        ),
        true,
      );
      return panel(chair.answer, rounds);
    }
    case 'debate': {
      // Each debater argues its answer and rebuts the others for R rounds; a judge reads the debate and decides.
      const rounds: AgentAnswer[][] = [
        await Promise.all(
          agents.map((m, i) =>
            ask(caller, spend, m, item, `You are debater ${i + 1} of ${n}.\n${stepByStep(item)}`, true),
          ),
        ),
      ];
      for (let r = 1; r < settings.rounds; r++) {
        const prev = rounds[r - 1];
        rounds.push(
          await Promise.all(
            agents.map((m, i) =>
              ask(
                caller,
                spend,
                m,
                item,
                paragraphs(
                  `You are debater ${i + 1} of ${n}.\n${questionText(item)}`,
                  `Your argument:\n${prev[i].reasoning}`,
                  `Your opponents argued:\n${others(prev, i, (j) => `Debater ${j + 1}`)}`,
                  'Rebut what is wrong in theirs, defend or correct yours, and give your answer.',
                ),
                true,
              ),
            ),
          ),
        );
      }
      const transcript = rounds
        .map((round, r) =>
          round
            .map((a, i) => `Round ${r + 1}, debater ${i + 1}:\n${a.reasoning || '(no readable reply)'}`)
            .join('\n\n'),
        )
        .join('\n\n');
      const judge = await ask(
        caller,
        spend,
        settings.judge,
        item,
        `You judge a debate.\n${questionText(item)}\n\nThe debate:\n${transcript}\n\nDecide which answer is right.`,
        true,
      );
      return panel(judge.answer, rounds);
    }
  }
}
