// Joining in (docs/product.md#discussions-screens): Enter sends, Shift+Enter makes a new line; empty text cannot be
// sent. The draft is local UI state; the message itself goes to the machine, which puts it in the feed and on the
// socket. Typing '@' offers the agents' names (a listbox: arrows move, Enter or Tab chooses, Esc closes); a message
// that @mentions an agent gives it the next turn (docs/protocol.md#formats).
import { useId, useRef, useState } from 'react';
import { completeMention, mentionCandidates, mentionQuery } from '../../../model/mentionCompletion';

export function HumanMessageBox({
  enabled,
  onSend,
  names = [],
  onType,
}: {
  enabled: boolean;
  onSend: (text: string) => void;
  names?: string[];
  /** Each change of the draft (in a room the others see a dot; the chart throttles it). */
  onType?: () => void;
}) {
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const query = mentionQuery(text, caret);
  const options = query && dismissed !== query.start ? mentionCandidates(names, query) : [];
  const open = enabled && options.length > 0;
  const canSend = enabled && text.trim().length > 0;
  const send = () => {
    if (!canSend) return;
    onSend(text);
    setText('');
    setCaret(0);
  };
  const choose = (name: string) => {
    if (!query) return;
    const next = completeMention(text, caret, query, name);
    setText(next.text);
    setCaret(next.caret);
    setActive(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.caret, next.caret));
  };
  return (
    <form
      className="human-box"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <label htmlFor="human-message" className="visually-hidden">
        Your message to the agents
      </label>
      {open && (
        <ul id={listId} role="listbox" className="mention-list" aria-label="Agents to mention">
          {options.map((name, i) => (
            <li
              key={name}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active % options.length}
              className="mention-list__option"
              onMouseDown={(e) => {
                e.preventDefault();
                choose(name);
              }}
            >
              @{name}
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={input}
        id="human-message"
        className="human-box__input"
        rows={2}
        placeholder={
          enabled
            ? 'Join in… @name gives an agent the next turn (Enter sends, Shift+Enter for a new line)'
            : 'Waiting for the connection…'
        }
        value={text}
        // It appears when a discussion starts and takes the focus at once (Start has just gone), so the reader can
        // write while it connects; only sending waits for the connection.
        autoFocus
        data-autofocus
        role="combobox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={open ? `${listId}-${active % options.length}` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart ?? e.target.value.length);
          setDismissed(null);
          onType?.();
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? 0)}
        onKeyDown={(e) => {
          if (open) {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
              return;
            }
            if (e.key === 'Enter' || e.key === 'Tab') {
              e.preventDefault();
              choose(options[active % options.length]);
              return;
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              setDismissed(query!.start);
              return;
            }
          }
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            send();
          }
        }}
      />
      <button type="submit" className="button button--primary" disabled={!canSend}>
        Send
      </button>
    </form>
  );
}
