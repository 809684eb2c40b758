// What the running-discussion offer shows: the offered discussion (null once accepted, dismissed or absent).
import type { RunningOfferSnapshot } from './runningOffer.machine';

export const selectRunningOffer = (s: RunningOfferSnapshot | undefined) =>
  s?.hasTag('offered') ? s.context.offer : null;
export const selectIsAttachingOffer = (s: RunningOfferSnapshot | undefined) => s?.hasTag('attaching') ?? false;
