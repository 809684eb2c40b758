import { describe, expect, it } from 'vitest';
import {
  type AnyActorLogic,
  type EventObject,
  createActor,
  createMachine,
  fromPromise,
  setup,
  spawnChild,
} from 'xstate';
import { apiTokensMachine, expiryOf, tokenRequest } from '../../src/machines/apiTokens.machine';
import * as tokenSel from '../../src/machines/apiTokens.selectors';
import { panelSaveMachine } from '../../src/machines/panelSave.machine';
import { panelsMachine } from '../../src/machines/panels.machine';
import * as sel from '../../src/machines/panels.selectors';
import { panelDraftOf, panelStartSettings } from '../../src/model/savedPanel';
import type { ApiToken, ApiTokenCreated } from '../../src/schemas/apiTokens';
import type { Panel } from '../../src/schemas/panels';
import { defaults } from '../../src/schemas/settings';

// The three charts of saved panels and API tokens, with scripted services and stand-ins for the actors they talk to
// (the canvas's workspace, the standard panel, the root, the toasts), each recording what it was sent.

const flush = () => new Promise((r) => setTimeout(r, 0));
const agent = (id: string, name: string) => ({ id, name, role: 'r', model: 'offline' }) as never;

const panel = (over: Partial<Panel> = {}): Panel => ({
  id: 'p1',
  name: 'Water board',
  agent_ids: ['a1', 'a2'],
  format: { kind: 'council', chair: 'a2' },
  settings: { basic: { ...defaults.standard, turns: 7 } },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  ...over,
});

/** A stand-in registered by systemId that records every event it is sent. */
const recorder = (log: EventObject[], context: object = {}, tags: string[] = []) =>
  createMachine({
    context,
    initial: 'on',
    states: { on: { tags } },
    on: { '*': { actions: ({ event }) => void log.push(event) } },
  });

/** Runs `logic` as 'subject' in a system with recording neighbours. */
function inSystem(
  logic: AnyActorLogic,
  agents = [agent('a1', 'Ada'), agent('a2', 'Bo')],
  discussionTags: string[] = [],
) {
  const sent = {
    workspace: [] as EventObject[],
    discussion: [] as EventObject[],
    app: [] as EventObject[],
    toasts: [] as EventObject[],
  };
  const root = setup({}).createMachine({
    entry: [
      spawnChild(recorder(sent.toasts), { systemId: 'toasts' }),
      spawnChild(recorder(sent.workspace, { agents, selectedIds: [] }), { systemId: 'workspace' }),
      spawnChild(recorder(sent.discussion, { settings: defaults.standardPanel }, discussionTags), {
        systemId: 'standardDiscussion',
      }),
      spawnChild(recorder(sent.app), { systemId: 'app' }),
      spawnChild(logic, { id: 'subject' as never, systemId: 'subject' }),
    ],
  });
  const actor = createActor(root).start();
  // biome-ignore lint/suspicious/noExplicitAny: the subject's type is the test's choice
  const subject = actor.system.get('subject') as any;
  return { subject, sent, toasts: () => sent.toasts.map((e) => (e as unknown as { text: string }).text) };
}

describe('panelSave', () => {
  const settings = { ...defaults.standardPanel, format: { ...defaults.standardPanel.format, kind: 'debate' as const } };

  it('opens on two agents or more with the format and settings as chosen; one agent is told why in a toast', () => {
    const saved: unknown[] = [];
    const { subject, toasts } = inSystem(
      panelSaveMachine.provide({
        actors: { savePanel: fromPromise(async ({ input }) => void saved.push(input) as never) },
      }),
    );
    subject.send({ type: 'panelSave.open', agentIds: ['a1'], settings });
    expect(sel.selectIsPanelSaveOpen(subject.getSnapshot())).toBe(false);
    expect(toasts()[0]).toMatch(/two agents or more/);
    subject.send({ type: 'panelSave.open', agentIds: ['a1', 'a2', 'a1'], settings });
    const draft = sel.selectPanelSaveDraft(subject.getSnapshot());
    expect(draft?.agent_ids).toEqual(['a1', 'a2']);
    expect(draft?.format?.kind).toBe('debate');
    expect(draft?.settings).toHaveProperty('basic');
    expect(draft?.settings).not.toHaveProperty('format');
  });

  it("checks the name by the server's rule, shows the server's words on a 409, and saves with a toast", async () => {
    const calls: unknown[] = [];
    let answer: 'taken' | 'ok' = 'taken';
    const { subject, toasts } = inSystem(
      panelSaveMachine.provide({
        actors: {
          savePanel: fromPromise(async ({ input }) => {
            calls.push(input);
            if (answer === 'taken') throw new Error('You already have a panel named “Water board”');
            return panel({ name: input.name });
          }),
        },
      }),
    );
    subject.send({ type: 'panelSave.open', agentIds: ['a1', 'a2'], settings });
    subject.send({ type: 'panelSave.name.change', name: 'north/south' });
    subject.send({ type: 'panelSave.submit' });
    expect(sel.selectPanelSaveError(subject.getSnapshot())).toBe('A panel name is one line without slashes');
    expect(calls).toHaveLength(0);
    subject.send({ type: 'panelSave.name.change', name: '  Water board ' });
    subject.send({ type: 'panelSave.submit' });
    expect(sel.selectIsPanelSaving(subject.getSnapshot())).toBe(true);
    await flush();
    expect(sel.selectPanelSaveError(subject.getSnapshot())).toBe('You already have a panel named “Water board”');
    expect(sel.selectIsPanelSaveOpen(subject.getSnapshot())).toBe(true);
    answer = 'ok';
    subject.send({ type: 'panelSave.submit' });
    await flush();
    expect(calls[1]).toMatchObject({ name: 'Water board', agent_ids: ['a1', 'a2'], format: { kind: 'debate' } });
    expect(sel.selectIsPanelSaveOpen(subject.getSnapshot())).toBe(false);
    expect(toasts().at(-1)).toMatch(/Saved the panel “Water board”/);
  });
});

