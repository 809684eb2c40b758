import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { FetchLike } from '../../models/guardedFetch';
import { maskSecrets } from '../../providers/mask';
import type { ToolOutput } from '../types';

// The MCP client (docs/tools.md#mcp-servers): the official SDK's Client over Streamable HTTP, or the older HTTP+SSE
// transport, or — only for a server of the operator's MCP_SERVERS_FILE — a stdio command. A session is opened for
// what it is needed for (a Test, a listing, one call) and closed after it, so nothing lingers between turns. Every
// HTTP answer goes through a fetch that stops reading at MCP_RESPONSE_MAX_BYTES, and a user's server through the
// address rule's fetch (models/guardedFetch.ts).

export type McpTransportChoice = 'auto' | 'streamable_http' | 'sse';

export type McpTarget =
  | { kind: 'http'; url: string; apiKey: string | null; transport: McpTransportChoice; fetch?: FetchLike }
  | { kind: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string };

export interface McpLimits {
  responseMaxBytes: number;
  maxTools: number;
  toolListMaxBytes: number;
}

export interface ListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export class McpError extends Error {}

const CLIENT_INFO = { name: 'agora', version: '1' };
const DESCRIPTION_MAX = 2_000;
const NAME_MAX = 128;

/**
 * The SDK's client side, loaded with the first session: evaluating its modules builds a few hundred zod schemas,
 * which every server start paid for before it listened (npm run bench server, the cold start).
 */
let sdk: Promise<Sdk> | undefined;
type Sdk = Awaited<ReturnType<typeof importSdk>>;
const importSdk = async () => {
  const [client, sse, stdio, streamable] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
  };
};
const loadSdk = () => (sdk ??= importSdk());

