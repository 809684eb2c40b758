// The actions of a discussion run that both panels implement the same way, written once. Each panel spreads them
// into its own `setup` (`...runActions<Context, Event>({ ... })`) with its own context and event types; the panel
// names only its event types (the person's message, the format's request) and its machine's name. What differs
// between the panels (the close rules, the banners, speech at the end, the settings) stays in the panel's setup.
import { assign, enqueueActions, raise, sendTo, type AnyActorRef, type EventObject } from 'xstate';
import {
  CLOSE_COMMAND,
  framesOf,
  humanMessageOut,
  incomingAfter,
  sendCommand,
  toolApprovalOut,
  STOP_COMMAND,
} from '../../model/discussionSocket';
import { closeOpenStreams, type Feed, type FeedInput } from '../../model/feed';
import type { RoomState } from '../../model/room';
import { REMOVED_FROM_ROOM_TEXT, type RoomSeat } from '../../schemas/rooms';
import type { FormatRequest } from '../../schemas/format';
import { notProvided, sessionTokenOf, type SourcesLiveAddEvent } from './actorKit';
import { relaySpeaking, resetStatuses, tellAudioQueue } from './discussionRelay';

/** What the shared actions read and write of a panel's context. */
export interface RunContext {
  feed: Feed;
  error: string | null;
  token: string | null;
  clockNow: number | null;
  /** Start asked first: the agents whose model server is not answering, and the Start to send if the person agrees. */
  startQuestion: StartQuestion | null;
  /** Who is here now (room_people), null in a room of one. */
  room: RoomState | null;
  /** The run: `room` when this person joined it by an invite. */
  run?: { room?: unknown } | null;
}

export interface StartQuestion {
  /** Names, as the question says them. */
  unreachable: readonly string[];
  start: EventObject;
}

/** What a panel's start event may carry: the selected agents whose model server is not answering now. */
export interface UnreachableFacts {
  unreachable?: readonly string[];
}

/** Whether Start should ask first: the view found agents whose model server is not answering. */
export const asksFirst = (event: EventObject): boolean => ((event as UnreachableFacts).unreachable?.length ?? 0) > 0;

/** The panel's own names for what the shared actions handle. */
export interface RunNames<TEvent extends EventObject> {
  /** The chart's id, for the message of a placeholder that was not provided. */
  machine: string;
  /** The person's message: `{ type, text }`. */
  humanSend: TEvent['type'];
  /** The format's request: `{ type, frame }`. */
  formatSend: TEvent['type'];
  /** The person's answer to a tool call that waits: `{ type, id, approve }`. */
  toolAnswer: TEvent['type'];
}

/** An event of the given type, read as what it carries (the panel's types name it; the guard checks the type). */
function eventOf<T>(event: EventObject, type: string): T {
  if (event.type !== type) throw new Error(`Expected the event ${type}, got ${event.type}`);
  return event as unknown as T;
}

/** A change to the shared part of the context, as the panel's own context type. */
const patch = <TContext extends RunContext>(change: Partial<RunContext>) => change as Partial<TContext>;

