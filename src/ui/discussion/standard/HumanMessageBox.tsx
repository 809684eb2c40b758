// Joining in (docs/product.md#discussions-screens): Enter sends, Shift+Enter makes a new line; empty text cannot be
// sent. The draft is local UI state; the message itself goes to the machine, which puts it in the feed and on the
// socket.
import { useState } from 'react';

export function HumanMessageBox({ enabled, onSend }: { enabled: boolean; onSend: (text: string) => void }) {
  const [text, setText] = useState('');
  const canSend = enabled && text.trim().length > 0;
  const send = () => {
    if (!canSend) return;
    onSend(text);
    setText('');
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
      <textarea
        id="human-message"
        className="human-box__input"
        rows={2}
        placeholder={enabled ? 'Join in… (Enter sends, Shift+Enter for a new line)' : 'Waiting for the connection…'}
        value={text}
        // It appears when a discussion starts and takes the focus at once (Start has just gone), so the reader can
        // write while it connects; only sending waits for the connection.
        autoFocus
        data-autofocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
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
