import { describe, expect, it } from 'vitest';
import { connectionTag } from '../../src/model/connectionTag';

// A connection's tag follows its address: one typed with a local address after picking the OpenAI preset is
// not tagged 'OpenAI'.
describe('connection tag', () => {
  it.each([
    [{ kind: 'openai', preset: 'openai', base_url: 'http://127.0.0.1:9999/v1' }, 'Local OpenAI-compatible'],
    [{ kind: 'openai', preset: 'openai', base_url: 'http://localhost:1234/v1' }, 'LM Studio'],
    [{ kind: 'openai', preset: 'openai', base_url: 'https://api.openai.com/v1' }, 'OpenAI'],
    [{ kind: 'openai', preset: 'custom', base_url: 'https://api.groq.com/openai/v1' }, 'Groq'],
    [{ kind: 'openai', preset: 'groq', base_url: 'https://llm.example.org/v1' }, 'OpenAI-compatible'],
    [{ kind: 'ollama', preset: null, base_url: 'http://127.0.0.1:11434' }, 'Ollama'],
  ])('%o → %s', (c, tag) => {
    expect(connectionTag(c)).toBe(tag);
  });
});
