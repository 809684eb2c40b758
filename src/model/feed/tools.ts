import { kvAppend, kvGet, kvIndexOf, kvSetAt, kvValues, vecGet } from '../keyedVec';
import { onStart } from './messages';
import { feedWith, type F, type Feed, type ToolApprovalLocal, type ToolCallEntry } from './types';

// A turn's tool calls (docs/tools.md): `tool_call` opens a call under its turn, `tool_result` closes it, and the
// person's answer to a call that waits is shown at once. Each call is kept once by its id, so a replayed frame
// changes nothing; a result that comes before its call waits in the entry until the call arrives.

/** What a call row says of a call. */
export type ToolCallState = 'waiting' | 'running' | 'done' | 'failed' | 'refused';

/** The server's result for a call the person refused says so in its error (docs/tools.md#approval). */
const REFUSED = /refus|denied|declin/i;

export function toolCallState(c: ToolCallEntry): ToolCallState {
  if (c.answer === 'refused') return 'refused';
  if (c.result) {
    if (c.result.ok) return 'done';
    return c.needsApproval && REFUSED.test(c.result.error ?? '') ? 'refused' : 'failed';
  }
  return c.needsApproval && c.answer === null ? 'waiting' : 'running';
}

const blank = (id: string): ToolCallEntry => ({
  id,
  called: false,
  agentId: '',
  messageId: '',
  tool: '',
  server: '',
  arguments: {},
  needsApproval: false,
  answer: null,
  result: null,
  timestamp: null,
});

function put(feed: Feed, id: string, change: (prev: ToolCallEntry) => ToolCallEntry | null): Feed {
  const pos = kvIndexOf(feed.tools, id);
  const next = change(pos >= 0 ? kvGet(feed.tools, id)! : blank(id));
  if (!next) return feed;
  return feedWith(feed, { tools: pos >= 0 ? kvSetAt(feed.tools, pos, next) : kvAppend(feed.tools, id, next) });
}

export function onToolCall(feed: Feed, frame: F<'tool_call'>): Feed {
  const out = put(feed, frame.id, (prev) =>
    prev.called
      ? null // a replayed call
      : {
          ...prev,
          called: true,
          agentId: frame.agent_id,
          messageId: frame.message_id,
          tool: frame.tool,
          server: frame.server,
          arguments: frame.arguments,
          needsApproval: frame.needs_approval === true,
          timestamp: frame.timestamp ?? null,
        },
  );
  if (out === feed || kvIndexOf(out.items, frame.message_id) >= 0) return out;
  // The call comes before its turn's text: the turn starts here, so its row has a place under it now.
  const name = out.participants.find((p) => p.id === frame.agent_id)?.name ?? null;
  const started = onStart(out, {
    type: 'agent_message_start',
    id: frame.message_id,
    agent_id: frame.agent_id,
    agent_name: name ?? '',
    timestamp: frame.timestamp,
  } as F<'agent_message_start'>);
  if (name !== null) return started;
  // A name the feed does not know yet: the row names the agent from the canvas until the turn's text names it.
  const pos = kvIndexOf(started.items, frame.message_id);
  return feedWith(started, {
    items: kvSetAt(started.items, pos, { ...vecGet(started.items.values, pos)!, agentName: null }),
  });
}

export function onToolResult(feed: Feed, frame: F<'tool_result'>): Feed {
  return put(feed, frame.id, (prev) =>
    prev.result
      ? null // a replayed result
      : {
          ...prev,
          result: {
            ok: frame.ok,
            content: frame.content,
            truncated: frame.truncated,
            ms: frame.ms,
            error: frame.error ?? null,
          },
        },
  );
}

export function onToolApproval(feed: Feed, frame: ToolApprovalLocal): Feed {
  return put(feed, frame.id, (prev) =>
    !prev.called || prev.answer !== null || prev.result
      ? null
      : { ...prev, answer: frame.approve ? 'approved' : 'refused' },
  );
}

// ── Selectors ──

const NO_CALLS: readonly ToolCallEntry[] = Object.freeze([]);

/** The calls of one turn, in the order they were made (the rows under its bubble). */
export function toolCallsOf(feed: Feed, messageId: string): readonly ToolCallEntry[] {
  if (feed.tools.keys.length === 0) return NO_CALLS;
  const out = kvValues(feed.tools).filter((c) => c.called && c.messageId === messageId);
  return out.length ? out : NO_CALLS;
}

/** agent id → the tool it is using now ('using calculator…'); a call waiting for the person counts too. */
export function toolsInUse(feed: Feed): Readonly<Record<string, string>> {
  if (feed.tools.keys.length === 0 || feed.session.ended) return {};
  const out: Record<string, string> = {};
  for (const c of kvValues(feed.tools)) {
    const state = c.called ? toolCallState(c) : 'done';
    if (state === 'running' || state === 'waiting') out[c.agentId] = c.tool;
    else if (out[c.agentId] === c.tool) delete out[c.agentId];
  }
  return out;
}

/** Every call, made and answered (exports). */
export const allToolCalls = (feed: Feed): readonly ToolCallEntry[] => kvValues(feed.tools).filter((c) => c.called);

const withoutTools = new WeakMap<Feed['items'], ReadonlySet<string>>();

/** The server's note that an agent's model cannot call tools: a system line, or the standard panel's notice. */
const toolsUnsupportedTurn = (source: unknown): string | null => {
  const f = source as { type?: string; about?: string; message_id?: unknown } | null;
  return (f?.type === 'system' || f?.type === 'error') &&
    f.about === 'tools_unsupported' &&
    typeof f.message_id === 'string'
    ? f.message_id
    : null;
};

/**
 * Whether the server said this turn's model cannot call the tools its agent was given (it ran without them); the
 * turn's header says so. Said once per agent, on its first turn with tools.
 */
export function turnWithoutTools(feed: Feed, messageId: string): boolean {
  let turns = withoutTools.get(feed.items);
  if (!turns) {
    const ids = new Set<string>();
    for (const it of kvValues(feed.items)) {
      const id = toolsUnsupportedTurn(it.source);
      if (id) ids.add(id);
    }
    turns = ids;
    withoutTools.set(feed.items, turns);
  }
  return turns.has(messageId);
}
