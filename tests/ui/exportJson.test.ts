// @vitest-environment jsdom
// The standard panel's JSON export end to end (docs/product.md#discussions-entities 'Export JSON', #discussions-limits
// file names): the real standard panel logic (createStandardDiscussionLogic: the machine, socketSession, the probe and
// the exporter) with a fake saveFile, fed a recorded transcript through the production parse path
// (tests/transcripts/replay.ts over a fake WebSocket). The settings are the ones the recording started with, so the
// configuration the client sends is checked against the recorded one too. Then 'JSON' is pressed (the event the footer
// button sends) and the saved file is read back.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { topicSlug } from '../../src/model/exportJson';
import { selectCounts } from '../../src/model/feedSelectors';
import { discussionExport } from '../../src/schemas/exportJson';
import { standardPanelSettings, type StandardPanelSettings } from '../../src/schemas/settings';
import { standardOutgoingFrame, standardServerFrame } from '../../src/schemas/standardSocket';
import { createStandardDiscussionLogic } from '../../src/services/standardDiscussionActors';
import type { FromSocket } from '../../src/services/socket';
import { readTranscript, replayDiscussion, type Transcript, VOLATILE_CLIENT_KEYS } from '../transcripts/replay';

const file = (name: string) => path.join(__dirname, '..', 'transcripts', name);

/** jsdom's Blob has no text(). */
const blobText = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

/** The Advanced Settings that produce the recorded configuration frame. */
function settingsOf(config: Record<string, any>): StandardPanelSettings {
  const legacy = config.legacy_config ?? {};
  return standardPanelSettings.parse({
    communication: config.communication_config,
    reasoning: config.reasoning_config,
    research: config.research_config,
    basic: {
      tts: legacy.tts ?? false,
      turns: legacy.turns ?? 6,
      mode: legacy.mode ?? 'sequential',
      humanParticipation: legacy.human_participation ?? true,
    },
  });
}

// The enhanced recording also carries the Basic fields (top-level tts, turns, mode, connections), which
// docs/product.md#discussions-calls does not list for Enhanced (multi-round fields plus legacy_config) and the client
// does not send; the rest matches.
const BASIC_ONLY = ['tts', 'turns', 'mode', 'connections'];
function sameConfig(sent: unknown, recorded: unknown, where: string) {
  const strip = (frame: unknown, keys: readonly string[]) =>
    Object.fromEntries(Object.entries(frame as object).filter(([k]) => !keys.includes(k)));
  expect(sent, where).toBeTypeOf('object');
  for (const key of VOLATILE_CLIENT_KEYS)
    if (key in (recorded as object)) expect(sent, `${where}: ${key}`).toHaveProperty(key);
  const extra = (recorded as { communication_config?: unknown; legacy_config?: unknown }).legacy_config
    ? BASIC_ONLY
    : [];
  expect(strip(sent, VOLATILE_CLIENT_KEYS), where).toEqual(strip(recorded, [...VOLATILE_CLIENT_KEYS, ...extra]));
}

const serverData = (t: Transcript) =>
  t.lines.flatMap((l) => ('dir' in l && l.dir === 'server' ? [l.data as Record<string, any>] : []));

