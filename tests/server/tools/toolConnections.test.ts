import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCatalog, toolConnection } from '../../../src/schemas/toolConnections';
import { startTestServer, type TestServer } from '../harness';
import { startFakeMcp, type FakeMcp } from './fakeMcp';

// Tool servers as connections (docs/tools.md#mcp-servers): Test lists a loopback MCP server's tools, the key is
// sealed and never shown, GET /tools lists the built-ins and each server's tools, the address rule applies.

const KEY = 'mcp-key-Zq8uVb4Jm2Lk9Pw7';

describe('tool connections', () => {
  let t: TestServer;
  let mcp: FakeMcp;
  let keyed: FakeMcp;
  beforeAll(async () => {
    [t, mcp, keyed] = await Promise.all([startTestServer(), startFakeMcp(), startFakeMcp({ apiKey: KEY })]);
  });
  afterAll(() => Promise.all([t.close(), mcp.close(), keyed.close()]));

  it('Test lists the server’s tools; a wrong key is said as such', async () => {
    const { token } = await t.register();
    const test = (body: object) => t.api('POST', '/tool-connections/test', { token, body }).then((r) => r.body);
    const ok = await test({ kind: 'mcp', base_url: mcp.url });
    expect(ok).toMatchObject({ ok: true, summary: 'lists 3 tools' });
    expect(ok.tools.map((x: { name: string }) => x.name).sort()).toEqual(['hang', 'huge', 'lookup_code']);
    expect(await test({ kind: 'mcp', base_url: keyed.url, api_key: 'wrong' })).toMatchObject({ ok: false });
    expect(await test({ kind: 'mcp', base_url: keyed.url, api_key: KEY })).toMatchObject({ ok: true });
  });

  it('adds a server with its key sealed; GET /tools lists built-ins first, then its tools by id', async () => {
    const { token } = await t.register();
    const add = await t.api('POST', '/tool-connections', {
      token,
      body: { kind: 'mcp', name: 'Codes', base_url: keyed.url, api_key: KEY },
    });
    expect(add.status).toBe(201);
    const conn = toolConnection.parse(add.body);
    expect(JSON.stringify(add.body)).not.toContain(KEY);
    expect(conn.api_key_hint).toBeTruthy();
    expect(conn.tools).toHaveLength(3);

    const list = await t.api('GET', '/tool-connections', { token });
    expect(JSON.stringify(list.body)).not.toContain(KEY);
    // The person's server, then the built-in tools (read-only, listed like a server).
    expect(list.body.connections.map((c: { id: string; read_only: boolean }) => [c.id, c.read_only])).toEqual([
      [conn.id, false],
      ['builtin', true],
    ]);
    expect(list.body.connections[1].tools.map((x: { name: string }) => x.name)).toContain('calculator');

    const catalog = toolCatalog.parse((await t.api('GET', '/tools', { token })).body);
    expect(catalog.servers[0]).toMatchObject({ id: 'builtin', kind: 'builtin' });
    expect(catalog.servers[0].tools.map((x) => x.id)).toEqual([
      'builtin/calculator',
      'builtin/search_sources',
      'builtin/search_papers',
    ]);
    expect(catalog.servers[1].tools.map((x) => x.id)).toContain(`${conn.id}/lookup_code`);

    // Another user sees none of it.
    const other = await t.register();
    const theirs = toolCatalog.parse((await t.api('GET', '/tools', { token: other.token })).body);
    expect(theirs.servers.map((s) => s.id)).toEqual(['builtin']);
  });

  it('refuses an address the address rule refuses', async () => {
    const { token } = await t.register();
    const r = await t.api('POST', '/tool-connections', {
      token,
      body: { kind: 'mcp', name: 'Meta', base_url: 'http://169.254.169.254/mcp' },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/may not be used/);
  });
});
