import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { CLOSE_POLICY_VIOLATION } from '../../src/schemas/constants';
import { parseFrame } from '../../src/schemas/frames';
import { liveClientFrame } from '../../src/schemas/liveUpdates';
import { socketUser } from '../auth/guard';
import type { LiveChannel } from '../realtime/hub';
import { userStats } from './stats';
import { socketRoute } from '../http/security';

/** /ws/updates and /ws/system (and the debugger's /system/ws/system alias). */
export async function liveSocketRoutes(app: FastifyInstance) {
  const { ctx } = app;

  const handler = (channel: LiveChannel) => async (ws: WebSocket, req: Parameters<typeof socketUser>[1]) => {
    // Hold frames that arrive while the token is being checked, so a get_stats sent on open is not lost.
    const early: string[] = [];
    const buffer = (d: unknown) => early.push(String(d));
    ws.on('message', buffer);
    const userId = await socketUser(ctx, req);
    if (!userId) return ws.close(CLOSE_POLICY_VIOLATION, 'Authentication failed');
    ws.off('message', buffer);
    ctx.hub.add(userId, channel, ws);
    const send = (frame: object) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(frame));
    send({ type: 'connected', channel });
    const onMessage = async (raw: string) => {
      const res = parseFrame(liveClientFrame, raw);
      if (res.kind !== 'frame')
        return send({
          type: 'error',
          message: res.kind === 'unknown' ? `Unknown message type: ${res.type}` : res.error,
        });
      if (res.frame.type === 'ping') return send({ type: 'pong' });
      send({ type: 'stats', stats: await userStats(ctx, userId) });
    };
    ws.on('message', (d) => void onMessage(String(d)));
    for (const raw of early) void onMessage(raw);
  };

  socketRoute(app, '/ws/updates', handler('updates'));
  socketRoute(app, '/ws/system', handler('system'));
  socketRoute(app, '/system/ws/system', handler('system'));
}
