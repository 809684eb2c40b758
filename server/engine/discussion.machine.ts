import { enqueueActions, fromCallback, fromPromise, not, setup } from 'xstate';
import {
  initialContext,
  type EngineContext,
  type EngineInput,
  type ResearchInput,
  type ResearchOutput,
  type SpeakInput,
  type SpeakOutput,
  type Step,
  type ThinkEvent,
  type ThinkInput,
} from './context';
import type { FrameOut } from './frames';
import { forAudience } from './frames';

import * as fmt from './formats/steps';
import { formatEndedByPerson, formatEnds, formatWaits, nextFloor } from './formats/floor';
import { formatThinkInput } from './formats/prompts';
import * as lanes from './formats/lanes';
import { endsItself } from './formats';
import { outcomeText } from './positions/outcome';
import { addSources, type NamedSource } from './liveSources';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from './plan';
import { summaryRequest } from './prompt';
import { consensusOf } from './record';
import * as round from './roundSteps';
import { researchInput } from './roundSteps';
import * as turn from './turnFrames';
import { speakInput, thinkInput } from './turnFrames';

// One discussion, from its first frame to discussion_ended. Pure: the model, speech and research are invoked
// actors provided by the runtime (runtime.ts); timers are `after` delays; frames leave as emitted 'frame' events
// that the session (session.ts) validates, stores and buffers for resume (frameLog.ts) and sends (watcher.ts).
// Each transition's work is a named action below; what it says is a step in roundSteps.ts (around the turns) or
// turnFrames.ts (one turn).
//
//   opening → researching? → running ⟲ [roundStarting → stageStarting → (selecting → thinking ⟲ think.delta →
//   speaking? → awaitingAck? → resting | turnFailed)* → stageEnding] → summarizing? (streamed) → ended
//   stop (any state) → stopped            too many failed turns → failed
//   A format (formats/) chooses the floor in `selecting`; it waits in `awaitingFloor` for the person (a human
//   moderator, a human judge, an answer to the moderator) and ends the discussion itself when its script is done.

export type EngineEvent =
  | { type: 'human.message'; text: string }
  | { type: 'audio.ack'; audioId?: string }
  | { type: 'stop'; reason: string }
  /** A format's person: gives the floor (a human moderator), votes (a human judge), ends the discussion. */
  | { type: 'floor.give'; agentId: string }
  /** The person takes back a floor they gave while an agent spoke. */
  | { type: 'floor.cancel' }
  | { type: 'judge.vote'; side: 'for' | 'against'; confidence: number; reason?: string; voterName?: string }
  | { type: 'discussion.end' }
  /** The person's own sources (checked in clientFrames.ts), read from the next turn; named in the panels' row. */
  | { type: 'sources.add'; sources: NamedSource[] }
  /** Sent once to a machine restored from a stored snapshot (engine/cluster.ts): a pause or an awaited audio
   *  acknowledgment whose timer did not survive the process is over. */
  | { type: 'engine.resume' };

type Event = EngineEvent | ThinkEvent;

const timedOut = (ms: number) => `no answer within ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`;
/** A speech failure that ends speech for the rest of the discussion (the user's speech quota is reached). */
const stopsSpeech = (e: unknown) =>
  typeof e === 'object' && e !== null && (e as { stopsSpeech?: unknown }).stopsSpeech === true;
const errorText = (e: unknown) => (e instanceof Error ? e.message : typeof e === 'string' ? e : 'unknown error');

type Done<T> = { output: T };