export function runActions<TContext extends RunContext, TEvent extends EventObject>(names: RunNames<TEvent>) {
  const readClock = notProvided(names.machine, 'readClock');
  return {
    /** Provided (services/clock.ts): reads the wall clock into `clockNow` (a run's session id, a message's time). */
    readClock: assign<TContext, TEvent, undefined, TEvent, never>(() => patch({ clockNow: readClock() })),
    /** A panel starts anew at each sign-in: the user's token is the session's (unless its input named one). */
    readSessionToken: assign<TContext, TEvent, undefined, TEvent, never>(({ context, system }) =>
      patch({ token: context.token ?? sessionTokenOf(system) }),
    ),
    /**
     * A frame, or a burst of them (`socketSession.frames`), costs one context copy: the feed, the banner and the
     * room change in one assign.
     */
    applyIncoming: assign<TContext, TEvent, undefined, TEvent, never>(({ context, event }) => {
      let next = { feed: context.feed, error: context.error, room: context.room };
      const joined = !!context.run?.room;
      for (const frame of framesOf(event as { type: string })) next = incomingAfter(next, frame as FeedInput, joined);
      return patch(next);
    }),
    relaySpeaking: enqueueActions<TContext, TEvent, undefined, TEvent, never, never, never, never, never>(
      relaySpeaking,
    ),
    /** The person's card shows at once, with the id History's replay gives it. */
    sendHumanMessage: enqueueActions<TContext, TEvent, undefined, TEvent, never, never, never, never, never>(
      ({ context, event, enqueue }) => {
        const { text } = eventOf<{ text: string }>(event, names.humanSend);
        const out = humanMessageOut(context.feed, text, context.clockNow);
        enqueue.sendTo('socket', out.command);
        enqueue.assign(patch({ feed: out.feed }));
      },
    ),
    /** Run or Refuse a waiting tool call: `tool_approval` goes out and the call's row says the answer at once. */
    sendToolApproval: enqueueActions<TContext, TEvent, undefined, TEvent, never, never, never, never, never>(
      ({ context, event, enqueue }) => {
        const { id, approve } = eventOf<{ id: string; approve: boolean }>(event, names.toolAnswer);
        const out = toolApprovalOut(context.feed, id, approve);
        enqueue.sendTo('socket', out.command);
        enqueue.assign(patch({ feed: out.feed }));
      },
    ),
    sendFormatRequest: sendTo<TContext, TEvent, undefined, AnyActorRef, TEvent>(
      'socket',
      ({ event }: { event: TEvent }) => sendCommand(eventOf<{ frame: FormatRequest }>(event, names.formatSend).frame),
    ),
    /** A source ticked or added while the run is live: the discussion reads it from its next turn. */
    sendSourcesAdd: sendTo<TContext, TEvent, undefined, AnyActorRef, TEvent>('socket', ({ event }: { event: TEvent }) =>
      sendCommand({ type: 'sources_add', source_ids: eventOf<SourcesLiveAddEvent>(event, 'sources.live.add').ids }),
    ),
    /** The room sees a typing dot while the person types (the chart's `typing` region throttles it). */
    sendTypingStarted: sendTo<TContext, TEvent, undefined, AnyActorRef, TEvent>(
      'socket',
      sendCommand({ type: 'room_typing', typing: true }),
    ),
    sendTypingStopped: sendTo<TContext, TEvent, undefined, AnyActorRef, TEvent>(
      'socket',
      sendCommand({ type: 'room_typing', typing: false }),
    ),
    /** The owner's controls in the room: a seat of the format for a person, or removing them. */
    sendRoomSeat: sendTo<TContext, TEvent, undefined, AnyActorRef, TEvent>('socket', ({ event }: { event: TEvent }) => {
      const e = eventOf<{ seat: RoomSeat; userId: string }>(event, 'panel.room.seat');
      return sendCommand({ type: 'room_seat', seat: e.seat, user_id: e.userId });
    }),
    sendRoomRemove: sendTo<TContext, TEvent, undefined, AnyActorRef, TEvent>('socket', ({ event }: { event: TEvent }) =>
      sendCommand({ type: 'room_remove', user_id: eventOf<{ userId: string }>(event, 'panel.room.remove').userId }),
    ),
    /** The owner removed this person: said plainly, and the room is gone (the socket is not retried). */
    explainRemoval: assign<TContext, TEvent, undefined, TEvent, never>(() =>
      patch({ error: REMOVED_FROM_ROOM_TEXT, room: null }),
    ),
    sendStop: sendTo<TContext, TEvent, undefined, AnyActorRef, TEvent>('socket', STOP_COMMAND),
    closeSocket: sendTo<TContext, TEvent, undefined, AnyActorRef, TEvent>('socket', CLOSE_COMMAND),
    /** Stop clears what is queued and playing. */
    stopSpeech: enqueueActions<TContext, TEvent, undefined, TEvent, never, never, never, never, never>((args) =>
      tellAudioQueue(args, { type: 'audio.clear' }),
    ),
    resetStatuses: enqueueActions<TContext, TEvent, undefined, TEvent, never, never, never, never, never>(
      resetStatuses,
    ),
    dismissError: assign<TContext, TEvent, undefined, TEvent, never>(() => patch({ error: null })),
    /** Start waits for the person: the question names who is not answering. */
    askStart: assign<TContext, TEvent, undefined, TEvent, never>(({ event }) =>
      patch({ startQuestion: { unreachable: (event as UnreachableFacts).unreachable ?? [], start: event } }),
    ),
    /** 'Start anyway': the same Start again, now without the question. */
    startAnyway: raise<TContext, TEvent, TEvent, undefined>(
      ({ context }) => ({ ...context.startQuestion?.start, unreachable: [] }) as unknown as TEvent,
    ),
    forgetStartQuestion: assign<TContext, TEvent, undefined, TEvent, never>(() => patch({ startQuestion: null })),
    /** A turn still streaming when the run is over will get no final frame. */
    closeStreams: assign<TContext, TEvent, undefined, TEvent, never>(({ context }) =>
      patch({ feed: closeOpenStreams(context.feed) }),
    ),
  };
}
