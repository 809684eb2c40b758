import { useSelector } from '@xstate/react';
import type { LoginFormActorRef } from '../../machines/loginForm.machine';
import { selectBackendBadge, selectBackendVersion, type BackendBadge } from '../../machines/loginForm.selectors';
import { Badge, type BadgeTone } from '../common/Badge';

const LOOK: Record<BackendBadge, { tone: BadgeTone; text: string }> = {
  checking: { tone: 'neutral', text: 'Checking backend…' },
  online: { tone: 'success', text: 'Backend online' },
  degraded: { tone: 'warning', text: 'Backend degraded' },
  offline: { tone: 'danger', text: 'Backend offline' },
};

export function BackendStatus({ form }: { form: LoginFormActorRef }) {
  const badge = useSelector(form, selectBackendBadge);
  const version = useSelector(form, selectBackendVersion);
  const look = LOOK[badge];
  return (
    <span role="status" aria-label={`Backend status: ${look.text}`}>
      <Badge tone={look.tone} title={version ? `Server version ${version}` : undefined}>
        {look.text}
      </Badge>
    </span>
  );
}
