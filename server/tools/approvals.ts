import type { ToolsState } from './state';

// A call that waits for the person (an agent with 'Ask me before each call'): the call loop waits here, the
// discussion socket's `tool_approval` answers it (engine/clientFrames.ts). Only the discussion's owner can answer;
// Stop (the signal) ends the wait as a refusal.

export function waitForApproval(state: ToolsState, userId: string, id: string, signal: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const done = (approve: boolean) => {
      state.approvals.delete(id);
      signal.removeEventListener('abort', onAbort);
      resolve(approve);
    };
    const onAbort = () => done(false);
    if (signal.aborted) return resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    state.approvals.set(id, { userId, answer: done });
  });
}

/** The person's answer; false when no call of theirs waits under this id (answered already, or never asked). */
export function answerApproval(state: ToolsState, userId: string, id: string, approve: boolean): boolean {
  const waiting = state.approvals.get(id);
  if (!waiting || waiting.userId !== userId) return false;
  waiting.answer(approve);
  return true;
}
