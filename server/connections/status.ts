import type { ConnectionFailureKind, ConnectionState } from '../../src/schemas/connectionKinds';

// A connection's state as every kind shows it, from its last Test, and what of it a user who is not the operator
// reads of the server's own connections (their addresses and error texts are the operator's).

/** What a user who is not the operator reads where the server's own connection's error text would be. */
export const SERVER_CONNECTION_DOWN = "The server's own connection does not answer; its operator can see why.";

type TestOutcome = { ok: true } | { ok: false; reason: ConnectionFailureKind; detail: string };

export function connectionStatus(r: TestOutcome, hideDetail: boolean): ConnectionState {
  const state: ConnectionState = r.ok
    ? { state: 'reachable' }
    : r.reason === 'key_rejected'
      ? { state: 'key_rejected', reason: 'key_rejected', detail: r.detail }
      : { state: 'unreachable', reason: r.reason, detail: r.detail };
  return hideDetail && 'detail' in state ? ({ ...state, detail: SERVER_CONNECTION_DOWN } as ConnectionState) : state;
}
