// The standard panel's Advanced Settings and the hybrid panel's settings, kept per user in local storage (one
// key per panel and user id, so two people on one browser keep their own). What is read back goes through the settings schema: a stale or hand-edited entry
// falls back to the defaults instead of breaking the panel.
import type { z } from 'zod';
import {
  hybridSettings,
  standardPanelSettings,
  type HybridSettings,
  type StandardPanelSettings,
} from '../schemas/settings';

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

function browserStore(): KeyValueStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function createPanelSettingsStore(userId: () => string | null, store: KeyValueStore | null = browserStore()) {
  return createSettingsStore<StandardPanelSettings>(standardPanelSettings, 'standardPanel', userId, store);
}

export function createHybridSettingsStore(userId: () => string | null, store: KeyValueStore | null = browserStore()) {
  return createSettingsStore<HybridSettings>(hybridSettings, 'hybridPanel', userId, store);
}

function createSettingsStore<T>(
  schema: z.ZodType<T>,
  panel: string,
  userId: () => string | null,
  store: KeyValueStore | null,
) {
  const keyFor = (id: string) => `agora.${panel}.settings.${id}`;
  return {
    load(): T | null {
      const id = userId();
      if (!id || !store) return null;
      try {
        const raw = store.getItem(keyFor(id));
        if (!raw) return null;
        const parsed = schema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    save(settings: T) {
      const id = userId();
      if (!id || !store) return;
      try {
        store.setItem(keyFor(id), JSON.stringify(settings));
      } catch {
        // A full or blocked storage only costs the settings their persistence.
      }
    },
  };
}
