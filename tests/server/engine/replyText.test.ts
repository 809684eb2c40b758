// Why this file: ReplyText decides what the panel sees while a model writes its structured answer; these pin
// down the readings (JSON content, escapes cut by chunk boundaries, prose, a <think> preamble) piece by piece.
import { describe, expect, it } from 'vitest';
import { ReplyText } from '../../../server/engine/replyText';

/** Feeds `raw` in pieces of `size` characters and returns what was shown. */
const shown = (raw: string, size: number) => {
  const r = new ReplyText();
  let out = '';
  for (let i = 0; i < raw.length; i += size) out += r.push(raw.slice(i, i + size));
  return out;
};

describe('ReplyText', () => {
  it('shows only the content string of a JSON answer, decoded, however the stream is cut', () => {
    const content = 'Say "yes" \\ now:\nline two — café ✓ 😀';
    const raw = JSON.stringify({
      stance: 'support',
      reasoning: ['a', { content: 'nested, not shown' }],
      content,
      confidence: 0.5,
    }).replace('✓', '\\u2713');
    for (const size of [1, 2, 3, 5, 7, 64, 1000]) expect(shown(raw, size)).toBe(content);
  });
  it('shows prose as written, without a <think> preamble, and a fenced JSON answer by its content', () => {
    for (const size of [1, 4, 100]) {
      expect(shown('  <think>let me see</think>\nWe should wait.', size)).toBe('We should wait.');
      expect(shown('We should <b>wait</b>.', size)).toBe('We should <b>wait</b>.');
      expect(shown('```json\n{"content":"Fenced."}\n```', size)).toBe('Fenced.');
    }
  });
  it('shows nothing of a JSON answer without content', () => {
    expect(shown('{"stance":"support","text":"elsewhere"}', 3)).toBe('');
  });
});
