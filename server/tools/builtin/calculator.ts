// The built-in `calculator` (docs/tools.md#calculator): exact arithmetic on an expression a model wrote. A small
// recursive-descent parser over rationals held as two BigInts — no eval, no identifiers, no functions — so
// "0.1 + 0.2" is 0.3 and "constructor" or "process.exit()" is a parse error. Every dimension an expression could
// grow in is capped: its length, its nesting, its exponents and the size of the numbers it makes.

export const CALCULATOR_MAX_CHARS = 500;
const MAX_DEPTH = 64;
const MAX_EXPONENT = 1_000;
/** Past this many bits in a numerator or denominator the answer is refused (10^3000 or so). */
const MAX_BITS = 10_000n;
const DECIMALS_SHOWN = 30;

export class CalculatorError extends Error {}

interface Q {
  n: bigint;
  d: bigint;
}

const abs = (x: bigint) => (x < 0n ? -x : x);
function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}
const bitsOf = (x: bigint) => BigInt(abs(x).toString(2).length);

function q(n: bigint, d: bigint = 1n): Q {
  if (d === 0n) throw new CalculatorError('division by zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d) || 1n;
  const out = { n: n / g, d: d / g };
  if (bitsOf(out.n) > MAX_BITS || bitsOf(out.d) > MAX_BITS) throw new CalculatorError('the numbers grow too large');
  return out;
}

const add = (a: Q, b: Q) => q(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Q, b: Q) => q(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Q, b: Q) => q(a.n * b.n, a.d * b.d);
const div = (a: Q, b: Q) => q(a.n * b.d, a.d * b.n);
function mod(a: Q, b: Q): Q {
  if (b.n === 0n) throw new CalculatorError('modulo by zero');
  // a - b·trunc(a/b), the sign of the dividend as in most languages.
  const t = (a.n * b.d) / (a.d * b.n);
  return sub(a, mul(b, q(t)));
}
function pow(a: Q, b: Q): Q {
  if (b.d !== 1n) throw new CalculatorError('only whole-number exponents are exact');
  if (abs(b.n) > BigInt(MAX_EXPONENT)) throw new CalculatorError(`an exponent is at most ${MAX_EXPONENT}`);
  const e = Number(b.n);
  if (e < 0) return div(q(1n), pow(a, q(-b.n)));
  let r = q(1n);
  for (let i = 0; i < e; i++) r = mul(r, a);
  return r;
}

class Parser {
  private at = 0;
  private depth = 0;
  constructor(private readonly src: string) {}

  parse(): Q {
    const v = this.sum();
    this.space();
    if (this.at < this.src.length) this.fail();
    return v;
  }

  private fail(): never {
    const c = this.src[this.at];
    throw new CalculatorError(
      c === undefined ? 'the expression ends too soon' : `unexpected "${c}" at position ${this.at + 1}`,
    );
  }
  private space() {
    while (this.at < this.src.length && /\s/.test(this.src[this.at])) this.at++;
  }
  private peek(): string | undefined {
    this.space();
    return this.src[this.at];
  }

  private sum(): Q {
    let v = this.product();
    for (let c = this.peek(); c === '+' || c === '-'; c = this.peek()) {
      this.at++;
      const r = this.product();
      v = c === '+' ? add(v, r) : sub(v, r);
    }
    return v;
  }
  private product(): Q {
    let v = this.unary();
    for (let c = this.peek(); c === '*' || c === '/' || c === '%' || c === '×' || c === '÷'; c = this.peek()) {
      this.at++;
      const r = this.unary();
      v = c === '*' || c === '×' ? mul(v, r) : c === '%' ? mod(v, r) : div(v, r);
    }
    return v;
  }
  private unary(): Q {
    const c = this.peek();
    if (c === '-' || c === '+') {
      this.at++;
      const v = this.nested(() => this.unary());
      return c === '-' ? q(-v.n, v.d) : v;
    }
    return this.power();
  }
  /** Right-associative: 2^3^2 is 2^9; -2^2 is -(2^2). */
  private power(): Q {
    const base = this.primary();
    if (this.peek() === '^' || this.src.startsWith('**', this.at)) {
      this.at += this.src[this.at] === '^' ? 1 : 2;
      return pow(
        base,
        this.nested(() => this.unary()),
      );
    }
    return base;
  }
  private primary(): Q {
    const c = this.peek();
    if (c === '(') {
      this.at++;
      const v = this.nested(() => this.sum());
      if (this.peek() !== ')') this.fail();
      this.at++;
      return v;
    }
    return this.number();
  }
  private nested(f: () => Q): Q {
    if (++this.depth > MAX_DEPTH) throw new CalculatorError(`nested more than ${MAX_DEPTH} deep`);
    try {
      return f();
    } finally {
      this.depth--;
    }
  }
  private number(): Q {
    const m = /^(\d[\d_]*)?(?:\.(\d+))?(?:[eE]([+-]?\d{1,4}))?/.exec(this.src.slice(this.at));
    if (!m?.[0] || (m[1] === undefined && m[2] === undefined)) this.fail();
    this.at += m[0].length;
    const whole = (m[1] ?? '0').replace(/_/g, '');
    const frac = m[2] ?? '';
    let v = q(BigInt(whole + frac), 10n ** BigInt(frac.length));
    if (m[3]) v = mul(v, pow(q(10n), q(BigInt(m[3]))));
    return v;
  }
}

/** The value exactly as a decimal when it ends; else to DECIMALS_SHOWN places, with the exact fraction beside it. */
export function formatRational(v: Q): string {
  const sign = v.n < 0n ? '-' : '';
  const n = abs(v.n);
  let d = v.d;
  const whole = n / v.d;
  let rest = n % v.d;
  for (const p of [2n, 5n]) while (d % p === 0n) d /= p;
  const ends = d === 1n;
  let digits = '';
  for (let i = 0; rest && (ends || i < DECIMALS_SHOWN); i++) {
    rest *= 10n;
    digits += (rest / v.d).toString();
    rest %= v.d;
  }
  const dec = `${sign}${whole}${digits ? `.${digits}` : ''}`;
  return ends ? dec : `${dec}… (exactly ${sign}${n}/${v.d})`;
}

/** Evaluates the expression exactly; a CalculatorError says what is wrong with it. */
export function calculate(expression: string): string {
  if (typeof expression !== 'string' || !expression.trim()) throw new CalculatorError('an expression is required');
  if (expression.length > CALCULATOR_MAX_CHARS)
    throw new CalculatorError(`an expression is at most ${CALCULATOR_MAX_CHARS} characters`);
  return formatRational(new Parser(expression).parse());
}