/** The chart's types, actors, delays and guards; its actions are made from them (stepAction) and added below. */
const engine = setup({
  types: {
    context: {} as EngineContext,
    input: {} as EngineInput,
    events: {} as Event,
    emitted: {} as FrameOut,
  },
  actors: {
    research: fromPromise<ResearchOutput, ResearchInput>(async () => {
      throw new Error('research actor not provided');
    }),
    /** Sends think.delta while the model writes, then think.done or think.failed (see thinking.ts). */
    think: fromCallback<ThinkEvent, ThinkInput>(({ sendBack }) => {
      sendBack({ type: 'think.failed', error: 'think actor not provided' });
    }),
    speak: fromPromise<SpeakOutput, SpeakInput>(async () => {
      throw new Error('speak actor not provided');
    }),
    /** The closing summary, streamed like a turn: think.delta while it is written, then think.done or think.failed. */
    summarize: fromCallback<ThinkEvent, ThinkInput>(({ sendBack }) => {
      sendBack({ type: 'think.failed', error: 'summarize actor not provided' });
    }),
  },
  delays: {
    turnTimeout: ({ context }) => context.plan.timing.turnTimeoutMs,
    approvalTimeout: ({ context }) => context.plan.timing.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    ackTimeout: ({ context }) => context.plan.timing.ackTimeoutMs,
    pause: ({ context }) => context.plan.pauseMs,
    answersTimeout: ({ context }) => lanes.answersTimeoutMs(context),
  },
  guards: {
    // A tool call that waits for the person's Run or Refuse, and the result that ends the wait (docs/tools.md).
    asksApproval: ({ event }) =>
      event.type === 'think.frame' && event.frame.type === 'tool_call' && !!event.frame.needs_approval,
    isToolResult: ({ event }) => event.type === 'think.frame' && event.frame.type === 'tool_result',
    wantsResearch: ({ context }) => context.plan.research !== null && context.researchAvailable,
    // A format that ends itself decides when it is over (formatIsOver); the others run their stages' turns.
    isStageComplete: ({ context }) =>
      !endsItself(context.plan.format) && context.turnInStage >= context.plan.turnsPerStage,
    hasMoreStages: ({ context }) => context.stageIndex + 1 < context.plan.stages.length,
    hasConvergedEarly: ({ context }) => context.converged,
    hasMoreRounds: ({ context }) => context.round < context.plan.rounds,
    hasDraft: ({ context }) => context.draft !== null,
    isSpeechOn: ({ context }) => context.speechOn && !fmt.isQuietTask(context),
    hasFailedTooOften: ({ context }) => context.failures >= context.plan.timing.maxConsecutiveFailures,
    isAckForCurrentAudio: ({ context, event }) =>
      event.type === 'audio.ack' && (!event.audioId || event.audioId === context.pendingAudioId),
    hasPause: ({ context }) => context.plan.pauseMs > 0,
    wantsConclusion: ({ context }) => round.wantsConclusion(context) || endsItself(context.plan.format),
    formatWaits: ({ context }) => formatWaits(context),
    formatIsOver: ({ context }) => formatEnds(context) || formatEndedByPerson(context),
    formatEndedByPerson: ({ context }) => formatEndedByPerson(context),
    isQuietTask: ({ context }) => fmt.isQuietTask(context),
    hasFormatSummary: ({ context }) => fmt.formatSummary(context) !== null,
    canGiveFloor: ({ context, event }) =>
      event.type === 'floor.give' &&
      context.plan.format !== null &&
      context.plan.agents.some((a) => a.id === event.agentId),
    awaitsJudge: ({ context }) => {
      const f = nextFloor(context);
      return f.kind === 'wait' && f.waiting === 'judge';
    },
    hasFormat: ({ context }) => context.plan.format !== null,
    startsParallelAnswers: ({ context }) => lanes.startsParallelAnswers(context),
    isLaneEvent: ({ event }) => 'lane' in event && typeof event.lane === 'number',
    lanesFinished: ({ context }) => lanes.lanesFinished(context),
    acceptsHumans: ({ context }) => context.plan.humanParticipation,
  },
});

/** A step as an action: its context patch, then its frames in order, each fitted to the panel that reads them. */
const stepAction = <E>(make: (c: EngineContext, e: E) => Step) =>
  engine.createAction(
    enqueueActions(({ context, event, enqueue }) => {
      const s = make(context, event as E);
      if (Object.keys(s.patch).length) enqueue.assign(s.patch);
      for (const { frame, answeredAt, tokenAt } of s.frames) {
        const fitted = forAudience(frame, context.plan.audience);
        if (fitted)
          enqueue.emit({
            type: 'frame',
            frame: fitted,
            ...(answeredAt !== undefined ? { answeredAt } : {}),
            ...(tokenAt !== undefined ? { tokenAt } : {}),
          });
      }
    }),
  );