function panelsActor(
  opts: {
    lists?: (Panel[] | Error)[];
    rename?: (name: string) => Panel | Error;
    agents?: never[];
    discussionTags?: string[];
  } = {},
) {
  const calls = { load: 0, rename: [] as unknown[], remove: [] as unknown[] };
  const lists = opts.lists ?? [[panel(), panel({ id: 'p2', name: 'Jury', format: null, settings: null })]];
  const system = inSystem(
    panelsMachine.provide({
      actors: {
        loadPanels: fromPromise(async () => {
          const next = lists[Math.min(calls.load++, lists.length - 1)];
          if (next instanceof Error) throw next;
          return next;
        }),
        renamePanel: fromPromise(async ({ input }) => {
          calls.rename.push(input);
          const r = opts.rename?.(input.name) ?? panel({ id: input.id, name: input.name });
          if (r instanceof Error) throw r;
          return r;
        }),
        deletePanel: fromPromise(async ({ input }) => void calls.remove.push(input)),
      },
    }),
    opts.agents,
    opts.discussionTags,
  );
  return { ...system, calls };
}

describe('panels', () => {
  it('loads on open; a failed load says so and Retry reads again', async () => {
    const { subject, calls } = panelsActor({ lists: [new Error('HTTP 500'), [panel()]] });
    subject.send({ type: 'panels.open' });
    expect(sel.selectIsPanelsLoading(subject.getSnapshot())).toBe(true);
    await flush();
    expect(sel.selectPanelsLoadError(subject.getSnapshot())).toBe('HTTP 500');
    subject.send({ type: 'panels.retry' });
    await flush();
    expect(calls.load).toBe(2);
    expect(sel.selectPanelsLoadError(subject.getSnapshot())).toBeNull();
    expect(sel.selectPanelList(subject.getSnapshot()).map((p) => p.name)).toEqual(['Water board']);
  });

  it('renames in place: an unchanged name sends nothing, a bad one is refused, the server’s 409 words stay under the field', async () => {
    const { subject, calls } = panelsActor({
      rename: (name) => (name === 'Jury' ? new Error('You already have a panel named “Jury”') : panel({ name })),
    });
    subject.send({ type: 'panels.open' });
    await flush();
    subject.send({ type: 'panels.rename.begin', id: 'p1' });
    expect(sel.selectPanelRename(subject.getSnapshot())).toMatchObject({ id: 'p1', name: 'Water board' });
    subject.send({ type: 'panels.rename.commit' });
    expect(sel.selectPanelRename(subject.getSnapshot())).toBeNull();
    expect(calls.rename).toHaveLength(0);
    subject.send({ type: 'panels.rename.begin', id: 'p1' });
    subject.send({ type: 'panels.rename.change', name: '' });
    subject.send({ type: 'panels.rename.commit' });
    expect(sel.selectPanelRename(subject.getSnapshot())?.error).toBe('Name is required');
    subject.send({ type: 'panels.rename.change', name: 'Jury' });
    subject.send({ type: 'panels.rename.commit' });
    await flush();
    expect(sel.selectPanelRename(subject.getSnapshot())?.error).toBe('You already have a panel named “Jury”');
    subject.send({ type: 'panels.rename.change', name: 'Water council' });
    subject.send({ type: 'panels.rename.commit' });
    await flush();
    expect(sel.selectPanelRename(subject.getSnapshot())).toBeNull();
    expect(sel.selectPanelList(subject.getSnapshot())[0].name).toBe('Water council');
  });

  it('deletes only after the confirmation; Cancel keeps it', async () => {
    const { subject, calls } = panelsActor();
    subject.send({ type: 'panels.open' });
    await flush();
    subject.send({ type: 'panels.delete.request', id: 'p2' });
    expect(sel.selectPanelToDelete(subject.getSnapshot())?.name).toBe('Jury');
    subject.send({ type: 'panels.delete.cancel' });
    expect(sel.selectPanelToDelete(subject.getSnapshot())).toBeNull();
    expect(calls.remove).toHaveLength(0);
    subject.send({ type: 'panels.delete.request', id: 'p2' });
    subject.send({ type: 'panels.delete.confirm' });
    await flush();
    expect(calls.remove).toEqual([{ id: 'p2' }]);
    expect(sel.selectPanelList(subject.getSnapshot()).map((p) => p.id)).toEqual(['p1']);
  });

  it("Start discussion selects the panel's agents, gives the standard panel its format and settings, shows it, closes", async () => {
    const { subject, sent, toasts } = panelsActor();
    subject.send({ type: 'panels.open' });
    await flush();
    subject.send({ type: 'panels.start', id: 'p1' });
    expect(sel.selectIsPanelsOpen(subject.getSnapshot())).toBe(false);
    expect(sent.workspace).toContainEqual({ type: 'selection.set', ids: ['a1', 'a2'] });
    const update = sent.discussion.find((e) => e.type === 'panel.settings.update') as unknown as {
      settings: typeof defaults.standardPanel;
    };
    expect(update.settings.format).toMatchObject({ kind: 'council', chair: 'a2' });
    expect(update.settings.basic.turns).toBe(7);
    expect(sent.app).toContainEqual({ type: 'view.discussion.show', panel: 'standard' });
    expect(toasts().at(-1)).toMatch(/“Water board” is selected/);
  });

  it('is refused while a discussion runs: the dialog stays open and says why, nothing is changed', async () => {
    const { subject, sent } = panelsActor({ discussionTags: ['live'] });
    subject.send({ type: 'panels.open' });
    await flush();
    subject.send({ type: 'panels.start', id: 'p1' });
    expect(sel.selectIsPanelsOpen(subject.getSnapshot())).toBe(true);
    expect(subject.getSnapshot().context.actionError).toMatch(
      /A discussion is running: stop it before starting “Water board”/,
    );
    expect(sent.workspace).toEqual([]);
    expect(sent.discussion).toEqual([]);
  });

  it('a panel with a deleted agent selects those left and says so', async () => {
    const { subject, sent, toasts } = panelsActor({ agents: [agent('a1', 'Ada')] as never[] });
    subject.send({ type: 'panels.open' });
    await flush();
    subject.send({ type: 'panels.start', id: 'p1' });
    expect(sent.workspace).toContainEqual({ type: 'selection.set', ids: ['a1'] });
    expect(toasts().at(-1)).toMatch(/1 of its agents no longer exist/);
  });
});

