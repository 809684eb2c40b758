import type { Delegation } from '../../schemas/discussion';
import { kvAppend, kvGet, kvIndexOf, kvValues } from '../keyedVec';
import type { TurnExtra } from '../turnExtras';
import { attachmentRow } from './attachmentRow';
import { joinTurn, placeAttachment, putItem } from './items';
import { frameKey, own } from './keys';
import { feedWith, type AttachmentEntry, type AttachmentFrame, type DelegationEntry, type Feed } from './types';

// The frames that belong to an agent's turn but carry no id of their own (acl_message, request, delegation):
// they join that turn as extras, wait for it, or end as a light row of their own — never dropped, never doubled.

export const delegationKey = (d: Delegation) =>
  `delegation:${d.from_agent ?? d.from ?? ''}\u0000${d.to_agent ?? d.to ?? ''}\u0000${d.task ?? d.reason ?? ''}`;

export function delegationExtra(d: Delegation, source: unknown): TurnExtra {
  return {
    key: delegationKey(d),
    kind: 'delegation',
    performative: null,
    receiver: d.to_agent ?? d.to ?? null,
    stance: null,
    confidence: null,
    note: d.task ?? d.reason ?? null,
    source,
  };
}

/** The stance and confidence an ACL content object states (the engine sends {claim, stance, confidence, …}). */
export function statedIn(content: unknown): { stance: string | null; confidence: number | null } {
  if (typeof content !== 'object' || content === null) return { stance: null, confidence: null };
  const c = content as { stance?: unknown; confidence?: unknown };
  return {
    stance: typeof c.stance === 'string' && c.stance !== '' ? c.stance : null,
    confidence: typeof c.confidence === 'number' && c.confidence >= 0 && c.confidence <= 1 ? c.confidence : null,
  };
}

/** The turn an attachment joins now, or null (it waits, or becomes a row). */
export function turnFor(feed: Feed, sender: string, extra: TurnExtra): string | null {
  const newest = feed.lastAgentTurnId;
  if (newest !== null && kvGet(feed.items, newest)?.agentName === sender) return newest;
  const own_ = own(feed.lastTurnByName, sender) ?? null;
  if (extra.kind !== 'delegation') return own_;
  // A delegation frame before the text that carries it (the Basic endpoint): it belongs to that coming turn, not
  // to the agent's previous one — unless that one already carries it.
  return own_ !== null && kvGet(feed.items, own_)?.extras?.some((e) => e.key === extra.key) ? own_ : null;
}

/**
 * An ACL message as the feed keeps it: without its FIPA envelope (`message`), which repeats the frame's own
 * performative, sender, receiver, content and words and which nothing reads. Serialising the envelope for the key
 * was half of the hybrid ingest's largest cost, and keeping it held a second copy of every message (npm run bench
 * ingest). Two frames that differ only in their envelope are the same message. (A copy by hand: an object rest
 * that leaves a key out goes through the runtime in V8.)
 */
function withoutEnvelope(frame: AttachmentFrame): AttachmentFrame {
  if (frame.type !== 'acl_message' || frame.message === undefined) return frame;
  const own: Record<string, unknown> = {};
  for (const k in frame) if (k !== 'message') own[k] = (frame as Record<string, unknown>)[k];
  return own as AttachmentFrame;
}

export function onAttachment(feed: Feed, received: AttachmentFrame): Feed {
  const frame = withoutEnvelope(received);
  const key = frameKey(frame);
  if (kvIndexOf(feed.attachments, key) >= 0) return feed; // a replay: placed when it first came
  let sender: string;
  let extra: TurnExtra;
  let out = feed;
  if (frame.type === 'acl_message') {
    sender = frame.sender;
    const stated = statedIn(frame.content);
    extra = {
      key,
      kind: 'acl',
      performative: frame.performative,
      receiver: frame.receiver ?? null,
      stance: stated.stance,
      confidence: stated.confidence,
      note: null,
      source: frame,
    };
  } else if (frame.type === 'request') {
    sender = frame.from_agent;
    extra = {
      key,
      kind: 'request',
      performative: frame.action,
      receiver: frame.to_agent,
      stance: null,
      confidence: null,
      note: null,
      source: frame,
    };
  } else {
    const d = frame.delegation;
    sender = d.from_agent ?? d.from ?? '';
    extra = delegationExtra(d, frame);
    out = addDelegation(out, d, frame.timestamp ?? null);
  }
  const turnId = turnFor(out, sender, extra);
  const placed: AttachmentEntry['placed'] = turnId !== null ? 'turn' : out.session.ended ? 'row' : 'pending';
  const entry: AttachmentEntry = { key, sender, extra, frame, turnId, placed };
  out = feedWith(out, { attachments: kvAppend(out.attachments, key, entry) });
  if (placed === 'turn') return joinTurn(out, turnId!, extra);
  if (placed === 'row') return putItem(out, attachmentRow(entry));
  const waiting = own(out.pendingBySender, sender) ?? [];
  return feedWith(out, { pendingBySender: { ...out.pendingBySender, [sender]: [...waiting, key] } });
}

/** At the end nothing more will come: what still waits for a turn becomes a row of its own. */
export function flushPending(feed: Feed): Feed {
  if (Object.keys(feed.pendingBySender).length === 0) return feed;
  let out: Feed = feedWith(feed, { pendingBySender: {} });
  for (const e of kvValues(feed.attachments)) if (e.placed === 'pending') out = placeAttachment(out, e.key, null);
  return out;
}

export function addDelegation(feed: Feed, d: Delegation, timestamp: string | null): Feed {
  const from = d.from_agent ?? d.from ?? null;
  const to = d.to_agent ?? d.to ?? null;
  const key = delegationKey(d);
  if (kvIndexOf(feed.delegations, key) >= 0) return feed;
  const entry: DelegationEntry = {
    key,
    from,
    to,
    reason: d.reason ?? null,
    task: d.task ?? null,
    timestamp: d.timestamp ?? timestamp,
    delegation: d,
  };
  return feedWith(feed, { delegations: kvAppend(feed.delegations, key, entry) });
}