/** A fetch whose answers end in an error past `max` bytes (an endless or huge answer is not read to its end). */
export function cappedFetch(inner: FetchLike, max: number): FetchLike {
  return async (url, init) => {
    const res = await inner(url, init);
    if (!res.body) return res;
    let seen = 0;
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          seen += chunk.byteLength;
          if (seen > max)
            out.error(new McpError(`the MCP server's answer passed ${max} bytes (MCP_RESPONSE_MAX_BYTES)`));
          else out.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

function httpTransport(
  { SSEClientTransport, StreamableHTTPClientTransport }: Sdk,
  t: Extract<McpTarget, { kind: 'http' }>,
  which: 'streamable_http' | 'sse',
  max: number,
) {
  const url = new URL(t.url);
  const requestInit: RequestInit = t.apiKey ? { headers: { authorization: `Bearer ${t.apiKey}` } } : {};
  const fetch = cappedFetch(t.fetch ?? globalThis.fetch, max);
  return which === 'sse'
    ? new SSEClientTransport(url, { requestInit, fetch })
    : new StreamableHTTPClientTransport(url, { requestInit, fetch });
}

const secretsOf = (t: McpTarget) => (t.kind === 'http' && t.apiKey ? [t.apiKey] : []);
const words = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function connectWith(
  { Client }: Sdk,
  transport: Transport,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Client> {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  try {
    await client.connect(transport, { signal, timeout: timeoutMs });
    return client;
  } catch (e) {
    await client.close().catch(() => {});
    throw e;
  }
}

/** A connected client; 'auto' tries Streamable HTTP, then the older SSE transport (as the SDK's guide does). */
export async function openMcp(
  t: McpTarget,
  limits: Pick<McpLimits, 'responseMaxBytes'>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Client> {
  try {
    const sdk = await loadSdk();
    if (t.kind === 'stdio')
      return await connectWith(
        sdk,
        new sdk.StdioClientTransport({ command: t.command, args: t.args, env: t.env, cwd: t.cwd, stderr: 'ignore' }),
        signal,
        timeoutMs,
      );
    const over = (which: 'streamable_http' | 'sse') =>
      connectWith(sdk, httpTransport(sdk, t, which, limits.responseMaxBytes), signal, timeoutMs);
    if (t.transport !== 'auto') return await over(t.transport);
    try {
      return await over('streamable_http');
    } catch (first) {
      if (signal.aborted) throw first;
      return await over('sse');
    }
  } catch (e) {
    throw new McpError(maskSecrets(`could not reach the MCP server: ${words(e)}`, secretsOf(t)));
  }
}

/** The server's tools, capped in count (MCP_MAX_TOOLS) and in size (MCP_TOOL_LIST_MAX_BYTES); the rest is dropped. */
export function capToolList(raw: ReadonlyArray<Record<string, unknown>>, limits: McpLimits): ListedTool[] {
  const out: ListedTool[] = [];
  let bytes = 0;
  for (const t of raw) {
    if (out.length >= limits.maxTools) break;
    if (typeof t.name !== 'string' || !t.name || t.name.length > NAME_MAX || /[\s/]/.test(t.name)) continue;
    const tool: ListedTool = {
      name: t.name,
      description: typeof t.description === 'string' ? t.description.slice(0, DESCRIPTION_MAX) : '',
      inputSchema:
        t.inputSchema && typeof t.inputSchema === 'object'
          ? (t.inputSchema as Record<string, unknown>)
          : { type: 'object' },
    };
    const size = Buffer.byteLength(JSON.stringify(tool));
    if (bytes + size > limits.toolListMaxBytes) break;
    bytes += size;
    out.push(tool);
  }
  return out;
}

/** One session: its tools, then closed. */
export async function listMcpTools(
  t: McpTarget,
  limits: McpLimits,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ListedTool[]> {
  const client = await openMcp(t, limits, signal, timeoutMs);
  try {
    const raw: Array<Record<string, unknown>> = [];
    let cursor: string | undefined;
    // Pages until the cap is reached (a server that pages without end is stopped by the count).
    for (let page = 0; page < 20 && raw.length < limits.maxTools; page++) {
      const res = await client.listTools(cursor ? { cursor } : {}, { signal, timeout: timeoutMs });
      raw.push(...(res.tools as Array<Record<string, unknown>>));
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return capToolList(raw, limits);
  } catch (e) {
    throw new McpError(maskSecrets(`the MCP server could not list its tools: ${words(e)}`, secretsOf(t)));
  } finally {
    await client.close().catch(() => {});
  }
}

/** The text a model reads of a call's result: its text parts, and every other part as JSON. */
function resultText(res: Record<string, unknown>): string {
  const parts = Array.isArray(res.content) ? (res.content as Array<Record<string, unknown>>) : [];
  const texts = parts.map((p) =>
    p.type === 'text' && typeof p.text === 'string'
      ? p.text
      : p.type === 'image' || p.type === 'audio'
        ? `[${p.type} ${p.mimeType ?? ''}]`
        : JSON.stringify(p),
  );
  if (!texts.length && res.structuredContent !== undefined) texts.push(JSON.stringify(res.structuredContent));
  if (!texts.length && res.toolResult !== undefined) texts.push(JSON.stringify(res.toolResult));
  return texts.join('\n');
}

/** One call in its own session; the signal (Stop, the time limit) ends the session and the call. */
export async function callMcpTool(
  t: McpTarget,
  limits: McpLimits,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ToolOutput> {
  const client = await openMcp(t, limits, signal, timeoutMs);
  try {
    const res = (await client.callTool({ name, arguments: args }, undefined, { signal, timeout: timeoutMs })) as Record<
      string,
      unknown
    >;
    return { content: resultText(res), ...(res.isError ? { isError: true } : {}) };
  } catch (e) {
    if (signal.aborted) throw signal.reason ?? e;
    throw new McpError(maskSecrets(`the tool call failed: ${words(e)}`, secretsOf(t)));
  } finally {
    await client.close().catch(() => {});
  }
}
