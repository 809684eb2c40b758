// The hybrid panel's topic box (docs/product.md#discussions-screens): the shared start form
// (common/StartFormShell.tsx) on the topic, with the four templates between its label and the box.
import { HYBRID_TEMPLATE_NAMES, type HybridTemplateName } from '../../../model/hybridConfig';
import { StartFormShell } from '../common/StartFormShell';

const TOPIC_BOX = {
  id: 'hybrid-topic',
  label: 'Discussion topic',
  rows: 3,
  placeholder: 'What should the agents work out together?',
};

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
  return (
    <StartFormShell
      box={TOPIC_BOX}
      text={p.topic}
      onTextChange={p.onTopicChange}
      problem={p.problem}
      startLabel={p.startLabel}
      onStart={p.onStart}
      beforeBox={
        <div className="template-row" role="group" aria-label="Templates">
          {HYBRID_TEMPLATE_NAMES.map((name) => (
            <button key={name} type="button" className="chip-button" onClick={() => p.onTemplate(name)}>
              {name}
            </button>
          ))}
        </div>
      }
    />
  );
}
