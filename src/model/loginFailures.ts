// docs/product.md#workspace-validation (credential validation) and #workspace-errors 'Sign-in' (what a failed login or
// registration says), written against the failure shape services reject with: `status` (+ `detail`) for an HTTP answer,
// none otherwise.
import { AUTH_MESSAGES, SERVER_DETAIL } from '../schemas/messages';
import { readFailure } from './failures';

export type LoginMode = 'signIn' | 'register';

export interface FieldErrors {
  email?: string;
  password?: string;
}

export function validateCredentials(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  const trimmed = email.trim();
  if (!trimmed) errors.email = AUTH_MESSAGES.emailRequired;
  else if (!trimmed.includes('@')) errors.email = AUTH_MESSAGES.emailInvalid;
  if (!password) errors.password = AUTH_MESSAGES.passwordRequired;
  else if (password.length < 6) errors.password = AUTH_MESSAGES.passwordTooShort;
  return errors;
}

export const hasFieldErrors = (errors: FieldErrors) => Boolean(errors.email || errors.password);

export function loginFailureMessage(error: unknown, mode: LoginMode): string {
  const { status, detail } = readFailure(error);
  if (status === 401) return AUTH_MESSAGES.invalidCredentials;
  if (status === 400 && mode === 'register' && detail === SERVER_DETAIL.emailAlreadyRegistered)
    return AUTH_MESSAGES.alreadyRegistered;
  if (status === 422) return AUTH_MESSAGES.invalidInput;
  if (status === 500) return AUTH_MESSAGES.serverError;
  return detail ?? (mode === 'register' ? AUTH_MESSAGES.registrationFailed : AUTH_MESSAGES.loginFailed);
}

/** Why restoring a stored session failed, for 'Authentication failed: {reason}'. */
export function sessionFailureReason(error: unknown): string {
  const { status } = readFailure(error);
  if (status === 401) return AUTH_MESSAGES.tokenInvalidOrExpired;
  if (typeof error === 'object' && error !== null && typeof (error as { reason?: unknown }).reason === 'string') {
    return (error as { reason: string }).reason;
  }
  return AUTH_MESSAGES.authFailedGeneric;
}
