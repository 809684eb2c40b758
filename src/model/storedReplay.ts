// A stored discussion (GET /discussion/{id}) replayed into a feed, for the read-only History view. Pure.
//
// - Every stored frame the feed uses goes through the same parse path as a live one: parseFrame with the server
//   schema of the panel that ran it (config.panel 'hybrid' → the hybrid panel's schema, otherwise the standard
//   panel's). An unknown type is skipped (as live); a malformed one is counted, never thrown. Frames the feed ignores
//   (agent statuses, speech stream marks) are skipped unparsed: the fold is the same without them.
// - What the human said is stored apart from the frames; each message becomes a human_message_local item at its
//   place by time: before the first frame stored after it (frames keep their own order, by seq).
// - A turn still open when the record ends is closed as interrupted (closeOpenStreams), as the panels do.
import { parseFrame, knownTypes } from '../schemas/frames';
import { ENDPOINTS, type EndpointKey } from '../schemas/constants';
import { hybridServerFrame } from '../schemas/hybridSocket';
import type { StoredDiscussion } from '../schemas/history';
import {
  communicationConfig,
  panelFormat,
  reasoningConfig,
  researchConfig,
  standardPanelSettings,
  type StandardPanelSettings,
} from '../schemas/settings';
import { standardServerFrame } from '../schemas/standardSocket';
import { applyFrame, closeOpenStreams, emptyFeed, type Feed, type FeedInput, type HumanMessageLocal } from './feed';

export type PanelKind = 'standard' | 'hybrid';

export interface Replayed {
  feed: Feed;
  panel: PanelKind;
  /** The endpoint key of the stored path (null for a path this client does not know). */
  endpoint: EndpointKey | null;
  /** Stored frames that failed their schema (counted, not shown). */
  malformed: number;
  /**
   * The feed at each moment of the replay: [0] before the first turn, [n] right after turn n, the last one the whole
   * feed. The feed is persistent (structurally shared), so keeping one per turn costs a few small objects each.
   */
  moments: Feed[];
}

/** A turn's final frame: a moment of the replay's timeline. */
const isTurn = (f: FeedInput) => f.type === 'agent_message' || f.type === 'text' || f.type === 'argument';

/** Frame types applyFrame leaves the feed unchanged for (the canvas hears them live; a replay has no use for them). */
const FEED_INERT: ReadonlySet<string> = new Set(['agent_status', 'tts_streaming_start', 'tts_streaming_end']);

const STANDARD_KNOWN = knownTypes(standardServerFrame);
const HYBRID_KNOWN = knownTypes(hybridServerFrame);

export const panelOf = (config: Record<string, unknown>): PanelKind =>
  config.panel === 'hybrid' ? 'hybrid' : 'standard';

export function endpointKeyOf(path: string): EndpointKey | null {
  const hit = (Object.entries(ENDPOINTS) as [EndpointKey, (typeof ENDPOINTS)[EndpointKey]][]).find(
    ([, e]) => e.path === path,
  );
  return hit ? hit[0] : null;
}

/** The id the panel gives a human message it sends (so the two never differ for one message). */
export const humanItemId = (timestamp: string, text: string) => `human-${timestamp}-${text.length}`;
/** The human's card, as the panel shows it when sent and History shows it when replayed. */
export const humanCard = (text: string, timestamp: string): HumanMessageLocal => ({
  type: 'human_message_local',
  id: humanItemId(timestamp, text),
  text,
  timestamp,
});

export function replayStored(d: StoredDiscussion): Replayed {
  const panel = panelOf(d.config);
  let feed = emptyFeed;
  let malformed = 0;
  const moments: Feed[] = [];
  const humans = [...d.human_messages].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  let h = 0;
  const addHuman = () => {
    const m = humans[h++];
    const timestamp = m.timestamp ?? m.at;
    feed = applyFrame(feed, humanCard(m.text, timestamp));
  };
  const frames = [...d.frames].sort((a, b) => a.seq - b.seq);
  for (const f of frames) {
    while (h < humans.length && Date.parse(humans[h].at) < Date.parse(f.at)) addHuman();
    // Frames the feed ignores (two of every three in a long discussion) are not parsed at all.
    if (FEED_INERT.has(f.data.type as string)) continue;
    const parsed =
      panel === 'hybrid'
        ? parseFrame(hybridServerFrame, f.data, HYBRID_KNOWN)
        : parseFrame(standardServerFrame, f.data, STANDARD_KNOWN);
    if (parsed.kind === 'frame') {
      const frame = parsed.frame as FeedInput;
      if (isTurn(frame) && moments.length === 0) moments.push(feed);
      feed = applyFrame(feed, frame);
      if (isTurn(frame)) moments.push(feed);
    } else if (parsed.kind === 'malformed') malformed++;
  }
  while (h < humans.length) addHuman();
  const whole = closeOpenStreams(feed);
  // The last moment is the whole record (what came after the last turn, the summary, included).
  if (moments.length === 0) moments.push(whole);
  else moments[moments.length - 1] = whole;
  return { feed: whole, panel, endpoint: endpointKeyOf(d.endpoint), malformed, moments };
}

/** The settings a stored run used, as far as its configuration says (defaults for the rest): the export records them. */
export function settingsOf(config: Record<string, unknown>): StandardPanelSettings {
  const pick = <T>(schema: { safeParse(v: unknown): { success: boolean; data?: T } }, v: unknown): T | undefined => {
    const r = schema.safeParse(v ?? {});
    return r.success ? r.data : undefined;
  };
  return standardPanelSettings.parse({
    communication: pick(communicationConfig, config.communication_config) ?? {},
    reasoning: pick(reasoningConfig, config.reasoning_config) ?? {},
    research: pick(researchConfig, config.research_config) ?? {},
    // The format it runs in: a re-attached run keeps its format's controls (no format: the round table).
    format: pick(panelFormat, config.format) ?? {},
  });
}
