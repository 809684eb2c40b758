import type { z } from 'zod';
import {
  APP_VERSION,
  CLOSE_CODE_EXPLANATIONS,
  DISCUSSION_RESUME_GRACE_MS,
  ENDPOINTS,
  type EndpointKey,
} from '../../src/schemas/constants';
import { probeFrame } from '../../src/schemas/discussionFrames';
import { hybridClientFrame, hybridConfig, hybridServerFrame } from '../../src/schemas/hybridSocket';
import { liveClientFrame, liveServerFrame } from '../../src/schemas/liveUpdates';
import {
  basicConfig,
  enhancedConfig,
  multiRoundConfig,
  standardClientFrame,
  standardHybridConfig,
  standardServerFrame,
} from '../../src/schemas/standardSocket';
import {
  CLOSE_REMOVED_FROM_ROOM,
  REMOVED_FROM_ROOM_TEXT,
  ROOM_CLIENT_MESSAGES,
  ROOM_SERVER_FRAMES,
  roomJoinMessage,
} from '../../src/schemas/rooms';
import { toJsonSchema, type JsonSchema } from './jsonSchema';

// The AsyncAPI 3 document of the sockets, generated from the frame schemas in src/schemas (the same ones the
// server and the app parse frames with). It describes the server: `send` is a frame the server sends, `receive`
// one it reads.

type Union = { options: readonly z.ZodType[] };
export const typeOf = (s: z.ZodType): string => {
  const shape = (s as unknown as { shape?: { type?: z.ZodLiteral<string> } }).shape;
  const value = shape?.type?.value;
  if (typeof value !== 'string') throw new Error('a socket frame schema needs a literal `type`');
  return value;
};

interface SocketSpec {
  key: string;
  paths: readonly string[];
  title: string;
  description: string;
  /** The first frame the client sends: one schema, or several the server tells apart. */
  first: Array<{ name: string; schema: z.ZodType; summary: string }>;
  client: Union;
  server: Union;
}

const CLOSES = [
  `1000 ${CLOSE_CODE_EXPLANATIONS[1000]}: the discussion ended (or a stop), or a \`?test=true\` probe was answered.`,
  `1001 ${CLOSE_CODE_EXPLANATIONS[1001]}: reconnect with the same configuration (the panels re-attach, as on 1006).`,
  `1003 ${CLOSE_CODE_EXPLANATIONS[1003]}: the first frame is not a valid configuration, or names an agent that is not yours (an \`error\` frame with \`fatal: true\` says why first).`,
  `1008 ${CLOSE_CODE_EXPLANATIONS[1008]}: the ticket or token is missing, invalid or expired, or the Origin is not allowed. Authentication only.`,
  `1011 ${CLOSE_CODE_EXPLANATIONS[1011]}: the server could not run the discussion.`,
  `1012 ${CLOSE_CODE_EXPLANATIONS[1012]}: the server handed the discussion over to another process; reconnect with the same configuration to re-attach.`,
  `1013 ${CLOSE_CODE_EXPLANATIONS[1013]}: a limit (MAX_RUNNING_DISCUSSIONS_PER_USER, MAX_AGENTS_PER_DISCUSSION); the close reason is a sentence to show as it is. A room member whose socket fell more than 8 MB behind is closed 1013 too ('Too slow to follow the room'); join again.`,
  `${CLOSE_REMOVED_FROM_ROOM} '${REMOVED_FROM_ROOM_TEXT}': the owner removed this person from the room (also sent at once to a removed person who joins again).`,
]
  .map((l) => `- ${l}`)
  .join('\n');

