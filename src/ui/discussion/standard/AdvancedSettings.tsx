// The Advanced Settings popover (docs/product.md#discussions-screens): the basics first (Turns, the most asked-for
// setting, at the top), then communication, multi-round reasoning, research integration, and the endpoint
// status list with Refresh last. Bounds come from src/schemas/settings.ts; each change sends the whole settings object,
// which the machine checks against the schema and saves.
import {
  COMMUNICATION_STYLES,
  CONVERSATION_MODES,
  ENDPOINT_KEYS,
  ENDPOINTS,
  REASONING_MODES,
  REASONING_STAGES,
  RESEARCH_DOMAINS,
  RESEARCH_SOURCES,
  RESPONSE_LENGTHS,
  RESPONSE_LENGTH_TEMPLATES,
  type EndpointKey,
} from '../../../schemas/constants';
import { useRef } from 'react';
import { bounds, type StandardPanelSettings } from '../../../schemas/settings';
import { EVIDENCE_RULE } from '../../../model/outcomeWords';
import { useDialogFocus } from '../../common/focus';
import { toggled, withResponseLength } from '../../../model/panelSettings';
import { CheckField, NumberField, RangeField, SelectField } from '../common/Fields';

type Availability = 'unknown' | 'available' | 'unavailable';
const AVAILABILITY_TEXT: Record<Availability, string> = {
  unknown: 'Checking...',
  available: 'Available',
  unavailable: 'Unavailable',
};

export interface AdvancedSettingsProps {
  settings: StandardPanelSettings;
  availability: Record<EndpointKey, Availability>;
  probing: boolean;
  onChange: (settings: StandardPanelSettings) => void;
  onRefresh: () => void;
  onReset: () => void;
  onClose: () => void;
}

