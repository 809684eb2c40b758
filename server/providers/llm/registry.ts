import { OFFLINE_MODEL } from '../../../src/schemas/constants';
import type { ComponentStatus, LlmProvider, LlmRegistry, ModelInfo } from '../types';

// Which provider answers for a model name. The rule (also on LlmRegistry.forModel):
//   1. 'offline' → the built-in offline model;
//   2. a provider that owns the name (it listed it last time, or the name carries its prefix);
//   3. the first reachable real provider, which answers or says clearly it has no such model;
//   4. the offline model, when no real provider is reachable.
// Listings are refreshed by listModels() and, when older than LISTING_TTL_MS, by resolve().

const LISTING_TTL_MS = 30_000;

export function createLlmRegistry(providers: LlmProvider[]): LlmRegistry {
  const offline = providers.find((p) => p.id === 'offline');
  const real = providers.filter((p) => p !== offline);
  let listedAt = 0;
  let listing: Promise<ModelInfo[]> | null = null;

  const listModels = () => {
    listing ??= Promise.all(providers.map((p) => p.listModels().catch((): ModelInfo[] => [])))
      .then((lists) => lists.flat())
      .finally(() => {
        listedAt = Date.now();
        listing = null;
      });
    return listing;
  };

  const forModel = (model: string): LlmProvider => {
    if (model === OFFLINE_MODEL && offline) return offline;
    const owner = providers.find((p) => p.owns(model));
    if (owner) return owner;
    const reachable = real.find((p) => p.reachable?.());
    const chosen = reachable ?? offline;
    if (!chosen) throw new Error(`No language model provider serves "${model}"`);
    return chosen;
  };

  return {
    listModels,
    forModel,
    async resolve(model) {
      if (model !== OFFLINE_MODEL && Date.now() - listedAt > LISTING_TTL_MS) await listModels();
      return forModel(model);
    },
    async probe(): Promise<ComponentStatus> {
      if (!providers.length) return { status: 'unavailable', detail: 'No language model provider configured' };
      const results = await Promise.all(
        providers.map(async (p) => ({
          p,
          s: await p.probe().catch((e): ComponentStatus => ({ status: 'unavailable', detail: String(e) })),
        })),
      );
      const ok = results.filter((r) => r.s.status === 'ok');
      const realOk = ok.filter((r) => r.p !== offline);
      const detail = results
        .map((r) => `${r.p.label}: ${r.s.status}${r.s.detail && r.s.detail !== r.p.label ? ` (${r.s.detail})` : ''}`)
        .join('; ');
      // The offline model alone keeps the app working, but a configured real model being down is worth a warning.
      const status = ok.length === results.length ? 'ok' : realOk.length || ok.length ? 'degraded' : 'unavailable';
      return { status, detail, provider: ok.map((r) => r.p.id).join(',') };
    },
  };
}
