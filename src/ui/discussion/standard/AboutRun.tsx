// 'About this run' (docs/product.md#discussions-screens): the endpoint's address and the session id are not in the
// standard panel's main view; this popover keeps them, with why that kind of discussion runs and the endpoint probe.
/** What the endpoint probe found, and its Refresh: technical, so in 'About this run' only. */
export interface EndpointsFacts {
  /** 'Basic, Enhanced, Multi-Round Reasoning, Hybrid NLP/ACL', or 'Checking...'. */
  line: string;
  probing: boolean;
  onRefresh: () => void;
}

/**
 * The run's technical facts behind a small disclosure; Esc closes it. Its content is in the page while closed (the
 * browser hides it), so what the endpoint probe found can be read without opening it.
 */
export function AboutRun({
  sessionId,
  endpointName,
  endpointPath,
  why,
  endpoints,
}: {
  sessionId: string | null;
  endpointName: string | null;
  endpointPath: string | null;
  /** Why this kind of discussion will run (interrupts, research, multi-round…). */
  why?: string;
  endpoints?: EndpointsFacts;
}) {
  return (
    <details
      className="about-run"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && e.currentTarget.open) {
          e.currentTarget.open = false;
          e.currentTarget.querySelector('summary')?.focus();
        }
      }}
    >
      <summary>About this run</summary>
      <div className="about-run__facts">
        <dl className="about-run__list">
          <dt>Discussion kind</dt>
          <dd>{endpointName ?? 'Chosen when it starts'}</dd>
          {why && (
            <>
              <dt>Why</dt>
              <dd>{why}</dd>
            </>
          )}
          {endpointPath && (
            <>
              <dt>Server address</dt>
              <dd>
                <code>{endpointPath}</code>
              </dd>
            </>
          )}
          <dt>Session</dt>
          <dd>{sessionId ? <code>{sessionId}</code> : 'Not started yet'}</dd>
        </dl>
        {endpoints && (
          <p className="about-run__endpoints">
            <span>Available endpoints: {endpoints.line}</span>
            <button
              type="button"
              className="link-button link-button--small"
              onClick={endpoints.onRefresh}
              disabled={endpoints.probing}
            >
              {endpoints.probing ? 'Checking…' : 'Refresh'}
            </button>
          </p>
        )}
      </div>
    </details>
  );
}
