import type { TurnAnswer, TurnContext } from '../../../engine/turnAnswer';

// The offline model's position, chosen deterministically from its stance: three plain options, so a demo
// discussion shows a first vote, changes of mind and a consensus figure that move with what the agents say.
// A change names what moved it when the last agent it heard already held the new option (a change after an
// argument); otherwise it just follows (a change towards the majority, when the new option leads).

export const OFFLINE_POSITIONS: Record<TurnAnswer['stance'], string> = {
  support: 'Go ahead as proposed',
  oppose: 'Do not go ahead as proposed',
  neutral: 'Wait for more evidence first',
};

const key = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

export function offlinePosition(
  ctx: TurnContext,
  answer: TurnAnswer,
): Pick<TurnAnswer, 'position' | 'option_id' | 'moved_by'> {
  const label = OFFLINE_POSITIONS[answer.stance];
  const listed = (ctx.options ?? []).find((o) => key(o.label) === key(label));
  const optionId = listed?.id ?? 'new';
  const changed = Boolean(ctx.ownOption && listed && ctx.ownOption !== listed.id);
  const lastOther = [...ctx.history].reverse().find((h) => !h.human && h.speaker !== ctx.agent.name);
  const persuadedBy = changed && lastOther?.option_id === listed?.id ? lastOther : undefined;
  return { position: label, option_id: optionId, moved_by: persuadedBy ? `${persuadedBy.speaker}'s point` : null };
}
