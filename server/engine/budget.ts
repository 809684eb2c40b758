import { BUDGET_NOTICE } from '../../src/schemas/usage';
import type { Queryable } from '../db/db';
import type { EngineContext, Step } from './context';
import type { Budget } from './plan';
import { totalOf } from './usage';

// Budgets are guards on the engine chart (docs/protocol.md#costs): once a run's turns have spent its own budget
// (`token_budget`) or what was left of its user's day (USER_DAILY_TOKENS), it ends cleanly (consensus, no summary,
// a notice naming the budget, stored as ended). A run that would start with the day already spent is refused.

const n = (x: number) => x.toLocaleString('en-US');

/** Which budget the discussion has reached, if any. */
export function budgetReached(c: Pick<EngineContext, 'plan' | 'spent'>): 'discussion' | 'daily' | null {
  const b = c.plan.budget;
  if (!b) return null;
  const spent = totalOf(c.spent);
  if (b.discussion !== null && spent >= b.discussion) return 'discussion';
  if (b.dailyLeft !== null && spent >= b.dailyLeft) return 'daily';
  return null;
}

/** The notice row: which budget stopped the run, in plain words. */
export function budgetNotice(c: Pick<EngineContext, 'plan' | 'spent'>): Step {
  const which = budgetReached(c);
  const b = c.plan.budget;
  if (!which || !b) return { patch: {}, frames: [] };
  const spent = n(totalOf(c.spent));
  const content =
    which === 'discussion'
      ? `Stopped at this discussion's budget of ${n(b.discussion ?? 0)} tokens: its turns spent ${spent}.`
      : `Stopped at your daily budget of ${n(b.daily ?? 0)} tokens (USER_DAILY_TOKENS, the last 24 hours): this discussion spent ${spent}.`;
  return { patch: {}, frames: [{ frame: { type: 'system', about: BUDGET_NOTICE, content } }] };
}

/** The day's budget is spent: a new discussion is refused before it starts. */
export class DailyBudgetSpent extends Error {
  constructor(
    readonly daily: number,
    readonly spent: number,
  ) {
    super(
      `Your daily budget of ${n(daily)} tokens is spent (${n(spent)} in the last 24 hours; USER_DAILY_TOKENS): a new discussion can start once earlier turns are more than 24 hours old.`,
    );
  }
}

/** Tokens a user's discussions spent in the last 24 hours: the sum of their stored turns' counts. */
export async function tokensSpentToday(db: Queryable, userId: string): Promise<number> {
  const rows = await db.query<{ n: string | number | null }>(
    `SELECT COALESCE(SUM(f.tokens), 0) AS n FROM discussion_frames f JOIN discussions d ON d.id = f.discussion_id
      WHERE d.user_id = $1 AND f.tokens IS NOT NULL AND f.at > now() - interval '24 hours'`,
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}

/** The budget a new run is held to; throws DailyBudgetSpent when the user's day is spent. */
export async function budgetFor(
  db: Queryable,
  userId: string,
  limits: { tokenBudget: number | null | undefined; userDailyTokens: number },
): Promise<Budget | undefined> {
  const discussion = limits.tokenBudget ?? null;
  const daily = limits.userDailyTokens > 0 ? limits.userDailyTokens : null;
  let dailyLeft: number | null = null;
  if (daily !== null) {
    const spent = await tokensSpentToday(db, userId);
    if (spent >= daily) throw new DailyBudgetSpent(daily, spent);
    dailyLeft = daily - spent;
  }
  return discussion === null && daily === null ? undefined : { discussion, daily, dailyLeft };
}
