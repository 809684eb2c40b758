// What the Share dialog reads from its chart.
import type { ShareDialogSnapshot } from './shareDialog.machine';

export const selectShareShown = (s: ShareDialogSnapshot | undefined) => s?.matches('shown') ?? false;
export const selectShareState = (s: ShareDialogSnapshot | undefined) =>
  !s || s.matches('hidden')
    ? 'hidden'
    : s.matches({ shown: 'loading' })
      ? 'loading'
      : s.matches({ shown: 'failed' })
        ? 'failed'
        : 'ready';
export const selectShareBusy = (s: ShareDialogSnapshot | undefined) => s?.hasTag('busy') ?? false;
export const selectIsCreating = (s: ShareDialogSnapshot | undefined) => s?.matches({ shown: 'creating' }) ?? false;
export const selectShares = (s: ShareDialogSnapshot | undefined) => s?.context.shares ?? [];
export const selectCreated = (s: ShareDialogSnapshot | undefined) => s?.context.created ?? null;
export const selectRevokingId = (s: ShareDialogSnapshot | undefined) => s?.context.revokingId ?? null;
export const selectCopied = (s: ShareDialogSnapshot | undefined) => s?.context.copied ?? false;
export const selectShareError = (s: ShareDialogSnapshot | undefined) => s?.context.error ?? null;