describe('saved panel settings', () => {
  it('a settings section that does not read as valid leaves the current one; the round table stores no format', () => {
    const current = { ...defaults.standardPanel, basic: { ...defaults.standard, turns: 3 } };
    const next = panelStartSettings(panel({ format: null, settings: { basic: { turns: 'many' } } }), current);
    expect(next.basic.turns).toBe(3);
    expect(next.format.kind).toBe('round_table');
    expect(panelDraftOf(['a1', 'a2'], defaults.standardPanel).format).toBeNull();
  });
});

const token = (over: Partial<ApiToken> = {}): ApiToken => ({
  id: 't1',
  name: 'Laptop',
  scopes: ['read', 'run'],
  hint: 'agora_Ab3d…',
  created_at: '2026-01-01T00:00:00.000Z',
  expires_at: null,
  last_used_at: null,
  ...over,
});

function tokensActor(opts: { create?: () => ApiTokenCreated | Error; copy?: () => Promise<void> } = {}) {
  const calls = { create: [] as unknown[], revoke: [] as unknown[], copied: [] as string[] };
  const actor = createActor(
    apiTokensMachine.provide({
      actors: {
        loadTokens: fromPromise(async () => [token()]),
        createToken: fromPromise(async ({ input }) => {
          calls.create.push(input);
          const r = opts.create?.() ?? {
            ...token({ id: 't2', name: input.name, scopes: input.scopes }),
            token: 'agora_SECRET',
          };
          if (r instanceof Error) throw r;
          return r;
        }),
        revokeToken: fromPromise(async ({ input }) => void calls.revoke.push(input)),
        copyText: fromPromise(async ({ input }) => {
          calls.copied.push(input.text);
          await opts.copy?.();
        }),
      },
    }),
  ).start();
  return { actor, calls };
}

