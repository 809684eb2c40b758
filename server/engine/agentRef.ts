// One agent as a discussion's plan holds it: what its prompts, its model and History need.

export interface AgentRef {
  id: string;
  name: string;
  role: string;
  prompt: string;
  personality: string | null;
  model: string;
  /** The agent's look when the discussion starts (History draws it as it was). */
  color?: string | null;
  avatar?: string | null;
  /** Its own sources (the editor's 'Knowledge'): only it reads them. */
  sourceIds?: string[];
  /** The tools it may call ("<server>/<tool>") and whether each call waits for the person (docs/tools.md). */
  tools?: string[];
  askBeforeTools?: boolean;
}
