import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createOllamaProvider } from '../../../server/providers/llm/ollama';
import { createOpenAiProvider } from '../../../server/providers/llm/openai';
import { lines, LineTooLongError } from '../../../server/providers/llm/stream';
import { startLoopback } from '../../support/loopback';

// A model server that sends without end: one endless line, or an endless reply in well-formed pieces. The caps
// (LLM_MAX_LINE_BYTES, LLM_MAX_REPLY_CHARS / LLM_REPLY_CHARS_PER_TOKEN) stop the call with an error that says
// which, and the server sees the connection dropped long before its body ends.

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Writes `chunk` until `bytes` are sent or the client goes away; records how much went out. */
async function pour(res: ServerResponse, chunk: string, bytes: number, sent: { bytes: number; closed: boolean }) {
  res.on('close', () => (sent.closed = true));
  while (sent.bytes < bytes && !sent.closed) {
    sent.bytes += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((r) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          r();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  res.end();
}

const body = (parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });

describe('the line reader', () => {
  it('yields lines split anywhere, multi-byte characters included, and refuses a line past the cap', async () => {
    const text = 'première ligne\r\nzweite Zeile 🌿\n\nlast';
    const bytes = new TextEncoder().encode(text);
    const oneByOne = new ReadableStream<Uint8Array>({
      start(c) {
        for (const b of bytes) c.enqueue(new Uint8Array([b]));
        c.close();
      },
    });
    const got: string[] = [];
    for await (const l of lines(oneByOne)) got.push(l);
    expect(got).toEqual(['première ligne', 'zweite Zeile 🌿', '', 'last']);

    const long = lines(body(['x'.repeat(600), 'y'.repeat(600), '\nok\n']), 1_000);
    await expect(long.next()).rejects.toBeInstanceOf(LineTooLongError);
    const fine: string[] = [];
    for await (const l of lines(body(['a'.repeat(999), '\n', 'b\n']), 1_000)) fine.push(l.slice(0, 1));
    expect(fine).toEqual(['a', 'b']);
  });

  it('reads a long stream of short lines in linear time', async () => {
    // 200,000 lines in 4 KB chunks: a reader that rescanned its buffer from the start would still be busy.
    const line = '{"message":{"content":"w"},"done":false}\n';
    const whole = line.repeat(200_000);
    const chunks: string[] = [];
    for (let i = 0; i < whole.length; i += 4096) chunks.push(whole.slice(i, i + 4096));
    let n = 0;
    const started = performance.now();
    for await (const _ of lines(body(chunks))) n++;
    expect(n).toBe(200_000);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('an OpenAI-compatible server that sends too much', () => {
  it('is stopped at LLM_MAX_LINE_BYTES when it streams without a line break', async () => {
    const sent = { bytes: 0, closed: false };
    const lb = await startLoopback(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await pour(res, `data: ${'z'.repeat(16 * 1024)}`, 100 * 1024 * 1024, sent);
    });
    servers.push(lb);
    const p = createOpenAiProvider({
      baseUrl: lb.url,
      limits: { maxReplyChars: 100_000, replyCharsPerToken: 16, maxLineBytes: 64 * 1024 },
    });
    await expect(p.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
      kind: 'malformed',
      message: expect.stringMatching(/passed 65536 bytes without a line break.*LLM_MAX_LINE_BYTES/),
    });
    await expect.poll(() => sent.closed).toBe(true);
    expect(sent.bytes).toBeLessThan(10 * 1024 * 1024);
  });

  it('is stopped at the reply cap, derived from max tokens, with the pieces before it passed on', async () => {
    const sent = { bytes: 0, closed: false };
    const lb = await startLoopback(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await pour(
        res,
        `data: ${JSON.stringify({ choices: [{ delta: { content: 'words '.repeat(50) } }] })}\n\n`,
        100 * 1024 * 1024,
        sent,
      );
    });
    servers.push(lb);
    const p = createOpenAiProvider({
      baseUrl: lb.url,
      limits: { maxReplyChars: 1_000_000, replyCharsPerToken: 10, maxLineBytes: 64 * 1024 },
    });
    let streamed = 0;
    await expect(
      p.chat({ model: 'm', messages: [], maxTokens: 500, onToken: (t) => (streamed += t.length) }),
    ).rejects.toMatchObject({
      kind: 'malformed',
      message: expect.stringContaining('longer than 5000 characters'),
    });
    expect(streamed).toBeLessThanOrEqual(5_000);
    expect(streamed).toBeGreaterThan(4_000);
    await expect.poll(() => sent.closed).toBe(true);
  });

  it('a whole JSON answer is bounded too', async () => {
    const lb = await startLoopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { content: 'x'.repeat(200_000) } }] }));
    });
    servers.push(lb);
    const p = createOpenAiProvider({
      baseUrl: lb.url,
      limits: { maxReplyChars: 1_000_000, replyCharsPerToken: 16, maxLineBytes: 64 * 1024 },
    });
    await expect(p.chat({ model: 'm', messages: [] })).rejects.toMatchObject({ kind: 'malformed' });
  });
});

describe('an Ollama server that sends too much', () => {
  it('is stopped at LLM_MAX_LINE_BYTES and at LLM_MAX_REPLY_CHARS', async () => {
    const noBreak = { bytes: 0, closed: false };
    const endless = { bytes: 0, closed: false };
    const lb = await startLoopback(async (req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      if (req.json().model === 'one-line') await pour(res, 'q'.repeat(16 * 1024), 100 * 1024 * 1024, noBreak);
      else
        await pour(
          res,
          `${JSON.stringify({ message: { content: 'abc '.repeat(25) }, done: false })}\n`,
          100 * 1024 * 1024,
          endless,
        );
    });
    servers.push(lb);
    const p = createOllamaProvider({
      host: lb.url,
      limits: { maxReplyChars: 3_000, replyCharsPerToken: 16, maxLineBytes: 32 * 1024 },
    });
    await expect(p.chat({ model: 'one-line', messages: [] })).rejects.toThrow(/LLM_MAX_LINE_BYTES/);
    await expect(p.chat({ model: 'chatty', messages: [] })).rejects.toThrow(
      /longer than 3000 characters.*LLM_MAX_REPLY_CHARS/,
    );
    await expect.poll(() => noBreak.closed && endless.closed).toBe(true);
    expect(noBreak.bytes + endless.bytes).toBeLessThan(20 * 1024 * 1024);
  });
});
