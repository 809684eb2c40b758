// One chart for both discussion panels (docs/product.md#discussions-screens, #discussions-states,
// #discussions-validation, #discussions-calls, #discussions-errors): `createDiscussionPanelMachine(variant)`, with one
// event vocabulary (panel.start, panel.stop, panel.human.send, panel.format.send, …). Parallel regions:
//   run           — discussionPanel.states.ts (idle → [preparing →] session → ended | failed); the socket is a
//                   socketSession child: a connect time-out, up to 3 reconnects on 1006, re-sending the same
//                   configuration (same session_id) so the server resumes; the feed keys items by id.
//   startQuestion — discussionRun.states.ts: Start asks first when an agent's model server is not answering.
//   settings      — discussionPanel.states.ts: loading (the saved ones) → ready.
// Children beside them: the export (discussionExport) and, as the variant says, the endpoint probe and the tabs (the
// Reasoning tab steers the endpoint choice) or the mode picker's descriptions. Statuses are tags, read by selectors.
// What differs between the panels is asked of the variant (src/model/standardVariant.ts, hybridVariant.ts); the run's
// shared actions are kit/runActions.ts, the relays kit/discussionRelay.ts. Context: src/model/panelRun.ts.
import {
  and,
  assign,
  fromCallback,
  fromPromise,
  not,
  sendTo,
  setup,
  stateIn,
  type ActorRefFrom,
  type AnyActorRef,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import { notProvided, panelContext, type PanelInput, type TickerInput, withAttachedSources } from './kit/actorKit';
import { asksFirst, runActions } from './kit/runActions';
import { mayRelay } from './kit/discussionRelay';
import { framesOf, isToolCallWaiting } from '../model/discussionSocket';
import { discussionSocketPolicy } from '../model/socketPolicies';
import { exportRequestOf, isResumable, type PanelContext, type PanelRunBase } from '../model/panelRun';
import type { PanelVariant } from '../model/panelVariant';
import type { Participant } from '../schemas/discussion';
import type { HybridModeInfo } from '../schemas/hybridMeta';
import { hybridVariant, type HybridResumeFacts } from '../model/hybridVariant';
import { standardVariant, type ResumeFacts } from '../model/standardVariant';
import type { HybridServerFrame } from '../schemas/hybridSocket';
import type { HybridSettings, StandardPanelSettings } from '../schemas/settings';
import type { StandardServerFrame } from '../schemas/standardSocket';
import { noticeOf, type DiscussionPanelEvent } from './kit/panelEvents';
import { panelActions, take, type Context, type ErasedVariant, type Event } from './kit/panelActions';
import { discussionExportMachine, type DiscussionExportEvent } from './discussionExport.machine';
import { discussionTabsMachine } from './discussionTabs.machine';
import { endpointProbeMachine } from './endpointProbe.machine';
import { panelRunRegion, panelSettingsRegion, roomTypingRegion } from './discussionPanel.states';
import { CLOSE_REMOVED_FROM_ROOM } from '../schemas/rooms';
import { mayTalk, ownsRoom, roleOf, ROOM_TYPING_QUIET_MS, roomJoinFrame, type RoomJoin } from '../model/room';
import { startQuestionRegion } from './discussionRun.states';
import { shareDialogMachine } from './shareDialog.machine';
import { socketSessionMachine, type SocketSessionInput } from './socketSession.machine';
import type { Retyped } from './kit/retyped';

export type { DiscussionPanelEvent } from './kit/panelEvents';

// The chart is written once over the variant's types erased (kit/panelActions.ts); createDiscussionPanelMachine
// gives its users the variant's own context and events back.

/** The children only one panel has: the endpoint probe and the tabs (standard), the modes' descriptions (hybrid). */
const PROBE_AND_TABS = [
  { src: 'endpointProbe', id: 'endpointProbe' },
  { src: 'tabs', id: 'tabs' },
] as const;
// The mode picker's descriptions; optional: without them the picker shows the modes by name.
const MODES = [{ src: 'loadModes', id: 'modesLoader', onDone: { actions: 'setModes' }, onError: {} }] as const;

function panelChart(variant: ErasedVariant) {
  const id = variant.id;
  // 'Up to 3 attempts while running' (docs/product.md#discussions-states): a socket that never opened reports at once.
  const policy: SocketSessionInput['policy'] = discussionSocketPolicy(variant.connectTimeoutMs);
  const startProblemOf = (context: Context, start: { agentIds: string[] }) =>
    variant.startProblem(context, start.agentIds);
  const speaks = (context: Context) => !!context.run && variant.speechOn(context.run.settings);
  const socketInput = ({ context, self }: { context: Context; self: AnyActorRef }): SocketSessionInput => ({
    path: variant.socketPath(context.run!),
    // A joined run attaches to the owner's discussion; its own run is configured (again on every reconnect).
    firstFrame: context.run!.room
      ? roomJoinFrame(context.run!.room)
      : withAttachedSources(variant.firstFrame(context.run!), self.system),
    // A burst of frames (a resume's replay) is folded in one step (services/frameBatch.ts).
    batches: true,
    policy,
    parent: self,
  });
  const settingsFree = not(stateIn({ run: 'session' }));
  return (
    setup({
      types: {
        input: {} as PanelInput,
        context: {} as Context,
        events: {} as Event,
        tags: {} as
          | 'idle'
          | 'disconnected'
          | 'connecting'
          | 'connected'
          | 'error'
          | 'ended'
          | 'live'
          | 'reconnecting'
          | 'stopping'
          | 'settingsLoading'
          | 'confirmingStart',
        children: {} as {
          socket: 'socketSession';
          endpointProbe: 'endpointProbe';
          tabs: 'tabs';
          agentDetails: 'loadAgentDetails';
          settingsLoader: 'loadSettings';
          modesLoader: 'loadModes';
          clock: 'clock';
          exporter: 'exportDiscussion';
          share: 'share';
        },
      },
      actors: {
        socketSession: socketSessionMachine,
        endpointProbe: endpointProbeMachine,
        tabs: discussionTabsMachine,
        /** GET /agents/{id} for each selected agent; a failure gives the fallback name (logged only). */
        loadAgentDetails: fromPromise<Participant[], { agentIds: string[] }>(notProvided(id, 'loadAgentDetails')),
        /** The user's saved settings (kept per user); null when none. */
        loadSettings: fromPromise<unknown>(notProvided(id, 'loadSettings')),
        loadModes: fromPromise<(HybridModeInfo & { id: string })[]>(notProvided(id, 'loadModes')),
        /** The run's clock (a provided ticker): the header's running duration. */
        clock: fromCallback<EventObject, TickerInput>(notProvided(id, 'clock')),
        /** Provided with its writer (`withExporter`). */
        exportDiscussion: discussionExportMachine,
        /** A finished run's Share dialog (read-only links), provided with its REST calls. */
        share: shareDialogMachine,
      },
      delays: {
        stopCloseDelay: variant.stopCloseDelayMs,
        /** After the close command, the run ends even if the close never comes back. */
        closeGrace: 1_000,
        roomTypingQuiet: ROOM_TYPING_QUIET_MS,
      },
      guards: {
        isStartValid: ({ context, event }) => {
          const e = take(event, 'panel.start');
          return startProblemOf(context, e) === null;
        },
        needsStartQuestion: ({ context, event }) => {
          const e = take(event, 'panel.start');
          return asksFirst(event) && startProblemOf(context, e) === null;
        },
        isResumable: ({ event }) => {
          const e = take(event, 'panel.resume');
          return isResumable(e as unknown as { sessionId: string; agentIds: string[] });
        },
        isFinalFrame: ({ event }) => framesOf(event).some((frame) => variant.endsSession(frame)),
        isRelayedFrame: ({ context, event }) => mayRelay(event, speaks(context)),
        isHumanMessageSendable: ({ context, event }) => {
          const e = take(event, 'panel.human.send');
          // In a room a watcher sends nothing; a person who joined talks whatever their own panel's setting says.
          if (context.run?.room || context.room)
            return e.text.trim().length > 0 && mayTalk(roleOf(context.room, context.run?.room));
          return e.text.trim().length > 0 && variant.humanMayJoin(context.settings);
        },
        isToolCallWaiting: ({ context, event }) => {
          const e = take(event, 'panel.tool.answer');
          return isToolCallWaiting(context.feed, e.id);
        },
        isFailedClose: ({ context, event }) => {
          const e = noticeOf(event, 'socketSession.closed');
          return variant.isFailedClose(e, context);
        },
        settingsFree,
        isLive: stateIn({ run: { session: 'live' } }),
        isJoinedRun: ({ context }) => !!context.run?.room,
        /** The owner removed this person: closed with CLOSE_REMOVED_FROM_ROOM, never retried. */
        isRemovedClose: ({ event }) => noticeOf(event, 'socketSession.closed').code === CLOSE_REMOVED_FROM_ROOM,
        isRoomOwner: ({ context }) => ownsRoom(context.room, context.run?.room),
        /** Only while live, in a room with others, by someone who may talk (a watcher has no message box). */
        mayTypeInRoom: and([
          stateIn({ run: { session: 'live' } }),
          ({ context }) => !!context.room && mayTalk(roleOf(context.room, context.run?.room)),
        ]),
        mayEditSettings: variant.locksSettingsWhileRunning ? settingsFree : stateIn({ settings: 'ready' }),
        mayUpdateSettings: and([
          variant.locksSettingsWhileRunning ? settingsFree : stateIn({ settings: 'ready' }),
          ({ event }) => {
            const e = take(event, 'panel.settings.update');
            return variant.settingsSchema.safeParse(e.settings).success;
          },
        ]),
      },
      actions: {
        /** Provided: writes the settings to local storage under the signed-in user. */
        saveSettings: () => {},
        refreshEndpoints: sendTo('endpointProbe', { type: 'endpoints.refresh' }),
        joinRoom: assign(({ context, event }) => variant.joined(context, take(event, 'panel.room.join') as RoomJoin)),
        selectTab: sendTo('tabs', ({ event }) => {
          const e = take(event, 'panel.tab.select');
          return { type: 'tab.select', tab: e.tab };
        }),
        /** The export child writes the JSON or PDF of the feed; nothing to export is its toast. */
        exportFeed: sendTo('exporter', ({ context, event }) => {
          const e = take(event, 'panel.export');
          return { type: 'export.start', request: exportRequestOf(context, e.format) } as DiscussionExportEvent;
        }),
      },
    })
      // What the variant answers (kit/panelActions.ts), and the run's actions both panels share (kit/runActions.ts).
      .extend({ actions: panelActions(variant) })
      .extend({
        actions: runActions<Context, Event>({
          machine: id,
          humanSend: 'panel.human.send',
          formatSend: 'panel.format.send',
          toolAnswer: 'panel.tool.answer',
        }),
      })
      .createMachine({
        id,
        type: 'parallel',
        context: panelContext(variant.initialContext),
        entry: 'readSessionToken',
        on: {
          'panel.export': { actions: 'exportFeed' },
          'panel.topic.change': { actions: 'setTopic' },
          'panel.continue': [{ guard: 'settingsFree', actions: 'continueWithSettings' }, { actions: 'continueDraft' }],
          'panel.continue.cancel': { actions: assign({ continuation: null }) },
          'panel.error.dismiss': { actions: 'dismissError' },
          // Only the run's clock child ticks, so only a run's duration moves.
          'panel.tick': { actions: assign(({ event }) => ({ clockNow: event.now })) },
          'panel.audio.interrupt': { actions: 'interruptAudio' },
          ...(variant.choosesEndpoint
            ? {
                'panel.tab.select': { actions: 'selectTab' },
                'panel.endpoints.refresh': { actions: 'refreshEndpoints' },
              }
            : {}),
        },
        invoke: [
          { src: 'exportDiscussion', id: 'exporter', input: { failureText: variant.exportFailureText } },
          // The probe tells the endpoint choice what answers; the tabs steer it.
          ...(variant.choosesEndpoint ? PROBE_AND_TABS : []),
          ...(variant.loadsModes ? MODES : []),
        ],
        states: {
          run: panelRunRegion(variant, socketInput),
          startQuestion: startQuestionRegion({
            start: 'panel.start',
            confirm: 'panel.start.confirm',
            cancel: 'panel.start.cancel',
            resume: 'panel.resume',
          }),
          settings: panelSettingsRegion,
          typing: roomTypingRegion,
        },
      })
  );
}

type PanelChart = ReturnType<typeof panelChart>;

/** The chart with the variant's own context and events. */
export type DiscussionPanelMachine<S, R extends PanelRunBase<S>, F, Resume> = Retyped<
  PanelChart,
  PanelContext<S, R>,
  DiscussionPanelEvent<S, F, Resume>
>;

export function createDiscussionPanelMachine<S, R extends PanelRunBase<S>, F, Resume>(
  variant: PanelVariant<S, R, F, Resume>,
): DiscussionPanelMachine<S, R, F, Resume> {
  return panelChart(variant as unknown as ErasedVariant) as unknown as DiscussionPanelMachine<S, R, F, Resume>;
}

export const standardDiscussionMachine = createDiscussionPanelMachine(standardVariant);
export const hybridDiscussionMachine = createDiscussionPanelMachine(hybridVariant);

export type StandardDiscussionActorRef = ActorRefFrom<typeof standardDiscussionMachine>;
export type StandardDiscussionSnapshot = SnapshotFrom<typeof standardDiscussionMachine>;
export type HybridDiscussionActorRef = ActorRefFrom<typeof hybridDiscussionMachine>;
export type HybridDiscussionSnapshot = SnapshotFrom<typeof hybridDiscussionMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    standardDiscussion: StandardDiscussionActorRef;
    hybridDiscussion: HybridDiscussionActorRef;
  }
}

export type StandardDiscussionEvent = DiscussionPanelEvent<StandardPanelSettings, StandardServerFrame, ResumeFacts>;
export type HybridDiscussionEvent = DiscussionPanelEvent<HybridSettings, HybridServerFrame, HybridResumeFacts>;
