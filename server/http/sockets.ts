import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { CLOSE_GOING_AWAY, CLOSE_SERVICE_RESTART } from '../../src/schemas/constants';
import { windDown } from '../engine/plugin';
import { refuseNulInUrl } from './errors';
import { isSocketRoute } from './routeSchema';
import { discussionSocketRoutes } from '../routes/discussionSockets';
import { liveSocketRoutes } from '../routes/liveSockets';

/**
 * The websocket plugin and every socket route, in one encapsulated context. The plugin adds an onRequest and an
 * onResponse hook to each route of the context it is registered in; at the root, every HTTP route walked them too
 * (/health paid for both: npm run bench server). Here only the socket routes do.
 *
 * The plugin routes every upgrade through Fastify's router, and only the routes of its own context close a socket
 * an HTTP answer was written to. So it hears only the upgrades that name a socket route: the others get a 404 and
 * their connection is closed here.
 */
export async function socketRoutes(app: FastifyInstance) {
  const socketPaths = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (isSocketRoute(route)) socketPaths.add(route.url);
  });
  const upgrades = new EventEmitter();
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if (socketPaths.has(q < 0 ? url : url.slice(0, q))) upgrades.emit('upgrade', req, socket, head);
    else socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 1024 * 1024, server: upgrades as never },
    // Replaces the plugin's default (close every socket with no code): running discussions first say
    // discussion_ended {reason: 'shutdown'} and store their last frames, then every socket hears 1001
    // (1012 when another process took the discussions over).
    preClose: async function (this: FastifyInstance) {
      // The engine hands its running discussions over to another live process, or ends them (engine/plugin.ts).
      const handOver = await windDown(app);
      // 1012 tells a panel its discussion goes on elsewhere (it re-attaches); 1001, that this server is going away.
      const [code, reason] = handOver
        ? [CLOSE_SERVICE_RESTART, 'Discussion handed over; reconnect']
        : [CLOSE_GOING_AWAY, 'Server shutting down'];
      for (const client of this.websocketServer.clients) client.close(code, reason);
      this.websocketServer.close();
    },
  });
  // An upgrade does not come through the server's request handler that refuses a NUL in the address
  // (http/security.ts): the socket routes check theirs here. After the plugin's own onRequest hook, which marks the
  // request as an upgrade: the refusal's answer then closes the socket (the plugin's onResponse hook).
  app.addHook('onRequest', refuseNulInUrl);
  await app.register(liveSocketRoutes);
  await app.register(discussionSocketRoutes);
}