export function AdvancedSettings({
  settings: s,
  availability,
  probing,
  onChange,
  onRefresh,
  onReset,
  onClose,
}: AdvancedSettingsProps) {
  const comm = (patch: Partial<StandardPanelSettings['communication']>) =>
    onChange({ ...s, communication: { ...s.communication, ...patch } });
  const reas = (patch: Partial<StandardPanelSettings['reasoning']>) =>
    onChange({ ...s, reasoning: { ...s.reasoning, ...patch } });
  const res = (patch: Partial<StandardPanelSettings['research']>) =>
    onChange({ ...s, research: { ...s.research, ...patch } });
  const basic = (patch: Partial<StandardPanelSettings['basic']>) => onChange({ ...s, basic: { ...s.basic, ...patch } });
  const template =
    s.communication.responseLength !== 'custom' ? RESPONSE_LENGTH_TEMPLATES[s.communication.responseLength] : null;

  const root = useRef<HTMLElement>(null);
  // Focus moves in when it opens and back to its button when it closes; Esc closes it wherever the focus is.
  useDialogFocus(root, onClose);
  return (
    <section
      ref={root}
      id="advanced-settings"
      className="settings-popover"
      role="dialog"
      aria-label="Advanced Settings"
    >
      <header className="settings-popover__head">
        <h3>Advanced Settings</h3>
        <div className="button-row">
          <button type="button" className="button button--small button--ghost" onClick={onReset}>
            Reset to defaults
          </button>
          <button type="button" className="button button--small" onClick={onClose}>
            Done
          </button>
        </div>
      </header>

      <fieldset className="settings-section">
        <legend>Basics</legend>
        <NumberField
          label="Turns"
          value={s.basic.turns}
          bounds={bounds.standardTurns}
          onChange={(v) => basic({ turns: v })}
        />
        <CheckField label="Speech (text to speech)" checked={s.basic.tts} onChange={(v) => basic({ tts: v })} />
        <SelectField
          label="Conversation mode"
          value={s.basic.mode}
          options={CONVERSATION_MODES}
          onChange={(v) => basic({ mode: v })}
        />
        <CheckField
          label="Human participation"
          checked={s.basic.humanParticipation}
          onChange={(v) => basic({ humanParticipation: v })}
        />
        <CheckField
          label="Hybrid mode (natural language + ACL)"
          checked={s.basic.hybridMode}
          onChange={(v) => basic({ hybridMode: v })}
        />
      </fieldset>

      <fieldset className="settings-section">
        <legend>Communication</legend>
        <SelectField
          label="Response length"
          value={s.communication.responseLength}
          options={RESPONSE_LENGTHS}
          onChange={(v) => onChange(withResponseLength(s, v))}
        />
        {template && <p className="field__hint muted">{`${template.min}–${template.max} tokens (${template.hint})`}</p>}
        {s.communication.responseLength === 'custom' && (
          <div className="field-pair">
            <NumberField
              label="Min tokens"
              value={s.communication.minTokens}
              bounds={{ min: 0 }}
              onChange={(v) => comm({ minTokens: v })}
            />
            <NumberField
              label="Max tokens"
              value={s.communication.maxTokens}
              bounds={{ min: 1 }}
              onChange={(v) => comm({ maxTokens: v })}
            />
          </div>
        )}
        <RangeField
          label="Temperature"
          value={s.communication.temperature}
          bounds={bounds.temperature}
          onChange={(v) => comm({ temperature: v })}
          format={(v) => v.toFixed(1)}
        />
        <SelectField
          label="Reasoning mode"
          value={s.communication.reasoningMode}
          options={REASONING_MODES}
          onChange={(v) => comm({ reasoningMode: v })}
          labels={{ cot: 'chain of thought', tot: 'tree of thought' }}
        />
        <SelectField
          label="Style"
          value={s.communication.communicationStyle}
          options={COMMUNICATION_STYLES}
          onChange={(v) => comm({ communicationStyle: v })}
        />
        <CheckField
          label="Show reasoning"
          checked={s.communication.showReasoning}
          onChange={(v) => comm({ showReasoning: v })}
        />
        <CheckField
          label="Use ACL (formal agent messages)"
          checked={s.communication.useACL}
          onChange={(v) => comm({ useACL: v })}
        />
        <CheckField
          label="Allow interrupts"
          checked={s.communication.enableInterrupts}
          onChange={(v) => comm({ enableInterrupts: v })}
        />
        {s.communication.enableInterrupts && (
          <RangeField
            label="Interrupt threshold"
            value={s.communication.interruptThreshold}
            bounds={bounds.interruptThreshold}
            onChange={(v) => comm({ interruptThreshold: v })}
            format={(v) => v.toFixed(2)}
          />
        )}
      </fieldset>

      <fieldset className="settings-section">
        <legend>Multi-round reasoning</legend>
        <CheckField
          label="Enable multi-round reasoning"
          checked={s.reasoning.enableMultiRound}
          onChange={(v) => reas({ enableMultiRound: v })}
        />
        <NumberField
          label="Max rounds"
          value={s.reasoning.maxRounds}
          bounds={bounds.reasoningMaxRounds}
          onChange={(v) => reas({ maxRounds: v })}
          disabled={!s.reasoning.enableMultiRound}
        />
        <div className="chip-group" role="group" aria-label="Reasoning stages">
          {REASONING_STAGES.map((stage) => (
            <CheckField
              key={stage}
              label={stage}
              checked={s.reasoning.stages.includes(stage)}
              disabled={
                !s.reasoning.enableMultiRound || (s.reasoning.stages.length === 1 && s.reasoning.stages.includes(stage))
              }
              onChange={() => reas({ stages: toggled(s.reasoning.stages, stage, REASONING_STAGES) })}
            />
          ))}
        </div>
        <RangeField
          label="Convergence threshold"
          value={s.reasoning.convergenceThreshold}
          bounds={bounds.convergence}
          onChange={(v) => reas({ convergenceThreshold: v })}
          format={(v) => v.toFixed(2)}
        />
        <CheckField
          label="Include implementation stage"
          checked={s.reasoning.enableImplementation}
          onChange={(v) => reas({ enableImplementation: v })}
        />
      </fieldset>

      <fieldset className="settings-section">
        <legend>Agreement</legend>
        {/* Every endpoint honours it (server/engine/plan.ts), so it is not a multi-round setting. */}
        <CheckField
          label={EVIDENCE_RULE.label}
          hint={EVIDENCE_RULE.hint}
          checked={s.reasoning.requireEvidence}
          onChange={(v) => reas({ requireEvidence: v })}
        />
      </fieldset>

      <fieldset className="settings-section">
        <legend>Research integration</legend>
        <CheckField
          label="Enable research"
          checked={s.research.enableResearch}
          onChange={(v) => res({ enableResearch: v })}
        />
        <div className="chip-group" role="group" aria-label="Research sources">
          {RESEARCH_SOURCES.map((src) => (
            <CheckField
              key={src}
              label={src.replace('_', ' ')}
              checked={s.research.sources.includes(src)}
              disabled={!s.research.enableResearch}
              onChange={() => res({ sources: toggled(s.research.sources, src, RESEARCH_SOURCES) })}
            />
          ))}
        </div>
        <NumberField
          label="Max results"
          value={s.research.maxResults}
          bounds={bounds.researchMaxResults}
          onChange={(v) => res({ maxResults: v })}
          disabled={!s.research.enableResearch}
        />
        <SelectField
          label="Domain"
          value={s.research.domainFilter}
          options={RESEARCH_DOMAINS}
          onChange={(v) => res({ domainFilter: v })}
          disabled={!s.research.enableResearch}
        />
        <CheckField
          label="Retrieve automatically"
          checked={s.research.autoRetrieve}
          onChange={(v) => res({ autoRetrieve: v })}
          disabled={!s.research.enableResearch}
        />
      </fieldset>

      <fieldset className="settings-section">
        <legend>Discussion kinds on this server</legend>
        <ul className="endpoint-list">
          {ENDPOINT_KEYS.map((k) => (
            <li key={k} className={`endpoint-list__item endpoint-list__item--${availability[k]}`}>
              <span className="endpoint-list__dot" aria-hidden="true" />
              <span className="endpoint-list__name">{ENDPOINTS[k].name}</span>
              <code className="endpoint-list__path">{ENDPOINTS[k].path}</code>
              <span className="endpoint-list__state">{AVAILABILITY_TEXT[availability[k]]}</span>
            </li>
          ))}
        </ul>
        <button type="button" className="button button--small" onClick={onRefresh} disabled={probing}>
          {probing ? 'Checking…' : 'Refresh'}
        </button>
      </fieldset>
    </section>
  );
}
