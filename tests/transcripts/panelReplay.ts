// Replays a discussion transcript into the REAL panel it was recorded for
// (docs/architecture.md#recorded-socket-transcripts): basic-*, enhanced-*, multi_round_reasoning-* and
// hybrid-standard-config into standardDiscussion, the other hybrid-* into hybridDiscussion, built by their real actor
// factories over the replay's socket (the production parse path, replayDiscussion) and run next to a real toasts actor
// and recording 'workspace' / 'audioQueue' stand-ins. The user's part is played from the transcript: the panel's
// settings are read back from the recorded configuration, Start is pressed, and Stop, a human message or the end of a
// clip happen when the recording says the client sent them.
import { expect, vi } from 'vitest';
import { fromCallback, fromPromise, type AnyActorRef, type AnyEventObject } from 'xstate';
import { createHybridDiscussionLogic } from '../../src/services/hybridDiscussionActors';
import { createStandardDiscussionLogic } from '../../src/services/standardDiscussionActors';
import type { FromSocket } from '../../src/services/socket';
import { ENDPOINTS, ENDPOINT_KEYS, type EndpointKey } from '../../src/schemas/constants';
import { hybridOutgoingFrame, hybridServerFrame } from '../../src/schemas/hybridSocket';
import { hybridSettings, standardPanelSettings } from '../../src/schemas/settings';
import { standardOutgoingFrame, standardServerFrame } from '../../src/schemas/standardSocket';
import { replayDiscussion, VOLATILE_CLIENT_KEYS, type DiscussionReplay, type FrameLine, type Transcript } from './replay';

type Json = Record<string, any>;

/** /ws/hybrid transcripts are the hybrid panel's, except the one recorded from the standard panel. */
export const isHybridPanel = (name: string, t: Transcript) => t.endpoint === '/ws/hybrid' && !name.startsWith('hybrid-standard-');

const endpointKeyOf = (path: string) => ENDPOINT_KEYS.find((k) => ENDPOINTS[k].path === path)!;
const strip = (frame: unknown): Json =>
  Object.fromEntries(Object.entries(frame as Json).filter(([k]) => !(VOLATILE_CLIENT_KEYS as readonly string[]).includes(k)));
const isConfig = (frame: unknown) => !!frame && typeof frame === 'object' && 'session_id' in frame && !('type' in frame);

/** The standard panel's settings that make it send (as near as it can) the recorded configuration. */
function standardSettingsFrom(cfg: Json, endpoint: EndpointKey) {
  const legacy = cfg.legacy_config ?? {};
  return standardPanelSettings.parse({
    communication: cfg.communication_config ?? {},
    reasoning: cfg.reasoning_config ?? {},
    research: cfg.research_config ?? {},
    basic: {
      tts: cfg.tts ?? legacy.tts ?? false, turns: cfg.turns ?? legacy.turns ?? 6, mode: cfg.mode ?? legacy.mode ?? 'sequential',
      humanParticipation: legacy.human_participation ?? true, hybridMode: endpoint === 'hybrid',
    },
  });
}

function hybridSettingsFrom(cfg: Json) {
  const known = Object.keys(hybridSettings.shape);
  return hybridSettings.parse({
    ...Object.fromEntries(Object.entries(cfg).filter(([k]) => known.includes(k))),
    tts_speed: cfg.tts_config?.speed ?? 1, tts_volume: cfg.tts_config?.volume ?? 1,
  });
}

/**
 * The configuration check. `exact`: the panel sent the recorded configuration (the same keys and values; tts_config
 * on the fields docs/product.md#discussions-calls fixes). Otherwise the recording was made by hand with keys the panel
 * does not send for
 * that endpoint (enhanced-*, hybrid-standard-config) or a configuration it refuses to send (basic-bad-config): then
 * only what the user chose (agents, context or topic) is compared.
 */
function expectConfig(sent: Json, recorded: Json, exact: boolean, where: string) {
  expect(isConfig(sent), `${where}: a configuration`).toBe(true);
  if ('token' in recorded) expect(sent, `${where}: token`).toHaveProperty('token');
  const s = strip(sent);
  const r = strip(recorded);
  if (exact) {
    expect(Object.keys(s).sort(), where).toEqual(Object.keys(r).sort());
    const { tts_config: st, ...sRest } = s;
    const { tts_config: rt, ...rRest } = r;
    expect(sRest, where).toEqual(rRest);
    if (rt === null || rt === undefined) expect(st ?? null, where).toBeNull();
    else expect(st, where).toMatchObject({ enabled: rt.enabled, speed: rt.speed, volume: rt.volume, max_length: 300, format: 'wav' });
    return;
  }
  for (const key of ['agent_ids', 'context', 'topic']) {
    if (key in r && key in s && (key !== 'agent_ids' || r.agent_ids.length >= 2) && (key === 'agent_ids' || String(r[key]).trim())) {
      expect(s[key], `${where}: ${key}`).toEqual(r[key]);
    }
  }
}

