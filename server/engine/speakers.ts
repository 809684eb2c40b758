import type { AgentRef, Plan } from './plan';
import type { DiscussionRecord } from './record';

// Who speaks next. In order of precedence:
//   1. a delegate: an agent handed a task speaks next (smart_delegation, hybrid and enhanced modes, hybrid endpoint);
//   2. an interrupt: an agent whose latest stance opposes the last speaker's with confidence above the interrupt
//      threshold (enhanced), unless it spoke just before (no ping-pong);
//   3. reactive modes: the agent the last turn addressed; natural mode: the agent the last speaker picked;
//   4. the turn order: staged endpoints (multi-round, hybrid) give every agent its turns in table order each
//      stage; the others go round the table after the last speaker.

export interface SpeakerState {
  turnInStage: number;
  lastSpeakerId: string | null;
  prevSpeakerId: string | null;
  delegateId: string | null;
  lastAddressedTo: string | null;
  lastPicked: string | null;
}

export type SpeakerReason = 'delegation' | 'interrupt' | 'addressed' | 'picked' | 'turn';

/** An agent by name (as a model writes it) or by id; case and surrounding punctuation ignored. */
export function findAgent(agents: readonly AgentRef[], nameOrId: string | null | undefined): AgentRef | undefined {
  if (!nameOrId) return undefined;
  const key = nameOrId.trim().replace(/^@/, '').toLowerCase();
  return (
    agents.find((a) => a.id === nameOrId || a.name.toLowerCase() === key) ??
    agents.find((a) => key.length > 2 && a.name.toLowerCase().startsWith(key))
  );
}

function interrupter(plan: Plan, record: DiscussionRecord, s: SpeakerState): AgentRef | undefined {
  if (!plan.interrupts || !s.lastSpeakerId) return undefined;
  const last = record.positions[s.lastSpeakerId];
  if (!last || last.stance === 'neutral') return undefined;
  const opposite = last.stance === 'support' ? 'oppose' : 'support';
  const threshold = plan.interrupts.threshold;
  return plan.agents
    .filter((a) => a.id !== s.lastSpeakerId && a.id !== s.prevSpeakerId)
    .map((a) => ({ a, p: record.positions[a.id] }))
    .filter(({ p }) => p && p.stance === opposite && p.confidence > threshold)
    .sort((x, y) => y.p.confidence - x.p.confidence)[0]?.a;
}

export function nextSpeaker(
  plan: Plan,
  record: DiscussionRecord,
  s: SpeakerState,
): { agent: AgentRef; reason: SpeakerReason } {
  const { agents } = plan;
  const notLast = (a: AgentRef | undefined) => (a && a.id !== s.lastSpeakerId ? a : undefined);

  const delegate = notLast(agents.find((a) => a.id === s.delegateId));
  if (delegate) return { agent: delegate, reason: 'delegation' };
  const interrupting = interrupter(plan, record, s);
  if (interrupting) return { agent: interrupting, reason: 'interrupt' };
  if (plan.reactive) {
    const addressed = notLast(findAgent(agents, s.lastAddressedTo));
    if (addressed) return { agent: addressed, reason: 'addressed' };
  }
  if (plan.naturalPick) {
    const picked = notLast(findAgent(agents, s.lastPicked));
    if (picked) return { agent: picked, reason: 'picked' };
  }
  const staged = plan.endpoint === 'multi_round' || plan.endpoint === 'hybrid';
  if (staged) return { agent: agents[s.turnInStage % agents.length], reason: 'turn' };
  const lastIndex = agents.findIndex((a) => a.id === s.lastSpeakerId);
  return { agent: agents[(lastIndex + 1) % agents.length], reason: 'turn' };
}
