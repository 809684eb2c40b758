// The agent's look: a colour (the palette, or any custom colour) and an avatar (its initials, or an emoji the
// user picks or types). A preview circle shows what the canvas, the bubbles and the charts will draw. Every
// change is an 'editor.field' event; '' means "derived" (colour from the id, initials from the name).
import { useSelector } from '@xstate/react';
import { useId, type KeyboardEvent } from 'react';
import type { EditorActorRef, EditorFields } from '../../machines/editor.machine';
import { AGENT_PALETTE, agentAvatar, agentColor, agentInitials, autoColor } from '../../model/agentIdentity';
import { onRadioKey, radioTabIndex } from '../common/radioKeys';
import { canDrawText } from '../../services/glyphSupport';

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
  // A new agent's automatic colour comes from its name, avoiding the colours the canvas's agents wear, and is what
  // the create stores (editorFields.createRequest).
  const takenColors = useSelector(editor, (s) => s.context.takenColors);
  const previewAgent = {
    id: agentId ?? fields.name.trim(),
    name: fields.name,
    color: fields.color || (agentId ? null : autoColor(fields.name.trim(), takenColors)),
    avatar: fields.avatar || null,
  };
  const shownColour = agentColor(previewAgent);
  const chosen = fields.color.toLowerCase();
  const custom = chosen !== '' && !(AGENT_PALETTE as readonly string[]).includes(chosen);
  const colours = ['', ...AGENT_PALETTE] as const;
  const colourAt = colours.indexOf(chosen as (typeof colours)[number]);
  const avatars = ['', ...EMOJI] as const;
  const avatarAt = avatars.indexOf(fields.avatar as (typeof avatars)[number]);
  const colourKey = (e: KeyboardEvent<HTMLElement>) => onRadioKey(e, colours, (c) => set('color', c));
  const avatarKey = (e: KeyboardEvent<HTMLElement>) => onRadioKey(e, avatars, (a) => set('avatar', a));

  return (
    <fieldset className="agora-identity" disabled={locked}>
      <legend>Look</legend>
      <div className="agora-identity-row">
        <span className="agora-identity-preview" style={{ background: shownColour }} aria-hidden="true">
          {agentAvatar(previewAgent, canDrawText)}
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
              tabIndex={radioTabIndex(0, colourAt)}
              onKeyDown={colourKey}
              className="agora-swatch agora-swatch--auto"
              title="Automatic"
              aria-label="Automatic"
              onClick={() => set('color', '')}
            >
              A
            </button>
            {AGENT_PALETTE.map((c, i) => (
              <button
                key={c}
                type="button"
                role="radio"
                aria-checked={chosen === c}
                tabIndex={radioTabIndex(i + 1, colourAt)}
                onKeyDown={colourKey}
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
      <div className="agora-emoji" role="radiogroup" aria-label="Pick an avatar">
        <button
          type="button"
          role="radio"
          className="agora-emoji-btn agora-emoji-btn--text"
          aria-checked={fields.avatar === ''}
          tabIndex={radioTabIndex(0, avatarAt)}
          onKeyDown={avatarKey}
          onClick={() => set('avatar', '')}
        >
          Initials
        </button>
        {EMOJI.map((e, i) => (
          <button
            key={e}
            type="button"
            role="radio"
            className="agora-emoji-btn"
            aria-checked={fields.avatar === e}
            aria-label={`Avatar ${e}`}
            tabIndex={radioTabIndex(i + 1, avatarAt)}
            onKeyDown={avatarKey}
            onClick={() => set('avatar', e)}
          >
            {e}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
