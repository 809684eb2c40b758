import { describe, expect, it } from 'vitest';
import { catalogueFor, RECOMMENDED_MODELS } from '../../../server/providers/llm/builtin/catalog';

// The recommended list marked for a server's memory: 'Fits' in free memory, 'May be slow' in total memory only,
// 'Too big' otherwise; the one suggested is the strongest that fits (a small one on a machine with few processors).
const GB = 1e9;

describe('the built-in catalogue for this server', () => {
  it('marks each model by the memory it needs and suggests the strongest that fits', () => {
    const big = catalogueFor({ total_bytes: 16 * GB, free_bytes: 12 * GB, cpus: 8 });
    expect(big.recommended.every((m) => m.fit === 'fits')).toBe(true);
    expect(big.suggested).toBe('qwen3-4b-instruct-2507');

    const small = catalogueFor({ total_bytes: 4 * GB, free_bytes: 1.5 * GB, cpus: 8 });
    expect(small.recommended.find((m) => m.id === 'qwen3-0.6b')!.fit).toBe('fits');
    expect(small.recommended.find((m) => m.id === 'llama-3.2-3b-instruct')!.fit).toBe('may_be_slow');
    expect(small.recommended.find((m) => m.id === 'qwen3-4b-instruct-2507')!.fit).toBe('too_big');
    expect(small.recommended.find((m) => m.id === small.suggested)!.fit).toBe('fits');

    const fewCpus = catalogueFor({ total_bytes: 16 * GB, free_bytes: 12 * GB, cpus: 2 });
    expect(fewCpus.recommended.find((m) => m.id === fewCpus.suggested)!.bytes).toBeLessThan(1.5 * GB);

    expect(catalogueFor({ total_bytes: 0.5 * GB, free_bytes: 0.2 * GB, cpus: 1 }).suggested).toBeNull();
  });

  it("lists today's small models by their real file names", () => {
    expect(RECOMMENDED_MODELS.map((m) => m.file)).toEqual([
      'Qwen3-0.6B-Q4_K_M.gguf',
      'gemma-3-1b-it-Q4_K_M.gguf',
      'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
      'SmolLM2-1.7B-Instruct-Q4_K_M.gguf',
      'Qwen3-1.7B-Q4_K_M.gguf',
      'Llama-3.2-3B-Instruct-Q4_K_M.gguf',
      'microsoft_Phi-4-mini-instruct-Q4_K_M.gguf',
      'Qwen3-4B-Instruct-2507-Q4_K_M.gguf',
    ]);
  });
});
