import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RoomsHub } from './hub';
import { roomRoutes } from './routes';

// Rooms (README 'Sharing and rooms') as a Fastify plugin: invites and their acceptance (routes.ts), the room of each
// running discussion (room.ts, made with its session), who may send what (control.ts), a member's socket
// (join.ts, served from routes/discussionSockets.ts) and rooms across processes (hub.ts).

async function rooms(app: FastifyInstance) {
  app.ctx.rooms = new RoomsHub(app.ctx);
  await app.register(roomRoutes);
}
export const roomsPlugin = fp(rooms, { name: 'rooms', fastify: '5.x', dependencies: ['engine'] });
