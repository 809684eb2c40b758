// Development only: where the app is talking to, and a preview of the token it holds.
import { ConfigEntries } from '../common/ConfigEntries';
import type { UiConfig } from '../config';

export const tokenPreview = (token: string | null) => (token ? `${token.slice(0, 24)}…` : '(none)');

export function LoginDebug({ config, token }: { config: UiConfig; token: string | null }) {
  return (
    <dl className="debug-list" aria-label="Debug information">
      <ConfigEntries config={config} />
      <dt>Token</dt>
      <dd>
        <code>{tokenPreview(token)}</code>
      </dd>
    </dl>
  );
}