export interface PanelReplay extends DiscussionReplay {
  workspace: AnyEventObject[];
  audioQueue: AnyEventObject[];
  config: Json;
}

export async function replayPanel(name: string, transcript: Transcript, opts: { exactConfig: boolean }): Promise<PanelReplay> {
  const hybrid = isHybridPanel(name, transcript);
  const cfg = (transcript.lines.find((l): l is FrameLine => 'dir' in l && l.dir === 'client')!.data ?? {}) as Json;
  const workspace: AnyEventObject[] = [];
  const audioQueue: AnyEventObject[] = [];
  const recorder = (log: AnyEventObject[]) => fromCallback<AnyEventObject>(({ receive }) => receive((e) => void log.push(e)));
  const endpoint = endpointKeyOf(transcript.endpoint);
  const agentIds: string[] = Array.isArray(cfg.agent_ids) && cfg.agent_ids.length >= 2 ? cfg.agent_ids : ['agent-1', 'agent-2'];
  const text = String(cfg.context ?? cfg.topic ?? '').trim() || 'A topic the panel accepts';
  const systemId = hybrid ? 'hybridDiscussion' : 'standardDiscussion';
  const panel = (root: AnyActorRef) => root.system.get(systemId) as AnyActorRef;
  const now = 1_795_312_969_000;
  let clockAt = now;

  /** The audio queue plays the clip the client acknowledges next: started, then finished (completed). */
  const playClip = (root: AnyActorRef, audioId: string) => {
    const enqueue = audioQueue.find((e) => e.type === 'audio.enqueue' && (e.item as Json).audioId === audioId);
    expect(enqueue, `the panel queued ${audioId}`).toBeDefined();
    const target = enqueue!.replyTo as AnyActorRef;
    expect(target).toBe(panel(root));
    target.send({ type: 'audio.started', item: enqueue!.item });
    target.send({ type: 'audio.finished', item: enqueue!.item, status: 'completed' });
  };

  const run = await replayDiscussion(transcript, {
    serverSchema: hybrid ? hybridServerFrame : standardServerFrame,
    clientSchema: hybrid ? hybridOutgoingFrame : standardOutgoingFrame,
    logic: (socket) => {
      const fromSocket = (() => socket) as unknown as FromSocket;
      if (hybrid) return createHybridDiscussionLogic({ fromSocket, loadModes: async () => [], saveFile: () => {}, now: () => clockAt });
      return createStandardDiscussionLogic({
        fromSocket,
        probeEndpoint: fromPromise<boolean, { path: string }>(async ({ input }) => input.path === transcript.endpoint),
        getAgent: async (id) => ({ id, name: `Agent ${id.slice(0, 4)}`, role: 'Tester' }),
        settings: { load: () => standardSettingsFrom(cfg, endpoint), save: () => {} },
        saveFile: () => {},
        log: () => {},
        now: () => clockAt,
      });
    },
    systemId,
    input: { token: 'tok-replay' },
    companions: { workspace: recorder(workspace), audioQueue: recorder(audioQueue) },
    begin: async (d) => {
      await vi.advanceTimersByTimeAsync(0); // the probe and the saved settings
      if (hybrid) {
        d.send({ type: 'panel.topic.change', text });
        d.send({ type: 'panel.settings.update', settings: hybridSettingsFrom(cfg) });
        d.send({ type: 'panel.start', agentIds });
      } else {
        d.send({ type: 'panel.topic.change', text });
        d.send({ type: 'panel.start', agentIds, connections: cfg.connections ?? [] });
      }
      await vi.advanceTimersByTimeAsync(0); // agent details
    },
    beforeClientLine: (line, { root }) => {
      const frame = line.data as Json;
      if (frame.type === 'stop') panel(root).send({ type: hybrid ? 'panel.stop' : 'panel.stop' });
      else if (frame.type === 'human_message') {
        // The panel stamps the message with its clock: the clock reads the recorded time when the human sends it.
        clockAt = Date.parse(frame.timestamp as string);
        panel(root).send({ type: 'panel.human.send', text: frame.text });
      }
      else if ((frame.type === 'status' && frame.status === 'played') || frame.type === 'audio_acknowledgment') playClip(root, frame.audio_id);
    },
    expectClientFrame: (sent, recorded, where) => {
      expect(sent, `${where}: the client sent nothing`).toBeDefined();
      if (isConfig(recorded)) return expectConfig(sent as Json, recorded as Json, opts.exactConfig, where);
      // Later frames: what was recorded, and the panel may say more (the standard ack also names the message).
      expect(strip(sent), where).toMatchObject(strip(recorded));
      for (const key of VOLATILE_CLIENT_KEYS) if (key in (recorded as Json)) expect(sent, `${where}: ${key}`).toHaveProperty(key);
    },
  });
  // Let the stop's close delay and the close grace run out, as they would in the app.
  await vi.advanceTimersByTimeAsync(2_000);
  return { ...run, workspace, audioQueue, config: cfg };
}
