// The one connection form's descriptors (src/model/connectionForm.ts): each surface's fields per kind, its kinds
// from the one kind table, and a Test's answer in the words each surface shows.
import { describe, expect, it } from 'vitest';
import { type DescribedForm, labelOf } from '../../src/model/connectionForm';
import { blankForm, MODEL_FORM } from '../../src/model/modelsForm';
import { blankSpeechForm, SPEECH_FORM } from '../../src/model/speechForm';
import { blankToolForm, TOOL_FORM } from '../../src/model/toolForm';
import { CONNECTION_KINDS } from '../../src/schemas/connectionKinds';

const shown = <F extends DescribedForm>(
  d: { fields: ReadonlyArray<{ when?: (f: F) => boolean; field: string }> },
  f: F,
) => d.fields.filter((s) => !s.when || s.when(f)).map((s) => s.field);

describe('connection form descriptors', () => {
  it('model: Service and API key only for an OpenAI-compatible server; the built-in kind has nothing to add', () => {
    expect(shown(MODEL_FORM, blankForm('ollama'))).toEqual(['name', 'base_url']);
    expect(shown(MODEL_FORM, blankForm('openai'))).toEqual(['preset', 'name', 'base_url', 'api_key']);
    expect(MODEL_FORM.nothingToAdd?.(blankForm('builtin'))).toMatch(/nothing to add/);
    expect(MODEL_FORM.nothingToAdd?.(blankForm('ollama'))).toBeNull();
    expect(MODEL_FORM.kinds?.map((k) => k.label)).toEqual(Object.values(CONNECTION_KINDS.model).map((k) => k.label));
  });

  it('model: a key-less preset says the key is optional; a stored key is hinted', () => {
    const key = MODEL_FORM.fields.find((s) => s.field === 'api_key')!;
    expect(labelOf(key, { ...blankForm('openai'), preset: 'openai' })).toBe('API key');
    expect(labelOf(key, { ...blankForm('openai'), preset: 'lmstudio' })).toBe('API key (if the server asks for one)');
  });

  it('speech: a model name only for an OpenAI-compatible speech server', () => {
    expect(shown(SPEECH_FORM, blankSpeechForm('chatterbox'))).toEqual(['name', 'base_url', 'api_key']);
    expect(shown(SPEECH_FORM, blankSpeechForm('openai'))).toEqual(['name', 'base_url', 'model', 'api_key']);
  });

  it('a Test reads as each surface says it', () => {
    expect(MODEL_FORM.outcome({ ok: true, models: ['a', 'b'] })).toMatchObject({
      title: 'Connected',
      text: '2 models: a, b',
    });
    expect(MODEL_FORM.outcome({ ok: false, reason: 'dns', detail: 'x' })).toMatchObject({ title: 'Name not found' });
    expect(SPEECH_FORM.outcome({ ok: false, reason: 'dns', detail: 'x' })).toMatchObject({
      title: 'Failed',
      text: 'x',
    });
    const tools = TOOL_FORM.outcome({
      ok: true,
      summary: 'lists 1 tool',
      tools: [{ name: 'add', description: 'Adds' }],
    });
    expect(tools.items).toEqual([{ name: 'add', description: 'Adds' }]);
    expect(shown(TOOL_FORM, blankToolForm('mcp'))).toEqual(['name', 'transport', 'base_url', 'api_key']);
  });
});
