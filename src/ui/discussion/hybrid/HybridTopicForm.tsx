// The hybrid panel's topic box (docs/product.md#discussions-screens): the shared start form
// (common/StartFormShell.tsx) on the topic, with the four templates between its label and the box.
import { HYBRID_TEMPLATE_NAMES, type HybridTemplateName } from '../../../model/hybridConfig';
import { StartFormShell, type StartFormShellProps } from '../common/StartFormShell';

const TOPIC_BOX = {
  id: 'hybrid-topic',
  label: 'Discussion topic',
  rows: 3,
  placeholder: 'What should the agents work out together?',
};

export type HybridTopicFormProps = Omit<StartFormShellProps, 'box' | 'beforeBox'> & {
  onTemplate: (template: HybridTemplateName) => void;
};

export function HybridTopicForm({ onTemplate, ...shell }: HybridTopicFormProps) {
  return (
    <StartFormShell
      {...shell}
      box={TOPIC_BOX}
      beforeBox={
        <div className="template-row" role="group" aria-label="Templates">
          {HYBRID_TEMPLATE_NAMES.map((name) => (
            <button key={name} type="button" className="chip-button" onClick={() => onTemplate(name)}>
              {name}
            </button>
          ))}
        </div>
      }
    />
  );
}
