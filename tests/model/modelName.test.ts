import { describe, expect, it } from 'vitest';
import { DEMO_MODEL_NAME, isDemoModel, modelName } from '../../src/model/modelName';
import { modelId } from '../../src/schemas/modelConnections';

// A model reads as '<connection as the person named it> · <model>' on every surface, never as its stored id.
const CONN = 'c1702324-86f5-420a-9edf-ab399692fcc6';
const loopback = {
  id: CONN,
  name: 'Loopback sim',
  models: [{ id: modelId(CONN, 'walk-sim-7b'), name: 'walk-sim-7b', label: 'Loopback sim · walk-sim-7b' }],
};
const server = { id: 'server-ollama', name: 'Server', models: [{ id: 'qwen3:0.6b', name: 'qwen3:0.6b', label: '' }] };

describe('modelName', () => {
  it("names a connection's model by the connection's own name, not its id", () => {
    expect(modelName(`@${CONN}/walk-sim-7b`, [server, loopback])).toBe('Loopback sim · walk-sim-7b');
  });
  it('names a model the connection no longer lists by the connection the id names', () => {
    expect(modelName(`@${CONN}/gone:latest`, [loopback])).toBe('Loopback sim · gone:latest');
  });
  it('finds an older plain name in the connection that lists it', () => {
    expect(modelName('qwen3:0.6b', [loopback, server])).toBe('Server · qwen3:0.6b');
  });
  it('falls back to the label stored with the discussion, then to the model alone, never the raw id', () => {
    expect(modelName(`@${CONN}/walk-sim-7b`, [], 'Loopback sim · walk-sim-7b')).toBe('Loopback sim · walk-sim-7b');
    const bare = modelName(`@${CONN}/walk-sim-7b`, []);
    expect(bare).toBe('walk-sim-7b');
    expect(bare).not.toContain(CONN);
  });
  it("calls the offline model (and an agent stored without one) the 'demo model'", () => {
    expect(DEMO_MODEL_NAME).toBe('demo model');
    expect(modelName('offline', [loopback])).toBe('demo model');
    expect(modelName(null, [])).toBe('demo model');
    expect(isDemoModel('offline')).toBe(true);
    expect(isDemoModel(`@${CONN}/walk-sim-7b`)).toBe(false);
  });
});