const DISCUSSION_FLOW = [
  'Open the socket with `?ticket=<ticket>` from `POST /auth/socket-ticket` (single-use, valid SOCKET_TICKET_TTL_SECONDS), so the session token stays out of URLs; `?token=<access_token>` works too. `?test=true` instead answers one `probe` frame and closes 1000, before any credential check.',
  'The **first frame** the client sends is the configuration (below); every later client frame is a `human_message`, a `stop` or an audio acknowledgment.',
  '',
  '**Streaming.** While a model writes a turn the server sends `agent_message_start`, then `agent_message_delta` frames (at most one per 50 ms per message; never stored or replayed), then the final `agent_message` or `text` with the same `id`.',
  '',
  `**Resume.** A configuration whose \`session_id\` names one of your discussions that is still running (or ended less than ${DISCUSSION_RESUME_GRACE_MS / 1000} s ago) attaches to it: the frames after \`resume_from\` (a count of frames the client holds; by default what the previous socket provably received) are replayed, then live frames follow. A dropped socket leaves the discussion running for that grace period; a close 1000 without \`stop\` ends it. A finished discussion is replayed from storage and the socket closed 1000.`,
  '',
  '**Continue from here.** `continued_from: { discussion_id, turn }` in the configuration starts a new discussion whose agents first hear that stored discussion (yours, by its id) up to that turn (1-based, as the replay counts turns), as the discussion so far; it is stored with the new one and History links the two both ways (`continued_from`, `continued_in`). A discussion that is not yours or does not exist, or a turn it never reached, is refused with a fatal `error` frame and close 1003, and nothing starts. A reconnect may send it again: an existing session ignores it.',
  '',
  "**Rooms.** A signed-in user who accepted an invite (`POST /invites/{token}/accept`) opens the same socket and sends `room_join {discussion_id}` as the first frame instead of a configuration: every stored frame so far is replayed, then the turn being streamed, then live frames. Everyone in the room, the owner included, is sent `room_people` (who is here, role, colour, typing, seats; each receiver's own `you`) whenever someone joins, leaves, types or a seat changes (coalesced; at most 100 people listed), and every person's message as `room_message` (author by display name and colour, never an email; stored with the frames once the room has had a member). A participant may send `human_message` (with @mentions), `room_typing`, and the frames of a seat the owner gave them (`judge_vote` for the judge's seat; `give_floor`, `cancel_floor`, `end_discussion` for the moderator's); a watcher sends nothing. Only the owner sends `stop`, `room_seat` and `room_remove`. A refused frame is answered with a non-fatal `error` frame to its sender alone. A member who is not in the room (no invite accepted) is refused with a fatal `error` and close 1003.",
  '',
  '**Close codes.**',
  CLOSES,
].join('\n');

const resumeField = {
  name: 'resume_from',
  description:
    'Optional in every configuration: how many frames of this session the client already holds (a reconnect).',
};

const endpointSocket = (
  key: EndpointKey,
  aliases: string[],
  first: SocketSpec['first'],
  client: Union,
  server: Union,
): SocketSpec => ({
  key,
  paths: [ENDPOINTS[key].path, ...aliases],
  title: `${ENDPOINTS[key].name} discussion`,
  description: `${ENDPOINTS[key].description}.\n\n${DISCUSSION_FLOW}`,
  first: [
    ...first,
    { name: 'room_join', schema: roomJoinMessage, summary: 'A room member joins a running discussion (first frame)' },
  ],
  client: { options: [...client.options, ...ROOM_CLIENT_MESSAGES] },
  server: { options: [...server.options, ...ROOM_SERVER_FRAMES] },
});

/** Every socket the server serves, with the schemas of what crosses it. */
export const SOCKETS: SocketSpec[] = [
  endpointSocket(
    'basic',
    ['/discussion/ws/discuss'],
    [{ name: 'basic_config', schema: basicConfig, summary: 'The configuration (first frame)' }],
    standardClientFrame,
    standardServerFrame,
  ),
  endpointSocket(
    'enhanced',
    ['/discussion/ws/enhanced'],
    [{ name: 'enhanced_config', schema: enhancedConfig, summary: 'The configuration (first frame)' }],
    standardClientFrame,
    standardServerFrame,
  ),
  endpointSocket(
    'multi_round',
    [],
    [{ name: 'multi_round_config', schema: multiRoundConfig, summary: 'The configuration (first frame)' }],
    standardClientFrame,
    standardServerFrame,
  ),
  endpointSocket(
    'hybrid',
    ['/hybrid-discussion/ws'],
    [
      {
        name: 'hybrid_config',
        schema: hybridConfig,
        summary:
          "The hybrid panel's configuration (first frame; told apart by its panel-only fields such as turns_per_round or tts_config)",
      },
      {
        name: 'standard_hybrid_config',
        schema: standardHybridConfig,
        summary: "The standard panel's configuration (first frame)",
      },
    ],
    { options: [...standardClientFrame.options, ...hybridClientFrame.options] },
    {
      options: [
        ...new Map([...standardServerFrame.options, ...hybridServerFrame.options].map((o) => [typeOf(o), o])).values(),
      ],
    },
  ),
  {
    key: 'updates',
    paths: ['/ws/updates', '/ws/system', '/system/ws/system'],
    title: 'Live updates',
    description: [
      'What changes in your workspace, as it happens (agents, connections, statuses) and your figures on request. `/ws/system` and `/system/ws/system` are the same socket on the system channel.',
      'Open with `?ticket=<ticket>` from `POST /auth/socket-ticket`, or `?token=<access_token>` (close 1008 when it is missing or bad). The server sends `connected` first; the client may send `ping` (answered `pong`) or `get_stats` (answered `stats`). No first frame is required. Reconnect after a drop: nothing is replayed; reload the lists.',
      '',
      '**Close codes.**',
      `- 1001 ${CLOSE_CODE_EXPLANATIONS[1001]}\n- 1008 ${CLOSE_CODE_EXPLANATIONS[1008]}\n- 1012 ${CLOSE_CODE_EXPLANATIONS[1012]}`,
    ].join('\n'),
    first: [],
    client: liveClientFrame,
    server: liveServerFrame,
  },
];

