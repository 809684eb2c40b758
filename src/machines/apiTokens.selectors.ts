// What the 'API tokens' dialog shows, derived from its snapshot.
import type { ApiTokensSnapshot } from './apiTokens.machine';

export const selectIsApiTokensOpen = (s: ApiTokensSnapshot) => s.hasTag('dialogOpen');
export const selectApiTokens = (s: ApiTokensSnapshot) => s.context.tokens;
export const selectIsApiTokensLoading = (s: ApiTokensSnapshot) => s.hasTag('loading');
export const selectApiTokensLoadError = (s: ApiTokensSnapshot) =>
  s.matches({ open: { data: 'failed' } }) ? s.context.loadError : null;
export const selectApiTokensActionError = (s: ApiTokensSnapshot) => s.context.actionError;
export const selectTokenForm = (s: ApiTokensSnapshot) => s.context.form;
export const selectTokenFormError = (s: ApiTokensSnapshot) => s.context.formError;
export const selectIsCreatingToken = (s: ApiTokensSnapshot) => s.matches({ open: { action: 'creating' } });
/** The token just created, secret included: shown once. */
export const selectCreatedToken = (s: ApiTokensSnapshot) => s.context.created;
export const selectCopyState = (s: ApiTokensSnapshot): 'idle' | 'copying' | 'copied' | 'failed' =>
  s.matches({ open: { copy: 'copying' } })
    ? 'copying'
    : s.matches({ open: { copy: 'copied' } })
      ? 'copied'
      : s.matches({ open: { copy: 'failed' } })
        ? 'failed'
        : 'idle';
/** The token a revoke is asked for (the confirmation shows while this is set). */
export const selectTokenToRevoke = (s: ApiTokensSnapshot) =>
  s.matches({ open: { action: 'confirmingRevoke' } }) || s.matches({ open: { action: 'revoking' } })
    ? (s.context.tokens.find((t) => t.id === s.context.pendingId) ?? null)
    : null;
export const selectIsRevoking = (s: ApiTokensSnapshot) => s.matches({ open: { action: 'revoking' } });
