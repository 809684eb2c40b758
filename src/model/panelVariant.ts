// What makes a discussion panel the standard one or the hybrid one: the one chart
// (machines/discussionPanel.machine.ts) asks its variant (standardVariant.ts, hybridVariant.ts) every question whose
// answer differs between them, in these pure functions and facts; the rest of the chart is the same for both.
import type { EndpointAvailability } from './endpointChoice';
import type { EndpointKey } from '../schemas/constants';
import type { SpeechItem } from './speechItems';
import type { RoomJoin } from './room';
import type { ContinueFacts, PanelContext, PanelRunBase, StartFacts } from './panelRun';

/** How the socket closed, as socketSession reports it. */
export interface SocketClose {
  code: number;
  reason: string;
  gaveUp: boolean;
}

/** The panel's settings contract (its zod schema). */
export interface SettingsSchema<S> {
  parse(value: unknown): S;
  safeParse(value: unknown): { success: boolean };
}

export interface PanelVariant<S, R extends PanelRunBase<S>, F, Resume> {
  /** The chart's id, and the name the app's system gives the panel. */
  id: 'standardDiscussion' | 'hybridDiscussion';
  initialContext: PanelContext<S, R>;
  settingsSchema: SettingsSchema<S>;
  // The settings
  speechOn(settings: S): boolean;
  /** Whether the person's message box may send (the standard panel's 'Human participation'). */
  humanMayJoin(settings: S): boolean;
  /** The saved settings, read when the panel starts (null when none). */
  restoreSaved(context: PanelContext<S, R>, saved: S | null): Partial<PanelContext<S, R>>;
  /** A topic template fills several settings at once ({} where the panel has none). */
  withTemplate(context: PanelContext<S, R>, name: string): Partial<PanelContext<S, R>>;
  /** Settings are locked while a run goes on (else they change at any time once loaded). */
  locksSettingsWhileRunning: boolean;
  /** A change of the speech setting turns the audio queue on or off at once. */
  switchesSpeechQueue: boolean;
  // Start, resume, continue
  startProblem(context: PanelContext<S, R>, agentIds: string[]): string | null;
  newRun(context: PanelContext<S, R>, start: StartFacts): R;
  /** The endpoint a Start uses, from the settings, whether the Reasoning tab is open and what the probe found. */
  endpointFor(
    settings: S,
    reasoningTabOpen: boolean,
    availability: Partial<Record<EndpointKey, EndpointAvailability>>,
  ): EndpointKey;
  resumed(context: PanelContext<S, R>, resume: Resume): Partial<PanelContext<S, R>>;
  /** An accepted invite: a run that attaches to someone else's discussion (its first message is `room_join`). */
  joined(context: PanelContext<S, R>, join: RoomJoin): Partial<PanelContext<S, R>>;
  /** 'Continue from here' (`settingsFree`: no run holds the settings, so the stored run's may come too). */
  continued(facts: ContinueFacts & { settings?: S | null }, settingsFree: boolean): Partial<PanelContext<S, R>>;
  /** The agents' details are loaded before the socket opens (participants for the export). */
  loadsParticipants: boolean;
  /** The endpoint is chosen at Start from the settings, the open tab and what the probe found. */
  choosesEndpoint: boolean;
  /** A clock ticks while the run goes on (the header's running duration). */
  ticks: boolean;
  /** The mode picker's descriptions are loaded when the panel starts. */
  loadsModes: boolean;
  // The socket
  socketPath(run: R): string;
  firstFrame(run: R): Record<string, unknown>;
  connectTimeoutMs: number;
  /** After `stop`, the close waits this long. */
  stopCloseDelayMs: number;
  /** A frame after which the server says no more. */
  endsSession(frame: F | null): boolean;
  /** The first open keeps a banner shown before it (a reconnect's open always clears it). */
  keepsBannerOnFirstOpen: boolean;
  // Close wording
  isFailedClose(close: SocketClose, context: PanelContext<S, R>): boolean;
  closeBanner(close: SocketClose, context: PanelContext<S, R>): string | null;
  socketErrorMessage(everOpened: boolean, run: R | null, availableNames: string): string;
  timeoutMessage(run: R | null): string;
  protocolMessage(direction: 'incoming' | 'outgoing', frameType: string): string;
  // Speech
  speechItem(frame: F | null, settings: S): SpeechItem | null;
  /** What tells the server a clip played to its end. */
  playedFrame(item: { audioId: string; messageId?: string | null; agentId: string }, clockNow: number | null): unknown;
  /** A run that ends stops its speech (else the last words finish). */
  endsSpeechWithRun: boolean;
  // The export
  exportFailureText(why: string): string;
}
