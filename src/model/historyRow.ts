// What tells one History row from another (who took part, with which models, what was said first) and the
// delete question that names it. Pure.
import type { DiscussionSummary } from '../schemas/history';

/** 'Ada', 'Ada and Bo', 'Ada, Bo and Cleo'. */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The distinct models the participants used, in order, each as `nameOf` says it (modelName: 'Loopback sim ·
 * walk-sim-7b', 'demo model'), given the label the server stored for it when the discussion started.
 */
export function modelsOf(d: DiscussionSummary, nameOf: (model: string, stored?: string | null) => string): string[] {
  const seen = new Set<string>();
  for (const p of d.participants ?? []) if (p.model) seen.add(nameOf(p.model, p.model_label));
  return [...seen];
}

/** The confirmation names the discussion by its topic, its date and who took part. */
export function deleteQuestion(d: DiscussionSummary, date: string): string {
  const topic = d.topic.length > 80 ? `${d.topic.slice(0, 79)}…` : d.topic;
  const names = joinNames((d.participants ?? []).map((p) => p.name));
  const who = names ? ` with ${names}` : '';
  return `Delete the discussion “${topic}” of ${date}${who}? Its messages cannot be recovered.`;
}

/** Where a discussion started outside the app, in the row's words ('via MCP', 'via API'); null for the app's own. */
export function originLabel(d: Pick<DiscussionSummary, 'origin'>): string | null {
  return d.origin === 'mcp' ? 'via MCP' : d.origin === 'api' ? 'via API' : null;
}
