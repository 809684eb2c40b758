// What both panels' views read of the parts of the run their charts share (discussionRun.states.ts).
import type { RunContext } from './kit/runActions';

/** A panel's snapshot, as far as these selectors read it. */
interface RunSnapshot {
  hasTag(tag: 'confirmingStart'): boolean;
  context: Pick<RunContext, 'startQuestion'>;
}

/** Start's question (a selected agent's model server is not answering): who, while it is asked; else null. */
export const selectStartQuestion = (s: RunSnapshot): readonly string[] | null =>
  s.hasTag('confirmingStart') ? (s.context.startQuestion?.unreachable ?? null) : null;
