// A message's reasoning chain, expandable; the server sends a list of steps or an object of named parts.
export function ReasoningChain({ chain }: { chain: unknown }) {
  const entries: [string, unknown][] = Array.isArray(chain)
    ? chain.map((step, i) => [`${i + 1}.`, step])
    : typeof chain === 'object' && chain !== null
      ? Object.entries(chain as Record<string, unknown>)
      : [['', chain]];
  if (entries.length === 0) return null;
  return (
    <details className="message-card__details">
      <summary>Reasoning chain ({entries.length})</summary>
      <dl className="reasoning-chain">
        {entries.map(([k, v], i) => (
          <div key={i} className="reasoning-chain__row">
            <dt>{k}</dt>
            <dd>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
