// How each of the app's sockets reconnects, in one place: the live-update channels keep trying a server that is not
// up yet and reconnect after any close but a normal one; a discussion reconnects only after a drop (1006), a server
// going away (1001) or handing it over (1012) while the run was open, resending its configuration so the server
// (this one restarted, or another process) resumes it. socketSession.machine.ts carries them out.
import {
  CLOSE_ABNORMAL,
  CLOSE_GOING_AWAY,
  CLOSE_NORMAL,
  CLOSE_SERVICE_RESTART,
  LIVE_CONNECT_TIMEOUT_MS,
  LIVE_RECONNECT_BASE_DELAY_MS,
  LIVE_RECONNECT_MAX_ATTEMPTS,
  STANDARD_RECONNECT_BASE_DELAY_MS,
  STANDARD_RECONNECT_MAX_ATTEMPTS,
} from '../schemas/constants';

export interface SocketPolicy {
  connectTimeoutMs: number;
  /** Close codes that lead to a reconnect (while attempts remain). */
  reconnectOn: readonly number[];
  /** Reconnects allowed since the socket was last open. */
  maxAttempts: number;
  /** Wait before the n-th reconnect (n = 1..maxAttempts). */
  delayMs: (attempt: number) => number;
  /**
   * Whether a socket that never opened may reconnect (default true: live updates keep trying a server that is not
   * up yet). A discussion that should report 'Cannot connect' on its first failure sets it to false.
   */
  reconnectBeforeFirstOpen?: boolean;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Every close code a socket can report except a normal close: 1001–1015 and the application range 3000–4999. */
const ALL_BUT_NORMAL = [...range(CLOSE_NORMAL + 1, 1015), ...range(3000, 4999)];

/** Every code but a normal close reconnects, at most LIVE_RECONNECT_MAX_ATTEMPTS times, 3 s × attempt apart. */
export const LIVE_SOCKET_POLICY: SocketPolicy = {
  connectTimeoutMs: LIVE_CONNECT_TIMEOUT_MS,
  reconnectOn: ALL_BUT_NORMAL,
  maxAttempts: LIVE_RECONNECT_MAX_ATTEMPTS,
  delayMs: (attempt) => attempt * LIVE_RECONNECT_BASE_DELAY_MS,
};

/** The closes after which a discussion panel re-attaches: a drop, a server going away, a hand-over. */
export const DISCUSSION_REATTACH_CODES = [CLOSE_ABNORMAL, CLOSE_GOING_AWAY, CLOSE_SERVICE_RESTART] as const;

/**
 * Up to 3 reconnects on 1006, 1001 or 1012 at 2 s × attempt, each re-sending the same configuration (same session_id) so the
 * server resumes. Only a running discussion reconnects: a socket that never opened reports its failure at once.
 */
export const discussionSocketPolicy = (connectTimeoutMs: number): SocketPolicy => ({
  connectTimeoutMs,
  reconnectOn: DISCUSSION_REATTACH_CODES,
  maxAttempts: STANDARD_RECONNECT_MAX_ATTEMPTS,
  delayMs: (attempt: number) => attempt * STANDARD_RECONNECT_BASE_DELAY_MS,
  reconnectBeforeFirstOpen: false,
});
