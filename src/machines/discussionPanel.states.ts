// The regions of the one panel chart (discussionPanel.machine.ts) besides the start question: the run and the
// settings. Built from the variant's facts, so the standard panel has its `preparing` step (the agents' details) and
// the hybrid panel its clock; every name in them is typed by the chart's setup.
//   run      — idle → [preparing →] session (discussionRun.states.ts: connecting → live ⇄ reconnecting → stopping →
//              closing) → ended (with its Share dialog child) | failed; idle, ended and failed start a new run, or
//              re-attach one, the same way.
//   settings — loading (the user's saved settings) → ready; a change is checked by the schema bounds and saved. The
//              hybrid panel's settings are locked while a run goes on; the standard panel's wait for the saved ones.
import { discussionRunSession } from './discussionRun.states';

/** What the regions read of the variant. */
interface RegionFacts {
  loadsParticipants: boolean;
  ticks: boolean;
}

export function panelRunRegion<const SocketInput>(variant: RegionFacts, socketInput: SocketInput) {
  const begin = variant.loadsParticipants ? 'preparing' : 'session';
  const betweenRuns = {
    'panel.start': [
      // Asked first (the startQuestion region): the run waits for the answer.
      { guard: 'needsStartQuestion' },
      { guard: 'isStartValid', target: begin, actions: ['readClock', 'beginRun'] },
      { actions: 'explainStartProblem' },
    ],
    'panel.resume': { guard: 'isResumable', target: begin, actions: ['readClock', 'resumeRun'] },
    // An accepted invite: the socket attaches to the owner's discussion (no agents of ours to load).
    'panel.room.join': { target: 'session', actions: ['readClock', 'joinRoom'] },
  } as const;
  const preparing = {
    tags: 'connecting',
    invoke: {
      src: 'loadAgentDetails',
      id: 'agentDetails',
      input: ({ context }: { context: { run: { agentIds: string[] } | null } }) => ({
        agentIds: context.run?.agentIds ?? [],
      }),
      onDone: { target: 'session', actions: 'setParticipants' },
      // Agent detail failures are logged only (docs/product.md#discussions-errors); the discussion starts with what
      // the server says.
      onError: 'session',
    },
    on: { 'panel.stop': 'ended' },
  } as const;
  const region = {
    initial: 'idle',
    states: {
      idle: { tags: ['idle', 'disconnected'], on: betweenRuns },
      preparing,
      session: {
        invoke: [
          { src: 'socketSession', id: 'socket', input: socketInput },
          // The header shows whole seconds.
          ...(variant.ticks ? [{ src: 'clock', id: 'clock', input: { intervalMs: 1000 } } as const] : []),
        ],
        ...discussionRunSession('panel.stop', {
          'panel.human.send': { guard: 'isHumanMessageSendable', actions: ['readClock', 'sendHumanMessage'] },
          'panel.format.send': { actions: 'sendFormatRequest' },
          'panel.tool.answer': { guard: 'isToolCallWaiting', actions: 'sendToolApproval' },
          'sources.live.add': { actions: 'sendSourcesAdd' },
          'panel.room.seat': { guard: 'isRoomOwner', actions: 'sendRoomSeat' },
          'panel.room.remove': { guard: 'isRoomOwner', actions: 'sendRoomRemove' },
        }),
      },
      ended: {
        tags: ['ended', 'disconnected'],
        on: betweenRuns,
        // A finished run can be shared read-only (its stored record, by its session id).
        invoke: {
          src: 'share',
          id: 'share',
          input: ({ context }: { context: { run: { sessionId: string } | null } }) => ({
            discussionId: context.run?.sessionId ?? '',
          }),
        },
      },
      failed: { tags: ['ended', 'error'], on: betweenRuns },
    },
  } as const;
  if (variant.loadsParticipants) return region;
  // Without the agents' details a Start opens the socket at once: no `preparing` (its type stays, matching nothing).
  const { preparing: _none, ...states } = region.states;
  return { ...region, states } as typeof region;
}

/**
 * Beside the run: while a person types in a room, the others see a dot. The first key sends `room_typing` true, later
 * keys only keep it up; ROOM_TYPING_QUIET_MS without a key, or the message sent, sends false. So a burst of keys is
 * two frames, not one per key.
 */
export const roomTypingRegion = {
  initial: 'quiet',
  states: {
    quiet: {
      on: { 'panel.room.typing': { guard: 'mayTypeInRoom', target: 'typing', actions: 'sendTypingStarted' } },
    },
    typing: {
      on: {
        'panel.room.typing': { target: 'typing', reenter: true },
        'panel.human.send': { guard: 'isLive', target: 'quiet', actions: 'sendTypingStopped' },
      },
      after: {
        roomTypingQuiet: [{ guard: 'isLive', target: 'quiet', actions: 'sendTypingStopped' }, { target: 'quiet' }],
      },
    },
  },
} as const;

export const panelSettingsRegion = {
  initial: 'loading',
  states: {
    loading: {
      tags: 'settingsLoading',
      invoke: {
        src: 'loadSettings',
        id: 'settingsLoader',
        onDone: { target: 'ready', actions: 'restoreSettings' },
        onError: 'ready',
      },
    },
    ready: {},
  },
  on: {
    'panel.settings.update': {
      guard: 'mayUpdateSettings',
      actions: ['toggleSpeechQueue', 'applySettings', 'saveSettings'],
    },
    'panel.settings.reset': { guard: 'mayEditSettings', actions: ['resetSettings', 'saveSettings'] },
    'panel.template.apply': { guard: 'mayEditSettings', actions: ['applyTemplate', 'saveSettings'] },
  },
} as const;
