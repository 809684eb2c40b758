import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPanelWorld } from './panelFixture';

// /mcp with the SDK's own client over Streamable HTTP (docs/integrations.md#mcp-server): the tools, progress per
// turn, a result naming the discussion, the transcript resource; scopes hold, and a revoked token is refused at once
// and its open session ends.

let w: Awaited<ReturnType<typeof startPanelWorld>>;
const open: Client[] = [];

async function connect(token: string) {
  const client = new Client({ name: 'agora-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${w.t.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  open.push(client);
  return client;
}

const textOf = (r: unknown) =>
  (((r as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>)
    .map((c) => c.text ?? '')
    .join('\n');

beforeAll(async () => {
  w = await startPanelWorld();
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
  await w?.close();
});

describe('/mcp', () => {
  it('lists its tools and panels, asks a panel with progress per turn, and reads the discussion back', async () => {
    const client = await connect((await w.ada.apiToken(['read', 'run'])).token);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(['ask_panel', 'get_discussion', 'list_panels']);
    const panels = await client.callTool({ name: 'list_panels', arguments: {} });
    expect(panels.structuredContent).toMatchObject({ panels: [{ name: 'Library', agents: 2 }] });

    const progress: Array<{ progress: number; message?: string }> = [];
    const asked = await client.callTool(
      { name: 'ask_panel', arguments: { panel: 'Library', question: 'Should we open on Sundays?' } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    expect(asked.isError).toBeFalsy();
    const answer = asked.structuredContent as {
      discussion_id: string;
      address: string;
      answer: string;
      turns: unknown[];
    };
    expect(answer.address).toBe(`/discussions/${answer.discussion_id}`);
    expect(answer.answer).toContain('Open on Sundays');
    expect(textOf(asked)).toContain(answer.address);
    expect(progress.map((p) => p.progress)).toEqual([1, 2]);
    expect(progress[0].message).toContain('Ada');

    const again = await client.callTool({ name: 'get_discussion', arguments: { id: answer.discussion_id } });
    expect(again.structuredContent).toMatchObject({ origin: 'mcp', answer: answer.answer });
    const resource = await client.readResource({ uri: `agora://discussions/${answer.discussion_id}` });
    const md = (resource.contents[0] as { text: string }).text;
    expect(md).toMatch(/^# Should we open on Sundays\?/);
    expect(md).toContain('**1. Ada**');
    expect(md).toContain('via MCP');
    const history = await w.t.api('GET', '/discussion/history', { token: w.ada.token });
    expect(history.body.find((r: { id: string }) => r.id === answer.discussion_id)).toMatchObject({ origin: 'mcp' });
  });

  it('cancelling ask_panel stops its discussion', async () => {
    const client = await connect((await w.ada.apiToken(['run'])).token);
    const abort = new AbortController();
    const call = client
      .callTool(
        { name: 'ask_panel', arguments: { panel: 'Library', question: 'Cancel this one', max_turns: 30 } },
        undefined,
        { signal: abort.signal, onprogress: () => abort.abort() },
      )
      .catch((e) => e);
    await call;
    const row = async () =>
      (
        (await w.t.api('GET', '/discussion/history', { token: w.ada.token })).body as Array<{
          topic: string;
          status: string;
          end_reason: string | null;
          message_count: number;
        }>
      ).find((r) => r.topic === 'Cancel this one');
    await expect.poll(async () => (await row())?.status).toBe('ended');
    // Stopped after its first turns, not run to its 30 rounds.
    expect((await row())?.end_reason).not.toBe('completed');
    expect((await row())?.message_count).toBeLessThan(10);
  });

  it('refuses a token without run, hides another person’s panels and discussions', async () => {
    const reader = await connect((await w.ada.apiToken(['read'])).token);
    const refused = await reader.callTool({ name: 'ask_panel', arguments: { panel: 'Library', question: 'Hi' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("'run' scope");

    const bobClient = await connect((await w.bob.apiToken(['read', 'run'])).token);
    const bobs = await bobClient.callTool({ name: 'list_panels', arguments: {} });
    expect(bobs.structuredContent).toEqual({ panels: [expect.objectContaining({ name: 'Secret plans' })] });
    const foreign = await bobClient.callTool({ name: 'ask_panel', arguments: { panel: 'Library', question: 'Hi' } });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toBe('Panel not found');
    const adas = (await w.t.api('GET', '/discussion/history', { token: w.ada.token })).body[0].id as string;
    const peek = await bobClient.callTool({ name: 'get_discussion', arguments: { id: adas } });
    expect(peek.isError).toBe(true);
    expect(textOf(peek)).toBe('Discussion not found');
    await expect(bobClient.readResource({ uri: `agora://discussions/${adas}` })).rejects.toThrow(/not found/);
  });

  it('refuses a missing or unknown token, and a revoked token at once, ending its open session', async () => {
    const bad = await fetch(`${w.t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer agora_nope' },
      body: '{}',
    });
    expect(bad.status).toBe(401);
    const made = await w.ada.apiToken(['read', 'run']);
    const client = await connect(made.token);
    expect((await client.callTool({ name: 'list_panels', arguments: {} })).isError).toBeFalsy();
    const revoked = await w.t.api('DELETE', `/api-tokens/${made.id}`, { token: w.ada.token });
    expect(revoked.status).toBe(200);
    await expect(client.callTool({ name: 'list_panels', arguments: {} })).rejects.toThrow();
    await expect(connect(made.token)).rejects.toThrow();
  });

  it('revoking a token stops its ask_panel in flight: the session ends and the discussion with it', async () => {
    const made = await w.ada.apiToken(['run']);
    const client = await connect(made.token);
    let revoked: Promise<unknown> | null = null;
    // The server ends the session's streams; how soon the client gives up the call is the SDK's business, so the
    // call is not awaited: what is asserted is the server's side.
    const call = client
      .callTool(
        { name: 'ask_panel', arguments: { panel: 'Library', question: 'Revoke me midway', max_turns: 30 } },
        undefined,
        {
          onprogress: () => {
            revoked ??= w.t.api('DELETE', `/api-tokens/${made.id}`, { token: w.ada.token });
          },
        },
      )
      .catch(() => 'cut');
    await expect.poll(() => revoked !== null).toBe(true);
    await revoked;
    const row = async () =>
      (
        (await w.t.api('GET', '/discussion/history', { token: w.ada.token })).body as Array<{
          topic: string;
          status: string;
          end_reason: string | null;
          message_count: number;
        }>
      ).find((r) => r.topic === 'Revoke me midway');
    await expect.poll(async () => (await row())?.status).toBe('ended');
    expect((await row())?.end_reason).not.toBe('completed');
    expect((await row())?.message_count).toBeLessThan(10);
    await client.close();
    expect(await call).toBe('cut');
  });
});
