import type { AgentDeletionActorRef } from '../../src/machines/agentDeletion.machine';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import * as sel from '../../src/machines/editor.selectors';
import * as audioSel from '../../src/machines/referenceAudio.selectors';
import {
  SAVED_NOTICE_MS,
  type EditorActorRef,
  type EditorEvent,
  type EditorField,
} from '../../src/machines/editor.machine';
import { AGENT_MESSAGES, AUDIO_MESSAGES } from '../../src/schemas/messages';
import { EDITOR_CLOSE_AFTER_CREATE_MS, FALLBACK_MODELS } from '../../src/schemas/constants';
import { agentFixture, audioFixture, audioSnap, httpError, networkError, settle, startEditor } from './editorHarness';
import { AGENT_PALETTE, agentColor } from '../../src/model/agentIdentity';

const fill = (editor: EditorActorRef, values: Partial<Record<EditorField, string>>) => {
  for (const [field, value] of Object.entries(values))
    editor.send({ type: 'editor.field', field, value } as EditorEvent);
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('editor: create mode', () => {
  it('loads the model list (labels kept, the offline model labelled as such)', async () => {
    const { editor } = startEditor({ mode: 'create' });
    expect(sel.selectModelsLoading(editor.getSnapshot())).toBe(true);
    await settle();
    const models = sel.selectModelOptions(editor.getSnapshot());
    expect(models.map((m) => m.value)).toEqual(['offline', 'llama3.1:8b']);
    expect(models[0]).toMatchObject({ label: 'Built-in offline model (no LLM)', offline: true });
    expect(editor.getSnapshot().context.modelsFromFallback).toBe(false);
  });

  it.each([
    ['the call fails', () => Promise.reject(networkError())],
    ['the list is empty', () => []],
  ])('falls back to the spec model list when %s', async (_, answer) => {
    const { editor } = startEditor({ mode: 'create' }, (api) => api.loadModels.answer(answer as never));
    await settle();
    expect(editor.getSnapshot().context.models.map((m) => m.value)).toEqual([...FALLBACK_MODELS]);
    expect(editor.getSnapshot().context.modelsFromFallback).toBe(true);
  });

  it('submit is refused until name, role, prompt (after trimming) and a model are given; the body is trimmed', async () => {
    const { editor, api, heard } = startEditor({ mode: 'create' });
    await settle();
    const can = () => sel.selectCanSubmit(editor.getSnapshot());
    // A model is preselected (see the preselection test); without one, submit is refused too.
    fill(editor, { model: '' });
    expect(can()).toBe(false);
    fill(editor, { name: '  Ada ', role: ' Analyst', prompt: '   ' });
    expect(can()).toBe(false);
    fill(editor, { prompt: ' Be precise. ' });
    expect(can()).toBe(false);
    fill(editor, { model: 'offline' });
    expect(can()).toBe(true);
    fill(editor, { name: '   ' });
    expect(can()).toBe(false);
    editor.send({ type: 'editor.submit' });
    expect(sel.selectIsSaving(editor.getSnapshot())).toBe(false);
    fill(editor, { name: '  Ada ' });

    api.createAgent.hold();
    editor.send({ type: 'editor.submit' });
    expect(sel.selectIsSaving(editor.getSnapshot())).toBe(true);
    await settle();
    expect(api.createAgent.calls).toEqual([
      { name: 'Ada', role: 'Analyst', prompt: 'Be precise.', model: 'offline', color: agentColor({ id: 'Ada' }) },
    ]);
    api.createAgent.resolve({ ...agentFixture, id: 'new-id', name: 'Ada' });
    await settle();
    expect(sel.selectWasCreated(editor.getSnapshot())).toBe(true);
    expect(heard.find((e) => e.type === 'editor.saved')).toMatchObject({ mode: 'create', agent: { id: 'new-id' } });

    await vi.advanceTimersByTimeAsync(EDITOR_CLOSE_AFTER_CREATE_MS - 1);
    expect(editor.getSnapshot().status).toBe('active');
    await vi.advanceTimersByTimeAsync(1);
    expect(editor.getSnapshot().status).toBe('done');
    expect(heard.some((e) => e.type === 'xstate.done.actor.editor')).toBe(true);
  });

  it("a create's automatic colour avoids the colours the workspace's agents already wear", async () => {
    const worn = agentColor({ id: 'Ada' });
    const { editor, api } = startEditor({ mode: 'create', takenColors: [worn] });
    await settle();
    fill(editor, { name: 'Ada', role: 'Analyst', prompt: 'Be precise.', model: 'offline' });
    editor.send({ type: 'editor.submit' });
    await settle();
    const color = (api.createAgent.calls[0] as { color: string }).color;
    expect(color).not.toBe(worn);
    expect(AGENT_PALETTE).toContain(color);
  });

  it('a failed create shows the server detail, else "Failed to create agent", and stays open', async () => {
    const { editor, api } = startEditor({ mode: 'create' });
    await settle();
    fill(editor, { name: 'A', role: 'B', prompt: 'C', model: 'offline' });
    api.createAgent.answer(() => Promise.reject(httpError(422, 'name: too long')));
    editor.send({ type: 'editor.submit' });
    await settle();
    expect(sel.selectFormError(editor.getSnapshot())).toBe('name: too long');
    api.createAgent.answer(() => Promise.reject(httpError(500)));
    editor.send({ type: 'editor.submit' });
    await settle();
    expect(sel.selectFormError(editor.getSnapshot())).toBe(AGENT_MESSAGES.createFailed);
    expect(editor.getSnapshot().matches({ open: { form: 'editing' } })).toBe(true);
  });

  it('audio before the agent exists: "save first" for upload and record, "both name and file" first when incomplete', async () => {
    const { editor } = startEditor({ mode: 'create' });
    await settle();
    expect(audioSel.selectAudioEnabled(audioSnap(editor))).toBe(false);
    editor.send({ type: 'audio.upload.submit' });
    expect(audioSel.selectAudioError(audioSnap(editor))).toBe(AUDIO_MESSAGES.nameAndFileRequired);
    editor.send({ type: 'audio.upload.name', value: 'Calm' });
    editor.send({ type: 'audio.upload.file', file: new Blob(['x']), fileName: 'calm.wav' });
    editor.send({ type: 'audio.upload.submit' });
    expect(audioSel.selectAudioError(audioSnap(editor))).toBe(AUDIO_MESSAGES.saveBeforeUpload);
    editor.send({ type: 'audio.record' });
    expect(audioSel.selectAudioError(audioSnap(editor))).toBe(AUDIO_MESSAGES.saveBeforeRecord);
    editor.send({ type: 'audio.dismiss' });
    expect(audioSel.selectAudioError(audioSnap(editor))).toBeNull();
  });

  it('a create carries the personality, colour and avatar when chosen; an invalid custom colour blocks submit', async () => {
    const { editor, api } = startEditor({ mode: 'create' });
    await settle();
    fill(editor, {
      name: 'Ada',
      role: 'Analyst',
      prompt: 'Be precise.',
      model: 'offline',
      personality: 'patient',
      color: '#A21CAF',
      avatar: ' 🦉 ',
    });
    fill(editor, { color: 'purple' });
    expect(sel.selectCanSubmit(editor.getSnapshot())).toBe(false);
    fill(editor, { color: '#A21CAF' });
    expect(sel.selectCanSubmit(editor.getSnapshot())).toBe(true);
    editor.send({ type: 'editor.submit' });
    await settle();
    expect(api.createAgent.calls).toEqual([
      {
        name: 'Ada',
        role: 'Analyst',
        prompt: 'Be precise.',
        model: 'offline',
        personality: 'patient',
        color: '#a21caf',
        avatar: '🦉',
      },
    ]);
  });

  it('an update with the colour and avatar set back to automatic clears them (null)', async () => {
    const { editor, api } = startEditor({ mode: 'edit', agentId: agentFixture.id }, (a) =>
      a.loadAgent.answer(() => ({ ...agentFixture, color: '#047857', avatar: 'AL' })),
    );
    await settle();
    expect(sel.selectFields(editor.getSnapshot())).toMatchObject({ color: '#047857', avatar: 'AL' });
    fill(editor, { color: '', avatar: '' });
    editor.send({ type: 'editor.submit' });
    await settle();
    expect(api.updateAgent.calls[0].body).toMatchObject({ color: null, avatar: null });
  });

  it('closing at any time finishes the editor', async () => {
    const { editor } = startEditor({ mode: 'create' });
    editor.send({ type: 'editor.close' });
    expect(editor.getSnapshot().status).toBe('done');
  });
});

describe('editor: edit mode', () => {
  it('loads the agent (loading visible), fills the fields and the reference audio', async () => {
    const { editor, api } = startEditor({ mode: 'edit', agentId: agentFixture.id });
    expect(sel.selectIsLoading(editor.getSnapshot())).toBe(true);
    await settle();
    expect(api.loadAgent.calls).toEqual([{ agentId: agentFixture.id }]);
    expect(sel.selectIsLoading(editor.getSnapshot())).toBe(false);
    expect(sel.selectFields(editor.getSnapshot())).toEqual({
      name: 'Ada',
      role: 'Analyst',
      prompt: 'Think carefully.',
      model: 'llama3.1:8b',
      personality: 'analytical',
      color: '',
      avatar: '',
    });
    expect(audioSel.selectAudioItems(audioSnap(editor))).toEqual(audioFixture);
    expect(audioSel.selectUntranscribedCount(audioSnap(editor))).toBe(1);
  });

  it.each([
    [httpError(404, 'Agent not found'), 'Failed to load agent: Agent not found'],
    [httpError(405, undefined, 'Method Not Allowed'), 'Failed to load agent: GET endpoint not implemented on backend'],
    [httpError(401, 'Not authenticated'), 'Failed to load agent: Authentication failed'],
    [
      httpError(500, 'Internal server error', 'Internal Server Error'),
      'Failed to load agent: Failed to fetch agent: 500 - Internal Server Error',
    ],
  ])('a failed fetch reads the spec words (%#)', async (error, expected) => {
    const fresh = startEditor({ mode: 'edit', agentId: agentFixture.id }, (api) =>
      api.loadAgent.answer(() => Promise.reject(error)),
    );
    await settle();
    const s = fresh.editor.getSnapshot();
    expect(sel.selectLoadError(s)).toBe(expected);
    expect(sel.selectAgentHeading(s)).toEqual({ name: `Agent ${agentFixture.id.slice(-8)}`, role: 'Unknown' });
    fresh.api.loadAgent.answer(() => agentFixture);
    fresh.editor.send({ type: 'editor.retry' });
    await settle();
    expect(sel.selectLoadError(fresh.editor.getSnapshot())).toBeNull();
    expect(sel.selectAgentHeading(fresh.editor.getSnapshot())).toEqual({ name: 'Ada', role: 'Analyst' });
  });

  it('an update sends trimmed fields with personality, stays open, and tells the parent', async () => {
    const { editor, api, heard } = startEditor({ mode: 'edit', agentId: agentFixture.id });
    await settle();
    fill(editor, { name: ' Ada Lovelace ', personality: 'patient' });
    editor.send({ type: 'editor.submit' });
    expect(sel.selectIsSaving(editor.getSnapshot())).toBe(true);
    await settle();
    expect(api.updateAgent.calls).toEqual([
      {
        agentId: agentFixture.id,
        body: {
          name: 'Ada Lovelace',
          role: 'Analyst',
          prompt: 'Think carefully.',
          model: 'llama3.1:8b',
          personality: 'patient',
          color: null,
          avatar: null,
        },
      },
    ]);
    expect(editor.getSnapshot().matches({ open: { form: 'editing' } })).toBe(true);
    expect(heard.find((e) => e.type === 'editor.saved')).toMatchObject({ mode: 'edit' });
    // It says 'Saved' for a moment (an `after` delay in the chart), then the form is just the form again.
    expect(sel.selectWasJustSaved(editor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(SAVED_NOTICE_MS);
    expect(sel.selectWasJustSaved(editor.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(editor.getSnapshot().status).toBe('active');

    api.updateAgent.answer(() => Promise.reject(httpError(500)));
    editor.send({ type: 'editor.submit' });
    await settle();
    expect(sel.selectFormError(editor.getSnapshot())).toBe(AGENT_MESSAGES.updateFailed);
  });

  it('delete asks with the agent name and audio count, then deletes and closes', async () => {
    const { editor, api, heard } = startEditor({ mode: 'edit', agentId: agentFixture.id });
    await settle();
    editor.send({ type: 'editor.delete' });
    expect(sel.selectIsConfirmingDelete(editor.getSnapshot())).toBe(true);
    expect(sel.selectDeleteConfirmation(editor.getSnapshot())).toBe(AGENT_MESSAGES.deleteConfirm('Ada', 2));
    expect(sel.selectDeleteConfirmation(editor.getSnapshot())).toContain('2 audio files');
    // The same agentDeletion chart as the canvas's context menu, told the count the drawer lists.
    const deletion = editor.getSnapshot().children.agentDeletion as AgentDeletionActorRef;
    expect(deletion.getSnapshot().context).toMatchObject({ agentId: agentFixture.id, name: 'Ada', audioCount: 2 });
    expect(deletion.getSnapshot().value).toBe('confirming');
    editor.send({ type: 'editor.delete.cancel' });
    expect(deletion.getSnapshot().status).toBe('stopped');
    expect(api.deleteAgent.calls).toHaveLength(0);

    api.deleteAgent.answer(() => Promise.reject(httpError(409, 'in a discussion')));
    editor.send({ type: 'editor.delete' });
    editor.send({ type: 'editor.delete.confirm' });
    await settle();
    expect(sel.selectFormError(editor.getSnapshot())).toBe('Failed to delete agent: in a discussion');
    api.deleteAgent.answer(() => Promise.reject(httpError(500)));
    editor.send({ type: 'editor.delete' });
    editor.send({ type: 'editor.delete.confirm' });
    await settle();
    expect(sel.selectFormError(editor.getSnapshot())).toBe(AGENT_MESSAGES.deleteFailed);

    api.deleteAgent.answer(() => ({ success: true }));
    editor.send({ type: 'editor.delete' });
    editor.send({ type: 'editor.delete.confirm' });
    expect(sel.selectIsDeleting(editor.getSnapshot())).toBe(true);
    await settle();
    expect(editor.getSnapshot().status).toBe('done');
    expect(heard).toContainEqual({ type: 'editor.deleted', agentId: agentFixture.id });
  });
});

describe('editor: reference audio', () => {
  async function ready() {
    const h = startEditor({ mode: 'edit', agentId: agentFixture.id });
    await settle();
    return h;
  }

  it('uploads name + file (trimmed name), shows the returned transcript and refetches', async () => {
    const { editor, api } = await ready();
    editor.send({ type: 'audio.upload.name', value: ' Calm ' });
    editor.send({ type: 'audio.upload.submit' });
    expect(audioSel.selectAudioError(audioSnap(editor))).toBe(AUDIO_MESSAGES.nameAndFileRequired);
    const file = new Blob(['RIFF']);
    editor.send({ type: 'audio.upload.file', file, fileName: 'calm.wav' });
    api.uploadAudio.hold();
    editor.send({ type: 'audio.upload.submit' });
    expect(audioSel.selectIsUploading(audioSnap(editor))).toBe(true);
    expect(audioSel.selectAudioError(audioSnap(editor))).toBeNull();
    await settle();
    expect(api.uploadAudio.calls[0]).toEqual({ agentId: agentFixture.id, name: 'Calm', file, fileName: 'calm.wav' });
    api.uploadAudio.resolve({ id: 'au3', name: 'Calm', audio_url: '/m', is_default: false, transcript: 'Hello world' });
    await settle();
    expect(audioSel.selectLastTranscript(audioSnap(editor))).toEqual({ name: 'Calm', text: 'Hello world' });
    expect(audioSel.selectUploadDraft(audioSnap(editor))).toEqual({ name: '', file: null, fileName: '' });
    expect(api.loadAudio.calls).toHaveLength(2);
  });

  it('an upload without a transcription engine still succeeds and says why there is no transcript', async () => {
    const { editor, api } = await ready();
    api.uploadAudio.answer(() => ({
      id: 'x',
      name: 'n',
      audio_url: '/m',
      is_default: false,
      transcript: null,
      transcription_error: 'No transcription engine configured',
    }));
    editor.send({ type: 'audio.upload.name', value: 'n' });
    editor.send({ type: 'audio.upload.file', file: new Blob(['x']), fileName: 'n.wav' });
    editor.send({ type: 'audio.upload.submit' });
    await settle();
    expect(audioSel.selectLastTranscript(audioSnap(editor))).toBeNull();
    expect(audioSel.selectAudioNotice(audioSnap(editor))).toBe(AUDIO_MESSAGES.noTranscriptionEngine);
  });

  it.each([
    [httpError(413, 'Audio file is too large (limit 20 MB).'), 'Audio file is too large (limit 20 MB).'],
    [httpError(500), AUDIO_MESSAGES.uploadFailed],
    [networkError(), AUDIO_MESSAGES.uploadError],
  ])('upload failures read the spec words (%#)', async (error, expected) => {
    const { editor, api } = await ready();
    api.uploadAudio.answer(() => Promise.reject(error));
    editor.send({ type: 'audio.upload.name', value: 'n' });
    editor.send({ type: 'audio.upload.file', file: new Blob(['x']), fileName: 'n.wav' });
    editor.send({ type: 'audio.upload.submit' });
    await settle();
    expect(audioSel.selectAudioError(audioSnap(editor))).toBe(expected);
  });

  it('delete asks first, then deletes and refetches; failures read the spec words', async () => {
    const { editor, api } = await ready();
    editor.send({ type: 'audio.delete', audioId: 'au2' });
    expect(audioSel.selectPendingAudioDelete(audioSnap(editor))?.name).toBe('Fresh');
    editor.send({ type: 'audio.delete.cancel' });
    expect(audioSel.selectPendingAudioDelete(audioSnap(editor))).toBeNull();
    expect(api.deleteAudio.calls).toHaveLength(0);
    editor.send({ type: 'audio.delete', audioId: 'au2' });
    editor.send({ type: 'audio.delete.confirm' });
    await settle();
    expect(api.deleteAudio.calls).toEqual([{ audioId: 'au2' }]);
    expect(api.loadAudio.calls).toHaveLength(2);
    for (const [error, expected] of [
      [httpError(404), AUDIO_MESSAGES.deleteFailed],
      [networkError(), AUDIO_MESSAGES.deleteError],
    ] as const) {
      api.deleteAudio.answer(() => Promise.reject(error));
      editor.send({ type: 'audio.delete', audioId: 'au1' });
      editor.send({ type: 'audio.delete.confirm' });
      await settle();
      expect(audioSel.selectAudioError(audioSnap(editor))).toBe(expected);
    }
  });

  it('set default calls the server and refetches; failures read the spec words', async () => {
    const { editor, api } = await ready();
    editor.send({ type: 'audio.setDefault', audioId: 'au2' });
    expect(audioSel.selectTargetAudioId(audioSnap(editor))).toBe('au2');
    await settle();
    expect(api.setDefaultAudio.calls).toEqual([{ audioId: 'au2' }]);
    expect(api.loadAudio.calls).toHaveLength(2);
    editor.send({ type: 'audio.setDefault', audioId: 'nope' });
    expect(api.setDefaultAudio.calls).toHaveLength(1);
    for (const [error, expected] of [
      [httpError(500), AUDIO_MESSAGES.setDefaultFailed],
      [networkError(), AUDIO_MESSAGES.setDefaultError],
    ] as const) {
      api.setDefaultAudio.answer(() => Promise.reject(error));
      editor.send({ type: 'audio.setDefault', audioId: 'au2' });
      await settle();
      expect(audioSel.selectAudioError(audioSnap(editor))).toBe(expected);
    }
  });

  it('transcribes one item; failures read "Transcription failed: …" or "Error transcribing audio: …"', async () => {
    const { editor, api } = await ready();
    editor.send({ type: 'audio.transcribe', audioId: 'au2' });
    await settle();
    expect(audioSel.selectLastTranscript(audioSnap(editor))).toEqual({ name: 'Fresh', text: 'Fresh words' });
    api.transcribeAudio.answer(() => ({ success: false, message: 'No transcription engine configured' }));
    editor.send({ type: 'audio.transcribe', audioId: 'au2' });
    await settle();
    expect(audioSel.selectAudioError(audioSnap(editor))).toBe(
      'Transcription failed: No transcription engine configured',
    );
    api.transcribeAudio.answer(() => Promise.reject(networkError()));
    editor.send({ type: 'audio.transcribe', audioId: 'au2' });
    await settle();
    expect(audioSel.selectAudioError(audioSnap(editor))).toBe('Error transcribing audio: Failed to fetch');
  });

  it('transcribe all: announces the count and refetches at 3 s, 6 s and 10 s', async () => {
    const { editor, api } = await ready();
    api.batchTranscribe.answer(() => ({ count: 2 }));
    editor.send({ type: 'audio.transcribeAll' });
    await settle();
    expect(api.batchTranscribe.calls).toEqual([{ agentId: agentFixture.id }]);
    expect(audioSel.selectAudioNotice(audioSnap(editor))).toBe(
      'Transcribing 2 audio files in background. This may take a few moments.',
    );
    const loads = () => api.loadAudio.calls.length;
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads()).toBe(2);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(loads()).toBe(3);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(loads()).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads()).toBe(4);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(loads()).toBe(4);
  });

  it('transcribe all with nothing to do says so and does not refetch; failures read the spec words', async () => {
    const { editor, api } = await ready();
    api.batchTranscribe.answer(() => ({ count: 0 }));
    editor.send({ type: 'audio.transcribeAll' });
    await settle();
    expect(audioSel.selectAudioNotice(audioSnap(editor))).toBe(AUDIO_MESSAGES.nothingToTranscribe);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(api.loadAudio.calls).toHaveLength(1);
    for (const [error, expected] of [
      [httpError(500), AUDIO_MESSAGES.batchFailed],
      [networkError(), AUDIO_MESSAGES.batchError],
    ] as const) {
      api.batchTranscribe.answer(() => Promise.reject(error));
      editor.send({ type: 'audio.transcribeAll' });
      await settle();
      expect(audioSel.selectAudioError(audioSnap(editor))).toBe(expected);
    }
  });

  it('record → stop saves through the recorder child and refreshes the list', async () => {
    const { editor, api, microphone } = await ready();
    const recorder = () => audioSel.selectRecorderRef(audioSnap(editor))!;
    editor.send({ type: 'audio.record' });
    expect(recorder().getSnapshot().matches({ microphoneOpen: 'requestingPermission' })).toBe(true);
    microphone.send!({ type: 'recorder.permitted' });
    expect(recorder().getSnapshot().hasTag('recording')).toBe(true);
    editor.send({ type: 'audio.record.stop' });
    expect(microphone.commands).toEqual([{ type: 'microphone.stop' }]);
    microphone.send!({
      type: 'recorder.finished',
      clip: { blob: new Blob(['abc']), mimeType: 'audio/webm', recordedAt: 0 },
    });
    await settle();
    expect(api.uploadAudio.calls[0].name.startsWith('Recording ')).toBe(true);
    expect(recorder().getSnapshot().value).toBe('idle');
    expect(api.loadAudio.calls).toHaveLength(2);
  });
});
