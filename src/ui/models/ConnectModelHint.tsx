// The quiet onboarding notice: while only the offline demo model can answer, the canvas and the panel say so once,
// with 'Connect a model' opening the Models dialog. Dismissed, it stays away for the session.
import { useSelector } from '@xstate/react';
import type { ModelsActorRef } from '../../machines/models.machine';
import { selectShowConnectHint } from '../../machines/models.selectors';
import './models.css';

export function ConnectModelHint({ models, where }: { models: ModelsActorRef | undefined; where: 'canvas' | 'panel' }) {
  const show = useSelector(models, (s) => (s ? selectShowConnectHint(s) : false));
  if (!models || !show) return null;
  return (
    <div className={`connect-hint connect-hint--${where}`} role="note" aria-label="Model status">
      <span className="connect-hint__text">
        Agents are using the offline demo model, which writes rule-based replies.
      </span>
      <button
        type="button"
        className="button button--small button--primary"
        onClick={() => models.send({ type: 'models.open' })}
      >
        Connect a model
      </button>
      <button type="button" className="link-button" onClick={() => models.send({ type: 'models.hint.dismiss' })}>
        Not now
      </button>
    </div>
  );
}
