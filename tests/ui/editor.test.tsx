// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorDrawer } from '../../src/ui/editor/EditorDrawer';
import { createMicrophoneActor, type MediaDeps } from '../../src/services/recorder';
import { AGENT_MESSAGES, AUDIO_MESSAGES } from '../../src/schemas/messages';
import { DEFAULT_REFERENCE_TEXT, RECORDING_MIME_TYPE } from '../../src/schemas/constants';
import { agentFixture, startEditor } from '../machines/editorHarness';
import { agentColor } from '../../src/model/agentIdentity';

afterEach(cleanup);

const flush = () => act(() => new Promise((r) => setTimeout(r, 0)));

async function renderEditor(...args: Parameters<typeof startEditor>) {
  const h = startEditor(...args);
  render(<EditorDrawer editor={h.editor} />);
  await flush();
  return h;
}

describe('editor drawer: create mode', () => {
  it('keeps submit disabled until name, role, prompt and model are valid, then sends trimmed fields', async () => {
    const user = userEvent.setup();
    const { api } = await renderEditor({ mode: 'create' });
    const submit = screen.getByRole('button', { name: 'Create Agent' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(screen.getByRole('complementary', { name: 'Tips' })).toBeTruthy();

    await user.type(screen.getByLabelText('Name'), '  Ada  ');
    await user.type(screen.getByLabelText('Role'), ' Analyst ');
    expect(submit.disabled).toBe(true);
    await user.type(screen.getByLabelText('Prompt'), '   ');
    await user.selectOptions(screen.getByLabelText('Model'), 'llama3.1:8b');
    expect(submit.disabled).toBe(true);
    await user.type(screen.getByLabelText('Prompt'), 'Weigh the evidence. ');
    expect(submit.disabled).toBe(false);

    await user.click(submit);
    await flush();
    // 'Automatic' stores the colour the preview showed, so the new node looks as previewed.
    expect(api.createAgent.calls).toEqual([
      {
        name: 'Ada',
        role: 'Analyst',
        prompt: 'Weigh the evidence.',
        model: 'llama3.1:8b',
        color: agentColor({ id: 'Ada' }),
      },
    ]);
    expect(screen.getByText('Agent created.')).toBeTruthy();
  });

  it('offers Personality, a colour (palette or custom) and an avatar (initials or an emoji) when creating', async () => {
    const user = userEvent.setup();
    const { api } = await renderEditor({ mode: 'create' });
    await user.type(screen.getByLabelText('Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Role'), 'Analyst');
    await user.type(screen.getByLabelText('Prompt'), 'Weigh it.');
    await user.selectOptions(screen.getByLabelText('Model'), 'offline');
    await user.selectOptions(screen.getByLabelText('Personality'), 'patient');
    const colours = screen.getByRole('radiogroup', { name: 'Colour' });
    expect(within(colours).getByRole('radio', { name: 'Automatic' }).getAttribute('aria-checked')).toBe('true');
    await user.click(within(colours).getByRole('radio', { name: 'Colour #065f46' }));
    expect(within(colours).getByRole('radio', { name: 'Colour #065f46' }).getAttribute('aria-checked')).toBe('true');
    expect(within(colours).getByLabelText('Custom colour')).toBeTruthy();
    // The avatar field shows the initials it will use until an emoji is picked.
    const avatar = screen.getByLabelText('Avatar (initials or an emoji)') as HTMLInputElement;
    expect(avatar.placeholder).toBe('AL');
    await user.click(screen.getByRole('radio', { name: 'Avatar 🦉' }));
    expect(avatar.value).toBe('🦉');
    await user.click(screen.getByRole('button', { name: 'Create Agent' }));
    await flush();
    expect(api.createAgent.calls).toEqual([
      {
        name: 'Ada Lovelace',
        role: 'Analyst',
        prompt: 'Weigh it.',
        model: 'offline',
        personality: 'patient',
        color: '#065f46',
        avatar: '🦉',
      },
    ]);
  });

  it('labels the offline model clearly in the model list', async () => {
    await renderEditor({ mode: 'create' });
    const option = within(screen.getByLabelText('Model')).getByRole('option', { name: /offline/i });
    expect(option.textContent).toBe('Built-in offline model (no LLM) — offline');
  });

  it('shows the save error in the drawer', async () => {
    const user = userEvent.setup();
    await renderEditor({ mode: 'create' }, (api) =>
      api.createAgent.answer(() => Promise.reject(Object.assign(new Error('x'), { status: 500 }))),
    );
    await user.type(screen.getByLabelText('Name'), 'A');
    await user.type(screen.getByLabelText('Role'), 'B');
    await user.type(screen.getByLabelText('Prompt'), 'C');
    await user.selectOptions(screen.getByLabelText('Model'), 'offline');
    await user.click(screen.getByRole('button', { name: 'Create Agent' }));
    await flush();
    expect(screen.getByRole('alert').textContent).toContain(AGENT_MESSAGES.createFailed);
  });

  it('before the agent exists, the reference-voice section says to save it first and offers no upload or record', async () => {
    await renderEditor({ mode: 'create' });
    const section = screen.getByRole('region', { name: 'Reference audio' });
    expect(within(section).getByText(/Save the agent first/)).toBeTruthy();
    expect(within(section).getByText(AUDIO_MESSAGES.lengthHint)).toBeTruthy();
    expect(within(section).queryByRole('button')).toBeNull();
    expect(screen.queryByLabelText('Audio file')).toBeNull();
  });

  it('an update says "Saved" and stays open', async () => {
    const user = userEvent.setup();
    await renderEditor({ mode: 'edit', agentId: agentFixture.id });
    await screen.findByRole('region', { name: 'Overview' });
    await user.click(screen.getByRole('button', { name: 'Update Agent' }));
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Edit Ada' })).toBeTruthy();
  });
});

describe('editor drawer: edit mode', () => {
  it('shows the overview, personality, capabilities with spaces, and the reference voices', async () => {
    await renderEditor({ mode: 'edit', agentId: agentFixture.id });
    expect(screen.getByRole('dialog', { name: 'Edit Ada' })).toBeTruthy();
    const overview = screen.getByRole('region', { name: 'Overview' });
    expect(within(overview).getByText('Active')).toBeTruthy();
    expect(within(overview).getByText('data analysis')).toBeTruthy();
    expect(within(overview).getByText('critical thinking')).toBeTruthy();
    expect((screen.getByLabelText('Personality') as HTMLSelectElement).value).toBe('analytical');
    expect(screen.getByText(AUDIO_MESSAGES.lengthHint)).toBeTruthy();
    expect(screen.getByText(DEFAULT_REFERENCE_TEXT)).toBeTruthy();

    const calm = screen.getByRole('listitem', { name: 'Reference audio Calm' });
    // 70 characters of transcript → the first 50 and an ellipsis
    expect(within(calm).getByText(/^“Hello there, this is a calm reference voice for cl…”$/)).toBeTruthy();
    expect(within(calm).getByText('Default', { selector: 'span' })).toBeTruthy();
    expect(calm.querySelector('audio')?.getAttribute('src')).toBe('/media/au1.wav');
    const fresh = screen.getByRole('listitem', { name: 'Reference audio Fresh' });
    expect(within(fresh).getByText('Not transcribed')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Transcribe all (1)' })).toBeTruthy();
  });

  it('a failed load shows "Failed to load agent: …" and the fallback name', async () => {
    await renderEditor({ mode: 'edit', agentId: agentFixture.id }, (api) =>
      api.loadAgent.answer(() =>
        Promise.reject(Object.assign(new Error('nf'), { status: 404, detail: 'Agent not found' })),
      ),
    );
    expect(screen.getByRole('alert').textContent).toContain('Failed to load agent: Agent not found');
    expect(screen.getByRole('dialog', { name: `Edit Agent ${agentFixture.id.slice(-8)}` })).toBeTruthy();
    expect(screen.getByText('Unknown')).toBeTruthy();
  });

  it('delete asks for confirmation naming the agent and its audio count', async () => {
    const user = userEvent.setup();
    const { api } = await renderEditor({ mode: 'edit', agentId: agentFixture.id });
    await user.click(screen.getByRole('button', { name: 'Delete Agent' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('Delete agent "Ada"? 2 audio files will also be deleted.');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.deleteAgent.calls).toHaveLength(0);
  });

  it('audio delete and set default go through the machine, with a confirmation for delete', async () => {
    const user = userEvent.setup();
    const { api } = await renderEditor({ mode: 'edit', agentId: agentFixture.id });
    await user.click(screen.getByRole('button', { name: 'Set Fresh as default' }));
    await flush();
    expect(api.setDefaultAudio.calls).toEqual([{ audioId: 'au2' }]);
    await user.click(screen.getByRole('button', { name: 'Delete Fresh' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Delete audio "Fresh"?');
    await user.click(screen.getByRole('button', { name: 'Delete audio' }));
    await flush();
    expect(api.deleteAudio.calls).toEqual([{ audioId: 'au2' }]);
  });

  it('uploads a chosen file and shows the transcript the server returned', async () => {
    const user = userEvent.setup();
    const { api } = await renderEditor({ mode: 'edit', agentId: agentFixture.id });
    await user.type(screen.getByLabelText('Audio name'), 'Warm');
    const file = new File(['RIFF'], 'warm.wav', { type: 'audio/wav' });
    await user.upload(screen.getByLabelText('Audio file'), file);
    expect((screen.getByLabelText('Audio file') as HTMLInputElement).accept).toBe('.wav,.mp3,.webm,.m4a,.ogg,.flac');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await flush();
    expect(api.uploadAudio.calls[0]).toMatchObject({ name: 'Warm', fileName: 'warm.wav' });
    expect(screen.getByText('Transcript of “Warm”: Uploaded words')).toBeTruthy();
    expect((screen.getByLabelText('Audio name') as HTMLInputElement).value).toBe('');
  });

  it('transcribe all announces the background job with the exact words', async () => {
    const user = userEvent.setup();
    await renderEditor({ mode: 'edit', agentId: agentFixture.id }, (api) =>
      api.batchTranscribe.answer(() => ({ count: 1 })),
    );
    await user.click(screen.getByRole('button', { name: 'Transcribe all (1)' }));
    await flush();
    expect(screen.getByText(/Transcribing 1 audio files in background\. This may take a few moments\./)).toBeTruthy();
  });
});

describe('editor drawer: recording with a fake MediaRecorder', () => {
  class FakeRecorder {
    static last: FakeRecorder | null = null;
    state: 'inactive' | 'recording' = 'inactive';
    ondataavailable: ((e: { data: Blob }) => void) | null = null;
    onstop: (() => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    constructor(readonly options?: MediaRecorderOptions) {
      FakeRecorder.last = this;
    }
    get mimeType() {
      return this.options?.mimeType ?? '';
    }
    start() {
      this.state = 'recording';
    }
    stop() {
      this.ondataavailable?.({ data: new Blob([new Uint8Array(64)]) });
      this.state = 'inactive';
      this.onstop?.();
    }
  }
  const deps = (deny = false): MediaDeps => ({
    getUserMedia: () =>
      deny
        ? Promise.reject(new Error('NotAllowedError'))
        : Promise.resolve({ getTracks: () => [] } as unknown as MediaStream),
    createRecorder: (_s, o) => new FakeRecorder(o) as never,
    isTypeSupported: () => true,
    now: () => 0,
  });

  it('record → stop uploads "Recording {date}" as webm and returns to Record', async () => {
    const user = userEvent.setup();
    const { api } = await renderEditor(
      { mode: 'edit', agentId: agentFixture.id },
      undefined,
      createMicrophoneActor(deps()),
    );
    await user.click(screen.getByRole('button', { name: '● Record' }));
    await flush();
    expect(screen.getByText('Recording…')).toBeTruthy();
    act(() => FakeRecorder.last!.ondataavailable!({ data: new Blob([new Uint8Array(10)]) }));
    await user.click(screen.getByRole('button', { name: /Stop recording \(1 s\)/ }));
    await flush();
    expect(api.uploadAudio.calls).toHaveLength(1);
    expect(api.uploadAudio.calls[0].name).toMatch(/^Recording /);
    expect(api.uploadAudio.calls[0].file.type).toBe(RECORDING_MIME_TYPE);
    expect(screen.getByRole('button', { name: '● Record' })).toBeTruthy();
  });

  it('a denied microphone shows the spec message', async () => {
    const user = userEvent.setup();
    await renderEditor({ mode: 'edit', agentId: agentFixture.id }, undefined, createMicrophoneActor(deps(true)));
    await user.click(screen.getByRole('button', { name: '● Record' }));
    await flush();
    expect(screen.getByText(AUDIO_MESSAGES.microphoneDenied)).toBeTruthy();
  });
});