async function exportAfter(name: string) {
  const transcript = readTranscript(file(name));
  const config = (transcript.lines[0] as { data: Record<string, any> }).data;
  const saved: { blob: Blob; fileName: string }[] = [];
  const run = await replayDiscussion(transcript, {
    serverSchema: standardServerFrame,
    clientSchema: standardOutgoingFrame,
    systemId: 'standardDiscussion',
    input: { token: 'replay-token' },
    expectClientFrame: sameConfig,
    logic: (socket) =>
      createStandardDiscussionLogic({
        fromSocket: (() => socket) as unknown as FromSocket,
        probeEndpoint: fromPromise(async () => true),
        getAgent: async (id) => ({ id, name: id.slice(0, 4), role: 'Tester' }),
        settings: { load: () => settingsOf(config), save: () => {} },
        saveFile: (blob, fileName) => void saved.push({ blob, fileName }),
        log: () => {},
      }),
    begin: async (d) => {
      await vi.advanceTimersByTimeAsync(0); // the saved settings and the endpoint probe answer
      d.send({ type: 'panel.topic.change', text: config.context });
      d.send({ type: 'panel.start', agentIds: config.agent_ids, connections: config.connections ?? [] });
    },
  });
  expect(run.unexpectedClientFrames).toEqual([]);
  await vi.advanceTimersByTimeAsync(2_000); // the close grace after discussion_ended
  const discussion = run.discussion;
  expect(discussion.getSnapshot().matches({ run: 'ended' })).toBe(true);

  discussion.send({ type: 'panel.export', format: 'json' });
  for (let i = 0; i < 20 && saved.length === 0; i++) await vi.advanceTimersByTimeAsync(10);
  expect(saved).toHaveLength(1);
  vi.useRealTimers(); // jsdom's FileReader reports on a timer
  const doc = JSON.parse(await blobText(saved[0].blob)) as unknown;
  const snapshot = discussion.getSnapshot();
  run.stop();
  return { transcript, config, saved, doc, snapshot, sessionId: run.sessionIds[0] as string };
}

describe('JSON export end to end', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('enhanced-default: <topic>-<date>.json validates with discussionExport and holds the whole feed', async () => {
    const { transcript, config, saved, doc, snapshot, sessionId } = await exportAfter('enhanced-default.jsonl');
    expect(saved[0].fileName).toMatch(new RegExp(`^${topicSlug(config.context)}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    expect(sessionId).toBe(snapshot.context.run!.sessionId);
    expect(saved[0].blob.type).toBe('application/json');

    const parsed = discussionExport.safeParse(doc);
    expect(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
    const exp = parsed.data!;
    expect(exp.session_id).toBe(sessionId);
    expect(exp.endpoint).toBe('enhanced');
    expect(exp.context).toBe(config.context);
    expect(exp.configuration).toEqual({
      communication: config.communication_config,
      reasoning: config.reasoning_config,
      research: config.research_config,
    });
    // The one count, and one row per turn (the consensus and summary rows besides).
    expect(exp.message_count).toBe(selectCounts(snapshot.context.feed).messages);
    expect(exp.messages.filter((m) => m.kind === 'hybrid')).toHaveLength(exp.message_count);
    // Every recorded agent message is in the export, in order, by its id, with its text, once; its ACL message is
    // described under `protocol`, not repeated as a message of its own.
    const said = serverData(transcript)
      .filter((f) => f.type === 'agent_message')
      .map((f) => ({ id: f.id, content: f.content }));
    expect(said.length).toBeGreaterThan(0);
    const ids = new Set(said.map((m) => m.id));
    expect(exp.messages.filter((m) => ids.has(m.id)).map((m) => ({ id: m.id, content: m.content }))).toEqual(said);
    expect(exp.messages.filter((m) => m.kind === 'acl')).toEqual([]);
    for (const m of said) expect(exp.messages.filter((x) => x.content === m.content)).toHaveLength(1);
    const withAcl = exp.messages.filter((m) => m.protocol?.some((p) => p.kind === 'acl'));
    expect(withAcl.length).toBe(serverData(transcript).filter((f) => f.type === 'acl_message').length);
    const consensus = serverData(transcript).find((f) => f.type === 'consensus_reached')!;
    expect(exp.consensus).toEqual(consensus.consensus);
  });

  it('multi_round_reasoning-research: the argument tree and research results are exported too', async () => {
    const { transcript, config, saved, doc } = await exportAfter('multi_round_reasoning-research.jsonl');
    expect(saved[0].fileName).toMatch(new RegExp(`^${topicSlug(config.context)}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    const exp = discussionExport.parse(doc);
    expect(exp.endpoint).toBe('multi_round');
    const args = serverData(transcript)
      .filter((f) => f.type === 'argument')
      .map((f) => f.argument.id);
    expect(exp.argument_tree.map((a) => (a as { id: string }).id)).toEqual(args);
    expect(exp.research_results.length).toBeGreaterThan(0);
  });
});
