import { MAX_SOURCE_IDS } from '../../src/schemas/sources';
import { say, type EngineContext, type Step } from './context';

// Sources the person adds to a running discussion (a `sources_add` frame, checked as theirs in clientFrames.ts).
// They join plan.sourceIds, which is persisted with the engine snapshot, so a resume or a takeover keeps them;
// the next turn's prompt reads them (prompt.ts), and both panels are told in a format_note row.

/** Names shown in the panels' row, at most this many before '…and N more'. */
const NAMES_SHOWN = 5;

export function addSources(c: EngineContext, ids: readonly string[], names: readonly string[]): Step {
  const before = c.plan.sourceIds ?? [];
  const fresh = [...new Set(ids)].filter((id) => !before.includes(id));
  const room = Math.max(0, MAX_SOURCE_IDS - before.length);
  const added = fresh.slice(0, room);
  if (!fresh.length) return { patch: {}, frames: [] };
  if (!added.length)
    return {
      patch: {},
      frames: say({
        type: 'format_note',
        kind: 'sources',
        text: `This discussion already reads ${MAX_SOURCE_IDS} sources; none was added.`,
      }),
    };
  const plan = { ...c.plan, sourceIds: [...before, ...added] };
  return {
    patch: { plan },
    frames: say({ type: 'format_note', kind: 'sources', text: addedText(names, added.length) }),
  };
}

function addedText(names: readonly string[], count: number): string {
  const shown = names.slice(0, Math.min(count, NAMES_SHOWN));
  const more = count - shown.length;
  const list = shown.length ? `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}` : `${count} sources`;
  return `${list} added: the next turns read ${count === 1 ? 'it' : 'them'}.`;
}