export const discussionMachine = engine
  .extend({
    actions: {
      announceOpening: stepAction((c) => round.opening(c)),
      shareResearch: stepAction((c, e: Done<ResearchOutput>) => round.shareResearch(c, e.output)),
      reportResearchFailure: stepAction((c) => round.researchFailed(c)),
      startRound: stepAction((c) => round.beginRound(c)),
      startStage: stepAction((c) => round.beginStage(c)),
      nextStage: stepAction((c) => round.nextStage(c)),
      endRound: stepAction((c) => round.endRound(c)),
      chooseSpeaker: stepAction((c) => (c.plan.format ? fmt.chooseFloor(c) : turn.chooseSpeaker(c))),
      openDraft: stepAction((c) => turn.openDraft(c)),
      streamDelta: stepAction((c, e: Extract<ThinkEvent, { type: 'think.delta' }>) =>
        turn.streamDelta(c, e.text, e.tokenAt),
      ),
      recordTurn: stepAction((c, e: Extract<ThinkEvent, { type: 'think.done' }>) =>
        c.format?.current ? fmt.recordAnswer(c, e.output) : turn.recordTurn(c, e.output),
      ),
      relayToolFrame: stepAction((_c, e: Extract<ThinkEvent, { type: 'think.frame' }>) => ({
        patch: {},
        frames: [{ frame: e.frame }],
      })),
      noteModelError: stepAction((_c, e: Extract<ThinkEvent, { type: 'think.failed' }>) => ({
        patch: { failure: e.error },
        frames: [],
      })),
      noteTimeout: stepAction((c) => ({ patch: { failure: timedOut(c.plan.timing.turnTimeoutMs) }, frames: [] })),
      noteApprovalTimeout: stepAction((c) => ({
        patch: {
          failure: `No Run or Refuse for the tool call within ${Math.round((c.plan.timing.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS) / 60_000)} min`,
        },
        frames: [],
      })),
      failTurn: stepAction((c) => (c.format?.current ? fmt.failFormatTurn(c) : turn.failTurn(c))),
      announceSpeech: stepAction((c) => turn.beginSpeech(c)),
      shareAudio: stepAction((c, e: Done<SpeakOutput>) => turn.shareAudio(c, e.output)),
      reportSpeechFailure: stepAction((c, e: { error: unknown }) =>
        turn.speechFailed(c, errorText(e.error), stopsSpeech(e.error)),
      ),
      yieldFloor: stepAction((c) => turn.rest(c)),
      noteHuman: stepAction((c, e: Extract<EngineEvent, { type: 'human.message' }>) => fmt.noteHumanMessage(c, e.text)),
      announceWait: stepAction((c) => fmt.noteWait(c)),
      giveFloor: stepAction((c, e: Extract<EngineEvent, { type: 'floor.give' }>) => fmt.giveFloor(c, e.agentId)),
      queueFloor: stepAction((c, e: Extract<EngineEvent, { type: 'floor.give' }>) => fmt.queueFloor(c, e.agentId)),
      cancelFloor: stepAction((c) => fmt.cancelFloor(c)),
      castJudgeVote: stepAction((c, e: Extract<EngineEvent, { type: 'judge.vote' }>) =>
        fmt.humanVote(c, e.side, e.confidence, e.reason, e.voterName),
      ),
      endByPerson: stepAction((c) => fmt.endByPerson(c)),
      addSources: stepAction((c, e: Extract<EngineEvent, { type: 'sources.add' }>) => addSources(c, e.sources)),
      openAnswers: stepAction((c) => lanes.openAnswers(c)),
      closeAnswers: stepAction((c) => lanes.closeAnswers(c)),
      laneDelta: stepAction((c, e: Extract<ThinkEvent, { type: 'think.delta' }>) =>
        lanes.laneDelta(c, e.lane!, e.text, e.tokenAt),
      ),
      laneDone: stepAction((c, e: Extract<ThinkEvent, { type: 'think.done' }>) => lanes.laneDone(c, e.lane!, e.output)),
      laneFailed: stepAction((c, e: Extract<ThinkEvent, { type: 'think.failed' }>) =>
        lanes.laneFailed(c, e.lane!, e.error),
      ),
      timeOutLanes: stepAction((c) => lanes.laneTimeouts(c, timedOut(c.plan.timing.turnTimeoutMs))),
      /** Starts the waiting lanes the bound allows; a lane that has answered is stopped. */
      runLanes: engine.createAction(
        enqueueActions(({ context, event, enqueue }) => {
          const lane = (event as { lane?: unknown }).lane;
          if (typeof lane === 'number' && (event.type === 'think.done' || event.type === 'think.failed'))
            enqueue.stopChild(`lane-${lane}`);
          const next = lanes.lanesToStart(context);
          if (Object.keys(next.patch).length) enqueue.assign(next.patch);
          for (const input of next.start) enqueue.spawnChild('think', { id: `lane-${input.lane}`, input });
        }),
      ),
      stopLanes: engine.createAction(
        enqueueActions(({ context, enqueue }) => {
          for (const id of lanes.laneIds(context)) enqueue.stopChild(id);
        }),
      ),
      concludeWithFormatSummary: stepAction((c) => round.conclude(c, fmt.formatSummary(c))),
      openSummaryDraft: stepAction((c) => round.openSummary(c)),
      announceConsensus: stepAction((c) => round.announceConsensus(c)),
      conclude: stepAction((c, e: Event) =>
        round.conclude(c, e.type === 'think.done' ? e.output.answer.content : null),
      ),
      announceEnd: stepAction((c) => round.endStep(c)),
      announceFailure: stepAction((c) => round.failedStep(c)),
      announceStop: stepAction((c, e: Event) => round.stopStep(c, e.type === 'stop' ? e.reason : 'stopped')),
    },
  })
  .createMachine({
    id: 'discussion',
    context: ({ input }) => initialContext(input),
    initial: 'opening',
    on: {
      stop: { target: '.stopped' },
      'human.message': { guard: 'acceptsHumans', actions: 'noteHuman' },
      // Given while an agent speaks (or before the first turn): queued for the next turn, said to the panels.
      'floor.give': { guard: 'canGiveFloor', actions: 'queueFloor' },
      'floor.cancel': { guard: 'hasFormat', actions: 'cancelFloor' },
      'discussion.end': { guard: 'hasFormat', actions: 'endByPerson' },
      'sources.add': { actions: 'addSources' },
    },
    states: {
      opening: {
        entry: 'announceOpening',
        always: [{ guard: 'wantsResearch', target: 'researching' }, { target: 'running' }],
      },
      researching: {
        invoke: {
          id: 'research',
          src: 'research',
          input: ({ context }) => researchInput(context),
          onDone: { target: 'running', actions: 'shareResearch' },
          onError: { target: 'running', actions: 'reportResearchFailure' },
        },
      },
      running: {
        initial: 'roundStarting',
        states: {
          roundStarting: {
            entry: 'startRound',
            always: 'stageStarting',
          },
          stageStarting: {
            entry: 'startStage',
            always: 'selecting',
          },
          selecting: {
            always: [
              { guard: 'formatIsOver', target: 'stageEnding' },
              { guard: 'formatWaits', target: 'awaitingFloor', actions: 'announceWait' },
              { guard: 'isStageComplete', target: 'stageEnding' },
              { guard: 'startsParallelAnswers', target: 'answering', actions: 'openAnswers' },
              { target: 'thinking', actions: 'chooseSpeaker' },
            ],
          },
          thinking: {
            invoke: {
              id: 'think',
              src: 'think',
              input: ({ context }) => (context.format?.current ? formatThinkInput(context) : thinkInput(context)),
            },
            on: {
              'think.delta': [
                // A choice (a moderator's pick, a ranking, a vote) is read, not shown as it is written.
                { guard: 'isQuietTask' },
                { guard: 'hasDraft', actions: 'streamDelta' },
                { actions: ['openDraft', 'streamDelta'] },
              ],
              'think.done': [
                { guard: 'isSpeechOn', target: 'speaking', actions: 'recordTurn' },
                { target: 'resting', actions: 'recordTurn' },
              ],
              'think.failed': { target: 'turnFailed', actions: 'noteModelError' },
              // The turn's tool calls and their results (docs/tools.md), before its text.
              'think.frame': [
                { guard: 'asksApproval', target: '.awaitingApproval', actions: 'relayToolFrame' },
                { actions: 'relayToolFrame' },
              ],
            },
            initial: 'working',
            states: {
              working: {
                after: { turnTimeout: { target: '#discussion.running.turnFailed', actions: 'noteTimeout' } },
              },
              // A tool call waits for the person's Run or Refuse: the model's clock stops (a person may take longer
              // than a model may), and starts afresh once the call's result is in.
              awaitingApproval: {
                on: { 'think.frame': { guard: 'isToolResult', target: 'working', actions: 'relayToolFrame' } },
                after: {
                  approvalTimeout: { target: '#discussion.running.turnFailed', actions: 'noteApprovalTimeout' },
                },
              },
            },
          },
          // A council's first answers, asked for at once (formats/lanes.ts): each lane streams its own message and
          // is recorded as it comes; when all have answered (or failed, or the stage's time is up) the council goes on.
          answering: {
            entry: 'runLanes',
            on: {
              'think.delta': { guard: 'isLaneEvent', actions: 'laneDelta' },
              'think.done': { guard: 'isLaneEvent', actions: ['laneDone', 'runLanes'] },
              'think.failed': { guard: 'isLaneEvent', actions: ['laneFailed', 'runLanes'] },
            },
            always: { guard: 'lanesFinished', target: 'selecting', actions: 'closeAnswers' },
            after: { answersTimeout: { target: 'selecting', actions: ['timeOutLanes', 'closeAnswers'] } },
            exit: 'stopLanes',
          },
          // A format waits for the person: the floor given (a human moderator), a judge's vote, an answer to the
          // moderator's question, or 'End discussion'. No timer moves it on.
          awaitingFloor: {
            on: {
              'floor.give': { guard: 'canGiveFloor', target: 'selecting', actions: 'giveFloor' },
              'judge.vote': { guard: 'awaitsJudge', target: 'selecting', actions: 'castJudgeVote' },
              'human.message': { guard: 'acceptsHumans', target: 'selecting', actions: 'noteHuman' },
              'discussion.end': { target: 'selecting', actions: 'endByPerson' },
            },
          },
          turnFailed: {
            entry: 'failTurn',
            always: [{ guard: 'hasFailedTooOften', target: '#discussion.failed' }, { target: 'selecting' }],
          },
          speaking: {
            entry: 'announceSpeech',
            invoke: {
              id: 'speak',
              src: 'speak',
              input: ({ context }) => speakInput(context),
              onDone: { target: 'awaitingAck', actions: 'shareAudio' },
              onError: { target: 'resting', actions: 'reportSpeechFailure' },
            },
          },
          awaitingAck: {
            on: { 'audio.ack': { guard: 'isAckForCurrentAudio', target: 'resting' }, 'engine.resume': 'resting' },
            after: { ackTimeout: 'resting' },
          },
          resting: {
            entry: 'yieldFloor',
            always: { guard: not('hasPause'), target: 'selecting' },
            on: { 'engine.resume': 'selecting' },
            after: { pause: 'selecting' },
          },
          stageEnding: {
            always: [
              { guard: 'hasMoreStages', target: 'stageStarting', actions: 'nextStage' },
              { target: 'roundEnding' },
            ],
          },
          roundEnding: {
            entry: 'endRound',
            always: [
              { guard: 'formatEndedByPerson', target: '#discussion.summarizing' },
              { guard: 'hasConvergedEarly', target: '#discussion.summarizing' },
              { guard: 'hasMoreRounds', target: 'roundStarting' },
              { target: '#discussion.summarizing' },
            ],
          },
        },
      },
      summarizing: {
        entry: 'announceConsensus',
        always: [
          { guard: not('wantsConclusion'), target: 'ended' },
          { guard: 'hasFormatSummary', target: 'ended', actions: 'concludeWithFormatSummary' },
        ],
        invoke: {
          id: 'summarize',
          src: 'summarize',
          input: ({ context: { plan, record } }) => ({
            request: summaryRequest(plan, record, consensusOf(plan, record).score, outcomeText(plan, record)),
            stage: null,
          }),
        },
        on: {
          'think.delta': [
            { guard: 'hasDraft', actions: 'streamDelta' },
            { actions: ['openSummaryDraft', 'streamDelta'] },
          ],
          'think.done': { target: 'ended', actions: 'conclude' },
          'think.failed': { target: 'ended', actions: 'conclude' },
        },
        after: { turnTimeout: { target: 'ended', actions: 'conclude' } },
      },
      ended: {
        type: 'final',
        entry: 'announceEnd',
      },
      failed: {
        type: 'final',
        entry: 'announceFailure',
      },
      stopped: {
        type: 'final',
        entry: 'announceStop',
      },
    },
  });

export type DiscussionMachine = typeof discussionMachine;
