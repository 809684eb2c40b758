import { describe, expect, it } from 'vitest';
import { CALCULATOR_MAX_CHARS, CalculatorError, calculate } from '../../../server/tools/builtin/calculator';
import { readyBuiltins } from '../../../server/tools/builtin';
import type { AppContext } from '../../../server/context';

describe('calculator', () => {
  it('is exact where floating point is not', () => {
    expect(calculate('0.1 + 0.2')).toBe('0.3');
    expect(calculate('(12.5 + 7) * 3')).toBe('58.5');
    expect(calculate('2^10 / 4')).toBe('256');
    expect(calculate('2 ** 3 ** 2')).toBe('512');
    expect(calculate('-2^2')).toBe('-4');
    expect(calculate('7 % 3 + 1.5e2')).toBe('151');
    expect(calculate('2^100')).toBe('1267650600228229401496703205376');
    expect(calculate('1/3')).toBe('0.333333333333333333333333333333… (exactly 1/3)');
    expect(calculate('2^-2')).toBe('0.25');
  });

  it('refuses everything that is not arithmetic (no eval)', () => {
    for (const bad of ['constructor', 'process.exit()', 'this', '1 + a', '[].constructor', '`1`', '1;2', 'Math.PI'])
      expect(() => calculate(bad), bad).toThrow(CalculatorError);
    expect(() => calculate('1/0')).toThrow('division by zero');
    expect(() => calculate('2^0.5')).toThrow('whole-number');
  });

  it('is bounded: length, nesting, exponent, size', () => {
    expect(() => calculate(`${'1+'.repeat(CALCULATOR_MAX_CHARS)}1`)).toThrow('at most');
    expect(() => calculate(`${'('.repeat(100)}1${')'.repeat(100)}`)).toThrow('nested');
    expect(() => calculate('2^100000')).toThrow('exponent');
    expect(() => calculate('(10^999)^999')).toThrow();
  });

  it('as a built-in tool, answers a bad expression as an error the model reads', async () => {
    const calc = readyBuiltins({ ctx: {} as AppContext, userId: 'u', sourceIds: [] }).find(
      (t) => t.name === 'calculator',
    )!;
    expect(calc.id).toBe('builtin/calculator');
    expect(await calc.run({ expression: '6*7' }, new AbortController().signal)).toEqual({ content: '42' });
    const bad = await calc.run({ expression: 'process.exit()' }, new AbortController().signal);
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/unexpected "p"/);
  });
});
