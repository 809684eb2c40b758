// The hybrid panel's topic box (docs/product.md#discussions-screens): four templates, the topic, Start (it names the
// format: 'Start debate'), and the first failing start check under it (Start stays disabled while one fails).
import { useState } from 'react';
import { HYBRID_TEMPLATE_NAMES, type HybridTemplateName } from '../../../model/hybridConfig';
import { problemToSay } from '../common/problemToSay';

export interface HybridTopicFormProps {
  topic: string;
  problem: string | null;
  /** The Start button's words (discussionFormat.ts startLabel: it names the format). */
  startLabel: string;
  onTopicChange: (text: string) => void;
  onTemplate: (template: HybridTemplateName) => void;
  onStart: () => void;
}

export function HybridTopicForm(p: HybridTopicFormProps) {
  // Whether the person has typed in or left the topic box, or tried to start: only then is an empty box a problem.
  const [touched, setTouched] = useState(false);
  const said = problemToSay(p.problem, touched);
  return (
    <form
      className="start-form"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
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
        onChange={(e) => {
          setTouched(true);
          p.onTopicChange(e.target.value);
        }}
        onBlur={() => setTouched(true)}
      />
      <button type="submit" className="button button--primary button--block" disabled={p.problem !== null}>
        {p.startLabel}
      </button>
      <p className="start-form__hint" aria-live="polite">
        {said && <span className="start-form__problem">{said}</span>}
      </p>
    </form>
  );
}
