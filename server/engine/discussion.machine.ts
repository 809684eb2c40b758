import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { FrameOut } from './frames';
import { forAudience } from './frames';
import type { TurnRequest } from './prompt';
import { summaryRequest } from './prompt';
import { consensusOf } from './record';
import * as step from './steps';
import type {
  EngineContext, EngineInput, ResearchInput, ResearchOutput, SpeakInput, SpeakOutput, Step, ThinkOutput,
} from './steps';

// One discussion, from its first frame to discussion_ended. Pure: the model, speech and research are invoked
// actors provided by the runtime (runtime.ts); timers are `after` delays; frames leave as emitted 'frame' events
// that the session (session.ts) validates, sends, stores and buffers for resume.
//
//   opening → researching? → running ⟲ [roundStarting → stageStarting → (selecting → thinking → speaking? →
//   awaitingAck? → resting)* → stageEnding] → summarizing? → ended          stop (any state) → stopped

export type EngineEvent =
  | { type: 'human.message'; text: string }
  | { type: 'audio.ack'; audioId?: string }
  | { type: 'stop'; reason: string };

const timedOut = (ms: number) => `no answer within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`;
const errorText = (e: unknown) => (e instanceof Error ? e.message : typeof e === 'string' ? e : 'unknown error');

export const discussionMachine = setup({
  types: {
    context: {} as EngineContext,
    input: {} as EngineInput,
    events: {} as EngineEvent,
    emitted: {} as FrameOut,
  },
  actors: {
    research: fromPromise<ResearchOutput, ResearchInput>(async () => {
      throw new Error('research actor not provided');
    }),
    think: fromPromise<ThinkOutput, { request: TurnRequest; stage: string | null }>(async () => {
      throw new Error('think actor not provided');
    }),
    speak: fromPromise<SpeakOutput, SpeakInput>(async () => {
      throw new Error('speak actor not provided');
    }),
    summarize: fromPromise<string, { request: TurnRequest }>(async () => {
      throw new Error('summarize actor not provided');
    }),
  },
  delays: {
    turnTimeout: ({ context }) => context.plan.timing.turnTimeoutMs,
    ackTimeout: ({ context }) => context.plan.timing.ackTimeoutMs,
    pause: ({ context }) => context.plan.pauseMs,
  },
  guards: {
    wantsResearch: ({ context }) => context.plan.research !== null && context.researchAvailable,
    isStageComplete: ({ context }) => context.turnInStage >= context.plan.turnsPerStage,
    hasMoreStages: ({ context }) => context.stageIndex + 1 < context.plan.stages.length,
    hasConvergedEarly: ({ context }) => context.converged,
    hasMoreRounds: ({ context }) => context.round < context.plan.rounds,
    isSpeechOn: ({ context }) => context.speechOn,
    isFailingRepeatedly: ({ context }) => context.failures + 1 >= context.plan.timing.maxConsecutiveFailures,
    isAckForCurrentAudio: ({ context, event }) => event.type === 'audio.ack' && (!event.audioId || event.audioId === context.pendingAudioId),
    hasPause: ({ context }) => context.plan.pauseMs > 0,
    wantsConclusion: ({ context }) => step.wantsConclusion(context),
    acceptsHumans: ({ context }) => context.plan.humanParticipation,
  },
  actions: {
    /** Applies a step: its context patch, then its frames in order, each fitted to the panel that reads them. */
    apply: enqueueActions(({ context, enqueue }, s: Step) => {
      if (Object.keys(s.patch).length) enqueue.assign(s.patch);
      for (const { frame, answeredAt } of s.frames) {
        const fitted = forAudience(frame, context.plan.audience);
        if (fitted) enqueue.emit({ type: 'frame', frame: fitted, ...(answeredAt !== undefined ? { answeredAt } : {}) });
      }
    }),
  },
}).createMachine({
  id: 'discussion',
  context: ({ input }) => step.initialContext(input),
  initial: 'opening',
  on: {
    stop: { target: '.stopped' },
    'human.message': {
      guard: 'acceptsHumans',
      actions: { type: 'apply', params: ({ context, event }) => step.noteHuman(context, event.text) },
    },
  },
  states: {
    opening: {
      entry: { type: 'apply', params: ({ context }) => ({ patch: {}, frames: step.opening(context).map((frame) => ({ frame })) }) },
      always: [{ guard: 'wantsResearch', target: 'researching' }, { target: 'running' }],
    },
    researching: {
      invoke: {
        id: 'research',
        src: 'research',
        input: ({ context }) => step.researchInput(context),
        onDone: { target: 'running', actions: { type: 'apply', params: ({ context, event }) => step.shareResearch(context, event.output) } },
        onError: { target: 'running', actions: { type: 'apply', params: ({ context, event }) => step.researchFailed(context, errorText(event.error)) } },
      },
    },
    running: {
      initial: 'roundStarting',
      states: {
        roundStarting: {
          entry: { type: 'apply', params: ({ context }) => step.beginRound(context) },
          always: 'stageStarting',
        },
        stageStarting: {
          entry: { type: 'apply', params: ({ context }) => step.beginStage(context) },
          always: 'selecting',
        },
        selecting: {
          always: [
            { guard: 'isStageComplete', target: 'stageEnding' },
            { target: 'thinking', actions: { type: 'apply', params: ({ context }) => step.chooseSpeaker(context) } },
          ],
        },
        thinking: {
          invoke: {
            id: 'think',
            src: 'think',
            input: ({ context }) => step.thinkInput(context),
            onDone: [
              { guard: 'isSpeechOn', target: 'speaking', actions: { type: 'apply', params: ({ context, event }) => step.applyTurn(context, event.output) } },
              { target: 'resting', actions: { type: 'apply', params: ({ context, event }) => step.applyTurn(context, event.output) } },
            ],
            onError: [
              { guard: 'isFailingRepeatedly', target: '#discussion.failed', actions: { type: 'apply', params: ({ context, event }) => step.failTurn(context, errorText(event.error)) } },
              { target: 'selecting', actions: { type: 'apply', params: ({ context, event }) => step.failTurn(context, errorText(event.error)) } },
            ],
          },
          after: {
            turnTimeout: [
              { guard: 'isFailingRepeatedly', target: '#discussion.failed', actions: { type: 'apply', params: ({ context }) => step.failTurn(context, timedOut(context.plan.timing.turnTimeoutMs)) } },
              { target: 'selecting', actions: { type: 'apply', params: ({ context }) => step.failTurn(context, timedOut(context.plan.timing.turnTimeoutMs)) } },
            ],
          },
        },
        speaking: {
          entry: { type: 'apply', params: ({ context }) => step.beginSpeech(context) },
          invoke: {
            id: 'speak',
            src: 'speak',
            input: ({ context }) => step.speakInput(context),
            onDone: { target: 'awaitingAck', actions: { type: 'apply', params: ({ context, event }) => step.shareAudio(context, event.output) } },
            onError: { target: 'resting', actions: { type: 'apply', params: ({ context, event }) => step.speechFailed(context, errorText(event.error)) } },
          },
        },
        awaitingAck: {
          on: { 'audio.ack': { guard: 'isAckForCurrentAudio', target: 'resting' } },
          after: { ackTimeout: 'resting' },
        },
        resting: {
          entry: { type: 'apply', params: ({ context }) => step.rest(context) },
          always: { guard: ({ context }) => context.plan.pauseMs <= 0, target: 'selecting' },
          after: { pause: 'selecting' },
        },
        stageEnding: {
          always: [
            { guard: 'hasMoreStages', target: 'stageStarting', actions: assign({ stageIndex: ({ context }) => context.stageIndex + 1 }) },
            { target: 'roundEnding' },
          ],
        },
        roundEnding: {
          entry: { type: 'apply', params: ({ context }) => step.endRound(context) },
          always: [
            { guard: 'hasConvergedEarly', target: '#discussion.summarizing' },
            { guard: 'hasMoreRounds', target: 'roundStarting' },
            { target: '#discussion.summarizing' },
          ],
        },
      },
    },
    summarizing: {
      always: { guard: ({ context }) => !step.wantsConclusion(context), target: 'ended' },
      invoke: {
        id: 'summarize',
        src: 'summarize',
        input: ({ context }) => ({ request: summaryRequest(context.plan, context.record, consensusOf(context.plan, context.record).score) }),
        onDone: { target: 'ended', actions: { type: 'apply', params: ({ context, event }) => step.conclude(context, event.output) } },
        onError: { target: 'ended', actions: { type: 'apply', params: ({ context }) => step.conclude(context, null) } },
      },
      after: { turnTimeout: { target: 'ended', actions: { type: 'apply', params: ({ context }) => step.conclude(context, null) } } },
    },
    ended: {
      type: 'final',
      entry: { type: 'apply', params: ({ context }) => ({ patch: {}, frames: [{ frame: step.endFrame(context, step.endReason(context)) }] }) },
    },
    failed: {
      type: 'final',
      entry: {
        type: 'apply',
        params: ({ context }) => ({
          patch: {},
          frames: [
            { frame: { type: 'error', message: `The discussion ended: ${context.failures} turns in a row failed.`, fatal: true } },
            { frame: step.endFrame(context, 'failed') },
          ],
        }),
      },
    },
    stopped: {
      type: 'final',
      entry: {
        type: 'apply',
        params: ({ context, event }) => ({
          patch: {},
          frames: step.stopFrames(context, event.type === 'stop' ? event.reason : 'stopped', context.speakerId !== null).map((frame) => ({ frame })),
        }),
      },
    },
  },
});

export type DiscussionMachine = typeof discussionMachine;
