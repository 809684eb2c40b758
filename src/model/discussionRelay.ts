// What a discussion panel tells the workspace about its agents (the canvas's status looks and 'Active speaker').
// A function, so the event is typed once for both panels.
export const agentStatus = (agentId: string, status: string) => ({ type: 'discussion.agentStatus' as const, agentId, status });
export const statusesReset = () => ({ type: 'discussion.statusesReset' as const });
