// The one event vocabulary of the discussion panels (discussionPanel.machine.ts): the views, History and the tests
// send the same names to the standard and the hybrid panel; what an event carries that differs by panel (the
// settings, what a re-attach needs, the socket's frames) is the variant's type.
import type { EventObject } from 'xstate';
import type { ContinueFacts, ExportFormat } from '../../model/panelRun';
import type { StandardTab } from '../../model/standardVariant';
import type { FormatRequest } from '../../schemas/format';
import type { RoomJoin } from '../../model/room';
import type { RoomSeat } from '../../schemas/rooms';
import type { AudioQueueNotice } from '../audioQueue.machine';
import type { SocketSessionNotice } from '../socketSession.machine';
import type { SourcesLiveAddEvent } from './actorKit';
import type { UnreachableFacts } from './runActions';

/** What each panel event carries, by its type. */
export interface PanelEventMap<S, Resume> {
  'panel.topic.change': { text: string };
  /** A topic template (hybrid): fills several settings at once. */
  'panel.template.apply': { template: string };
  'panel.settings.update': { settings: S };
  'panel.settings.reset': object;
  'panel.start': {
    agentIds: string[];
    /** The canvas's links between the agents (standard). */
    connections?: { source: string; target: string }[];
  } & UnreachableFacts;
  /** The start question's answers: 'Start anyway' or Cancel. */
  'panel.start.confirm': object;
  'panel.start.cancel': object;
  /** Re-attach a running discussion (History). */
  'panel.resume': Resume;
  /** History's 'Continue from here': the next Start continues a stored discussion from a turn. */
  'panel.continue': ContinueFacts & { settings?: S | null };
  'panel.continue.cancel': object;
  'panel.stop': object;
  /** The person joins in; an @mention gives that agent the next turn (docs/protocol.md#formats). */
  'panel.human.send': { text: string };
  /** Run (approve) or Refuse a tool call that waits for the person (docs/tools.md#approval). */
  'panel.tool.answer': { id: string; approve: boolean };
  /** The format's person: gives the floor, votes as judge, or ends the discussion (docs/protocol.md#formats). */
  'panel.format.send': { frame: FormatRequest };
  'panel.error.dismiss': object;
  /** JSON or PDF (PDF when not said). */
  'panel.export': { format?: ExportFormat };
  'panel.tab.select': { tab: StandardTab };
  'panel.endpoints.refresh': object;
  /** The run's clock (a provided ticker). */
  'panel.tick': { now: number };
  'panel.audio.interrupt': object;
  /** An accepted invite: attach to that running discussion with the invite's role (src/model/room.ts). */
  'panel.room.join': RoomJoin;
  /** A key pressed in the message box: the room sees a typing dot (throttled by the chart). */
  'panel.room.typing': object;
  /** The owner gives a format's seat (moderator, judge) to a person here. */
  'panel.room.seat': { seat: RoomSeat; userId: string };
  /** The owner removes a person from the room. */
  'panel.room.remove': { userId: string };
}

/** The notices the panel hears from its socket and the audio queue (their own types). */
export type PanelNotice = SocketSessionNotice | AudioQueueNotice;

export type DiscussionPanelEvent<S, F, Resume> =
  | { [K in keyof PanelEventMap<S, Resume>]: { type: K } & PanelEventMap<S, Resume>[K] }[keyof PanelEventMap<S, Resume>]
  /** A source ticked or added in the Sources section (kit/actorKit.ts): sent while the run is live. */
  | SourcesLiveAddEvent
  | SocketSessionNotice<F>
  | AudioQueueNotice;

/** The event as its type says, checked (the generic chart's own types cannot narrow it). */
export function panelEvent<S, Resume, K extends keyof PanelEventMap<S, Resume>>(
  event: EventObject,
  type: K,
): PanelEventMap<S, Resume>[K] {
  if (event.type !== type) throw new Error(`Expected the event ${type}, got ${event.type}`);
  return event as unknown as PanelEventMap<S, Resume>[K];
}

/** A socket or audio notice as its type says, checked. */
export function noticeOf<K extends PanelNotice['type']>(
  event: EventObject,
  type: K,
): Extract<PanelNotice, { type: K }> {
  if (event.type !== type) throw new Error(`Expected the event ${type}, got ${event.type}`);
  return event as Extract<PanelNotice, { type: K }>;
}
