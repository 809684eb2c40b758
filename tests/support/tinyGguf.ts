import { writeFileSync } from 'node:fs';

// A tiny llama-architecture GGUF (v3) with random F32 weights, written by the test suite itself so the
// built-in engine can be tested with no download: 2 layers, 64-wide, a SentencePiece-style vocabulary of
// control tokens, the 256 byte tokens and a few word pieces (~360 tokens), ~0.5 MB.
// Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md (header, metadata KV, tensor infos,
// aligned tensor data). Its output is gibberish, often invalid UTF-8: that is the point of some tests.
//
// `prefer` lifts the logits of chosen pieces (a constant residual direction read by the output rows), so
// a test can make the random model close its JSON strings soon instead of rambling to the token limit.

export interface TinyGgufOptions {
  seed?: number;
  /** Pieces (e.g. '"', '}') the model should favour, by about `preferStrength` logits (or a piece's own strength). */
  prefer?: Array<string | [piece: string, strength: number]>;
  preferStrength?: number;
  contextLength?: number;
  /** Token ids the model should almost never pick (the bench keeps '</s>', id 2, from ending a run early). */
  avoid?: number[];
  /** Wider and deeper than the ~0.5 MB default, for a bench where compute, not overhead, dominates. */
  shape?: { embd: number; ff: number; layers: number; heads: number };
  /** Word pieces added after the usual ones (e.g. a chat wrapper's '||call:'), so `prefer` can name them. */
  extraPieces?: string[];
}

const SMALL = { embd: 64, ff: 128, layers: 2, heads: 4 };
const ALIGN = 32;

