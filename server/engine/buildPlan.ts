import { formatPlanOf, withFormat } from './formats';
import { endpointPlan, type AgentRef, type EndpointConfig, type EngineTiming, type Plan } from './plan';

// A discussion's whole plan: its endpoint's (plan.ts) with its format's (formats/). Kept apart from plan.ts, whose
// types every format reads, so that the plan's module imports no format.

export function buildPlan(
  input: EndpointConfig,
  agents: AgentRef[],
  timing: EngineTiming,
  discussionId?: string,
): Plan {
  return withFormat(endpointPlan(input, agents, timing, discussionId), formatPlanOf(input.config.format, agents));
}
