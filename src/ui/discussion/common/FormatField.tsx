// The 'Format' setting (docs/protocol.md#formats): one select, one plain line on what the chosen format does and
// how many messages it writes, and who moderates, chairs or judges. What a canvas connection means is said
// here too, where the agents taking part are chosen.
import { debateSplit, FORMAT_OPTIONS, formatOption } from '../../../model/discussionFormat';
import type { FormatKind } from '../../../schemas/format';
import type { PanelFormat } from '../../../schemas/settings';
import { SelectField } from './Fields';

export interface FormatAgent {
  id: string;
  name: string;
}

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
  // An agent judges only with three or more taking part, as the first frame will say (formatOf).
  const split = debateSplit(
    agents.map((a) => a.id),
    agents.length >= 3 && agents.some((a) => a.id === value.judge) ? value.judge : 'human',
  );
  const counts = {
    agents: Math.max(2, agents.length),
    turns,
    debaters: Math.max(2, split.for.length + split.against.length),
  };
  const list = (ids: string[]) => ids.map((id) => names[id]).join(', ') || 'nobody yet';
  return (
    <div className="format-field">
      <SelectField<FormatKind>
        label="Format"
        value={value.kind}
        options={FORMAT_OPTIONS.map((o) => o.kind)}
        labels={Object.fromEntries(FORMAT_OPTIONS.map((o) => [o.kind, o.label]))}
        onChange={(kind) => onChange({ ...value, kind })}
      />
      <p className="format-field__line muted">{option.line(counts)}</p>
      {value.kind === 'moderated' && (
        <SelectField
          label="Moderator"
          value={withYou.includes(value.moderator) ? value.moderator : 'human'}
          options={withYou}
          labels={labels}
          onChange={(moderator) => onChange({ ...value, moderator })}
        />
      )}
      {value.kind === 'council' && agents.length > 0 && (
        <SelectField
          label="Chair"
          value={names[value.chair] ? value.chair : agents[0].id}
          options={agents.map((a) => a.id)}
          labels={names}
          onChange={(chair) => onChange({ ...value, chair })}
        />
      )}
      {value.kind === 'debate' && (
        <>
          <SelectField
            label="Judge"
            value={withYou.includes(value.judge) ? value.judge : 'human'}
            options={withYou}
            labels={labels}
            onChange={(judge) => onChange({ ...value, judge })}
          />
          <p className="format-field__line muted">
            For: {list(split.for)} · Against: {list(split.against)}
          </p>
        </>
      )}
      {showHearing && (value.kind === 'round_table' || value.kind === 'moderated') && (
        <p className="format-field__line muted">
          {connected
            ? 'Hear only connected agents: an agent hears only the agents it is connected to on the canvas.'
            : 'Everyone hears everyone. Connect agents on the canvas to let each hear only the agents it is connected to.'}
        </p>
      )}
    </div>
  );
}
