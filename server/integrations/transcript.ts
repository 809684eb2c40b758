import type { PanelAnswer } from '../../src/schemas/panelAnswer';
import type { Db } from '../db/db';
import type { EngineFrame } from '../engine/frames';
import { loadDiscussion } from '../engine/store';
import { answerOf, discussionAddress, turnsOf } from './panelAnswer';

// One stored discussion as an outside client reads it (the MCP server's get_discussion and its resource
// agora://discussions/{id}): what it concluded, and its transcript as Markdown. Only the person's own: another's is
// not found, in the words of one that does not exist.

export const DISCUSSION_NOT_FOUND = 'Discussion not found';

export interface DiscussionRead {
  id: string;
  topic: string;
  status: string;
  origin: string;
  created_at: string;
  conclusion: PanelAnswer;
  markdown: string;
}

const pct = (n: number) => `${Math.round(n * 100)}%`;

export async function readDiscussion(db: Db, userId: string, id: string): Promise<DiscussionRead | null> {
  const stored = await loadDiscussion(db, userId, id);
  if (!stored) return null;
  const frames = stored.frames.map((f) => f.data as EngineFrame);
  const turns = turnsOf(frames);
  const format = (stored.config?.format as { kind?: string } | undefined)?.kind;
  const conclusion = answerOf({ discussionId: stored.id, panel: stored.topic, formatKind: format, frames, turns });
  const origin = stored.origin ?? 'app';
  const lines = [
    `# ${stored.topic.split('\n')[0]}`,
    '',
    `${stored.status === 'running' ? 'Running' : 'Ended'} · started ${stored.created_at} · ${origin === 'app' ? 'in the app' : `via ${origin === 'mcp' ? 'MCP' : 'API'}`} · ${discussionAddress(stored.id)}`,
    '',
    '## Turns',
    '',
    ...turns.flatMap((t, i) => [
      `**${i + 1}. ${t.agent_name}**${t.position ? ` (holds: ${t.position})` : ''}`,
      '',
      t.content,
      '',
    ]),
  ];
  if (conclusion.answer) lines.push('## Answer', '', conclusion.answer, '');
  if (conclusion.consensus !== null || conclusion.positions.length) {
    lines.push('## Positions', '');
    if (conclusion.consensus !== null) lines.push(`Consensus: ${pct(conclusion.consensus)}`, '');
    for (const p of conclusion.positions) lines.push(`- ${p}`);
    lines.push('');
  }
  return {
    id: stored.id,
    topic: stored.topic,
    status: stored.status,
    origin,
    created_at: stored.created_at,
    conclusion,
    markdown: lines.join('\n'),
  };
}
