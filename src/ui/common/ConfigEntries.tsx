// Development only: where the app is talking to, as entries of a <dl>; the login debug and the Debug panel both start with them.
import type { UiConfig } from '../config';

export function ConfigEntries({ config }: { config: Pick<UiConfig, 'apiUrl' | 'socketUrl' | 'environment'> }) {
  return (
    <>
      <dt>API URL</dt>
      <dd>{config.apiUrl}</dd>
      <dt>Socket URL</dt>
      <dd>{config.socketUrl}</dd>
      <dt>Environment</dt>
      <dd>{config.environment}</dd>
    </>
  );
}
