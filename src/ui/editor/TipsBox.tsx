// Create-mode advice on writing a good agent.
export function TipsBox() {
  return (
    <aside className="agora-editor-box agora-editor-tips" aria-label="Tips">
      <h3>Tips</h3>
      <ul>
        <li>Give the agent a short, distinctive name: it labels the node and every message.</li>
        <li>The role is a display label (Analyst, Critic, Moderator…); the prompt is what shapes the answers.</li>
        <li>Write the prompt in the second person: who the agent is, what it cares about, how it argues.</li>
        <li>After saving, open the agent again to add a reference voice for speech.</li>
      </ul>
    </aside>
  );
}
