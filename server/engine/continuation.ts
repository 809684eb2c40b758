import { CONTINUATION_PROMPT_TURNS, CONTINUATION_TURN_CHARS } from '../../src/schemas/constants';
import type { ContinuedFrom } from '../../src/schemas/continuation';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import type { Queryable } from '../db/db';
import { firstFramesOfTypes, humanMessagesBefore, ownDiscussion } from './sourceStore';

// 'Continue from here': the source discussion's transcript up to the chosen turn, read from storage, which the new
// discussion's agents hear as the discussion so far. A turn is counted as the replay counts it (a stored
// agent_message, text or argument frame, in order); what a person said before that turn's frame is part of it.

export interface PriorTurn {
  speaker: string;
  content: string;
  human?: boolean;
}

/** What a continuation's prompts quote: the source's topic and its last turns up to the chosen one. */
export interface PriorTranscript {
  discussionId: string;
  topic: string;
  turn: number;
  /** The last CONTINUATION_PROMPT_TURNS entries up to the turn, oldest first. */
  turns: PriorTurn[];
  /** Entries before those (said, but not quoted). */
  omitted: number;
}

const TURN_TYPES = ['agent_message', 'text', 'argument'];

type Frame = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** One stored turn frame as speaker and words (agent_message, the hybrid panel's text, a multi-round argument). */
export function turnOf(f: Frame): PriorTurn {
  if (f.type === 'text') return { speaker: str(f.from), content: str(f.text) };
  if (f.type === 'argument') {
    const a = (f.argument ?? {}) as Frame;
    return { speaker: str(a.agent_name) || str(a.agent_id), content: str(a.content) };
  }
  return { speaker: str(f.agent_name), content: str(f.content) };
}

const cut = (t: PriorTurn): PriorTurn => ({ ...t, content: t.content.slice(0, CONTINUATION_TURN_CHARS) });

/**
 * The user's discussion `ref.discussion_id` up to turn `ref.turn`, or why it cannot be continued (not the user's,
 * missing, or fewer turns). Someone else's discussion reads as missing.
 */
export async function loadPriorTranscript(
  db: Queryable,
  userId: string,
  ref: ContinuedFrom,
): Promise<{ ok: true; prior: PriorTranscript } | { ok: false; why: string }> {
  const row = await ownDiscussion(db, userId, ref.discussion_id);
  if (!row) return { ok: false, why: ENGINE_MESSAGES.continuationNotFound(ref.discussion_id) };
  // Only the turn frames, and only up to the chosen one: a long discussion is never read whole for this.
  const frames = await firstFramesOfTypes(db, row.id, TURN_TYPES, ref.turn);
  if (frames.length < ref.turn) return { ok: false, why: ENGINE_MESSAGES.continuationNoTurn(ref.turn, frames.length) };
  const until = new Date(frames[frames.length - 1].at);
  const humans = await humanMessagesBefore(db, row.id, until);
  // Frames and human messages merged by time, as the replay places them.
  const entries: Array<{ at: number; turn: PriorTurn }> = [
    ...frames.map((f) => ({
      at: new Date(f.at).getTime(),
      turn: turnOf((typeof f.data === 'string' ? JSON.parse(f.data) : f.data) as Frame),
    })),
    ...humans.map((h) => ({
      at: new Date(h.at).getTime(),
      turn: { speaker: 'Human participant', content: h.text, human: true },
    })),
  ].sort((a, b) => a.at - b.at);
  const all = entries.map((e) => e.turn).filter((t) => t.content.trim());
  const turns = all.slice(-CONTINUATION_PROMPT_TURNS).map(cut);
  return {
    ok: true,
    prior: { discussionId: row.id, topic: row.topic, turn: ref.turn, turns, omitted: all.length - turns.length },
  };
}
