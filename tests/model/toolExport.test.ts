// The JSON export and the PDF keep a turn's tool calls under it (docs/tools.md): each call with what it asked and
// what came back in the JSON, a line per call in the PDF.
import { describe, expect, it } from 'vitest';
import type { FeedInput } from '../../src/model/feed';
import { exportOf, noFontNeeded, pdfReader } from '../support/pdfExportFixture';
import { discussionExport } from '../../src/schemas/exportJson';
import { renderDiscussionPdf, renderHybridPdf } from '../../src/services/pdfExport';

const pdfText = pdfReader('agora-pdf-tools-');

const frames = [
  { type: 'discussion_initialized', session_id: 's1', participants: [{ id: 'ada', name: 'Ada' }] },
  {
    type: 'tool_call',
    id: 'c1',
    agent_id: 'ada',
    message_id: 'm1',
    tool: 'calculator',
    server: 'builtin',
    arguments: { expression: '12 * 7' },
  },
  { type: 'tool_result', id: 'c1', ok: true, content: '84', truncated: false, ms: 3 },
  {
    type: 'tool_call',
    id: 'c2',
    agent_id: 'ada',
    message_id: 'm1',
    tool: 'lookup',
    server: 'conn-7',
    arguments: { q: 'tariffs' },
  },
  { type: 'tool_result', id: 'c2', ok: false, content: '', truncated: false, ms: 30000, error: 'timed out' },
  {
    type: 'agent_message',
    id: 'm1',
    agent_id: 'ada',
    agent_name: 'Ada',
    content: 'Twelve weeks of seven days is 84 days.',
    message_type: 'statement',
  },
] as FeedInput[];

const exp = () => exportOf(frames, { sessionId: 's1', endpoint: 'hybrid', context: 'How long?' });

const loadUnicodeFont = noFontNeeded;

describe('exports keep the tool calls', () => {
  it('JSON: each call under its turn, with its arguments and result, valid against the export schema', () => {
    const doc = exp();
    expect(discussionExport.safeParse(doc).success).toBe(true);
    const turn = doc.messages.find((m) => m.id === 'm1')!;
    expect(turn.tool_calls).toEqual([
      expect.objectContaining({ id: 'c1', tool: 'calculator', arguments: { expression: '12 * 7' }, content: '84' }),
      expect.objectContaining({ id: 'c2', state: 'failed', error: 'timed out', ok: false }),
    ]);
  });

  it.each([
    ['standard', () => renderDiscussionPdf(exp(), { loadUnicodeFont })],
    ['hybrid', () => renderHybridPdf({ ...exp(), mode: 'hybrid' }, { loadUnicodeFont })],
  ])('PDF (%s): a line per call under its turn', async (name, render) => {
    const text = await pdfText(await render(), `${name}.pdf`);
    const turn = text.indexOf('Twelve weeks');
    const first = text.indexOf('Tool calculator: expression: "12 * 7" - returned 84 in 3 ms');
    expect(turn).toBeGreaterThan(-1);
    expect(first).toBeGreaterThan(turn);
    expect(text).toContain('Tool lookup (conn-7): q: "tariffs" - failed: timed out');
  });
});
