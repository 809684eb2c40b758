// What a socketSession (src/machines/socketSession.machine.ts) talks with: its input, the notices it sends the
// parent its input names, the commands a parent may send it, and how an ending is read from a close or a connect
// time-out. Types and pure functions only (the chart's glue, as kit/audioQueue.ts is the audio queue's).
import { CLOSE_ABNORMAL } from '../../schemas/constants';
import type { ParentInput } from './actorKit';
import type { SocketEvent } from '../../model/socketEvents';
import type { SocketPolicy } from '../../model/socketPolicies';

export interface SocketSessionInput extends ParentInput {
  path: string;
  query?: Record<string, string>;
  /** Sent on every open (a reconnect sends it again). */
  firstFrame?: unknown;
  /**
   * The parent takes frames that arrived together as one `socketSession.frames` (a discussion panel folds them in
   * one step); otherwise each is its own `socketSession.frame`.
   */
  batches?: boolean;
  policy: SocketPolicy;
}

/** What a socketSession tells its parent (the `parent` in its input, and only it). F = the server frame type. */
export type SocketSessionNotice<F = unknown> =
  | { type: 'socketSession.connecting'; attempt: number } // attempt 0 = first connect, n = n-th reconnect
  | { type: 'socketSession.open'; attempt: number } // attempt > 0: a reconnect succeeded
  | { type: 'socketSession.frame'; frame: F }
  | { type: 'socketSession.frames'; frames: F[] } // only to a parent whose input says `batches`
  | { type: 'socketSession.protocolError'; frameType: string; error: string; direction: 'incoming' | 'outgoing' }
  | { type: 'socketSession.error'; message: string; everOpened: boolean }
  | { type: 'socketSession.retrying'; attempt: number; maxAttempts: number; code: number; reason: string } // attempt = the reconnect about to be made (1..max)
  | { type: 'socketSession.timeout' } // a connect attempt timed out
  | {
      type: 'socketSession.closed';
      code: number;
      reason: string;
      wasClean: boolean;
      gaveUp: boolean;
      everOpened: boolean;
    }; // final

/** What a parent may send it. */
export type SocketSessionCommand =
  | { type: 'socketSession.send'; frame: unknown }
  | { type: 'socketSession.close'; code?: number; reason?: string };

/** The reason a connect time-out is recorded with (its code is CLOSE_ABNORMAL). */
export const CONNECT_TIMEOUT_REASON = 'connect timeout';

export interface Ending {
  code: number;
  reason: string;
  wasClean: boolean;
  gaveUp: boolean;
}

export interface SocketSessionContext extends SocketSessionInput {
  /** 0 while making the first connect; n while making the n-th reconnect since the socket was last open. */
  attempt: number;
  everOpened: boolean;
  /** Frames the parent sent while no socket was open; sent after the first frame on the next open. */
  outbox: unknown[];
  /** How the session ended (read by the closed notice). */
  ending: Ending;
}

export type SocketSessionEvent = SocketEvent<unknown> | SocketSessionCommand;

export const timedOut: Omit<Ending, 'gaveUp'> = {
  code: CLOSE_ABNORMAL,
  reason: CONNECT_TIMEOUT_REASON,
  wasClean: false,
};
/** The close an event stands for: a socket close, or a connect time-out (any other event). */
export const closeOf = (event: SocketSessionEvent): Omit<Ending, 'gaveUp'> =>
  event.type === 'socket.closed' ? { code: event.code, reason: event.reason, wasClean: event.wasClean } : timedOut;
