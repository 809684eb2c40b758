import type { PanelAnswer, PanelTurn } from '../../src/schemas/panelAnswer';
import type { EngineFrame } from '../engine/frames';
import type { UsageTally } from '../engine/usage';

// What a panel's discussion concluded, read from its stored frames (the frames are the record; nothing here is
// recomputed): the turns, the final answer, the consensus figure and the positions in words.

export type { PanelAnswer, PanelTurn } from '../../src/schemas/panelAnswer';

type Frame = EngineFrame & Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** An agent's finished turn, or null for any other frame. */
export function turnOf(frame: EngineFrame): PanelTurn | null {
  const f = frame as Frame;
  if (f.type === 'agent_message') {
    const position = str(f.position);
    return { agent_name: String(f.agent_name), content: String(f.content), ...(position ? { position } : {}) };
  }
  // The basic endpoint's turn (/ws/discuss); a `text` frame without `from` is an audio pairing, not a turn.
  if (f.type === 'text' && str(f.from) && typeof f.text === 'string')
    return { agent_name: String(f.from), content: f.text };
  if (f.type === 'argument') {
    const a = f.argument as { agent_name?: string; agent_id: string; content: string };
    const position = str(f.position);
    return { agent_name: a.agent_name ?? a.agent_id, content: a.content, ...(position ? { position } : {}) };
  }
  return null;
}

const last = <T>(list: readonly T[], pick: (x: T) => unknown) => {
  for (let i = list.length - 1; i >= 0; i--) if (pick(list[i]) !== undefined) return list[i];
  return undefined;
};

export const discussionAddress = (id: string) => `/discussions/${id}`;

export function answerOf(run: {
  discussionId: string;
  /** The panel's name, or the discussion's topic when it was not asked of a panel. */
  panel: string;
  formatKind: string | null | undefined;
  frames: readonly EngineFrame[];
  turns: readonly PanelTurn[];
  /** A run's metered usage; a stored discussion's was not kept (zero, estimated). */
  usage?: UsageTally;
  cancelled?: boolean;
}): PanelAnswer {
  const frames = run.frames as readonly Frame[];
  const summary = last(frames, (f) => (f.type === 'discussion_summary' ? f : undefined))?.summary as
    | Record<string, unknown>
    | undefined;
  const reached = last(frames, (f) => (f.type === 'consensus_reached' ? f : undefined));
  const ended = last(frames, (f) => (f.type === 'discussion_ended' ? f : undefined));
  const lastTurn = run.turns.at(-1);
  // A council's chair answer is its last turn; its summary only points to it.
  const council = run.formatKind === 'council';
  const solution = str((reached?.consensus as { solution?: unknown } | undefined)?.solution);
  const answer = (council ? lastTurn?.content : undefined) ?? str(summary?.text) ?? solution ?? lastTurn?.content ?? '';
  const turnScore = last(frames, (f) => num(f.consensus_score))?.consensus_score;
  const consensus = num(reached?.score) ?? num(summary?.consensus_score) ?? num(turnScore) ?? null;

  const positions: string[] = [];
  const outcome = str(reached?.outcome) ?? str(summary?.outcome);
  if (outcome) positions.push(outcome);
  const held = new Map<string, string>();
  for (const t of run.turns) if (t.position) held.set(t.agent_name, t.position);
  for (const [name, position] of held) positions.push(`${name}: ${position}`);

  const u = run.usage ?? { prompt: 0, completion: 0, estimated: true };
  return {
    discussion_id: run.discussionId,
    address: discussionAddress(run.discussionId),
    panel: run.panel,
    answer,
    consensus,
    positions,
    turns: [...run.turns],
    end_reason: run.cancelled ? 'cancelled' : (str(ended?.reason) ?? null),
    usage: {
      prompt_tokens: u.prompt,
      completion_tokens: u.completion,
      total_tokens: u.prompt + u.completion,
      estimated: u.estimated,
    },
  };
}

/** The turns of a run of frames, in order. */
export const turnsOf = (frames: readonly EngineFrame[]) => frames.flatMap((f) => turnOf(f) ?? []);
