import { describe, expect, it } from 'vitest';
import { AGENT_PALETTE, agentColor, autoColor } from '../../src/model/agentIdentity';
import { contrast, deltaE2000 } from '../support/colourScience';

// One colour per agent, the same on every surface, and automatic colours a reader tells apart.

/** The surfaces an agent's colour sits on (src/ui/styles.css: --surface, --surface-muted, --bg) and white initials. */
const SURFACES = ['#ffffff', '#f8fafc', '#f1f5f9'];
/** Below about 10 two colours read as shades of one; 20 is clearly another colour. */
const MIN_DELTA_E = 20;

describe('agent colours', () => {
  it('the colour science is right (published CIEDE2000 pairs, WCAG extremes)', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(deltaE2000('#ff0000', '#ff0000')).toBe(0);
    // Near-identical purples of the old palette are under 10 apart.
    expect(deltaE2000('#1d4ed8', '#4338ca')).toBeLessThan(10);
  });

  it.each(AGENT_PALETTE)('%s is readable on every surface and behind white initials (≥ 4.5:1)', (c) => {
    for (const s of SURFACES) expect(contrast(c, s)).toBeGreaterThanOrEqual(4.5);
  });

  it(`every two automatic colours are at least ΔE2000 ${MIN_DELTA_E} apart`, () => {
    let closest = Number.POSITIVE_INFINITY;
    for (const [i, a] of AGENT_PALETTE.entries())
      for (const b of AGENT_PALETTE.slice(i + 1)) closest = Math.min(closest, deltaE2000(a, b));
    expect(closest).toBeGreaterThanOrEqual(MIN_DELTA_E);
  });

  it("a new agent's automatic colour avoids the ones the workspace's agents wear", () => {
    const taken: string[] = [];
    for (const name of ['Ada', 'Bo', 'Chen', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal']) taken.push(autoColor(name, taken));
    expect(new Set(taken).size).toBe(AGENT_PALETTE.length);
    // With every colour worn once, the next takes one worn once, not a colour outside the palette.
    expect(AGENT_PALETTE).toContain(autoColor('Ivy', taken));
    // Alone, a name always gets the same colour.
    expect(autoColor('Ada')).toBe(autoColor('Ada', []));
  });

  it('an agent wears its chosen colour, else one derived from its id, wherever it is drawn', () => {
    expect(agentColor({ id: 'a1', color: '#ABCDEF' })).toBe('#abcdef');
    expect(agentColor({ id: 'a1' })).toBe(agentColor({ id: 'a1', color: null }));
    expect(AGENT_PALETTE).toContain(agentColor({ id: 'a1' }));
  });
});
