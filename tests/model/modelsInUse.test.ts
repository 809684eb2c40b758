import { describe, expect, it } from 'vitest';
import { modelsInUse, unreachableQuestion } from '../../src/model/modelsInUse';
import type { ModelConnection } from '../../src/schemas/modelConnections';

// Before Start the panel names the models the selected agents will use, and who is on a server that is down.
const groq: ModelConnection = {
  id: 'g',
  kind: 'openai',
  preset: 'groq',
  name: 'Groq',
  base_url: 'https://api.groq.com/openai/v1',
  api_key_hint: '••••1234',
  read_only: false,
  manage_models: true,
  status: { state: 'reachable' } as ModelConnection['status'],
  models: [{ id: 'g/llama-3.3-70b', name: 'llama-3.3-70b', label: 'Groq · llama-3.3-70b' }],
  stale: false,
};
const down: ModelConnection = {
  ...groq,
  id: 'l',
  preset: 'openai',
  name: 'Mine',
  base_url: 'http://127.0.0.1:8080/v1',
  status: { state: 'unreachable' } as ModelConnection['status'],
  models: [{ id: 'l/qwen', name: 'qwen', label: 'qwen' }],
  stale: true,
};

describe('models in use before Start', () => {
  it('names each model and who uses it', () => {
    const r = modelsInUse(
      [
        { name: 'Vera', model: 'g/llama-3.3-70b' },
        { name: 'Bo', model: 'g/llama-3.3-70b' },
        { name: 'Ada', model: 'offline' },
      ],
      [groq],
    );
    expect(r.line).toBe('Vera and Bo use Groq · llama-3.3-70b; Ada uses the demo model');
    expect(r.unreachable).toEqual([]);
    expect(r.allOffline).toBe(false);
  });
  it('marks an agent whose model server is not answering, and Start asks first', () => {
    const r = modelsInUse(
      [
        { name: 'Bo', model: 'l/qwen' },
        { name: 'Ada', model: 'offline' },
      ],
      [groq, down],
    );
    expect(r.line).toBe('Bo uses Mine · qwen; Ada uses the demo model');
    expect(r.unreachable).toEqual(['Bo']);
    expect(unreachableQuestion(r.unreachable)).toBe("Bo's model server is not answering — start anyway?");
  });

  it('knows a down server that never listed a model by the id the agent stores, and names several naturally', () => {
    const never: ModelConnection = { ...down, id: 'n', name: 'Never', models: [], stale: false };
    const r = modelsInUse(
      [
        { id: 'a1', name: 'Vera', model: '@n/qwen3-0.6b' },
        { id: 'a2', name: 'Bo', model: '@n/qwen3-0.6b' },
        { id: 'a3', name: 'Cleo', model: 'l/qwen' },
        { id: 'a4', name: 'Ada', model: 'offline' },
      ],
      [groq, down, never],
    );
    expect(r.unreachableIds).toEqual(['a1', 'a2', 'a3']);
    expect(r.line).toContain('Vera and Bo use Never · qwen3-0.6b');
    expect(unreachableQuestion(r.unreachable)).toBe(
      "Vera's, Bo's and Cleo's model servers are not answering — start anyway?",
    );
    // Not checked yet is not 'down'.
    const unknown: ModelConnection = { ...down, status: { state: 'unknown' } };
    expect(modelsInUse([{ name: 'Bo', model: 'l/qwen' }], [unknown]).unreachable).toEqual([]);
  });
});
