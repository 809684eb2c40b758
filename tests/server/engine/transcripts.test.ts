import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFrame } from '../../../src/schemas/frames';
import { hybridServerFrame } from '../../../src/schemas/hybridSocket';
import { standardServerFrame } from '../../../src/schemas/standardSocket';
import { isEphemeral } from '../../../server/engine/frames';
import { orderProblems, streamProblems } from './frameOrder';

// The recorded discussion transcripts (npm run transcripts:record) stay true to the wire contract: every server
// frame parses with the schema of the panel that opened the socket, in a valid order; only the edited
// malformed-frame case breaks one frame, on purpose.

const DIR = path.resolve('tests/transcripts');
const ENGINE_PREFIXES = ['basic-', 'enhanced-', 'multi_round_reasoning-', 'hybrid-'];
const files = readdirSync(DIR).filter((f) => f.endsWith('.jsonl') && ENGINE_PREFIXES.some((p) => f.startsWith(p)));

const read = (f: string) =>
  readFileSync(path.join(DIR, f), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('recorded discussion transcripts', () => {
  it('cover every endpoint, every hybrid mode and the fault cases', () => {
    for (const name of [
      'basic-sequential',
      'enhanced-default',
      'multi_round_reasoning-default',
      'hybrid-standard-config',
      'hybrid-natural',
      'hybrid-structured',
      'hybrid-hybrid',
      'hybrid-adaptive',
      'hybrid-tts',
      'hybrid-tts-no-engine',
      'multi_round_reasoning-research',
      'basic-human-message',
      'basic-stopped',
      'basic-drop-resume',
      'hybrid-malformed-frame',
      'enhanced-model-error',
      'basic-bad-config',
      'basic-streaming',
      'hybrid-stream-stopped',
    ])
      expect(files).toContain(`${name}.jsonl`);
  });

  for (const file of files) {
    it(`${file}: header, then frames valid for the panel that sent the configuration`, () => {
      const [header, ...lines] = read(file);
      expect(typeof header.endpoint).toBe('string');
      expect(typeof header.note).toBe('string');
      const config = lines.find((l) => l.dir === 'client')?.data;
      const panel = 'tts_config' in config || 'turns_per_round' in config ? 'hybrid' : 'standard';
      const schema = panel === 'hybrid' ? hybridServerFrame : standardServerFrame;
      const server = lines.filter((l) => l.dir === 'server').map((l) => l.data);
      const bad = server.map((d) => parseFrame(schema, d)).filter((r) => r.kind !== 'frame');
      if (file === 'hybrid-malformed-frame.jsonl') expect(bad.map((r) => r.kind)).toEqual(['malformed']);
      else expect(bad).toEqual([]);
      for (let i = 1; i < lines.length; i++) expect(lines[i].t ?? 0).toBeGreaterThanOrEqual(lines[i - 1].t ?? 0);
      expect(lines.at(-1).event).toBe('close');
      if (file === 'basic-bad-config.jsonl') {
        expect(server).toEqual([expect.objectContaining({ type: 'error' })]);
        expect(lines.at(-1).code).toBe(1003);
        return;
      }
      expect(lines.at(-1).code).toBe(1000);
      if (file !== 'hybrid-malformed-frame.jsonl')
        expect(orderProblems(server.filter((f) => !isEphemeral(f)))).toEqual([]);
      if (file !== 'hybrid-malformed-frame.jsonl')
        expect(streamProblems(server, { resumed: file.includes('resume') })).toEqual([]);
    });
  }

  it('the drop-and-resume transcript loses nothing and repeats nothing across the 1006', () => {
    const [, ...lines] = read('basic-drop-resume.jsonl');
    const drop = lines.findIndex((l) => l.event === 'close');
    expect(lines[drop].code).toBe(1006);
    const texts = lines.filter((l) => l.dir === 'server' && l.data.type === 'text').map((l) => l.data.turn);
    expect(texts).toEqual([1, 2, 3, 4, 5, 6]);
    expect(lines.slice(drop + 1).some((l) => l.dir === 'server')).toBe(true);
  });

  it('the streaming transcripts show deltas at a human pace, and a stop in the middle of one', () => {
    const slow = read('basic-streaming.jsonl')
      .slice(1)
      .filter((l) => l.dir === 'server');
    const deltas = slow.filter((l) => l.data.type === 'agent_message_delta');
    expect(deltas.length).toBeGreaterThan(10);
    // Coalesced: two deltas of one message are at least ~50 ms apart.
    for (let i = 1; i < deltas.length; i++)
      if (deltas[i].data.id === deltas[i - 1].data.id) expect(deltas[i].t - deltas[i - 1].t).toBeGreaterThanOrEqual(40);
    const stopped = read('hybrid-stream-stopped.jsonl')
      .slice(1)
      .filter((l) => l.dir === 'server')
      .map((l) => l.data);
    const cut = stopped.find((f) => f.type === 'agent_message' && f.interrupted);
    expect(cut).toBeDefined();
    expect(cut.content).toBe(
      stopped
        .filter((f) => f.type === 'agent_message_delta' && f.id === cut.id)
        .map((f) => f.delta)
        .join(''),
    );
    expect(stopped.at(-1)).toMatchObject({ type: 'discussion_ended', reason: 'stopped' });
  });
});
