import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { idText } from '../../src/schemas/common';
import { SERVER_DETAIL } from '../../src/schemas/messages';
import { inviteAccepted, inviteCreate, inviteCreated, joinPath, ROOM_LIMITS } from '../../src/schemas/rooms';
import { requireUser } from '../auth/guard';
import { HttpError } from '../http/errors';
import type { ZodTypeProvider } from '../http/routeSchema';
import { acceptInvite, createInvite, discussionById, membershipOf } from './store';

// Invites (README 'Sharing and rooms'): the owner of a discussion makes a link with a role; a signed-in user who
// opens it becomes a member and joins over the discussion's socket (join.ts). A member who is not the owner is
// refused what only the owner may do with 403; anyone else does not see the discussion at all (404).

export const ROOM_DETAIL = {
  ownerOnly: 'Only the owner of this discussion may do that.',
  inviteInvalid: 'This invite is not valid: it may have expired. Ask for a new link.',
  ownInvite: 'You started this discussion; the invite is for the people you send it to.',
  removed: 'You were removed from this discussion.',
  full: `This room is full (${ROOM_LIMITS.maxMembers} people).`,
  tooManyInvites: `This discussion has ${ROOM_LIMITS.maxInvites} invites outstanding, the most it may have.`,
} as const;

/** 404 unless the user owns the discussion; 403 when they are only a member of it. */
export async function requireOwner(
  ctx: FastifyInstance['ctx'],
  discussionId: string,
  userId: string,
): Promise<NonNullable<Awaited<ReturnType<typeof discussionById>>>> {
  const d = await discussionById(ctx.db, discussionId);
  const m = d ? await membershipOf(ctx.db, d, userId) : null;
  if (!d || !m) throw new HttpError(404, SERVER_DETAIL.notFound);
  if (m.role !== 'owner') throw new HttpError(403, ROOM_DETAIL.ownerOnly);
  return d;
}

export async function roomRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['Rooms'];
  app.addHook('onRequest', requireUser(ctx));

  const inviteSchema = {
    tags,
    summary: 'Invite people to a discussion',
    description: `The owner only. \`url\` is \`/join/{token}\` (128 random bits; only its hash is stored, so it is shown this once); it lets any signed-in user of this server in with the role for ${ROOM_LIMITS.inviteDays} days. At most ${ROOM_LIMITS.maxInvites} invites per discussion.`,
    params: z.object({ id: idText() }),
    body: inviteCreate,
    response: { 201: inviteCreated },
    errors: { 403: ROOM_DETAIL.ownerOnly, 404: SERVER_DETAIL.notFound, 409: ROOM_DETAIL.tooManyInvites },
  };
  app.post('/discussions/:id/invites', { schema: inviteSchema }, async (req, reply) => {
    const d = await requireOwner(ctx, req.params.id, req.userId);
    const made = await createInvite(ctx.db, d.id, req.body.role);
    if (!made.ok) throw new HttpError(409, ROOM_DETAIL.tooManyInvites);
    return reply.status(201).send({ id: made.id, url: joinPath(made.token), role: req.body.role });
  });

  const acceptSchema = {
    tags,
    summary: 'Accept an invite',
    description:
      'Makes the signed-in user a member of the discussion with the invite\'s role; then open the discussion\'s socket and send `{"type":"room_join","discussion_id":…}` first.',
    params: z.object({ token: z.string().min(1).max(100) }),
    response: { 200: inviteAccepted },
    errors: {
      400: ROOM_DETAIL.ownInvite,
      403: ROOM_DETAIL.removed,
      404: ROOM_DETAIL.inviteInvalid,
      409: ROOM_DETAIL.full,
    },
  };
  app.post('/invites/:token/accept', { schema: acceptSchema }, async (req) => {
    const out = await acceptInvite(ctx.db, req.params.token, req.userId);
    if (!out.ok) {
      if (out.why === 'owner') throw new HttpError(400, ROOM_DETAIL.ownInvite);
      if (out.why === 'removed') throw new HttpError(403, ROOM_DETAIL.removed);
      if (out.why === 'full') throw new HttpError(409, ROOM_DETAIL.full);
      throw new HttpError(404, ROOM_DETAIL.inviteInvalid);
    }
    return {
      discussion_id: out.discussion.id,
      role: out.role,
      panel: out.discussion.panel,
      endpoint: out.discussion.endpoint,
    };
  });
}
