// Model-based paths for the sign-in form: xstate/graph walks both regions (form, backend) with the events the
// user and the two actors produce, and each shortest path is replayed against a running form whose submit and
// health check are test doubles settled by those same events.
import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { TestModel } from 'xstate/graph';
import { loginFormMachine, type LoginFormEvent, type SubmitResult } from '../../src/machines/loginForm.machine';
import type { Health } from '../../src/schemas/system';
import { deferred, flush } from '../support/harness';
import { replayEachPath } from '../support/modelPaths';
import { validateCredentials } from '../../src/model/loginFailures';

type Snap = SnapshotFrom<typeof loginFormMachine>;
type SubmitDone = { type: 'xstate.done.actor.submitCredentials'; output: SubmitResult };
type SubmitFailed = { type: 'xstate.error.actor.submitCredentials'; error: unknown };
type HealthDone = { type: 'xstate.done.actor.checkBackend'; output: Health };
type HealthFailed = { type: 'xstate.error.actor.checkBackend'; error: unknown };
type ModelEvent = LoginFormEvent | SubmitDone | SubmitFailed | HealthDone | HealthFailed;

const NOW = 1_700_000_000_000;
const claims = { sub: 'user-1', exp: NOW / 1000 + 3600 };
const healthy: Health = {
  status: 'healthy',
  version: '2.1.0',
  components: {
    database: { status: 'ok' },
    llm: { status: 'ok' },
    speech: { status: 'ok' },
    transcription: { status: 'ok' },
  },
};

const fixtures = {
  'login.field': [
    { type: 'login.field', field: 'email', value: 'ada@example.com' },
    { type: 'login.field', field: 'password', value: 'secret1' },
    { type: 'login.field', field: 'email', value: 'not-an-email' },
  ],
  'login.mode.toggle': [{ type: 'login.mode.toggle' }],
  'login.demoFill': [{ type: 'login.demoFill', email: 'demo@agora.local', password: 'demo1234' }],
  'login.submit': [{ type: 'login.submit' }],
  'login.backend.check': [{ type: 'login.backend.check' }],
  'xstate.done.actor.submitCredentials': [
    {
      type: 'xstate.done.actor.submitCredentials',
      output: { response: { access_token: 'a.b.c', user: { email: 'ada@example.com' } }, claims, now: NOW },
    },
    { type: 'xstate.done.actor.submitCredentials', output: { response: {}, claims: null, now: NOW } },
    {
      type: 'xstate.done.actor.submitCredentials',
      output: { response: { access_token: 'abc' }, claims: null, now: NOW },
    },
    {
      type: 'xstate.done.actor.submitCredentials',
      output: { response: { access_token: 'a.b.c' }, claims: { sub: 'u', exp: 1 }, now: NOW },
    },
  ],
  'xstate.error.actor.submitCredentials': [
    { type: 'xstate.error.actor.submitCredentials', error: { status: 401 } },
    { type: 'xstate.error.actor.submitCredentials', error: { status: 400, detail: 'Email already registered' } },
  ],
  'xstate.done.actor.checkBackend': [{ type: 'xstate.done.actor.checkBackend', output: healthy }],
  'xstate.error.actor.checkBackend': [
    { type: 'xstate.error.actor.checkBackend', error: new TypeError('Failed to fetch') },
  ],
} satisfies { [K in ModelEvent['type']]: Extract<ModelEvent, { type: K }>[] };

const allEvents = Object.values(fixtures).flat() as ModelEvent[];

// States are told apart by what the user can see and what decides the next step: the state, the mode, the
// messages shown, and whether each field would pass validation (not the exact text typed, which would only
// multiply equivalent states).
const project = (s: Snap) => {
  const pending = validateCredentials(s.context.email, s.context.password);
  return {
    value: s.value,
    mode: s.context.mode,
    error: s.context.error,
    fieldErrors: s.context.fieldErrors,
    emailOk: !pending.email,
    passwordOk: !pending.password,
  };
};

function sut() {
  const submit = deferred<SubmitResult>();
  const health = deferred<Health>();
  const machine = loginFormMachine.provide({
    actors: { submitCredentials: submit.logic as never, checkBackend: health.logic },
  });
  const actor = createActor(machine, { input: {} }).start();
  const user = async ({ event }: { event: ModelEvent }) => actor.send(event as LoginFormEvent);
  return {
    actor,
    exec: {
      'login.field': user,
      'login.mode.toggle': user,
      'login.demoFill': user,
      'login.submit': user,
      'login.backend.check': user,
      'xstate.done.actor.submitCredentials': async ({ event }: { event: ModelEvent }) => {
        submit.resolve((event as SubmitDone).output);
        await flush();
      },
      'xstate.error.actor.submitCredentials': async ({ event }: { event: ModelEvent }) => {
        submit.reject((event as SubmitFailed).error);
        await flush();
      },
      'xstate.done.actor.checkBackend': async ({ event }: { event: ModelEvent }) => {
        health.resolve((event as HealthDone).output);
        await flush();
      },
      'xstate.error.actor.checkBackend': async ({ event }: { event: ModelEvent }) => {
        health.reject((event as HealthFailed).error);
        await flush();
      },
    } satisfies Record<ModelEvent['type'], unknown>,
  };
}

describe('login form model', () => {
  const model = new TestModel(loginFormMachine, {
    events: allEvents,
    serializeState: ((s: Snap) => JSON.stringify(project(s))) as never,
    filterEvents: ((s: Snap, e: ModelEvent) => {
      if (e.type.includes('submitCredentials')) return s.matches({ form: 'submitting' });
      if (e.type.includes('checkBackend')) return s.matches({ backend: 'checking' });
      return true;
    }) as never,
  } as never);
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every state of both regions', () => {
    const values = paths.map((p) => (p.state as Snap).value as { form: string; backend: string });
    expect(new Set(values.map((v) => v.form))).toEqual(new Set(['editing', 'submitting', 'succeeded']));
    expect(new Set(values.map((v) => v.backend))).toEqual(new Set(['checking', 'reachable', 'unreachable']));
  });

  it('reaches every message of the catalogue this model feeds', () => {
    const errors = new Set(paths.map((p) => (p.state as Snap).context.error));
    expect(errors).toEqual(
      new Set([
        null,
        'Invalid email or password. Please check your credentials.',
        'This email is already registered. Try logging in instead.',
        'Email already registered',
        'No access token received from server',
        'Invalid token format',
        'Received expired token.',
      ]),
    );
  });

  replayEachPath<Snap>(paths, sut, (got, expected) => {
    expect(project(got)).toEqual(project(expected));
    expect(got.hasTag('busy')).toBe(expected.hasTag('busy'));
  });
});