describe('apiTokens', () => {
  it('creates a token shown once with Copy; the list never holds the secret; closing forgets it', async () => {
    const { actor, calls } = tokensActor();
    actor.send({ type: 'apiTokens.open' });
    await flush();
    actor.send({ type: 'apiTokens.form.change', patch: { name: 'Cursor', scopes: ['read'], expires: '2999-05-01' } });
    actor.send({ type: 'apiTokens.create' });
    await flush();
    expect(calls.create[0]).toEqual({ name: 'Cursor', scopes: ['read'], expires_at: '2999-05-01T23:59:59.000Z' });
    expect(tokenSel.selectCreatedToken(actor.getSnapshot())?.token).toBe('agora_SECRET');
    expect(JSON.stringify(tokenSel.selectApiTokens(actor.getSnapshot()))).not.toContain('agora_SECRET');
    expect(tokenSel.selectApiTokens(actor.getSnapshot()).map((t) => t.name)).toEqual(['Cursor', 'Laptop']);
    expect(tokenSel.selectTokenForm(actor.getSnapshot()).name).toBe('');
    actor.send({ type: 'apiTokens.copy' });
    expect(tokenSel.selectCopyState(actor.getSnapshot())).toBe('copying');
    await flush();
    expect(calls.copied).toEqual(['agora_SECRET']);
    expect(tokenSel.selectCopyState(actor.getSnapshot())).toBe('copied');
    actor.send({ type: 'apiTokens.close' });
    actor.send({ type: 'apiTokens.open' });
    expect(tokenSel.selectCreatedToken(actor.getSnapshot())).toBeNull();
    expect(tokenSel.selectCopyState(actor.getSnapshot())).toBe('idle');
  });

  it('refuses a form without a name, a scope or with a past expiry before asking; shows the server’s words', async () => {
    const { actor, calls } = tokensActor({ create: () => new Error('You have 20 tokens already') });
    actor.send({ type: 'apiTokens.open' });
    actor.send({ type: 'apiTokens.create' });
    expect(tokenSel.selectTokenFormError(actor.getSnapshot())).toBe('Name is required');
    actor.send({ type: 'apiTokens.form.change', patch: { name: 'x', scopes: [] } });
    actor.send({ type: 'apiTokens.create' });
    expect(tokenSel.selectTokenFormError(actor.getSnapshot())).toBe('Choose read, run or both');
    actor.send({ type: 'apiTokens.form.change', patch: { scopes: ['run'], expires: '2001-01-01' } });
    actor.send({ type: 'apiTokens.create' });
    expect(tokenSel.selectTokenFormError(actor.getSnapshot())).toBe('The expiry must be in the future');
    expect(calls.create).toHaveLength(0);
    actor.send({ type: 'apiTokens.form.change', patch: { expires: '' } });
    actor.send({ type: 'apiTokens.create' });
    await flush();
    expect(tokenSel.selectTokenFormError(actor.getSnapshot())).toBe('You have 20 tokens already');
  });

  it('revokes only after the confirmation, and the token is gone from the list at once', async () => {
    const { actor, calls } = tokensActor();
    actor.send({ type: 'apiTokens.open' });
    await flush();
    actor.send({ type: 'apiTokens.revoke.request', id: 't1' });
    expect(tokenSel.selectTokenToRevoke(actor.getSnapshot())?.name).toBe('Laptop');
    actor.send({ type: 'apiTokens.revoke.cancel' });
    expect(calls.revoke).toHaveLength(0);
    actor.send({ type: 'apiTokens.revoke.request', id: 't1' });
    actor.send({ type: 'apiTokens.revoke.confirm' });
    await flush();
    expect(calls.revoke).toEqual([{ id: 't1' }]);
    expect(tokenSel.selectApiTokens(actor.getSnapshot())).toEqual([]);
  });

  it('a copy the browser refuses says so', async () => {
    const { actor } = tokensActor({ copy: () => Promise.reject(new Error('denied')) });
    actor.send({ type: 'apiTokens.open' });
    actor.send({ type: 'apiTokens.form.change', patch: { name: 'x' } });
    actor.send({ type: 'apiTokens.create' });
    await flush();
    actor.send({ type: 'apiTokens.copy' });
    await flush();
    expect(tokenSel.selectCopyState(actor.getSnapshot())).toBe('failed');
  });

  it('the request helpers: the chosen day works to its end, no day is no expiry', () => {
    expect(expiryOf('')).toBeNull();
    expect(tokenRequest({ name: ' a ', scopes: ['run', 'run'], expires: '' })).toEqual({
      request: { name: 'a', scopes: ['run'], expires_at: null },
    });
  });
});
