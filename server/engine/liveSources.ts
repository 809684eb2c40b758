import { MAX_SOURCE_IDS } from '../../src/schemas/sources';
import { say, type EngineContext, type Step } from './context';

// Sources the person adds to a running discussion (a `sources_add` frame, checked as theirs in clientFrames.ts).
// They join plan.sourceIds, which is persisted with the engine snapshot, so a resume or a takeover keeps them;
// the next turn's prompt reads them (prompt.ts), and both panels are told in a format_note row.

/** Names shown in the panels' row, at most this many before '…and N more'. */
const NAMES_SHOWN = 5;

/** A source the person added, by id, with the name the panels' row says. */
export interface NamedSource {
  id: string;
  name: string;
}

export function addSources(c: EngineContext, sources: readonly NamedSource[]): Step {
  const before = c.plan.sourceIds ?? [];
  const fresh = [...new Map(sources.map((s) => [s.id, s])).values()].filter((s) => !before.includes(s.id));
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
  const plan = { ...c.plan, sourceIds: [...before, ...added.map((s) => s.id)] };
  return {
    patch: { plan },
    frames: say({ type: 'format_note', kind: 'sources', text: addedText(added.map((s) => s.name)) }),
  };
}

function addedText(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN);
  const more = names.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''} added: the next turns read ${names.length === 1 ? 'it' : 'them'}.`;
}
