// What the login screen derives from the form snapshot.
import { AUTH_MESSAGES } from '../schemas/messages';
import type { LoginFormSnapshot } from './loginForm.machine';

export type BackendBadge = 'checking' | 'online' | 'degraded' | 'offline';

export const selectIsBusy = (s: LoginFormSnapshot) => s.hasTag('busy');
export const selectIsRegisterMode = (s: LoginFormSnapshot) => s.context.mode === 'register';
export const selectFields = (s: LoginFormSnapshot) => ({ email: s.context.email, password: s.context.password });
export const selectFieldErrors = (s: LoginFormSnapshot) => s.context.fieldErrors;
export const selectFormError = (s: LoginFormSnapshot) => s.context.error;
export const selectSuccessMessage = (s: LoginFormSnapshot) =>
  s.matches({ form: 'succeeded' })
    ? s.context.mode === 'register'
      ? AUTH_MESSAGES.registerSuccess
      : AUTH_MESSAGES.loginSuccess
    : null;
export const selectPendingToken = (s: LoginFormSnapshot) => s.context.accepted?.token ?? null;
export const selectBackendBadge = (s: LoginFormSnapshot): BackendBadge => {
  if (s.matches({ backend: 'checking' })) return 'checking';
  if (s.matches({ backend: 'unreachable' })) return 'offline';
  return s.context.backend?.status === 'healthy' ? 'online' : 'degraded';
};
export const selectBackendVersion = (s: LoginFormSnapshot) => s.context.backend?.version ?? null;
export const selectIsCheckingBackend = (s: LoginFormSnapshot) => s.matches({ backend: 'checking' });
