// No file in src/machines over 300 lines (issue 41): a chart that grows past it has a part with its own life to
// give its own file (a child actor, pure helpers in src/model, or its setup beside it).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 300;
const dirs = ['machines', 'machines/kit'].map((d) => path.resolve(__dirname, '../../src', d));

describe('src/machines file size', () => {
  const files = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(dir, f)),
  );
  it.each(files.map((f) => [path.relative(path.resolve(__dirname, '../..'), f), f]))('%s', (_, file) => {
    const lines = readFileSync(file, 'utf8').split('\n').length - 1;
    expect(lines).toBeLessThanOrEqual(MAX_LINES);
  });
});