enum T {
  U32 = 4,
  I32 = 5,
  F32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

const WORD_PIECES = [
  '▁',
  '▁the',
  '▁a',
  '▁to',
  '▁of',
  '▁and',
  '▁is',
  '▁we',
  '▁it',
  '▁that',
  '▁this',
  '▁should',
  '▁not',
  '▁be',
  '▁plan',
  '▁city',
  '▁cost',
  '▁risk',
  '▁agree',
  '▁support',
  '▁oppose',
  '▁neutral',
  '▁proposal',
  '▁counter',
  '{"',
  '":',
  '","',
  '"}',
  '":"',
  '":[',
  '],"',
  '":0.',
  '":1',
  'content',
  'stance',
  'confidence',
  'argument_type',
  'support',
  'oppose',
  'neutral',
  'proposal',
  'question',
  'synthesis',
  'er',
  'in',
  'on',
  'an',
  're',
  'es',
  'ing',
];

/** The vocabulary: <unk>, <s>, </s>, the byte tokens, then word pieces. */
export function tinyVocab(extraPieces: readonly string[] = []): {
  tokens: string[];
  scores: number[];
  types: number[];
} {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  for (const p of [...WORD_PIECES, ...extraPieces]) {
    tokens.push(p);
    types.push(1);
  }
  // SentencePiece merges by score: longer pieces first.
  const scores = tokens.map((t, i) => (types[i] === 1 ? -1000 + t.length * 10 - i * 0.01 : 0));
  return { tokens, scores, types };
}

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Writer {
  private chunks: Buffer[] = [];
  size = 0;
  push(b: Buffer) {
    this.chunks.push(b);
    this.size += b.length;
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  pad() {
    const rest = this.size % ALIGN;
    if (rest) this.push(Buffer.alloc(ALIGN - rest));
  }
  bytes() {
    return Buffer.concat(this.chunks);
  }
}

type Kv =
  | [string, T.U32, number]
  | [string, T.F32, number]
  | [string, T.STRING, string]
  | [string, T.BOOL, boolean]
  | [string, 'strings', string[]]
  | [string, 'f32s', number[]]
  | [string, 'i32s', number[]];

function writeKv(w: Writer, [key, type, value]: Kv) {
  w.str(key);
  if (type === 'strings' || type === 'f32s' || type === 'i32s') {
    w.u32(T.ARRAY);
    const items = value as Array<string | number>;
    w.u32(type === 'strings' ? T.STRING : type === 'f32s' ? T.F32 : T.I32);
    w.u64(items.length);
    for (const v of items)
      type === 'strings' ? w.str(v as string) : type === 'f32s' ? w.f32(v as number) : w.i32(v as number);
    return;
  }
  w.u32(type);
  if (type === T.U32) w.u32(value as number);
  else if (type === T.F32) w.f32(value as number);
  else if (type === T.STRING) w.str(value as string);
  else w.push(Buffer.from([value ? 1 : 0]));
}

/** The GGUF file's bytes. */
export function tinyGguf(opts: TinyGgufOptions = {}): Buffer {
  const { embd: N_EMBD, ff: N_FF, layers: N_LAYER, heads: N_HEAD } = opts.shape ?? SMALL;
  const random = rng(opts.seed ?? 42);
  const { tokens, scores, types } = tinyVocab(opts.extraPieces);
  const nVocab = tokens.length;
  const strength = opts.preferStrength ?? 10;
  const idOf = (p: string) => (p.length === 1 && p.charCodeAt(0) < 128 ? 3 + p.charCodeAt(0) : tokens.indexOf(p));
  const preferIds = new Map(
    (opts.prefer ?? [])
      .map((p): [number, number] => (typeof p === 'string' ? [idOf(p), strength] : [idOf(p[0]), p[1]]))
      .filter(([i]) => i >= 0),
  );
  const avoidIds = new Set(opts.avoid ?? []);

  const uniform = (scale: number) => (random() * 2 - 1) * scale;
  const tensors: Array<{ name: string; dims: number[]; fill: (i: number, row: number, col: number) => number }> = [
    // Dimension 0 of every embedding is a large constant: after RMS norm it is a steady positive signal the
    // output rows of preferred tokens read.
    { name: 'token_embd.weight', dims: [N_EMBD, nVocab], fill: (_, _row, col) => (col === 0 ? 4 : uniform(0.5)) },
    { name: 'output_norm.weight', dims: [N_EMBD], fill: () => 1 },
    {
      name: 'output.weight',
      dims: [N_EMBD, nVocab],
      fill: (_, row, col) =>
        col === 0
          ? preferIds.has(row)
            ? (preferIds.get(row) ?? 0) / 8
            : avoidIds.has(row)
              ? -40 / 8
              : 0
          : uniform(1.5),
    },
  ];
  for (let l = 0; l < N_LAYER; l++) {
    const small = () => uniform(0.08);
    tensors.push(
      { name: `blk.${l}.attn_norm.weight`, dims: [N_EMBD], fill: () => 1 },
      { name: `blk.${l}.attn_q.weight`, dims: [N_EMBD, N_EMBD], fill: small },
      { name: `blk.${l}.attn_k.weight`, dims: [N_EMBD, N_EMBD], fill: small },
      { name: `blk.${l}.attn_v.weight`, dims: [N_EMBD, N_EMBD], fill: small },
      { name: `blk.${l}.attn_output.weight`, dims: [N_EMBD, N_EMBD], fill: small },
      { name: `blk.${l}.ffn_norm.weight`, dims: [N_EMBD], fill: () => 1 },
      { name: `blk.${l}.ffn_gate.weight`, dims: [N_EMBD, N_FF], fill: small },
      { name: `blk.${l}.ffn_up.weight`, dims: [N_EMBD, N_FF], fill: small },
      { name: `blk.${l}.ffn_down.weight`, dims: [N_FF, N_EMBD], fill: small },
    );
  }

  const kvs: Kv[] = [
    ['general.architecture', T.STRING, 'llama'],
    ['general.name', T.STRING, 'agora-tiny-test'],
    ['general.alignment', T.U32, ALIGN],
    ['llama.context_length', T.U32, opts.contextLength ?? 2048],
    ['llama.embedding_length', T.U32, N_EMBD],
    ['llama.block_count', T.U32, N_LAYER],
    ['llama.feed_forward_length', T.U32, N_FF],
    ['llama.attention.head_count', T.U32, N_HEAD],
    ['llama.attention.head_count_kv', T.U32, N_HEAD],
    ['llama.rope.dimension_count', T.U32, N_EMBD / N_HEAD],
    ['llama.attention.layer_norm_rms_epsilon', T.F32, 1e-5],
    ['llama.vocab_size', T.U32, nVocab],
    ['tokenizer.ggml.model', T.STRING, 'llama'],
    ['tokenizer.ggml.tokens', 'strings', tokens],
    ['tokenizer.ggml.scores', 'f32s', scores],
    ['tokenizer.ggml.token_type', 'i32s', types],
    ['tokenizer.ggml.unknown_token_id', T.U32, 0],
    ['tokenizer.ggml.bos_token_id', T.U32, 1],
    ['tokenizer.ggml.eos_token_id', T.U32, 2],
    ['tokenizer.ggml.add_bos_token', T.BOOL, true],
    ['tokenizer.ggml.add_eos_token', T.BOOL, false],
  ];

  const w = new Writer();
  w.push(Buffer.from('GGUF', 'ascii'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kvs.length);
  for (const kv of kvs) writeKv(w, kv);

  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(0); // GGML_TYPE_F32
    w.u64(offset);
    offsets.push(offset);
    const bytes = t.dims.reduce((a, b) => a * b, 1) * 4;
    offset += Math.ceil(bytes / ALIGN) * ALIGN;
  }
  w.pad();

  const data = Buffer.alloc(offset);
  tensors.forEach((t, ti) => {
    const cols = t.dims[0];
    const count = t.dims.reduce((a, b) => a * b, 1);
    for (let i = 0; i < count; i++) data.writeFloatLE(t.fill(i, Math.floor(i / cols), i % cols), offsets[ti] + i * 4);
  });
  w.push(data);
  return w.bytes();
}

/** Writes the tiny model to `path` and returns the path. */
export function writeTinyGguf(path: string, opts?: TinyGgufOptions): string {
  writeFileSync(path, tinyGguf(opts));
  return path;
}
