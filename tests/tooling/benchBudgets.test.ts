// The bench budgets (bench/budgets.ts): the figures other checks read are budgeted under their fixed names, a
// ratio is judged against its floor's budget, and a figure a run did not give is reported, not passed.
import { describe, expect, it } from 'vitest';
import { BUDGETS, verdictLines, verdicts } from '../../bench/budgets';

describe('bench budgets', () => {
  it('budgets the fixed figure names, each ratio with the floor it is measured against', () => {
    const names = BUDGETS.map((b) => `${b.bench}.${b.figure}`);
    for (const fixed of [
      'bundle.login_js_gzip_kb',
      'server.health_rps_ratio_agora_to_bare',
      'server.cold_start_existing_ratio_to_bare',
      'replay.step_work_p95_ratio_to_bare',
    ])
      expect(names).toContain(fixed);
    for (const b of BUDGETS.filter((x) => x.figure.includes('ratio'))) expect(b.floor).toBeTruthy();
  });

  it('judges a ratio within or over its budget and prints the absolute figures beside it', () => {
    const over = verdicts('replay', { step_work_p95_ratio_to_bare: 1.29, step_work_ms_p95: 21.7 });
    expect(over[0]).toMatchObject({ value: 1.29, within: false, budget: '≤ 1.1×' });
    expect(verdictLines(over)[0]).toMatch(/✗ OVER step_work_p95_ratio_to_bare 1\.29×.*step_work_ms_p95 21\.7/);
    const within = verdicts('server', { health_rps_ratio_agora_to_bare: 0.93 });
    expect(within.find((v) => v.figure === 'health_rps_ratio_agora_to_bare')?.within).toBe(true);
    // Not measured in this run: neither within nor over.
    expect(within.find((v) => v.figure === 'cold_start_existing_ratio_to_bare')?.within).toBeNull();
  });
});
