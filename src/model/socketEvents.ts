// The vocabulary between a socket actor (src/services/socket.ts) and the machine that invokes it. Kept here,
// as types only, so machines can name these events without importing a service.

/** What a socket actor tells its parent. Frames have already been through the protocol's schema. */
export type SocketEvent<F> =
  | { type: 'socket.open' }
  | { type: 'socket.frame'; frame: F }
  /** Frames that arrived together (src/services/frameBatch.ts), in order: two or more. */
  | { type: 'socket.frames'; frames: F[] }
  /** A frame whose `type` the protocol does not know: logged and ignored (the spec says so). */
  | { type: 'socket.unknown'; frameType: string }
  /** A known type that failed its schema, or bytes that were not a typed JSON object (or an outgoing frame we refused). */
  | { type: 'socket.protocolError'; frameType: string; error: string; direction: 'incoming' | 'outgoing' }
  | { type: 'socket.error'; message: string }
  | { type: 'socket.closed'; code: number; reason: string; wasClean: boolean };

/** What a parent may tell its socket actor. */
export type SocketCommand<C> =
  | { type: 'socket.send'; frame: C }
  | { type: 'socket.close'; code?: number; reason?: string };

export interface SocketInput {
  /** Path on the socket origin, e.g. '/ws/updates'. */
  path: string;
  /** Extra query parameters besides the token. */
  query?: Record<string, string>;
}
