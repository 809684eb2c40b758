// The standard panel's Advanced Settings, kept per user in local storage (one key per user id, so two people on
// one browser keep their own). What is read back goes through the settings schema: a stale or hand-edited entry
// falls back to the defaults instead of breaking the panel.
import { standardPanelSettings, type StandardPanelSettings } from '../schemas/settings';

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

const keyFor = (userId: string) => `agora.standardPanel.settings.${userId}`;

function browserStore(): KeyValueStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function createPanelSettingsStore(userId: () => string | null, store: KeyValueStore | null = browserStore()) {
  return {
    load(): StandardPanelSettings | null {
      const id = userId();
      if (!id || !store) return null;
      try {
        const raw = store.getItem(keyFor(id));
        if (!raw) return null;
        const parsed = standardPanelSettings.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    save(settings: StandardPanelSettings) {
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
