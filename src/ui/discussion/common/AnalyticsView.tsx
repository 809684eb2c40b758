// The Analytics tab (part 2 §2 'statistics view', §9 'Analytics'): totals, connection info, the message-type
// distribution, agent contributions, average argument confidence, the consensus summary and confidence per round.
import type { ReactNode } from 'react';
import type { Analytics } from '../../../model/feedSelectors';
import { BarChart } from './BarChart';
import { EmptyState } from './EmptyState';

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${Math.round(v * 100)}%`);

function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function AnalyticsView({ analytics, connection }: { analytics: Analytics; connection: { status: string; endpoint: string | null; sessionId: string | null } }) {
  const byType = Object.entries(analytics.countsByKind).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).map(([label, value]) => ({ label, value }));
  const contributions = analytics.agentContributions.map((c) => ({ label: c.name, value: c.count }));
  const rounds = analytics.confidenceByRound.map((r) => ({ label: `Round ${r.round}`, value: r.avgConfidence, text: pct(r.avgConfidence) }));
  return (
    <div className="analytics">
      <dl className="stats-grid">
        <Stat label="Messages" value={analytics.totalMessages} />
        <Stat label="Arguments" value={analytics.totalArguments} />
        <Stat label="Papers" value={analytics.totalPapers} />
        <Stat label="Avg. argument confidence" value={pct(analytics.averageArgumentConfidence)} />
        <Stat label="Delegations" value={analytics.delegations} />
        <Stat label="Connection" value={connection.status} />
      </dl>
      {(connection.endpoint || connection.sessionId) && (
        <p className="muted analytics__connection">
          {connection.endpoint && <>Endpoint: {connection.endpoint}</>}
          {connection.sessionId && <> · Session {connection.sessionId}</>}
        </p>
      )}
      {analytics.totalMessages === 0 ? (
        <EmptyState title="Nothing to measure yet">Start a discussion; counts and charts fill in as messages arrive.</EmptyState>
      ) : (
        <>
          <BarChart title="Messages by type" bars={byType} />
          <BarChart title="Contributions per agent" bars={contributions} />
          {rounds.length > 0 && <BarChart title="Average confidence per round" bars={rounds} max={1} />}
        </>
      )}
      {analytics.consensus && (
        <section className="consensus-summary" aria-label="Consensus">
          <h3>Consensus</h3>
          <p>{analytics.consensus.solution}</p>
          <p className="muted">
            Confidence {pct(analytics.consensus.confidence)} · support {pct(analytics.consensus.supportLevel)}
          </p>
          {analytics.consensus.dissentingOpinions.length > 0 && (
            <ul className="consensus-summary__dissent">
              {analytics.consensus.dissentingOpinions.map((d, i) => (
                <li key={i}>{d}</li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
