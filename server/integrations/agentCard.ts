import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AgentCard, agentCard } from '../../src/schemas/agentCard';
import { APP_VERSION } from '../../src/schemas/constants';

// GET /.well-known/agent-card.json (public): the A2A discovery card. It points callers at the surfaces a panel is
// asked through — the MCP server at /mcp (the card's url) and the OpenAI-compatible /v1 — and the API token they need.

/** The address callers reach this server at, as the request named it (the proxy's, when TRUST_PROXY trusts one). */
const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

export function cardFor(origin: string): AgentCard {
  return {
    protocolVersion: '0.3.0',
    name: 'Agora',
    description:
      'Panels of AI agents that discuss a question and conclude. Ask a saved panel through the MCP server (this url) or the OpenAI-compatible API (model "panel:<name>" at /v1/chat/completions).',
    url: `${origin}/mcp`,
    preferredTransport: 'MCP+StreamableHTTP',
    version: APP_VERSION,
    documentationUrl: `${origin}/docs`,
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: {
      apiToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'agora_…',
        description:
          'An Agora API token (the app’s API tokens dialog): scope read to list panels and read discussions, run to ask a panel.',
      },
    },
    security: [{ apiToken: ['run'] }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'text/markdown', 'application/json'],
    skills: [
      {
        id: 'ask_panel',
        name: 'Ask a panel',
        description:
          'Runs a discussion of one of your saved panels on a question and answers its final answer (the summary; a council’s chair answer), the consensus figure, the positions in words and the discussion’s address. MCP tool ask_panel { panel, question, max_turns? }; or POST /v1/chat/completions with model "panel:<name>".',
        tags: ['discussion', 'panel', 'deliberation', 'consensus'],
        examples: ['Ask the panel "Budget review": should we move the offsite to spring?'],
      },
    ],
  };
}

export async function agentCardRoutes(app: FastifyInstance) {
  app.get(
    '/.well-known/agent-card.json',
    {
      schema: {
        tags: ['Agent card'],
        summary: 'The A2A agent card: the ask-a-panel skill and the bearer auth it needs (public)',
        security: [],
        response: { 200: agentCard },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'public, max-age=300').header('access-control-allow-origin', '*');
      return cardFor(originOf(req));
    },
  );
}
