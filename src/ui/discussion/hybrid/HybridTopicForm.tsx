// The hybrid panel's topic box (docs/product.md#discussions-screens): four templates, the topic, 'Start Hybrid
// Discussion', and the first failing start check under it (Start stays disabled while one fails).
import { HYBRID_TEMPLATE_NAMES, type HybridTemplateName } from '../../../model/hybridConfig';

export interface HybridTopicFormProps {
  topic: string;
  problem: string | null;
  onTopicChange: (text: string) => void;
  onTemplate: (template: HybridTemplateName) => void;
  onStart: () => void;
}

export function HybridTopicForm(p: HybridTopicFormProps) {
  return (
    <form
      className="start-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!p.problem) p.onStart();
      }}
    >
      <label className="start-form__label" htmlFor="hybrid-topic">
        Discussion topic
      </label>
      <div className="template-row" role="group" aria-label="Templates">
        {HYBRID_TEMPLATE_NAMES.map((name) => (
          <button key={name} type="button" className="chip-button" onClick={() => p.onTemplate(name)}>
            {name}
          </button>
        ))}
      </div>
      <textarea
        id="hybrid-topic"
        className="start-form__context"
        rows={3}
        value={p.topic}
        placeholder="What should the agents work out together?"
        onChange={(e) => p.onTopicChange(e.target.value)}
      />
      <button type="submit" className="button button--primary button--block" disabled={p.problem !== null}>
        Start Hybrid Discussion
      </button>
      <p className="start-form__hint" aria-live="polite">
        {p.problem && <span className="start-form__problem">{p.problem}</span>}
      </p>
    </form>
  );
}
