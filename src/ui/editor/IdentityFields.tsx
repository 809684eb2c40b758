// The agent's look: a colour (the palette, or any custom colour) and an avatar (its initials, or an emoji the
// user picks or types). A preview circle shows what the canvas, the bubbles and the charts will draw. Every
// change is an 'editor.field' event; '' means "derived" (colour from the id, initials from the name).
import { useId } from 'react';
import type { EditorActorRef, EditorFields } from '../../machines/editor.machine';
import { AGENT_PALETTE, agentAvatar, agentColor, agentInitials } from '../../model/agentIdentity';

/** A few neutral emoji to start from; any other can be typed in the field. */
const EMOJI = ['🦉', '🧭', '🔬', '⚖️', '💡', '🌱', '🛠️', '📚'] as const;

interface Props {
  editor: EditorActorRef;
  fields: EditorFields;
  /** The agent's id (edit) so the preview shows the derived colour it has today; null when creating. */
  agentId: string | null;
  locked: boolean;
}

export function IdentityFields({ editor, fields, agentId, locked }: Props) {
  const colourLabel = useId();
  const avatarId = useId();
  const set = (field: 'color' | 'avatar', value: string) => editor.send({ type: 'editor.field', field, value });
  const previewAgent = { id: agentId ?? fields.name, name: fields.name, color: fields.color || null, avatar: fields.avatar || null };
  const shownColour = agentColor(previewAgent);
  const chosen = fields.color.toLowerCase();
  const custom = chosen !== '' && !(AGENT_PALETTE as readonly string[]).includes(chosen);

  return (
    <fieldset className="agora-identity" disabled={locked}>
      <legend>Look</legend>
      <div className="agora-identity-row">
        <span className="agora-identity-preview" style={{ background: shownColour }} aria-hidden="true">
          {agentAvatar(previewAgent)}
        </span>
        <div className="agora-identity-controls">
          <span id={colourLabel} className="agora-identity-label">
            Colour
          </span>
          <div role="radiogroup" aria-labelledby={colourLabel} className="agora-swatches">
            <button
              type="button"
              role="radio"
              aria-checked={chosen === ''}
              className="agora-swatch agora-swatch--auto"
              title="Automatic"
              aria-label="Automatic"
              onClick={() => set('color', '')}
            >
              A
            </button>
            {AGENT_PALETTE.map((c) => (
              <button
                key={c}
                type="button"
                role="radio"
                aria-checked={chosen === c}
                className="agora-swatch"
                style={{ background: c }}
                title={c}
                aria-label={`Colour ${c}`}
                onClick={() => set('color', c)}
              />
            ))}
            <input
              type="color"
              className={`agora-swatch agora-swatch--custom${custom ? ' is-checked' : ''}`}
              aria-label="Custom colour"
              title="Custom colour"
              value={custom ? chosen : shownColour}
              onChange={(e) => set('color', e.target.value)}
            />
          </div>
        </div>
      </div>
      <div className="agora-field">
        <label htmlFor={avatarId}>Avatar (initials or an emoji)</label>
        <input
          id={avatarId}
          value={fields.avatar}
          maxLength={16}
          placeholder={agentInitials(fields.name)}
          autoComplete="off"
          onChange={(e) => set('avatar', e.target.value)}
        />
      </div>
      <div className="agora-emoji" role="group" aria-label="Pick an emoji">
        {EMOJI.map((e) => (
          <button key={e} type="button" className="agora-emoji-btn" aria-pressed={fields.avatar === e} aria-label={`Avatar ${e}`} onClick={() => set('avatar', e)}>
            {e}
          </button>
        ))}
        <button type="button" className="agora-emoji-btn agora-emoji-btn--text" aria-pressed={fields.avatar === ''} onClick={() => set('avatar', '')}>
          Initials
        </button>
      </div>
    </fieldset>
  );
}