const message = (name: string, schema: z.ZodType, summary?: string) => ({
  name,
  title: name,
  ...(summary ? { summary } : {}),
  contentType: 'application/json',
  payload: toJsonSchema(schema, 'draft-7'),
});

const channelId = (path: string) => path.replace(/^\//, '').replace(/[^A-Za-z0-9]+/g, '_');

/** The whole AsyncAPI 3.0 document. */
export function asyncApiDocument() {
  const channels: Record<string, JsonSchema> = {};
  const operations: Record<string, JsonSchema> = {};
  const messages: Record<string, JsonSchema> = {};
  const ref = (name: string) => ({ $ref: `#/components/messages/${name}` });

  for (const socket of SOCKETS) {
    const server = socket.server.options.map((s) => ({ name: typeOf(s), schema: s }));
    const client = socket.client.options.map((s) => ({ name: typeOf(s), schema: s }));
    const probe = socket.key === 'updates' ? [] : [{ name: 'probe', schema: probeFrame as z.ZodType }];
    for (const m of [...server, ...probe]) messages[m.name] ??= message(m.name, m.schema);
    for (const m of client) messages[m.name] ??= message(m.name, m.schema);
    for (const f of socket.first) messages[f.name] = message(f.name, f.schema, f.summary);

    for (const [i, path] of socket.paths.entries()) {
      const id = channelId(path);
      const names = [
        ...socket.first.map((f) => f.name),
        ...client.map((m) => m.name),
        ...server.map((m) => m.name),
        ...probe.map((m) => m.name),
      ];
      channels[id] = {
        address: path,
        title: i === 0 ? socket.title : `${socket.title} (alias of ${socket.paths[0]})`,
        description:
          socket.description + (socket.first.length ? `\n\n${resumeField.name}: ${resumeField.description}` : ''),
        messages: Object.fromEntries(names.map((n) => [n, ref(n)])),
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: {
                token: {
                  type: 'string',
                  description: 'The access_token from /auth/login (or an Authorization: Bearer header).',
                },
                ...(socket.key === 'updates'
                  ? {}
                  : {
                      test: {
                        type: 'string',
                        enum: ['true', '1'],
                        description: 'A probe: one `probe` frame, then close 1000.',
                      },
                    }),
              },
            },
          },
        },
      };
      const channel = { $ref: `#/channels/${id}` };
      const on = (n: string) => ({ $ref: `#/channels/${id}/messages/${n}` });
      if (socket.first.length) {
        operations[`${id}_configure`] = {
          action: 'receive',
          channel,
          title: 'Configure (first frame)',
          summary: 'The first frame the client sends: the discussion configuration.',
          messages: socket.first.map((f) => on(f.name)),
        };
      }
      operations[`${id}_client`] = {
        action: 'receive',
        channel,
        title: 'Client frames',
        summary: 'What the client may send (after the configuration, for a discussion).',
        messages: client.map((m) => on(m.name)),
      };
      operations[`${id}_server`] = {
        action: 'send',
        channel,
        title: 'Server frames',
        summary: 'What the server sends.',
        messages: [...server, ...probe].map((m) => on(m.name)),
      };
    }
  }

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Agora sockets',
      version: APP_VERSION,
      description:
        'The WebSockets of the Agora server: the four discussion endpoints (and their aliases) and the live-updates socket. Every frame is a JSON object with a string `type`; an unknown `type` is ignored by the app. The HTTP API is described at `/openapi.json`.',
    },
    defaultContentType: 'application/json',
    servers: {
      agora: {
        host: 'localhost:8000',
        protocol: 'ws',
        description: 'The Agora server (the same origin as the app; wss behind TLS).',
      },
    },
    channels,
    operations,
    components: { messages },
  };
}
