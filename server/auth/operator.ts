import type { FastifyRequest } from 'fastify';
import { OPERATOR_ONLY } from '../../src/schemas/auth';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { subsystemPlugin } from '../http/subsystem';

// Who runs the server (README 'Operator'): the emails in ADMIN_EMAILS when it is set, otherwise the first account.
// Operators manage what every user shares (the built-in engine's model files, the server's own connections'
// models, /debug/info) and see the server's paths and addresses; everyone else sees those read-only.

/** The server's part of the operator rule: the first account, once there is one (accounts are never deleted). */
export interface OperatorState {
  firstAccount: string | null;
}

declare module '../context' {
  interface AppContext {
    operator: OperatorState;
  }
}

/** The operator rule's state, made as the server starts (app.ts registers it before the routes). */
export const operatorPlugin = subsystemPlugin('operator', 'operator', { create: () => ({ firstAccount: null }) });

async function firstAccount(ctx: AppContext): Promise<string | null> {
  const known = ctx.operator.firstAccount;
  if (known) return known;
  const [row] = await ctx.db.query<{ id: string }>('SELECT id FROM users ORDER BY created_at, id LIMIT 1');
  // Accounts are never deleted, so the first one stays the first once there is one.
  if (row) ctx.operator.firstAccount = row.id;
  return row?.id ?? null;
}

/** Whether the user is an operator (by email when ADMIN_EMAILS is set). */
export async function isOperator(ctx: AppContext, userId: string, email?: string): Promise<boolean> {
  const admins = ctx.config.adminEmails;
  if (admins.length) {
    const address =
      email ?? (await ctx.db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]))[0]?.email;
    return !!address && admins.includes(address.toLowerCase());
  }
  return (await firstAccount(ctx)) === userId;
}

export const roleOf = async (ctx: AppContext, userId: string, email?: string) =>
  ((await isOperator(ctx, userId, email)) ? 'operator' : 'user') as 'operator' | 'user';

/** Throws the 403 every operator-only route answers; `what` ends the sentence ('delete model files'). */
export async function requireOperator(ctx: AppContext, req: FastifyRequest, what: string) {
  if (!(await isOperator(ctx, req.userId))) throw new HttpError(403, OPERATOR_ONLY(what));
}
