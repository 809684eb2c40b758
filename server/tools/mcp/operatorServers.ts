import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { mcpTransport } from '../../../src/schemas/toolConnections';

// The operator's MCP servers (docs/tools.md#the-operators-servers): MCP_SERVERS_FILE, read once at start. The one
// place a stdio command may come from — a command is code run on this server, so no user's request can name one.
// Every user's catalog lists these servers; their ids are "op.<id>".

const localId = z.string().regex(/^[a-z0-9_-]{1,40}$/, 'an id is 1-40 of a-z, 0-9, _ and -');
const common = { id: localId, name: z.string().min(1).max(60) };
const stdioServer = z.object({
  ...common,
  command: z.string().min(1).max(500),
  args: z.array(z.string().max(2_000)).max(100).default([]),
  env: z.record(z.string(), z.string().max(10_000)).optional(),
  cwd: z.string().max(1_000).optional(),
});
const httpServer = z.object({
  ...common,
  url: z.url({ protocol: /^https?$/ }),
  api_key: z.string().max(4_096).optional(),
  transport: mcpTransport.default('auto'),
});
export const operatorServersFile = z.object({ servers: z.array(z.union([stdioServer, httpServer])).max(50) });

export type OperatorServer =
  | ({ id: string; name: string } & {
      kind: 'stdio';
      command: string;
      args: string[];
      env?: Record<string, string>;
      cwd?: string;
    })
  | ({ id: string; name: string } & {
      kind: 'http';
      url: string;
      apiKey: string | null;
      transport: z.infer<typeof mcpTransport>;
    });

export const OPERATOR_PREFIX = 'op.';

/** The file's servers; a file that cannot be read or does not fit the schema stops the start with its reason. */
export function readOperatorServers(file: string | null): OperatorServer[] {
  if (!file) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`MCP_SERVERS_FILE (${file}) could not be read: ${(e as Error).message}`);
  }
  const parsed = operatorServersFile.safeParse(raw);
  if (!parsed.success)
    throw new Error(`MCP_SERVERS_FILE (${file}) is not valid: ${z.prettifyError(parsed.error).slice(0, 500)}`);
  const seen = new Set<string>();
  return parsed.data.servers.map((s) => {
    if (seen.has(s.id)) throw new Error(`MCP_SERVERS_FILE (${file}) names the server "${s.id}" twice`);
    seen.add(s.id);
    const id = `${OPERATOR_PREFIX}${s.id}`;
    return 'command' in s
      ? { id, name: s.name, kind: 'stdio', command: s.command, args: s.args, env: s.env, cwd: s.cwd }
      : { id, name: s.name, kind: 'http', url: s.url, apiKey: s.api_key ?? null, transport: s.transport };
  });
}
