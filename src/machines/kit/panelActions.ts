// The one panel chart's actions that ask the variant (discussionPanel.machine.ts spreads them in with
// `setup().extend`): the chart is written over the variant's types erased, because xstate cannot check a config
// against generic events; createDiscussionPanelMachine gives its users the variant's own types back.
import { assign, enqueueActions, type AnyActorRef } from 'xstate';
import { framesOf, retryBanner } from '../../model/discussionSocket';
import { startedRun, type PanelContext, type PanelRunBase } from '../../model/panelRun';
import type { PanelVariant } from '../../model/panelVariant';
import type { Participant } from '../../schemas/discussion';
import type { AudioQueueItemInput } from '../audioQueue.machine';
import type { DiscussionTabsActorRef } from '../discussionTabs.machine';
import { selectOpenTab } from '../discussionTabs.selectors';
import type { EndpointProbeActorRef } from '../endpointProbe.machine';
import { selectAvailability, selectAvailableNames } from '../endpointProbe.selectors';
import { frameMayRelay, queueSpeech, relayAgentStatus, tellAudioQueue } from './discussionRelay';
import { noticeOf, panelEvent, type DiscussionPanelEvent, type PanelEventMap } from './panelEvents';

type S = unknown;
type R = PanelRunBase<unknown>;
type F = unknown;
type Resume = object;
export type ErasedVariant = PanelVariant<S, R, F, Resume>;
export type Context = PanelContext<S, R>;
export type Event = DiscussionPanelEvent<S, F, Resume>;

export const take = <K extends keyof PanelEventMap<S, Resume>>(event: { type: string }, type: K) =>
  panelEvent<S, Resume, K>(event, type);

/** What actions read of the running actor's own snapshot (absent in a pure transition, as xstate/graph makes). */
type OwnSnapshot = { children?: { endpointProbe?: EndpointProbeActorRef; tabs?: DiscussionTabsActorRef } };
const ownSnapshot = (self: AnyActorRef) => self.getSnapshot() as OwnSnapshot | undefined;

