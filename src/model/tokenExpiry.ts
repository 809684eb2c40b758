// The session-expiry rules of docs/product.md#workspace-states as pure arithmetic on a token's claims and a time the
// caller read.
import { SESSION_EXPIRED_MARGIN_MS, SESSION_WARNING_MARGIN_MS } from '../schemas/constants';

/** What the client keeps of a decoded token. */
export interface TokenClaims {
  sub: string;
  /** Seconds since the epoch (JWT NumericDate). */
  exp: number;
}

export const msUntilExpiry = (claims: TokenClaims, now: number) => claims.exp * 1000 - now;

/** A token within 5 minutes of its expiry already counts as expired. */
export const countsAsExpired = (claims: TokenClaims, now: number) =>
  msUntilExpiry(claims, now) <= SESSION_EXPIRED_MARGIN_MS;

/** Between the 5- and 10-minute marks: still valid, but the user is warned once. */
export const isInWarningWindow = (claims: TokenClaims, now: number) => {
  const left = msUntilExpiry(claims, now);
  return left > SESSION_EXPIRED_MARGIN_MS && left < SESSION_WARNING_MARGIN_MS;
};

/** Whole minutes until the token really expires (for the warning text); at least 1. */
export const minutesLeft = (claims: TokenClaims, now: number) =>
  Math.max(1, Math.floor(msUntilExpiry(claims, now) / 60_000));

/** A token just handed out by the server must not already be past its `exp`. */
export const isPastExpiry = (claims: TokenClaims, now: number) => msUntilExpiry(claims, now) <= 0;
