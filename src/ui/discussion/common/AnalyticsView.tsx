// The Analytics tab (docs/product.md#discussions-screens 'statistics view', #discussions-limits 'Analytics'): totals,
// connection info, the message-type distribution, agent contributions, average argument confidence, the consensus
// summary and confidence per round.
import type { ReactNode } from 'react';
import type { Analytics } from '../../../model/feedSelectors';
import { tokenCount } from '../../../model/tokenSpend';
import { BarChart } from './BarChart';
import { EmptyState } from './EmptyState';
import { PositionTimeline } from './PositionTimeline';

/** Row kinds in the reader's words (one bar per word: the turn kinds of the endpoints are all 'Agent turns'). */
const KIND_WORDS: Record<string, string> = {
  hybrid: 'Agent turns',
  text: 'Agent turns',
  argument: 'Agent turns',
  human: 'Your messages',
  round: 'Round markers',
  stage: 'Stages',
  consensus: 'Consensus',
  summary: 'Summary',
  research: 'Research',
  system: 'Notices',
  error: 'Problems',
  acl: 'Other notes',
  delegation: 'Hand-overs',
};

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${Math.round(v * 100)}%`);

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function AnalyticsView({
  analytics,
  connection,
}: {
  analytics: Analytics;
  connection: { status: string; endpoint: string | null; sessionId: string | null };
}) {
  const merged = new Map<string, number>();
  for (const [kind, n] of Object.entries(analytics.countsByKind))
    if (n > 0) merged.set(KIND_WORDS[kind] ?? kind, (merged.get(KIND_WORDS[kind] ?? kind) ?? 0) + n);
  const byType = [...merged.entries()].sort((a, b) => b[1] - a[1]).map(([label, value]) => ({ label, value }));
  const contributions = analytics.agentContributions.map((c) => ({ label: c.name, value: c.count }));
  const { tokens } = analytics;
  const tokenBars = [
    ...tokens.perAgent.map((a) => ({ label: a.name, value: a.tokens, text: tokenCount(a.tokens, a.estimated) })),
    // A person's messages carry no count: estimated from their text, and marked so.
    ...tokens.people.map((p) => ({ label: p.name, value: p.tokens, text: tokenCount(p.tokens, true) })),
  ];
  const rounds = analytics.confidenceByRound.map((r) => ({
    label: `Round ${r.round}`,
    value: r.avgConfidence,
    text: pct(r.avgConfidence),
  }));
  return (
    <div className="analytics">
      <dl className="stats-grid">
        <Stat label="Messages" value={analytics.totalMessages} />
        <Stat label="Arguments" value={analytics.totalArguments} />
        <Stat label="Papers" value={analytics.totalPapers} />
        <Stat label="Avg. argument confidence" value={pct(analytics.averageArgumentConfidence)} />
        <Stat label="Delegations" value={analytics.delegations} />
        <Stat label="Tokens" value={tokens.total > 0 ? tokenCount(tokens.total, tokens.estimated) : '—'} />
        <Stat label="Run" value={runWord(connection.status, analytics.totalMessages)} />
      </dl>
      {connection.endpoint && <p className="muted analytics__connection">Discussion kind: {connection.endpoint}</p>}
      {analytics.totalMessages === 0 ? (
        <EmptyState title="Nothing to measure yet">
          Start a discussion; counts and charts fill in as messages arrive.
        </EmptyState>
      ) : (
        <>
          <BarChart title="Messages by type" bars={byType} />
          <BarChart title="Contributions per agent" bars={contributions} />
          {tokens.total > 0 && <BarChart title="Tokens per agent and person" bars={tokenBars} />}
          {tokens.total > 0 && (
            <p className="muted analytics__tokens-note">
              {tokens.estimated
                ? '≈: some turns were not counted by their model’s server or tokenizer and are estimated from the text (about 4 characters a token).'
                : 'Counted by the models’ servers or tokenizer.'}
              {tokens.people.length > 0 && ' People’s messages are estimated from their text.'}
            </p>
          )}
          {rounds.length > 0 && <BarChart title="Average confidence per round" bars={rounds} max={1} />}
        </>
      )}
      {analytics.positions && <PositionTimeline story={analytics.positions} />}
      {analytics.consensus && (
        <section className="consensus-summary" aria-label="Consensus">
          <h3>Outcome</h3>
          <p className="consensus-summary__headline">{analytics.consensus.words.headline}</p>
          <p>{analytics.consensus.words.body}</p>
        </section>
      )}
    </div>
  );
}

/** A run that is not running is finished when it left messages behind, and has not started when it left none. */
function runWord(status: string, messages: number): string {
  if (status === 'disconnected') return messages > 0 ? 'Finished' : 'Not started';
  return RUN_WORDS[status] ?? status;
}

/** The run's state in words: between runs nothing is 'disconnected', it is simply not running. */
const RUN_WORDS: Record<string, string> = {
  disconnected: 'Not running',
  connecting: 'Starting',
  connected: 'Running',
  error: 'Stopped by an error',
};
