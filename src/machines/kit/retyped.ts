import type { EventObject, MachineContext, StateMachine } from 'xstate';

// A chart written once over erased types (the discussion panel over its variant) given its users' own context and
// events back: every other type parameter of the machine is kept as it is.
export type Retyped<Chart, Context extends MachineContext, Event extends EventObject> =
  Chart extends StateMachine<
    infer _Context,
    infer _Event,
    infer Children,
    infer Actor,
    infer Action,
    infer Guard,
    infer Delay,
    infer Value,
    infer Tag,
    infer Input,
    infer Output,
    infer Emitted,
    infer Meta,
    infer Schema,
    infer TransitionMeta
  >
    ? StateMachine<
        Context,
        Event,
        Children,
        Actor,
        Action,
        Guard,
        Delay,
        Value,
        Tag,
        Input,
        Output,
        Emitted,
        Meta,
        Schema,
        TransitionMeta
      >
    : never;
