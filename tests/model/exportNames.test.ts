// The exports name each agent's model as the person named its connection and draw each agent in its one colour:
// the JSON carries the participants; the PDF lists them in their colours and prints each speaker in its colour.
import { describe, expect, it } from 'vitest';
import { agentColor } from '../../src/model/agentIdentity';
import { buildExport, exportParticipants, type ExportMeta } from '../../src/model/exportJson';
import { applyFrames, emptyFeed, type FeedInput } from '../../src/model/feed';
import { discussionExport } from '../../src/schemas/exportJson';
import { modelId } from '../../src/schemas/modelConnections';
import { defaults } from '../../src/schemas/settings';
import { renderDiscussionPdf } from '../../src/services/pdfExport';

const CONN = 'c1702324-86f5-420a-9edf-ab399692fcc6';
const loopback = {
  id: CONN,
  name: 'Loopback sim',
  models: [{ id: modelId(CONN, 'walk-sim-7b'), name: 'walk-sim-7b', label: '' }],
};
const agents = [
  { id: 'a', name: 'Ada', role: 'Agronomist', model: 'offline', color: null },
  { id: 'b', name: 'Bo', role: 'Economist', model: modelId(CONN, 'walk-sim-7b'), color: '#9f1239' },
  // History keeps the label the server stored; the connection is gone since.
  { id: 'c', name: 'Cy', role: null, model: '@gone/qwen', model_label: 'Old box · qwen', color: null },
];

const meta = (participants: ExportMeta['participants']): ExportMeta => ({
  sessionId: 'session_7',
  endpoint: 'basic',
  context: 'Drip or furrow?',
  configuration: { communication: defaults.communication, reasoning: defaults.reasoning, research: defaults.research },
  now: new Date('2026-11-27T09:00:00.000Z'),
  participants,
});

const frames = [
  { type: 'text', id: 't1', from_id: 'a', from: 'Ada', text: 'Drip.', turn: 1 },
  { type: 'text', id: 't2', from_id: 'b', from: 'Bo', text: 'Furrow.', turn: 2 },
] as FeedInput[];

/** jsPDF's fill colour operator for a #rrggbb. */
const rg = (hex: string) =>
  [1, 3, 5].map((i) => (Number.parseInt(hex.slice(i, i + 2), 16) / 255).toFixed(3).replace(/\.?0+$/, '')).join(' ');

describe('names and colours in the exports', () => {
  it('participants: the model by its connection name (or the stored label), the demo model by name, one colour each', () => {
    expect(exportParticipants(agents, [loopback])).toEqual([
      { id: 'a', name: 'Ada', role: 'Agronomist', model: 'demo model', color: agentColor({ id: 'a' }) },
      { id: 'b', name: 'Bo', role: 'Economist', model: 'Loopback sim · walk-sim-7b', color: '#9f1239' },
      { id: 'c', name: 'Cy', role: null, model: 'Old box · qwen', color: agentColor({ id: 'c' }) },
    ]);
  });

  it('the JSON carries them; the PDF lists them in their colours and prints each speaker in its colour', async () => {
    const feed = applyFrames(emptyFeed, frames);
    const exp = discussionExport.parse(buildExport(feed, meta(exportParticipants(agents, [loopback]))));
    expect(exp.participants?.map((p) => p.model)).toEqual([
      'demo model',
      'Loopback sim · walk-sim-7b',
      'Old box · qwen',
    ]);
    const pdf = Buffer.from(
      await (await renderDiscussionPdf(exp, { loadUnicodeFont: async () => new Uint8Array() })).arrayBuffer(),
    ).toString('latin1');
    expect(pdf).toContain('Participants');
    expect(pdf).toContain('Loopback sim \xb7 walk-sim-7b');
    expect(pdf).not.toContain(CONN);
    // Bo's colour is set for his line in the list and for his turn; Ada's derived one likewise.
    expect(pdf.split(`${rg('#9f1239')} rg`).length - 1).toBeGreaterThanOrEqual(2);
    expect(pdf.split(`${rg(agentColor({ id: 'a' }))} rg`).length - 1).toBeGreaterThanOrEqual(2);
  });

  it('an export without known participants has none, and the PDF no list', async () => {
    const exp = discussionExport.parse(buildExport(applyFrames(emptyFeed, frames), meta([])));
    expect(exp.participants).toBeUndefined();
  });
});
