// The four tabs (docs/product.md#discussions-screens) as a WAI-ARIA tablist: arrow keys move between tabs, Home/End
// jump.
import type { KeyboardEvent } from 'react';
import { STANDARD_TABS, type StandardTab } from '../../../model/standardVariant';

const LABELS: Record<StandardTab, string> = {
  discussion: 'Discussion',
  tree: 'Reasoning Tree',
  research: 'Research',
  analytics: 'Analytics',
};

export const tabId = (tab: StandardTab, prefix = 'standard') => `${prefix}-tab-${tab}`;
export const tabPanelId = (tab: StandardTab, prefix = 'standard') => `${prefix}-tabpanel-${tab}`;

/** `idPrefix` keeps the ids apart when a second tab bar (the History viewer) is on the page with the panel's. */
export function TabBar({
  active,
  onSelect,
  counts,
  idPrefix = 'standard',
}: {
  active: StandardTab;
  onSelect: (tab: StandardTab) => void;
  counts: Partial<Record<StandardTab, number>>;
  idPrefix?: string;
}) {
  const onKeyDown = (e: KeyboardEvent) => {
    const i = STANDARD_TABS.indexOf(active);
    const next =
      e.key === 'ArrowRight'
        ? STANDARD_TABS[(i + 1) % STANDARD_TABS.length]
        : e.key === 'ArrowLeft'
          ? STANDARD_TABS[(i + STANDARD_TABS.length - 1) % STANDARD_TABS.length]
          : e.key === 'Home'
            ? STANDARD_TABS[0]
            : e.key === 'End'
              ? STANDARD_TABS[STANDARD_TABS.length - 1]
              : null;
    if (!next) return;
    e.preventDefault();
    onSelect(next);
    document.getElementById(tabId(next, idPrefix))?.focus();
  };
  return (
    <div className="tabbar" role="tablist" aria-label="Discussion views" onKeyDown={onKeyDown}>
      {STANDARD_TABS.map((tab) => (
        <button
          key={tab}
          id={tabId(tab, idPrefix)}
          type="button"
          role="tab"
          className="tabbar__tab"
          aria-selected={tab === active}
          aria-controls={tabPanelId(tab, idPrefix)}
          tabIndex={tab === active ? 0 : -1}
          onClick={() => onSelect(tab)}
        >
          {LABELS[tab]}
          {counts[tab] !== undefined && counts[tab]! > 0 && <span className="tabbar__count">{counts[tab]}</span>}
        </button>
      ))}
    </div>
  );
}
