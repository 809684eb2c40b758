// Which of the four standard endpoints answer (docs/product.md#discussions-states 'Endpoint choice'): each path of
// ENDPOINTS is opened with `?test=true` at the same time, with ENDPOINT_PROBE_TIMEOUT_MS each; the server answers a
// probe with one probe frame and a close 1000. Availability is kept per key ('unknown' until its first answer);
// `endpoints.refresh` probes again (keeping the last answers until the new ones arrive). The probe itself is the
// `probeEndpoint` actor, provided by src/services/endpointProbe.ts.
//   probing (one region per endpoint: running → done, after probeTimeout → done) → idle ── endpoints.refresh ──► probing
import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { ENDPOINT_KEYS, ENDPOINT_PROBE_TIMEOUT_MS, ENDPOINTS, type EndpointKey } from '../schemas/constants';

export type Availability = 'unknown' | 'available' | 'unavailable';

export interface EndpointProbeContext {
  availability: Record<EndpointKey, Availability>;
}

export type EndpointProbeEvent = { type: 'endpoints.refresh' };

export interface ProbeEndpointInput {
  path: string;
}

const allUnknown = Object.fromEntries(ENDPOINT_KEYS.map((key) => [key, 'unknown'])) as Record<
  EndpointKey,
  Availability
>;

const machineSetup = setup({
  types: {
    context: {} as EndpointProbeContext,
    events: {} as EndpointProbeEvent,
    tags: {} as 'probing',
  },
  actors: {
    /** Resolves true when the endpoint answered the probe; false (or an error) when it did not. */
    probeEndpoint: fromPromise<boolean, ProbeEndpointInput>(async () => false),
  },
  delays: {
    probeTimeout: ENDPOINT_PROBE_TIMEOUT_MS,
  },
  actions: {
    recordAvailability: assign({
      availability: ({ context }, params: { key: EndpointKey; available: boolean }) => ({
        ...context.availability,
        [params.key]: params.available ? 'available' : 'unavailable',
      }),
    }),
  },
});

/** One region of `probing`: the probe of one endpoint, with its own time-out. */
function probeRegion(key: EndpointKey) {
  return machineSetup.createStateConfig({
    initial: 'running',
    states: {
      running: {
        invoke: {
          src: 'probeEndpoint',
          id: `probe.${key}`,
          input: { path: ENDPOINTS[key].path },
          onDone: {
            target: 'done',
            actions: { type: 'recordAvailability', params: ({ event }) => ({ key, available: event.output === true }) },
          },
          onError: { target: 'done', actions: { type: 'recordAvailability', params: { key, available: false } } },
        },
        after: {
          probeTimeout: { target: 'done', actions: { type: 'recordAvailability', params: { key, available: false } } },
        },
      },
      done: { type: 'final' },
    },
  });
}

export const endpointProbeMachine = machineSetup.createMachine({
  id: 'endpointProbe',
  context: { availability: allUnknown },
  initial: 'probing',
  states: {
    probing: {
      tags: 'probing',
      type: 'parallel',
      states: {
        basic: probeRegion('basic'),
        enhanced: probeRegion('enhanced'),
        multi_round: probeRegion('multi_round'),
        hybrid: probeRegion('hybrid'),
      },
      onDone: 'idle',
      on: { 'endpoints.refresh': { target: 'probing', reenter: true } },
    },
    idle: {
      on: { 'endpoints.refresh': 'probing' },
    },
  },
});

export type EndpointProbeActorRef = ActorRefFrom<typeof endpointProbeMachine>;
export type EndpointProbeSnapshot = SnapshotFrom<typeof endpointProbeMachine>;