export function panelActions(variant: ErasedVariant) {
  const startProblemOf = (context: Context, start: { agentIds: string[] }) =>
    variant.startProblem(context, start.agentIds);
  return {
    setTopic: assign<Context, Event, undefined, Event, never>(({ event }) => {
      const e = take(event, 'panel.topic.change');
      return { topic: e.text };
    }),
    explainStartProblem: assign<Context, Event, undefined, Event, never>(({ context, event }) => {
      const e = take(event, 'panel.start');
      return { error: startProblemOf(context, e) };
    }),
    /** The endpoint is chosen now, from the settings, the open tab and what the probe child has found so far. */
    beginRun: assign<Context, Event, undefined, Event, never>(({ context, event, self }) => {
      const e = take(event, 'panel.start');
      const current = ownSnapshot(self);
      const probe = current?.children?.endpointProbe;
      const endpoint = variant.endpointFor(
        context.settings,
        selectOpenTab(current?.children?.tabs?.getSnapshot()) === 'tree',
        probe ? selectAvailability(probe.getSnapshot()) : {},
      );
      return startedRun(variant.newRun(context, { ...e, endpoint }));
    }),
    resumeRun: assign<Context, Event, undefined, Event, never>(({ context, event }) => {
      const e = take(event, 'panel.resume');
      return variant.resumed(context, e as unknown as Resume);
    }),
    continueWithSettings: assign<Context, Event, undefined, Event, never>(({ event }) => {
      const e = take(event, 'panel.continue');
      return variant.continued(e, true);
    }),
    continueDraft: assign<Context, Event, undefined, Event, never>(({ event }) => {
      const e = take(event, 'panel.continue');
      return variant.continued(e, false);
    }),
    setModes: assign<Context, Event, undefined, Event, never>(({ event }) => ({
      modes: (event as { output?: Context['modes'] }).output ?? [],
    })),
    /** The agents' details (the loader's done event: the chart's own event types do not name it). */
    setParticipants: assign<Context, Event, undefined, Event, never>(({ event }) => ({
      participants: (event as { output?: Participant[] }).output ?? [],
    })),
    /** The canvas's agent status; with speech on, the frame's clip (if it has one) to the audio queue. */
    relayIncoming: enqueueActions<Context, Event, undefined, Event, never, never, never, never, never>((args) => {
      const run = args.context.run;
      const speechOn = !!run && variant.speechOn(run.settings);
      // A burst's frames one by one, as if each had come alone; the frame that ends the run has nothing to relay.
      for (const frame of framesOf(args.event)) {
        const f = frame as { type: string; option_id?: unknown };
        if (variant.endsSession(frame) || !frameMayRelay(f, speechOn)) continue;
        const one = { ...args, event: { type: 'socketSession.frame', frame } as Event };
        relayAgentStatus(one);
        if (run && speechOn)
          queueSpeech(one, variant.speechItem(frame as F, run.settings) satisfies AudioQueueItemInput | null);
      }
    }),
    acknowledgeAudio: enqueueActions<Context, Event, undefined, Event, never, never, never, never, never>(
      ({ context, event, enqueue }) => {
        const e = noticeOf(event, 'audio.finished');
        if (e.status === 'completed') enqueue.sendTo('socket', variant.playedFrame(e.item, context.clockNow));
      },
    ),
    endSpeech: enqueueActions<Context, Event, undefined, Event, never, never, never, never, never>((args) => {
      if (variant.endsSpeechWithRun) tellAudioQueue(args, { type: 'audio.clear' });
    }),
    interruptAudio: enqueueActions<Context, Event, undefined, Event, never, never, never, never, never>((args) =>
      tellAudioQueue(args, { type: 'audio.interrupt' }),
    ),
    showRetrying: assign<Context, Event, undefined, Event, never>(({ event }) => {
      const e = noticeOf(event, 'socketSession.retrying');
      return { attempt: e.attempt, ...retryBanner(e) };
    }),
    /** An open (first or resumed) forgets the socket error that came before a drop: it is not this socket's. */
    clearRetrying: assign<Context, Event, undefined, Event, never>(({ context }) => ({
      attempt: 0,
      error: variant.keepsBannerOnFirstOpen && context.attempt === 0 ? context.error : null,
      pendingProblem: null,
    })),
    rememberSocketError: assign<Context, Event, undefined, Event, never>(({ context, event, self }) => {
      const e = noticeOf(event, 'socketSession.error');
      const probe = ownSnapshot(self)?.children?.endpointProbe;
      const names = probe ? selectAvailableNames(probe.getSnapshot()) : '';
      return { pendingProblem: variant.socketErrorMessage(e.everOpened, context.run, names) };
    }),
    rememberTimeout: assign<Context, Event, undefined, Event, never>(({ context }) => ({
      pendingProblem: variant.timeoutMessage(context.run),
    })),
    showProtocolError: assign<Context, Event, undefined, Event, never>(({ event }) => {
      const e = noticeOf(event, 'socketSession.protocolError');
      return { error: variant.protocolMessage(e.direction, e.frameType) };
    }),
    explainClose: assign<Context, Event, undefined, Event, never>(({ context, event }) => {
      const e = noticeOf(event, 'socketSession.closed');
      return { error: variant.closeBanner(e, context), pendingProblem: null };
    }),
    restoreSettings: assign<Context, Event, undefined, Event, never>(({ context, event }) =>
      // The loader's done event (the chart's own event types do not name it).
      variant.restoreSaved(context, (event as { output?: S | null }).output ?? null),
    ),
    applySettings: assign<Context, Event, undefined, Event, never>(({ event }) => {
      const e = take(event, 'panel.settings.update');
      return { settings: variant.settingsSchema.parse(e.settings) };
    }),
    resetSettings: assign<Context, Event, undefined, Event, never>(() => ({
      settings: variant.settingsSchema.parse({}),
    })),
    applyTemplate: assign<Context, Event, undefined, Event, never>(({ context, event }) => {
      const e = take(event, 'panel.template.apply');
      return variant.withTemplate(context, e.template);
    }),
    toggleSpeechQueue: enqueueActions<Context, Event, undefined, Event, never, never, never, never, never>((args) => {
      const { context, event } = args;
      const e = take(event, 'panel.settings.update');
      if (!variant.switchesSpeechQueue) return;
      const on = variant.speechOn(e.settings);
      if (on !== variant.speechOn(context.settings))
        tellAudioQueue(args, { type: on ? 'audio.enable' : 'audio.disable' });
    }),
  };
}
