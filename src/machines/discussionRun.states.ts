// The run of a discussion as both panels chart it, written once: the `session` state of their `run` region.
//   connecting → live ⇄ reconnecting (a socketSession child reconnects a dropped socket with the same session_id)
//   → stopping (Stop: `stop` is sent and speech stops; a person who joined by an invite goes straight to closing) → closing (the socket is closed; if the close never comes back,
//   the run ends after the grace) → ended | failed (the close rule of the panel says which).
// A frame goes into the feed and the banner (`applyIncoming`) and, when it has something for them
// (`isRelayedFrame`), out to the canvas and the audio queue (`relayIncoming`); the last frame (`isFinalFrame`:
// discussion_ended, or an error that ends the session) closes.
// The actions both panels implement alike come from kit/runActions.ts (each panel's `setup().extend`); the panel's
// own `setup` holds what truly differs, with the guards and delays: the
// standard panel closes at once after `stop` (stopCloseDelay 0) and drops the speech queue at the end, the hybrid
// panel waits 500 ms and lets the last words finish; the panel adds its own events to `live` and its own children.

/** The state config both panels' charts take; the panel's setup types every name in it. */
export function discussionRunSession<const Stop extends string, const LiveOn extends object>(
  stop: Stop,
  liveOn: LiveOn,
) {
  // Stop is the owner's: a person who joined by an invite leaves (the socket closes; the discussion goes on).
  const stopOrLeave = [{ guard: 'isJoinedRun', target: 'closing' }, { target: 'stopping' }] as const;
  const onStop = { [stop]: stopOrLeave } as Record<Stop, typeof stopOrLeave>;
  // A frame, or a burst of them (a resume's replay comes as one `socketSession.frames`): folded in one step; the
  // burst that holds the last frame closes after the frames before it were relayed.
  const onFrames = [
    { guard: 'isFinalFrame', target: '.closing', actions: ['applyIncoming', 'relayIncoming'] },
    { guard: 'isRelayedFrame', actions: ['applyIncoming', 'relayIncoming'] },
    { actions: 'applyIncoming' },
  ] as const;
  return {
    initial: 'connecting',
    states: {
      connecting: { tags: 'connecting', on: onStop },
      live: {
        tags: ['connected', 'live'],
        on: { ...liveOn, ...onStop, 'socketSession.retrying': { target: 'reconnecting', actions: 'showRetrying' } },
      },
      reconnecting: {
        tags: ['connecting', 'live', 'reconnecting'],
        on: { ...onStop, 'socketSession.retrying': { actions: 'showRetrying' } },
      },
      stopping: {
        tags: ['connected', 'stopping'],
        entry: ['sendStop', 'stopSpeech'],
        after: { stopCloseDelay: 'closing' },
      },
      closing: { tags: ['connected', 'stopping'], entry: 'closeSocket', after: { closeGrace: 'over' } },
      over: { type: 'final' },
    },
    on: {
      'socketSession.open': { target: '.live', actions: 'clearRetrying' },
      'socketSession.frame': onFrames,
      'socketSession.frames': onFrames,
      'socketSession.protocolError': { actions: 'showProtocolError' },
      'socketSession.error': { actions: 'rememberSocketError' },
      'socketSession.timeout': { actions: 'rememberTimeout' },
      'socketSession.closed': [
        // The owner removed this person (CLOSE_REMOVED_FROM_ROOM): said plainly; the policy never retries it.
        { guard: 'isRemovedClose', target: 'ended', actions: 'explainRemoval' },
        { guard: 'isFailedClose', target: 'failed', actions: 'explainClose' },
        { target: 'ended', actions: 'explainClose' },
      ],
      'audio.started': { actions: 'relaySpeaking' },
      // The acknowledgment carries the time the clip finished (the hybrid panel's `played_at`).
      'audio.finished': { actions: ['readClock', 'relaySpeaking', 'acknowledgeAudio'] },
    },
    onDone: 'ended',
    exit: ['endSpeech', 'resetStatuses', 'closeStreams'],
  } as const;
}

/** The panel's names for the start question's events. */
interface StartQuestionEvents {
  start: string;
  confirm: string;
  cancel: string;
  resume: string;
}

/**
 * A region beside the run: Start asks first when a selected agent's model server is not answering ("Bo's model
 * server is not answering — start anyway?"). The run stays where it was (idle, ended or failed) while the question is
 * open; 'Start anyway' sends the same Start again, Cancel (or a re-attach from History) closes the question.
 * The panel's guard `needsStartQuestion` says when (a valid Start with agents not answering); its run region lets
 * such a Start through to this region.
 */
export function startQuestionRegion<const E extends StartQuestionEvents>(events: E) {
  const ask = { guard: 'needsStartQuestion', target: 'confirmingStart', actions: 'askStart' } as const;
  const close = { target: 'closed', actions: 'forgetStartQuestion' } as const;
  const startAnyway = { target: 'closed', actions: ['startAnyway', 'forgetStartQuestion'] } as const;
  return {
    initial: 'closed',
    states: {
      closed: { on: { [events.start]: ask } as Record<E['start'], typeof ask> },
      confirmingStart: {
        tags: 'confirmingStart',
        on: {
          ...({ [events.confirm]: startAnyway } as Record<E['confirm'], typeof startAnyway>),
          ...({ [events.cancel]: close, [events.resume]: close } as Record<E['cancel'] | E['resume'], typeof close>),
        },
      },
    },
  } as const;
}
