import { randomUUID } from 'node:crypto';
import { ENDPOINT_KEYS, type DiscussionOrigin, type EndpointKey } from '../../src/schemas/constants';
import { ENGINE_MESSAGES } from '../../src/schemas/messages';
import { bounds, standardPanelSettings } from '../../src/schemas/settings';
import { standardEndpointConfig } from '../../src/shared/standardEndpointConfig';
import type { AppContext } from '../context';
import { loadAgents, parseConfiguration } from '../engine/configure';
import { startDiscussion } from '../engine/discussions';
import { seatsThePerson } from '../engine/formats';
import type { EngineFrame } from '../engine/frames';
import type { SessionLog } from '../engine/session';
import { UsageTally } from '../engine/usage';
import { DailyBudgetSpent } from '../engine/budget';
import { HttpError } from '../http/errors';
import { modelLabelOf } from '../models/service';
import { ownsSources, withOwnSources } from '../sources/forDiscussion';
import { panelByIdOrName } from './panelStore';
import { answerOf, type PanelAnswer, type PanelTurn, turnOf } from './panelAnswer';

// Asking a saved panel from another client (/v1, /mcp; docs/integrations.md): the panel's discussion runs on the
// question through the same entrance as a socket's (startDiscussion), so it is an ordinary discussion — in History
// with its origin, shareable, within the running limit — read here from its stored frames with no socket attached.
// It runs to its end unless the caller cancels (its signal aborts), which stops it as the app's Stop does.

/** The most characters of earlier messages and question a panel hears (the discussion's own context cap). */
export const ASK_CONTEXT_MAX = 20_000;

export interface AskPanel {
  userId: string;
  /** The panel's name or id. */
  panel: string;
  question: string;
  /** Earlier messages of the conversation, oldest first: context for the question. */
  earlier?: ReadonlyArray<{ role: string; content: string }>;
  /** At most this many turns (clamped to the endpoint's bounds). */
  maxTurns?: number;
  origin: Exclude<DiscussionOrigin, 'app'>;
  log: SessionLog;
  /** Called after each agent's turn, in order. */
  onTurn?: (turn: PanelTurn, index: number) => void;
  /** Called once the discussion exists (before its first turn). */
  onStarted?: (discussionId: string) => void;
  signal?: AbortSignal;
}

/** The question with the conversation before it, as the panel hears it; 400 when it is longer than the cap. */
export function panelContext(question: string, earlier: AskPanel['earlier'] = []): string {
  const lines = earlier.map(
    (m) => `${m.role === 'assistant' ? 'Assistant' : m.role === 'user' ? 'User' : m.role}: ${m.content}`,
  );
  const text = lines.length
    ? `Earlier in the conversation:\n${lines.join('\n')}\n\nThe question now: ${question}`
    : question;
  if (text.length > ASK_CONTEXT_MAX)
    throw new HttpError(
      400,
      `The question and its earlier messages are ${text.length} characters; a panel hears at most ${ASK_CONTEXT_MAX}`,
    );
  return text;
}

const clamp = (n: number, b: { min: number; max: number }) => Math.min(b.max, Math.max(b.min, Math.floor(n)));

/** The sections the app's 'Save as panel' keeps (src/model/savedPanel.ts): the standard panel's Advanced Settings. */
const appSettings = standardPanelSettings.omit({ format: true }).partial();
const APP_SECTIONS = Object.keys(appSettings.shape);

/**
 * The discussion's first message: the panel's `endpoint` (default /ws/hybrid, the one that ends with a summary and a
 * consensus figure), its agents and format, the question. Settings saved by the app (its Advanced Settings
 * sections) are turned into that endpoint's fields as the app's own Start does (src/shared/standardEndpointConfig.ts); settings
 * written through the API are that endpoint's own fields. Either is checked by the socket's own schemas.
 */
