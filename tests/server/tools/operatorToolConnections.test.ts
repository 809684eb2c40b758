import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { startTestServer, type TestServer } from '../harness';
import { startFakeMcp, type FakeMcp } from './fakeMcp';

// The operator's MCP servers (MCP_SERVERS_FILE) as every user's tool connections list them: read-only, their
// address (or command line) shown to the operator only, their key sent to the server and never to a client.

const KEY = 'op-mcp-key-Hs7dWq2Xe9Rt4Ya1';

describe("the operator's tool servers", () => {
  let t: TestServer;
  let keyed: FakeMcp;
  beforeAll(async () => {
    keyed = await startFakeMcp({ apiKey: KEY });
    const dir = await mkdtemp(path.join(tmpdir(), 'agora-opmcp-'));
    const serversFile = path.join(dir, 'servers.json');
    await writeFile(
      serversFile,
      JSON.stringify({
        servers: [
          { id: 'codes', name: 'Codes', url: keyed.url, api_key: KEY },
          { id: 'files', name: 'Files', command: '/nonexistent/mcp-files', args: ['--root', '/srv'] },
        ],
      }),
    );
    const { tools } = loadConfig({ DATA_DIR: dir });
    t = await startTestServer({ tools: { ...tools, serversFile } });
  });
  afterAll(() => Promise.all([t?.close(), keyed?.close()]));

  it('lists them read-only to everyone, addresses to the operator only, keys to no one', async () => {
    const operator = await t.register();
    const user = await t.register();
    const listOf = async (token: string) => {
      const res = await t.api('GET', '/tool-connections', { token });
      expect(JSON.stringify(res.body)).not.toContain(KEY);
      type Row = { id: string; base_url: string; read_only: boolean; api_key_hint: string | null; tools: unknown[] };
      return res.body.connections.filter((c: Row) => c.id.startsWith('op.')) as Row[];
    };
    const seen = await listOf(operator.token);
    expect(seen.map((c) => [c.id, c.base_url, c.read_only, c.api_key_hint])).toEqual([
      ['op.codes', keyed.url, true, null],
      ['op.files', '/nonexistent/mcp-files --root /srv', true, null],
    ]);
    // Listed with the operator's key (the server refuses any other).
    expect(seen[0].tools).toHaveLength(3);
    expect((await listOf(user.token)).map((c) => [c.id, c.base_url, c.tools.length])).toEqual([
      ['op.codes', '', 3],
      ['op.files', '', 0],
    ]);
  });
});
