import { evalTaskItem, type EvalTaskItem, type EvalTaskSpec } from '../../src/schemas/eval';
import { REASONING_SET } from './reasoningSet';
import { mulberry32, randomInt } from './rng';

// The three task sets: Du et al.'s generated arithmetic, the built-in reasoning questions, and the user's JSONL,
// checked line by line. A task set becomes a list of questions once, when the run is created, and is stored with
// it, so a resumed run asks exactly the same questions.

export const LETTERS = 'ABCDEFGHIJ';

/** Du et al. (2023): a+b*c+d-e*f with each number drawn from 0..29. */
export function arithmeticTasks(seed: number, size: number): EvalTaskItem[] {
  const rand = mulberry32(seed);
  const out: EvalTaskItem[] = [];
  for (let i = 0; i < size; i++) {
    const [a, b, c, d, e, f] = Array.from({ length: 6 }, () => randomInt(rand, 0, 29));
    out.push({
      question: `What is the result of ${a}+${b}*${c}+${d}-${e}*${f}?`,
      answer: String(a + b * c + d - e * f),
    });
  }
  return out;
}

export interface FileLineError {
  line: number;
  message: string;
}

/** One question per line; blank lines are skipped; every bad line is named with what is wrong with it. */
export function parseTaskFile(jsonl: string, maxQuestions: number): { items: EvalTaskItem[]; errors: FileLineError[] } {
  const items: EvalTaskItem[] = [];
  const errors: FileLineError[] = [];
  const lines = jsonl.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    if (!raw.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      errors.push({ line, message: 'not valid JSON' });
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      errors.push({ line, message: 'must be a JSON object with "question" and "answer"' });
      continue;
    }
    const o = value as Record<string, unknown>;
    if (typeof o.answer === 'number') o.answer = String(o.answer);
    const parsed = evalTaskItem.safeParse(o);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.join('.') || 'line';
      const missing = issue.code === 'invalid_type' && o[String(issue.path[0])] === undefined;
      errors.push({ line, message: missing ? `"${field}" is missing` : `"${field}": ${issue.message}` });
      continue;
    }
    const item = parsed.data;
    if (item.choices) {
      const letter = choiceLetter(item.answer, item.choices);
      if (!letter) {
        errors.push({
          line,
          message: `"answer" must be one of the choices or its letter (A–${LETTERS[item.choices.length - 1]})`,
        });
        continue;
      }
      item.answer = letter;
    }
    items.push(item);
  }
  if (!items.length && !errors.length) errors.push({ line: 1, message: 'the file has no questions' });
  if (items.length > maxQuestions)
    errors.push({
      line: lines.length,
      message: `the file has ${items.length} questions; a run takes at most ${maxQuestions}`,
    });
  return { items, errors };
}

/** A multiple-choice answer as its letter: 'B', 'b', or the choice's own text. */
export function choiceLetter(answer: string, choices: string[]): string | null {
  const a = answer.trim();
  const byLetter = /^[A-Ja-j]$/.test(a) ? a.toUpperCase() : null;
  if (byLetter && LETTERS.indexOf(byLetter) < choices.length) return byLetter;
  const at = choices.findIndex((c) => c.trim().toLowerCase() === a.toLowerCase());
  return at >= 0 ? LETTERS[at] : null;
}

export class TaskSetError extends Error {
  constructor(readonly errors: FileLineError[]) {
    super(
      errors
        .slice(0, 10)
        .map((e) => (e.line ? `line ${e.line}: ${e.message}` : e.message))
        .join('; ') + (errors.length > 10 ? `; and ${errors.length - 10} more` : ''),
    );
  }
}

/** The questions of a task set, or a TaskSetError naming what is wrong (size over the cap, bad lines). */
export function buildTasks(spec: EvalTaskSpec, maxQuestions: number): { items: EvalTaskItem[]; label: string } {
  if (spec.kind === 'arithmetic') {
    if (spec.size > maxQuestions)
      throw new TaskSetError([{ line: 0, message: `a run takes at most ${maxQuestions} questions` }]);
    return {
      items: arithmeticTasks(spec.seed, spec.size),
      label: `Arithmetic (seed ${spec.seed}, ${spec.size} questions)`,
    };
  }
  if (spec.kind === 'reasoning') {
    const size = Math.min(spec.size ?? REASONING_SET.length, REASONING_SET.length, maxQuestions);
    return { items: REASONING_SET.slice(0, size), label: `Reasoning (built in, ${size} questions)` };
  }
  const { items, errors } = parseTaskFile(spec.jsonl, maxQuestions);
  if (errors.length) throw new TaskSetError(errors);
  return { items, label: `${spec.name} (${items.length} questions)` };
}