function configurationOf(
  settings: Record<string, unknown> | null,
  p: { agent_ids: string[]; format: unknown },
  context: string,
  maxTurns?: number,
) {
  const { endpoint: asked, ...fields } = settings ?? {};
  const endpoint: EndpointKey = ENDPOINT_KEYS.find((k) => k === asked) ?? 'hybrid';
  const sessionId = `panel_${randomUUID()}`;
  const fromApp = Object.keys(fields).some((k) => APP_SECTIONS.includes(k)) ? appSettings.safeParse(fields) : null;
  const common = { agent_ids: p.agent_ids, session_id: sessionId, ...(p.format ? { format: p.format } : {}) };
  const body: Record<string, unknown> = fromApp?.success
    ? standardEndpointConfig({
        endpoint,
        common,
        context,
        settings: standardPanelSettings.omit({ format: true }).parse(fromApp.data),
        connections: [],
      })
    : { ...fields, ...common, ...(endpoint === 'hybrid' ? { topic: context } : { context }) };
  // Nothing is spoken for another client.
  if (endpoint === 'basic' || endpoint === 'hybrid') body.tts = false;
  else if (body.legacy_config && typeof body.legacy_config === 'object')
    body.legacy_config = { ...body.legacy_config, tts: false };
  if (maxTurns !== undefined) {
    if (endpoint === 'basic') body.turns = clamp(maxTurns, bounds.standardTurns);
    if (endpoint === 'hybrid') body.max_rounds = clamp(maxTurns, bounds.hybridMaxRounds);
  }
  return { endpoint, raw: JSON.stringify(body) };
}

/** Runs the panel on the question to the discussion's end (or the caller's cancel) and answers what it concluded. */
export async function askPanel(ctx: AppContext, ask: AskPanel): Promise<PanelAnswer> {
  const { userId } = ask;
  const panel = await panelByIdOrName(ctx.db, userId, ask.panel);
  const context = panelContext(ask.question, ask.earlier);
  const { endpoint, raw } = configurationOf(panel.settings, panel, context, ask.maxTurns);
  const parsed = parseConfiguration(endpoint, raw);
  if (!parsed.ok) throw new HttpError(422, `Panel '${panel.name}' cannot run: ${parsed.why}`);
  const found = await loadAgents(ctx.db, userId, parsed.agentIds);
  if (!found) throw new HttpError(422, `Panel '${panel.name}' cannot run: ${ENGINE_MESSAGES.unknownAgents}`);
  const sourceIds = parsed.input.config.source_ids ?? [];
  if (!(await ownsSources(ctx.db, userId, sourceIds)))
    throw new HttpError(422, `Panel '${panel.name}' cannot run: ${ENGINE_MESSAGES.unknownSources}`);
  const agents = await withOwnSources(ctx.db, found);
  // Another client cannot take the person's seat: the discussion would wait for a floor or a vote forever.
  if (seatsThePerson(parsed.input.config.format, agents))
    throw new HttpError(
      422,
      `Panel '${panel.name}' seats you (a moderator who gives the floor, or a judge who votes), and nobody can take that seat from another client; give the seat to one of its agents and save the panel again`,
    );
  const labels = await Promise.all(agents.map((a) => modelLabelOf(ctx, userId, a.model)));
  ask.signal?.throwIfAborted();

  const usage = new UsageTally();
  const session = await startDiscussion(ctx, {
    userId,
    endpoint,
    // History shows the question, not the earlier messages it came with.
    parsed: { ...parsed, topic: ask.question },
    agents,
    labels,
    log: ask.log,
    origin: ask.origin,
    meter: usage.meter,
  }).catch((err: unknown) => {
    throw err instanceof DailyBudgetSpent ? new HttpError(429, err.message) : err;
  });
  if (!session) {
    const max = ctx.config.maxRunningDiscussionsPerUser;
    throw new HttpError(
      429,
      `You already have ${max} discussions running, the most one user may run at once (MAX_RUNNING_DISCUSSIONS_PER_USER); wait for one to end`,
    );
  }
  const frames: EngineFrame[] = [];
  const turns: PanelTurn[] = [];
  const stopReading = session.read((frame) => {
    frames.push(frame);
    const turn = turnOf(frame);
    if (turn) {
      turns.push(turn);
      ask.onTurn?.(turn, turns.length);
    }
  });
  const cancel = () => session.stop('cancelled');
  ask.signal?.addEventListener('abort', cancel, { once: true });
  ask.onStarted?.(session.discussionId);
  try {
    session.start();
    await session.done();
  } finally {
    stopReading();
    ask.signal?.removeEventListener('abort', cancel);
  }
  return answerOf({
    discussionId: session.discussionId,
    panel: panel.name,
    formatKind: panel.format?.kind,
    frames,
    turns,
    usage,
    cancelled: !!ask.signal?.aborted,
  });
}
