// What the views derive from the session snapshot.
import type { SessionSnapshot } from './session.machine';

export const selectIsLoading = (s: SessionSnapshot) => s.hasTag('loading');
export const selectIsAuthenticated = (s: SessionSnapshot) => s.matches('authenticated');
export const selectIsLoggedOut = (s: SessionSnapshot) => s.matches('loggedOut');
export const selectIsExpiringSoon = (s: SessionSnapshot) => s.hasTag('expiringSoon');
export const selectUserEmail = (s: SessionSnapshot) => s.context.user?.email ?? null;
/** The operator manages what every user shares (README 'Operator'). */
export const selectIsOperator = (s: SessionSnapshot) => s.context.user?.role === 'operator';
export const selectLoginForm = (s: SessionSnapshot) => s.children.loginForm;
/** The footer shows only the tail of the token's subject. */
export const selectTokenSubjectTail = (s: SessionSnapshot) =>
  s.context.claims ? s.context.claims.sub.slice(-8) : null;
export const selectToken = (s: SessionSnapshot) => s.context.token;
/** What others see in rooms: the name the user chose, else the part of the email before '@'. */
export const selectDisplayName = (s: SessionSnapshot) => {
  const user = s.context.user;
  if (!user) return null;
  return user.display_name?.trim() || user.email.split('@')[0] || user.email;
};
