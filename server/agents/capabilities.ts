// Capabilities are derived, not entered: the editor shows them read-only. Each is a keyword rule over the
// agent's role and prompt, checked in this fixed order, so the same text always yields the same list
// (possibly empty). Names use underscores; the editor shows them as spaces.
const RULES: ReadonlyArray<readonly [string, RegExp]> = [
  ['research', /\b(research|scien|stud(y|ies)|evidence|literature|academ)/i],
  ['data_analysis', /\b(data|analy|statist|metric|quantitat)/i],
  ['critical_thinking', /\b(critic|skeptic|sceptic|challeng|question|devil|debat|argu)/i],
  ['creative_thinking', /\b(creativ|innovat|imagin|brainstorm|ideas?\b|design|artist)/i],
  ['ethical_reasoning', /\b(ethic|moral|philosoph|fairness)/i],
  ['strategic_planning', /\b(strateg|plan|business|manag|leader)/i],
  ['technical_expertise', /\b(engineer|technic|software|cod(e|ing)|develop|architect|program)/i],
  ['summarization', /\b(summar|moderat|synthes|facilitat)/i],
  ['teaching', /\b(teach|educat|explain|tutor|mentor)/i],
  ['legal_analysis', /\b(legal|law|lawyer|regulat|complian)/i],
  ['medical_knowledge', /\b(medic|health|clinic|doctor|nurs)/i],
  ['financial_analysis', /\b(financ|econom|invest|market|budget)/i],
];

export function deriveCapabilities(role: string, prompt: string): string[] {
  const text = `${role}\n${prompt}`;
  return RULES.filter(([, re]) => re.test(text)).map(([name]) => name);
}
