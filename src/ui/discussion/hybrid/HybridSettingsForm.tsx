// The hybrid panel's collapsible settings (docs/product.md#discussions-screens, #discussions-validation bounds,
// #discussions-limits defaults), disabled while connected. Modes come
// with their descriptions and best_for from /api/ws/hybrid/modes when the server offers them.
import { CITATION_STYLES, HYBRID_MODES, RESPONSE_FORMATS, SPEED_CHOICES } from '../../../schemas/constants';
import type { HybridModeInfo } from '../../../schemas/hybridMeta';
import { bounds, type HybridSettings } from '../../../schemas/settings';
import { CheckField, NumberField, RangeField, SelectField } from '../common/Fields';
import { EVIDENCE_RULE } from '../../../model/outcomeWords';

export interface HybridSettingsFormProps {
  settings: HybridSettings;
  modes: (HybridModeInfo & { id: string })[];
  disabled: boolean;
  onChange: (settings: HybridSettings) => void;
}

export function HybridSettingsForm({ settings: s, modes, disabled, onChange }: HybridSettingsFormProps) {
  const set = (patch: Partial<HybridSettings>) => onChange({ ...s, ...patch });
  const mode = modes.find((m) => m.id === s.mode || m.name.toLowerCase() === s.mode);
  return (
    <fieldset className="hybrid-settings" disabled={disabled}>
      <legend className="visually-hidden">Hybrid discussion settings</legend>
      {disabled && <p className="field__hint muted">Settings are locked while the discussion is connected.</p>}
      <SelectField label="Mode" value={s.mode} options={HYBRID_MODES} onChange={(v) => set({ mode: v })} />
      {mode && (
        <p className="hybrid-settings__mode muted">
          {mode.description} <em>Best for: {mode.best_for}</em>
        </p>
      )}
      <div className="field-pair">
        <NumberField
          label="Max rounds"
          value={s.max_rounds}
          bounds={bounds.hybridMaxRounds}
          onChange={(v) => set({ max_rounds: v })}
        />
        <NumberField
          label="Turns per round"
          value={s.turns_per_round}
          bounds={bounds.turnsPerRound}
          onChange={(v) => set({ turns_per_round: v })}
        />
      </div>
      <RangeField
        label="Max response length (words)"
        value={s.max_response_length}
        bounds={bounds.maxResponseLength}
        onChange={(v) => set({ max_response_length: v })}
      />
      <RangeField
        label="Reasoning depth"
        value={s.reasoning_depth}
        bounds={bounds.reasoningDepth}
        onChange={(v) => set({ reasoning_depth: v })}
      />
      <RangeField
        label="Consensus threshold"
        value={s.consensus_threshold}
        bounds={bounds.consensusThreshold}
        onChange={(v) => set({ consensus_threshold: Math.round(v * 100) / 100 })}
        format={(v) => v.toFixed(2)}
      />
      <RangeField
        label="Pause between turns (ms)"
        value={s.pause_between_turns}
        bounds={bounds.pauseBetweenTurns}
        onChange={(v) => set({ pause_between_turns: v })}
      />
      <div className="field-pair">
        <SelectField
          label="Response format"
          value={s.response_format}
          options={RESPONSE_FORMATS}
          onChange={(v) => set({ response_format: v })}
        />
        <SelectField
          label="Citation style"
          value={s.citation_style}
          options={CITATION_STYLES}
          onChange={(v) => set({ citation_style: v })}
        />
      </div>
      <CheckField
        label={EVIDENCE_RULE.label}
        hint={EVIDENCE_RULE.hint}
        checked={s.evidence_required}
        onChange={(v) => set({ evidence_required: v })}
      />
      <CheckField label="Allow research" checked={s.allow_research} onChange={(v) => set({ allow_research: v })} />
      <CheckField
        label="Stop automatically on consensus"
        checked={s.auto_stop_on_consensus}
        onChange={(v) => set({ auto_stop_on_consensus: v })}
      />
      <CheckField
        label="Independent first answers"
        checked={s.independent_first_answers}
        onChange={(v) => set({ independent_first_answers: v })}
      />
      <CheckField
        label="Cross-agent learning"
        checked={s.enable_cross_agent_learning}
        onChange={(v) => set({ enable_cross_agent_learning: v })}
      />
      <CheckField label="Speech" checked={s.tts} onChange={(v) => set({ tts: v })} />
      {s.tts && (
        <div className="field-pair">
          <SelectField
            label="Speed"
            value={String(s.tts_speed) as `${(typeof SPEED_CHOICES)[number]}`}
            options={SPEED_CHOICES.map(String) as `${(typeof SPEED_CHOICES)[number]}`[]}
            labels={Object.fromEntries(SPEED_CHOICES.map((v) => [String(v), `${v}×`]))}
            onChange={(v) => set({ tts_speed: Number(v) })}
          />
          <RangeField
            label="Volume"
            value={s.tts_volume}
            bounds={bounds.ttsVolume}
            onChange={(v) => set({ tts_volume: v })}
            format={(v) => `${Math.round(v * 100)}%`}
          />
        </div>
      )}
    </fieldset>
  );
}
