// The format as the engine runs it: a discriminated union on `kind`, each member carrying only its own roles. Each
// definition file declares its member here by module augmentation (as the subsystems do on AppContext), so the
// engine's plan (plan.ts) names the union without importing any format.

// biome-ignore lint/suspicious/noEmptyInterface: each format's file adds its plan (module augmentation).
export interface FormatPlans {}

export type FormatPlan = FormatPlans[keyof FormatPlans];
