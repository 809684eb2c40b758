// What the protocol adds to a turn, quiet and collapsed beneath its text: the performative as a short
// phrase, stance and confidence, reasoning steps, evidence, a hand-over, the audio clip. The summary line says
// what is inside in plain words; the body is built only when opened, so a closed disclosure costs two nodes.
import { useState } from 'react';
import type { FeedItem } from '../../../model/feed';
import { extraPhrases, stanceWords, statedPosition } from '../../../model/turnExtras';
import { MessageAudio } from './MessageAudio';

const field = (item: FeedItem, key: string): unknown => {
  const s = item.source;
  return typeof s === 'object' && s !== null ? (s as Record<string, unknown>)[key] : undefined;
};

const ARGUMENT_PHRASES: Record<string, string> = {
  proposal: 'puts forward a proposal',
  support: 'backs the proposal',
  counter: 'objects',
  question: 'raises a question',
  synthesis: 'sums up',
};

/** Reasoning steps as sentences: a list of steps, an object of named parts, or one 'a → b → c' line. */
function stepsOf(item: FeedItem): string[] {
  const chain = field(item, 'reasoning_chain');
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  if (Array.isArray(chain)) return chain.map(text).filter(Boolean);
  if (chain && typeof chain === 'object')
    return Object.entries(chain as Record<string, unknown>).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${text(v)}`);
  const r = field(item, 'reasoning');
  return typeof r === 'string' && r.trim() ? r.split(/\s+→\s+/) : [];
}

function evidenceOf(item: FeedItem): string[] {
  const ev =
    field(item, 'evidence') ??
    (field(item, 'argument') as { supporting_evidence?: unknown } | undefined)?.supporting_evidence;
  if (!Array.isArray(ev)) return [];
  return ev.map((e) =>
    typeof e === 'string'
      ? e
      : typeof e === 'object' && e && 'title' in e
        ? String((e as { title: unknown }).title)
        : JSON.stringify(e),
  );
}

/** The one summary line: 'proposes to Ada · in favour · 72% sure · 3 reasoning steps'. */
export function detailsSummary(
  item: FeedItem,
  withoutAcl = false,
): { line: string; steps: string[]; evidence: string[] } {
  // With the ACL message drawn as a card, the line leaves out what the card already says.
  const extras = withoutAcl ? item.extras?.filter((e) => e.kind !== 'acl' && e.kind !== 'request') : item.extras;
  const phrases = extraPhrases(extras);
  const argType = (field(item, 'argument') as { type?: string } | undefined)?.type;
  if (phrases.length === 0 && argType && ARGUMENT_PHRASES[argType]) phrases.push(ARGUMENT_PHRASES[argType]);
  const stated = statedPosition(extras);
  const confidence = withoutAcl ? null : (item.confidence ?? stated.confidence);
  const steps = stepsOf(item);
  const evidence = evidenceOf(item);
  const parts = [
    ...phrases,
    stated.stance ? stanceWords(stated.stance) : null,
    confidence != null ? `${Math.round(confidence * 100)}% sure` : null,
    steps.length ? `${steps.length} reasoning step${steps.length === 1 ? '' : 's'}` : null,
    evidence.length ? `${evidence.length} source${evidence.length === 1 ? '' : 's'}` : null,
  ].filter((x): x is string => !!x);
  return { line: parts.join(' · '), steps, evidence };
}

export function TurnDetails({ item, withoutAcl = false }: { item: FeedItem; withoutAcl?: boolean }) {
  const [open, setOpen] = useState(false);
  const { line, steps, evidence } = detailsSummary(item, withoutAcl);
  const handovers = (item.extras ?? []).filter((e) => e.kind === 'delegation');
  const audio = item.audioUrl ?? null;
  if (!line && !audio) return null;
  return (
    <details className="turn-details" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>{[line, audio ? 'audio clip' : ''].filter(Boolean).join(' · ')}</summary>
      {open && (
        <div className="turn-details__body">
          {steps.length > 0 && (
            <>
              <p className="turn-details__label">How they got there</p>
              <ol className="turn-details__steps">
                {steps.map((s, i) => (
                  <li key={i}>{s}</li>
                ))}
              </ol>
            </>
          )}
          {evidence.length > 0 && (
            <>
              <p className="turn-details__label">Evidence</p>
              <ul className="turn-details__evidence">
                {evidence.map((s, i) => (
                  <li key={i}>{s}</li>
                ))}
              </ul>
            </>
          )}
          {handovers.map((h) => (
            <p key={h.key} className="turn-details__note">
              Hands over to {h.receiver ?? 'someone'}
              {h.note ? `: ${h.note}` : ''}
            </p>
          ))}
          {audio && <MessageAudio url={audio} speaker={item.agentName} />}
        </div>
      )}
    </details>
  );
}
