// What each panel says when its socket closes or fails (docs/product.md#discussions-errors 'Standard panel', 'Hybrid
// panel'). Pure, so every close-code rule is one table-tested function rather than branches spread over the charts.
import { NOTICE_ABOUTS } from '../schemas/discussionFrames';
import {
  CLOSE_ABNORMAL,
  CLOSE_GOING_AWAY,
  CLOSE_NORMAL,
  CLOSE_POLICY_VIOLATION,
  CLOSE_PROTOCOL_ERROR,
  CLOSE_SERVICE_RESTART,
  CLOSE_TRY_AGAIN_LATER,
  ENDPOINTS,
} from '../schemas/constants';
import { DISCUSSION_MESSAGES } from '../schemas/messages';
import type { StandardServerFrame } from '../schemas/standardSocket';

export interface CloseFacts {
  code: number;
  reason: string;
  /** Reconnects ran out (a 1006 while running, three times). */
  gaveUp: boolean;
  endpointName: string;
}

/** A limit's close (1013) says its own sentence, shown as the server wrote it. */
export const limitMessage = (reason: string) => reason.trim() || DISCUSSION_MESSAGES.tryAgainLater;

/** Closes a panel re-attaches after (socketPolicies.ts); when the attempts run out, the connection is lost. */
const REATTACHING = new Set([CLOSE_ABNORMAL, CLOSE_GOING_AWAY, CLOSE_SERVICE_RESTART]);

/** The banner text for a final close, or null for a normal one (1000, 1001). */
export function closeMessage(facts: CloseFacts): string | null {
  const { code, reason, gaveUp, endpointName } = facts;
  // 1008 is authentication only; a limit closes 1013 and is not a reason to sign in again.
  if (code === CLOSE_POLICY_VIOLATION || code === CLOSE_PROTOCOL_ERROR) return DISCUSSION_MESSAGES.authFailed;
  if (code === CLOSE_TRY_AGAIN_LATER) return limitMessage(reason);
  if (REATTACHING.has(code) && gaveUp) return DISCUSSION_MESSAGES.connectionLost(endpointName);
  if (code === CLOSE_NORMAL || code === CLOSE_GOING_AWAY) return null;
  return DISCUSSION_MESSAGES.closedUnexpectedly(code, reason);
}

/** The banner and the problem remembered before the close (a socket error or a time-out). */
export interface BannerState {
  error: string | null;
  pendingProblem: string | null;
}

/** The standard panel's banner after its socket's final close. */
export function standardCloseBanner(facts: CloseFacts, state: BannerState): string | null {
  const byCode = closeMessage(facts);
  if (byCode === DISCUSSION_MESSAGES.authFailed) return byCode;
  // Reconnects ran out: 'Connection lost to {endpoint}' (docs/product.md#discussions-errors), even though each refused
  // attempt was also
  // reported as a socket error.
  if (facts.gaveUp && byCode) return byCode;
  return state.pendingProblem ?? byCode ?? state.error;
}

/** A standard run that closes normally with nothing wrong before it ends quietly; any other close is a failure. */
export const isQuietStandardClose = (facts: CloseFacts, state: BannerState) =>
  state.pendingProblem === null && closeMessage(facts) === null;

/** A socket error event: before the socket ever opened the endpoint is likely missing; after, the network. */
export function socketErrorMessage(everOpened: boolean, endpointName: string, availableNames: string): string {
  return everOpened
    ? DISCUSSION_MESSAGES.connectionError
    : DISCUSSION_MESSAGES.cannotConnect(endpointName, availableNames);
}

/** 'A server message with an error field … if it mentions Authentication or token, the session is stopped.' */
export const isAuthErrorFrame = (frame: StandardServerFrame | null) =>
  frame?.type === 'error' &&
  // A notice (the token budget that ended the run) and a budget's refusal speak of tokens the models spent, not of
  // the sign-in token.
  !NOTICE_ABOUTS.has(frame.about ?? '') &&
  /authentication|\btoken\b/i.test(`${frame.message} ${frame.error ?? ''}`);

/** The hybrid panel's words for a socket error: before the first open the connection was never made. */
export const hybridSocketErrorMessage = (everOpened: boolean) =>
  everOpened ? DISCUSSION_MESSAGES.hybridConnectionError : DISCUSSION_MESSAGES.hybridEstablishFailed;

/** The hybrid panel's banner after its socket's final close. */
export function hybridCloseBanner(facts: Omit<CloseFacts, 'endpointName'>, state: BannerState): string | null {
  if (facts.gaveUp) return DISCUSSION_MESSAGES.connectionLost(ENDPOINTS.hybrid.name);
  if (state.pendingProblem) return state.pendingProblem;
  if (facts.code === CLOSE_POLICY_VIOLATION || facts.code === CLOSE_PROTOCOL_ERROR)
    return DISCUSSION_MESSAGES.authFailed;
  if (facts.code === CLOSE_TRY_AGAIN_LATER) return limitMessage(facts.reason);
  if (facts.code === CLOSE_NORMAL || facts.code === CLOSE_GOING_AWAY) return state.error;
  return DISCUSSION_MESSAGES.closedUnexpectedly(facts.code, facts.reason);
}

/** A hybrid run fails on any close but a normal one (1000, 1001), or after a socket error or time-out. */
export const isHybridFailedClose = (code: number, state: BannerState) =>
  state.pendingProblem !== null || (code !== CLOSE_NORMAL && code !== CLOSE_GOING_AWAY);

/** An outgoing frame refused by its schema on the way out is the configuration failing to send. */
export const hybridProtocolMessage = (direction: 'incoming' | 'outgoing', frameType: string) =>
  direction === 'outgoing' ? DISCUSSION_MESSAGES.hybridConfigFailed : DISCUSSION_MESSAGES.protocolError(frameType);
