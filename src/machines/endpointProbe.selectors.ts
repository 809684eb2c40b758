// What the standard panel shows about endpoint availability, derived from the endpointProbe snapshot.
import { ENDPOINT_KEYS, ENDPOINTS, type EndpointKey } from '../schemas/constants';
import type { Availability, EndpointProbeSnapshot } from './endpointProbe.machine';

export const selectAvailability = (s: EndpointProbeSnapshot): Record<EndpointKey, Availability> =>
  s.context.availability;

export const selectIsProbing = (s: EndpointProbeSnapshot) => s.hasTag('probing');

/** 'Checking...' until every endpoint has answered once; then the names of those available, or 'none'. */
export function selectAvailableNames(s: EndpointProbeSnapshot): string {
  const availability = selectAvailability(s);
  if (ENDPOINT_KEYS.some((key) => availability[key] === 'unknown')) return 'Checking...';
  const names = ENDPOINT_KEYS.filter((key) => availability[key] === 'available').map((key) => ENDPOINTS[key].name);
  return names.length > 0 ? names.join(', ') : 'none';
}
