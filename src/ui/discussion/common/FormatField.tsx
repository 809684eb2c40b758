// The 'Format' setting (docs/protocol.md#formats): one select, one plain line on what the chosen format does and
// how many messages it writes, and who moderates, chairs or judges. What a canvas connection means is said
// here too, where the agents taking part are chosen.
import { formatCounts, formatOption, formatOptions, type FormatAgent, type FormatRole } from '../../../model/formats';
import type { FormatKind } from '../../../schemas/format';
import type { PanelFormat } from '../../../schemas/settings';
import { SelectField } from './Fields';

export type { FormatAgent };

export function FormatField({
  value,
  agents,
  turns,
  connected,
  onChange,
  showHearing = true,
}: {
  value: PanelFormat;
  agents: FormatAgent[];
  turns: number;
  /** Whether canvas connections join some of the chosen agents. */
  connected: boolean;
  onChange: (next: PanelFormat) => void;
  /** Off where canvas connections are not sent (the hybrid panel): everyone hears everyone there. */
  showHearing?: boolean;
}) {
  const names = Object.fromEntries(agents.map((a) => [a.id, a.name]));
  const withYou = ['human', ...agents.map((a) => a.id)];
  const labels = { human: 'You', ...names };
  const option = formatOption(value.kind);
  const options = formatOptions();
  // A role the person may take offers 'You' first and falls back to it; an agent's role falls back to the first.
  const roleField = ({ role, label, person }: FormatRole) =>
    person ? (
      <SelectField
        key={role}
        label={label}
        value={withYou.includes(value[role]) ? value[role] : 'human'}
        options={withYou}
        labels={labels}
        onChange={(id) => onChange({ ...value, [role]: id })}
      />
    ) : (
      agents.length > 0 && (
        <SelectField
          key={role}
          label={label}
          value={names[value[role]] ? value[role] : agents[0].id}
          options={agents.map((a) => a.id)}
          labels={names}
          onChange={(id) => onChange({ ...value, [role]: id })}
        />
      )
    );
  return (
    <div className="format-field">
      <SelectField<FormatKind>
        label="Format"
        value={value.kind}
        options={options.map((o) => o.kind)}
        labels={Object.fromEntries(options.map((o) => [o.kind, o.label]))}
        onChange={(kind) => onChange({ ...value, kind })}
      />
      <p className="format-field__line muted">{option.line(formatCounts(value, agents, turns))}</p>
      {option.roles.map(roleField)}
      {option.note && <p className="format-field__line muted">{option.note(value, agents)}</p>}
      {showHearing && option.hearsCanvas && (
        <p className="format-field__line muted">
          {connected
            ? 'Hear only connected agents: an agent hears only the agents it is connected to on the canvas.'
            : 'Everyone hears everyone. Connect agents on the canvas to let each hear only the agents it is connected to.'}
        </p>
      )}
    </div>
  );
}
