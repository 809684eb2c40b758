import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { panelAnswer } from '../../../src/schemas/panelAnswer';
import type { ApiTokenScope } from '../../../src/schemas/apiTokens';
import type { AppContext } from '../../context';
import type { SessionLog } from '../../engine/session';
import { HttpError } from '../../http/errors';
import { missingScope } from '../apiTokenGuard';
import type { TokenHolder } from '../apiTokenStore';
import { ASK_CONTEXT_MAX, askPanel } from '../askPanel';
import { listPanels } from '../panelStore';
import { DISCUSSION_NOT_FOUND, readDiscussion } from '../transcript';

// The MCP server one API token talks to (docs/integrations.md#mcp-server): tools list_panels, ask_panel and
// get_discussion, and the resource template agora://discussions/{id} (the transcript as Markdown). Every call acts as
// the token's person and checks its scope; a refusal is a tool error in words, as MCP clients show them.

export const SERVER_INFO = { name: 'agora', version: '1.0.0' };
export const DISCUSSION_URI = 'agora://discussions/{id}';

const text = (t: string) => ({ type: 'text' as const, text: t });
const refused = (message: string) => ({ content: [text(message)], isError: true });

/** A tool's body with the token's scope checked first and an HttpError worded as a tool error. */
const guarded =
  <A, R>(holder: TokenHolder, scope: ApiTokenScope, run: (args: A, extra: Extra) => Promise<R>) =>
  async (args: A, extra: Extra) => {
    if (!holder.scopes.includes(scope)) return refused(missingScope(scope));
    try {
      return await run(args, extra);
    } catch (err) {
      if (err instanceof HttpError && err.status < 500) return refused(err.message);
      throw err;
    }
  };

type Extra = {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>;
};

export function mcpServerFor(ctx: AppContext, holder: TokenHolder, log: SessionLog): McpServer {
  const { userId } = holder;
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Agora runs panels of AI agents that discuss a question and conclude. list_panels names your saved panels; ask_panel runs one on a question and answers its conclusion, the consensus figure, the positions and the discussion address; get_discussion reads a discussion again.',
  });

  server.registerTool(
    'list_panels',
    {
      title: 'List saved panels',
      description: 'Your saved panels: each one’s name (what ask_panel takes), id, agents and format.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    guarded(holder, 'read', async () => {
      const panels = (await listPanels(ctx.db, userId)).map((p) => ({
        id: p.id,
        name: p.name,
        agents: p.agent_ids.length,
        format: p.format?.kind ?? 'round_table',
      }));
      return {
        content: [
          text(
            panels.length
              ? panels.map((p) => `- ${p.name} (${p.agents} agents, ${p.format}; id ${p.id})`).join('\n')
              : 'You have no saved panels yet: save one in Agora (Save as panel).',
          ),
        ],
        structuredContent: { panels },
      };
    }),
  );

  server.registerTool(
    'ask_panel',
    {
      title: 'Ask a panel',
      description:
        'Runs a discussion of a saved panel on the question and answers its final answer (the summary; a council’s chair answer), the consensus figure, the positions in words and the discussion’s address. Sends a progress notification after each turn. Cancelling the call stops the discussion.',
      inputSchema: {
        panel: z.string().min(1).max(200).describe('The panel’s name or id (list_panels)'),
        question: z.string().trim().min(1).max(ASK_CONTEXT_MAX).describe('What the panel discusses'),
        max_turns: z.number().int().min(1).max(50).optional().describe('At most this many turns (or rounds)'),
      },
      outputSchema: panelAnswer.shape,
    },
    guarded(holder, 'run', async ({ panel, question, max_turns }, extra) => {
      const token = extra._meta?.progressToken;
      const answer = await askPanel(ctx, {
        userId,
        panel,
        question,
        origin: 'mcp',
        log,
        signal: extra.signal,
        ...(max_turns ? { maxTurns: max_turns } : {}),
        onTurn: (turn, n) => {
          if (token === undefined) return;
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: n, message: `${turn.agent_name} spoke (turn ${n})` },
            })
            .catch(() => undefined);
        },
      });
      const lines = [
        answer.answer,
        '',
        answer.consensus === null ? 'No consensus figure.' : `Consensus: ${Math.round(answer.consensus * 100)}%.`,
        ...answer.positions.map((p) => `- ${p}`),
        '',
        `Discussion: ${answer.address} (${answer.turns.length} turns; resource agora://discussions/${answer.discussion_id})`,
      ];
      return { content: [text(lines.join('\n'))], structuredContent: answer };
    }),
  );

  server.registerTool(
    'get_discussion',
    {
      title: 'Read a discussion',
      description: 'One of your discussions by id: its conclusion and its transcript as Markdown.',
      inputSchema: { id: z.string().min(1).max(200).describe('The discussion’s id (ask_panel answers it)') },
      annotations: { readOnlyHint: true },
    },
    guarded(holder, 'read', async ({ id }) => {
      const read = await readDiscussion(ctx.db, userId, id);
      if (!read) return refused(DISCUSSION_NOT_FOUND);
      return {
        content: [text(read.markdown)],
        structuredContent: {
          id: read.id,
          topic: read.topic,
          status: read.status,
          origin: read.origin,
          created_at: read.created_at,
          ...read.conclusion,
        },
      };
    }),
  );

  server.registerResource(
    'discussion',
    new ResourceTemplate(DISCUSSION_URI, { list: undefined }),
    { title: 'A discussion’s transcript', description: 'The transcript as Markdown', mimeType: 'text/markdown' },
    async (uri, vars) => {
      if (!holder.scopes.includes('read')) throw new Error(missingScope('read'));
      const read = await readDiscussion(ctx.db, userId, String(vars.id));
      if (!read) throw new Error(DISCUSSION_NOT_FOUND);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: read.markdown }] };
    },
  );
  return server;
}
