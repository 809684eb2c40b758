// axe-core in the page under test: inject node_modules/axe-core/axe.min.js and run it over the document.
// `expectNoSeriousViolations(page, 'main screen')` fails with a readable list when any violation is serious or
// critical; the lesser ones are returned so a caller can log them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe over the whole page, or over the element `within` selects (a dialog), with WCAG 2.0/2.1 A and AA plus
 * best practices, and returns its violations.
 */
export async function axeViolations(page: Page, within?: string): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  // Evaluated through the debugging protocol, not a <script> tag: the app's Content-Security-Policy (which the
  // suite keeps on) refuses inline scripts, and rightly so.
  if (!loaded) await page.evaluate(readFileSync(AXE_PATH, 'utf8'));
  return page.evaluate(async (selector) => {
    const axe = (
      window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(selector ?? document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, within ?? null);
}

export const isSerious = (v: AxeViolation) => v.impact === 'serious' || v.impact === 'critical';
/** Moderate findings too (a repeated landmark, a name that reads out a whole list): what a dialog must be free of. */
export const isModerateOrWorse = (v: AxeViolation) => v.impact !== 'minor' && v.impact !== null;

/** Fails when axe finds anything moderate or worse in the element `within` selects (a dialog). */
export async function expectDialogClean(page: Page, within: string, label: string) {
  const found = (await axeViolations(page, within)).filter(isModerateOrWorse);
  if (found.length > 0) throw new Error(`axe: ${found.length} violation(s) in ${label}:\n${describeViolations(found)}`);
}

export function describeViolations(list: readonly AxeViolation[]): string {
  return list
    .map(
      (v) =>
        `  ${v.impact} ${v.id} (${v.nodes.length}×): ${v.help}\n${v.nodes
          .slice(0, 4)
          .map((n) => `      ${n.target.join(' ')}`)
          .join('\n')}`,
    )
    .join('\n');
}

/** Fails when axe reports a serious or critical violation on what the page shows now. */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<AxeViolation[]> {
  const all = await axeViolations(page);
  const serious = all.filter(isSerious);
  if (serious.length > 0)
    throw new Error(
      `axe: ${serious.length} serious or critical violation(s) on ${label}:\n${describeViolations(serious)}`,
    );
  return all;
}
