// The probe behind endpointProbe's `probeEndpoint` actor: opens `${wsBase}${path}?test=true`, with no token (the server
// answers a probe before any token check, so none need ride in the URL). The server
// answers a probe with one {type:'probe', endpoint, ok:true} frame and a close 1000 (server/routes/discussionSockets.ts),
// so the endpoint is available when that frame arrives, or when the socket opens and closes 1000; an error or any
// other close means unavailable. The time-out is the machine's (an `after` delay): stopping the actor aborts the
// probe and closes its socket.
import { fromPromise } from 'xstate';
import type { ProbeEndpointInput } from '../machines/endpointProbe.machine';
import { CLOSE_NORMAL } from '../schemas/constants';
import { probeFrame } from '../schemas/discussionFrames';
import { openSocket, type SocketTarget, type WebSocketLike } from './socket';

/** Where the probes go: the app's socket origin and token (socket.ts). */
export type EndpointProbeDeps = SocketTarget;

/** Resolves true when `path` answers a `?test=true` probe, false otherwise (never rejects). */
export function probeEndpoint(deps: EndpointProbeDeps, path: string, signal?: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let ws: WebSocketLike;
    try {
      ws = openSocket(deps, path, { test: 'true' }, null);
    } catch {
      resolve(false);
      return;
    }
    let opened = false;
    let settled = false;
    const finish = (available: boolean) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      ws.onopen = ws.onmessage = ws.onerror = null;
      ws.onclose = null;
      // 0 = CONNECTING, 1 = OPEN: the probe is over either way.
      if (ws.readyState === 0 || ws.readyState === 1) ws.close(CLOSE_NORMAL, 'probe done');
      resolve(available);
    };
    const abort = () => finish(false);
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort);

    ws.onopen = () => {
      opened = true;
    };
    ws.onmessage = (ev) => {
      let data: unknown = ev.data;
      try {
        if (typeof data === 'string') data = JSON.parse(data);
      } catch {
        return;
      }
      if (probeFrame.safeParse(data).success) finish(true);
    };
    ws.onerror = () => finish(false);
    ws.onclose = (ev) => finish(opened && ev.code === CLOSE_NORMAL);
  });
}

/** The `probeEndpoint` actor logic for endpointProbeMachine.provide({ actors: { probeEndpoint: … } }). */
export function createEndpointProbe(deps: EndpointProbeDeps) {
  return fromPromise<boolean, ProbeEndpointInput>(({ input, signal }) => probeEndpoint(deps, input.path, signal));
}
